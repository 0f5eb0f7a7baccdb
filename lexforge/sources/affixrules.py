"""Affix rules as data: which rule made a form, and which rules' forms a lexicon refuses.

An aspell or hunspell dictionary makes its forms from roots and affix entries (``PFX``/``SFX``
lines: a flag, the characters stripped from the root, the characters added). The readers tell
which entries made each form (``AffixRule``); an ``AffixRefusal`` built from the configuration
refuses the forms made by some of them:

* by flag: every entry of a flag of one dictionary (``refuse_flags`` of a source);
* by morphological class: a class of the language file (``affix_classes``) lists patterns of
  entries, each a ``strip`` and an ``add`` regular expression that must match the whole strip and
  add of an entry (a ``kind`` of SFX, the default, or PFX). A class says what the affixes are
  (an enclitic pronoun after a verb form), not which words they make. A class may also list
  ``roots`` patterns for word list entries written with the affix already on (``darla``,
  ``amaos``): a ``host`` and an ``add`` expression, the entry refused when it is a host the
  dictionary makes as a form of its own (accents aside) followed by such an add.

A form one refused entry made is left out even if an entry that is not refused makes the same
spelling too: that other derivation yields it on its own, and the form stays a word.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from lexforge.errors import UserError
from lexforge.reasons import EXAMPLES


class AffixRule(NamedTuple):
    """One affix entry as its file writes it (``SFX R ar ándose``: strip "ar", add "ándose")."""

    kind: str  # "PFX" or "SFX"
    flag: str
    strip: str  # "" for 0
    add: str  # "" for 0


@dataclass(frozen=True)
class _Pattern:
    kind: str
    strip: re.Pattern[str]
    add: re.Pattern[str]

    def matches(self, rule: AffixRule) -> bool:
        return (
            rule.kind == self.kind
            and self.strip.fullmatch(rule.strip) is not None
            and self.add.fullmatch(rule.add) is not None
        )


#: Acute and grave accents a host loses when looked up among the forms (DÁ-MELO: DA).
_UNACCENT = str.maketrans("áéíóúàèìòù", "aeiouaeiou")


@dataclass(frozen=True)
class AffixRefusal:
    """The affix entries whose forms a lexicon refuses: by flag, or by class."""

    flags: frozenset[str] = frozenset()
    #: (class name, its patterns)
    classes: tuple[tuple[str, tuple[_Pattern, ...]], ...] = ()
    #: word list entries that are a host and an add (see ``hosts``), one regex per class
    roots: re.Pattern[str] | None = None

    def __bool__(self) -> bool:
        return bool(self.flags or self.classes)

    def hosts(self, root: str) -> list[str]:
        """The hosts `root` may be made of by a class's ``roots`` patterns (accents removed):
        the root is refused if the dictionary makes one of them."""
        if self.roots is None:
            return []
        return [
            host.translate(_UNACCENT)
            for match in [self.roots.fullmatch(root)]
            if match is not None
            for host in match.groups()
            if host is not None
        ]

    def without_roots(
        self, groups: Iterable[tuple[str, list[str]]], refused: RefusedForms | None
    ) -> Iterator[str]:
        """The forms of a stream of (word list entry, its forms), less the forms of the
        lowercase entries that are a host and an add where the stream also holds the host
        (accents aside); those are counted in `refused`, and the entries that may be so are
        decided, and their forms yielded, last."""
        if self.roots is None:
            for _, forms in groups:
                yield from forms
            return
        seen: set[str] = set()
        deferred: list[tuple[str, list[str]]] = []
        for root, forms in groups:
            if root[:1].islower() and self.roots.fullmatch(root):
                deferred.append((root, forms))
                continue
            seen.update(form.translate(_UNACCENT) for form in forms)
            yield from forms
        for root, forms in deferred:
            if any(host in seen for host in self.hosts(root)):
                if refused is not None:
                    for form in forms:
                        refused.add(form)
            else:
                yield from forms

    def reason(self, rule: AffixRule) -> str | None:
        """Why `rule` is refused (``flag <X>`` or the class name), or None."""
        if rule.flag in self.flags:
            return f"flag {rule.flag}"
        for name, patterns in self.classes:
            if any(pattern.matches(rule) for pattern in patterns):
                return name
        return None

    def refuses(self, rule: AffixRule) -> bool:
        """Whether the forms `rule` makes are refused."""
        return self.reason(rule) is not None

    @classmethod
    def from_config(
        cls,
        affix_classes: Mapping[str, Any],
        refused_classes: Iterable[str] = (),
        flags: Iterable[str] = (),
        where: str = "",
    ) -> AffixRefusal:
        """The refusal of the classes named in `refused_classes` (defined in `affix_classes`, a
        language file's ``affix_classes``) and of the affix `flags`; an unknown class or a bad
        regular expression is a UserError naming `where`."""
        classes = []
        roots: list[str] = []
        for name in refused_classes:
            if name not in affix_classes:
                known = ", ".join(sorted(affix_classes)) or "none"
                raise UserError(f"{where}: unknown affix class {name!r} (the language has {known})")
            patterns = []
            for number, item in enumerate(affix_classes[name]["patterns"], 1):
                try:
                    patterns.append(
                        _Pattern(
                            item.get("kind", "SFX"),
                            re.compile(item.get("strip", ".*")),
                            re.compile(item["add"]),
                        )
                    )
                except re.error as error:
                    raise UserError(
                        f"{where}: affix class {name!r}, pattern {number}: bad regular "
                        f"expression ({error})"
                    ) from None
            classes.append((name, tuple(patterns)))
            for number, item in enumerate(affix_classes[name].get("roots", ()), 1):
                pattern = f"({item['host']})(?:{item['add']})"
                try:
                    re.compile(pattern)
                except re.error as error:
                    raise UserError(
                        f"{where}: affix class {name!r}, root pattern {number}: bad regular "
                        f"expression ({error})"
                    ) from None
                roots.append(pattern)
        merged = re.compile("|".join(f"(?:{root})" for root in roots)) if roots else None
        return cls(frozenset(flags), tuple(classes), merged)


@dataclass
class RefusedForms:
    """The forms a reader left out because an affix entry that made them is refused: how many
    (duplicates included) and the first few in sorted order."""

    count: int = 0
    examples: list[str] = field(default_factory=list)
    #: forms to remember (in ``watched``) when a rule of one of `watch_classes` refused them:
    #: the entries of other word lists
    watch: frozenset[str] = frozenset()
    watch_classes: frozenset[str] = frozenset()
    watched: set[str] = field(default_factory=set)

    def add(self, form: str) -> None:
        """Count one refused form."""
        self.count += 1
        examples = self.examples
        if (len(examples) < EXAMPLES or form < examples[-1]) and form not in examples:
            bisect.insort(examples, form)
            del examples[EXAMPLES:]

    def note(self, form: str, classes: Iterable[str | None]) -> None:
        """Remember a watched refused `form` if one of the `classes` that refused it is
        watched."""
        if form in self.watch and not self.watch_classes.isdisjoint(classes):
            self.watched.add(form)
