"""Reader for hunspell dictionaries (a ``.dic`` word list, the ``.aff`` beside it), in pure Python.

``read_hunspell_forms`` yields every word form the dictionary makes, each with the morphological
fields of its root and of the affixes that made it (``po:``, ``is:``, …), as the spell checker
accepts them in the case they are written. The rules follow hunspell 1.7's checker
(``affixmgr.cxx``, ``affentry.cxx``, ``hashmgr.cxx``, ``hunspell.cxx``), read as a generator:

* flags: ``FLAG`` char (one byte each), ``long`` (two bytes), ``num`` (comma-separated numbers) or
  ``UTF-8`` (one character each), and ``AF``/``AM`` aliases (numbered flag sets and fields);
* ``PFX``/``SFX`` entries strip, add and test their condition on the root; a suffixed form takes
  a prefix when both sides are cross products (``Y``), the prefix's condition tested on the
  suffixed form;
* continuation classes: the flags after an affix's ``/`` apply to the form it made: a second
  suffix (two levels, as hunspell checks them, optionally under a cross prefix); a prefix's
  continuation flags also enable suffixes on its form, and a suffix's enable prefixes;
* ``NEEDAFFIX`` (a root or an affix that cannot stand alone), ``CIRCUMFIX`` (a prefix and a
  suffix that only come together), ``ONLYINCOMPOUND`` (roots and affixes that only appear inside
  compounds: they make no form here), ``FORBIDDENWORD`` (a forbidden root makes nothing and its
  spelling is never a form); ``KEEPCASE`` only forbids other cases, so it changes nothing here;
* ``IGNORE`` characters are removed from words and affixes as hunspell loads them; a form that
  the ``ICONV`` input conversion would change is left out (hunspell converts what it checks
  first, so it can never match that spelling as written);
* the ``SET`` encoding decodes both files (ISO8859-1 without it); ``FULLSTRIP`` lets an affix
  strip a whole root.

Compounds (``COMPOUNDFLAG``, ``COMPOUNDRULE``, …) are not expanded.
``scripts/check-hunspell-oracle.py`` checks the forms against the real ``hunspell`` and ``unmunch``.
"""

from __future__ import annotations

import codecs
import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lexforge.errors import UserError, excerpt
from lexforge.sources.affixrules import AffixRefusal, AffixRule, RefusedForms

#: hunspell's names of 8-bit encodings that Python spells otherwise.
_ENCODING_NAMES = {"microsoft-cp1251": "cp1251", "TIS620-2533": "tis-620"}
_FLAG_TYPES = ("char", "long", "num", "UTF-8")
#: The settings whose value is one flag.
_FLAG_SETTINGS = ("NEEDAFFIX", "PSEUDOROOT", "CIRCUMFIX", "FORBIDDENWORD", "ONLYINCOMPOUND")

Form = tuple[str, tuple[str, ...]]
#: A form, its fields and the affix entries that made it (none for the root itself).
_Made = tuple[str, tuple[str, ...], tuple["_Affix", ...]]


def read_hunspell_forms(path: Path, tags: frozenset[str] | None = None) -> Iterator[Form]:
    """Every form of the hunspell dictionary `path` (the ``.dic``; its ``.aff`` is beside it) with
    its morphological fields: the root's, then the prefix's, then the suffixes' (duplicates
    allowed: homonyms and different affixes may make the same form). With `tags` (fields such
    as ``po:npr``), only the forms of the roots carrying one of them (cheap: the others are not
    expanded, and, where the word list writes its tags and flags as themselves, not even
    parsed, so their lines' errors go unreported).

    Errors (missing files, a malformed affix file or word list) raise UserError, one line naming
    the file and the line."""
    return ((form, fields) for form, fields, _ in _read_made(path, tags))


def read_hunspell_rules(path: Path) -> Iterator[tuple[str, tuple[AffixRule, ...]]]:
    """Every form of `path` (as ``read_hunspell_forms`` yields them, duplicates allowed) with the
    affix entries that made it, prefix first (none for a root itself)."""
    rules: dict[int, AffixRule] = {}

    def rule(affix: _Affix) -> AffixRule:
        found = rules.get(id(affix))
        if found is None:
            found = rules[id(affix)] = affix.rule()
        return found

    for form, _, made in _read_made(path):
        yield form, tuple(map(rule, made))


def _check_path(path: Path) -> None:
    """A UserError unless `path` is an existing .dic file."""
    if path.suffix != ".dic":
        raise UserError(f"{path}: not a hunspell dictionary (expected the .dic file)")
    if not path.is_file():
        raise UserError(f"{path}: no such word list")


def _read_made(path: Path, tags: frozenset[str] | None = None) -> Iterator[_Made]:
    """The forms of `path` with their fields and the affix entries that made them."""
    path = Path(path)
    _check_path(path)
    rules = _parse_affixes(path.with_suffix(".aff"))
    entries = _parse_words(path, rules, tags)
    return _generate(entries, rules, tags)


def read_hunspell(
    path: Path,
    reject_chars: frozenset[str] = frozenset(),
    pruned: Counter[frozenset[str]] | None = None,
    refusal: AffixRefusal | None = None,
    refused: RefusedForms | None = None,
) -> Iterator[str]:
    """The forms of `path` (see ``read_hunspell_forms``) without their fields. Forms holding any of
    `reject_chars` are left out and, with `pruned`, counted there by the set of those characters
    they hold (duplicates included), so the yielded forms and the counts add up to the full
    stream. A prefix entry whose add holds one makes only such forms (nothing is applied after a
    prefix): its forms are counted without being made (Italian's elided articles, L'ACQUA,
    DELL'ACQUA: 33.3 M of hunspell-it's 36.6 M forms). With `refusal`, the other forms made by an
    affix entry it refuses are left out too and, with `refused`, counted there."""
    path = Path(path)
    _check_path(path)
    rules = _parse_affixes(path.with_suffix(".aff"))
    chars = frozenset(reject_chars)
    groups = _generate_by_entry(_parse_words(path, rules), rules, reject_chars=chars, pruned=pruned)
    if refusal:
        verdicts: dict[int, bool] = {}
        kept = (
            (
                root,
                [
                    form
                    for form, _, _ in _refuse(
                        _filtered(forms, chars, pruned) if chars else forms,
                        refusal,
                        refused,
                        verdicts,
                    )
                ],
            )
            for root, forms in groups
        )
        return refusal.without_roots(kept, refused)
    forms: Iterable[_Made] = (made for _, forms in groups for made in forms)
    if chars:
        forms = _filtered(forms, chars, pruned)
    return (form for form, _, _ in forms)


def _refuse(
    forms: Iterable[_Made],
    refusal: AffixRefusal,
    refused: RefusedForms | None,
    verdicts: dict[int, bool],
) -> Iterator[_Made]:
    """The forms none of whose affix entries `refusal` refuses; the others counted in
    `refused`. `verdicts` remembers the verdict on each affix entry (by id) across calls."""

    def refuses(affix: _Affix) -> bool:
        verdict = verdicts.get(id(affix))
        if verdict is None:
            verdict = verdicts[id(affix)] = refusal.refuses(affix.rule())
        return verdict

    for made in forms:
        if made[2] and any(map(refuses, made[2])):
            if refused is not None:
                refused.add(made[0])
                if made[0] in refused.watch:
                    refused.note(made[0], (refusal.reason(affix.rule()) for affix in made[2]))
        else:
            yield made


@functools.cache
def _reject_pattern(reject_chars: frozenset[str]) -> re.Pattern[str]:
    """A regex finding any of `reject_chars`."""
    return re.compile("[" + "".join(re.escape(char) for char in sorted(reject_chars)) + "]")


def _filtered(
    forms: Iterable[_Made], reject_chars: frozenset[str], pruned: Counter[frozenset[str]] | None
) -> Iterator[_Made]:
    """The forms without a reject character; the others counted in `pruned`."""
    reject = _reject_pattern(reject_chars)
    for made in forms:
        if reject.search(made[0]) is None:
            yield made
        elif pruned is not None:
            pruned[reject_chars.intersection(made[0])] += 1


# --- the affix file --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Affix:
    """One PFX or SFX entry."""

    flag: int
    name: str  # the flag as the affix file writes it
    suffix: bool
    cross: bool
    strip: str
    add: str
    condition: re.Pattern[str] | None  # matches exactly `size` characters, or None for "."
    size: int  # the number of condition positions
    edge: re.Pattern[str] | None  # the condition's position at the word's edge (last or first)
    cont: frozenset[int]  # continuation flags
    fields: tuple[str, ...]
    need: bool = False  # NEEDAFFIX in cont: never alone
    circumfix: bool = False  # CIRCUMFIX in cont: only with a circumfix affix on the other side
    compound_only: bool = False  # ONLYINCOMPOUND in cont: never outside compounds
    simple: bool = False  # no strip, at most one condition position (tested on the edge)

    def rule(self) -> AffixRule:
        """This entry as a public ``AffixRule``."""
        return AffixRule("SFX" if self.suffix else "PFX", self.name, self.strip, self.add)

    def apply(self, word: str, fullstrip: bool) -> str | None:
        """The form this entry makes of `word`, or None if it does not apply (hunspell's rule:
        the strip must match, something of the word must stay unless FULLSTRIP, and the
        condition must hold on the word)."""
        strip = self.strip
        if len(word) < len(strip) or (len(word) == len(strip) and not fullstrip):
            return None
        if self.suffix:
            if strip and not word.endswith(strip):
                return None
            if self.condition is not None and (
                len(word) < self.size or not self.condition.match(word, len(word) - self.size)
            ):
                return None
            return word[: len(word) - len(strip)] + self.add
        if strip and not word.startswith(strip):
            return None
        if self.condition is not None and not self.condition.match(word):
            return None
        return self.add + word[len(strip) :]


@dataclass
class _Rules:
    """What the affix file says about reading and expanding the word list."""

    path: Path
    encoding: str = "iso8859-1"
    flag_type: str = "char"
    flag_aliases: list[frozenset[int]] = field(default_factory=list)
    field_aliases: list[tuple[str, ...]] = field(default_factory=list)
    ignore: str = ""
    iconv: list[tuple[str, str]] = field(default_factory=list)
    fullstrip: bool = False
    special: dict[str, int] = field(default_factory=dict)  # NEEDAFFIX etc. → flag
    prefixes: dict[int, list[_Affix]] = field(default_factory=dict)
    suffixes: dict[int, list[_Affix]] = field(default_factory=dict)

    def flag(self, name: str) -> int | None:
        """The flag of a setting such as NEEDAFFIX, if the affix file sets it."""
        return self.special.get(name)

    def decode_flags(self, text: str, where: str) -> frozenset[int]:
        """The flags written in `text` (hunspell's ``decode_flags``)."""
        if self.flag_type == "num":
            try:
                return frozenset(int(number) for number in text.split(",") if number)
            except ValueError:
                raise UserError(f"{where}: bad numeric flags {excerpt(text)!r}") from None
        if self.flag_type == "UTF-8":
            return frozenset(map(ord, text))
        data = text.encode(self.encoding, "surrogateescape")
        if self.flag_type == "long":
            return frozenset((data[i] << 8) + data[i + 1] for i in range(0, len(data) - 1, 2))
        return frozenset(data)

    def decode_flag(self, text: str, where: str) -> int:
        """The one flag named by `text` (hunspell's ``decode_flag``: the first one written)."""
        if self.flag_type == "num":
            try:
                return int(text)
            except ValueError:
                raise UserError(f"{where}: bad numeric flag {excerpt(text)!r}") from None
        if self.flag_type == "UTF-8":
            return ord(text[0])
        data = text.encode(self.encoding, "surrogateescape")
        if self.flag_type == "long":
            return (data[0] << 8) + (data[1] if len(data) > 1 else 0)
        return data[0]

    def written_flag(self, flag: int) -> bytes:
        """How a word list line writes `flag`, in its encoding (``decode_flag``'s inverse)."""
        if self.flag_type == "num":
            return str(flag).encode("ascii")
        if self.flag_type == "UTF-8":
            return chr(flag).encode(self.encoding, "surrogateescape")
        if self.flag_type == "long":
            return bytes([flag >> 8, flag & 0xFF])
        return bytes([flag])

    def alias_flags(self, text: str, where: str) -> frozenset[int]:
        """Flags written as an ``AF`` alias number (hunspell gives no flags for a bad number)."""
        index = _leading_int(text)
        return self.flag_aliases[index - 1] if 0 < index <= len(self.flag_aliases) else frozenset()

    def flags(self, text: str, where: str) -> frozenset[int]:
        """Flags as a word or an affix writes them: an alias number if ``AF`` is used."""
        if self.flag_aliases:
            return self.alias_flags(text, where)
        return self.decode_flags(text, where)


def _leading_int(text: str) -> int:
    """C's ``atoi``: the number at the start of `text`, 0 if none."""
    match = re.match(r"\s*([-+]?\d+)", text)
    return int(match.group(1)) if match else 0


def _read_lines(path: Path, what: str) -> list[bytes]:
    """The lines of `path` as bytes, a leading byte order mark and line ends removed."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: no such {what}") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read ({error.strerror or error})") from None
    lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # the newline that ends the last line
    return [line.removesuffix(b"\r") for line in lines]


def _codec(path: Path, name: str) -> str:
    """The Python codec of a hunspell ``SET`` name."""
    try:
        return codecs.lookup(_ENCODING_NAMES.get(name, name)).name
    except LookupError:
        raise UserError(f"{path}: unknown encoding SET {name!r}") from None


def _parse_affixes(path: Path) -> _Rules:
    """The settings and affix entries of an ``.aff`` file.

    Settings are read first (hunspell's word-list manager reads FLAG, SET, AF, AM and IGNORE
    before any affix), then the PFX/SFX blocks in order: a header ``PFX flag Y|N count``, then
    `count` lines ``PFX flag strip add[/flags] [condition [fields…]]``."""
    lines = _read_lines(path, "affix file")
    rules = _Rules(path)
    for line in lines:
        fields = line.split()
        if len(fields) >= 2 and fields[0] == b"SET":
            rules.encoding = _codec(path, fields[1].decode("ascii", "replace"))
    text = [line.decode(rules.encoding, "surrogateescape") for line in lines]
    rows = [(number, line.split()) for number, line in enumerate(text, 1)]
    _read_settings(rules, rows)
    _read_affix_blocks(rules, rows)
    return rules


def _read_settings(rules: _Rules, rows: list[tuple[int, list[str]]]) -> None:
    """FLAG, AF, AM, IGNORE, ICONV, FULLSTRIP and the special flags."""
    path = rules.path
    for name in ("FLAG", "AF", "AM", "IGNORE", "ICONV"):
        for index, (number, fields) in enumerate(rows):
            if not fields or fields[0] != name:
                continue
            where = f"{path}:{number}"
            if len(fields) < 2:
                raise UserError(f"{where}: {name} needs a value")
            if name == "FLAG":
                if fields[1] not in _FLAG_TYPES:
                    raise UserError(f"{where}: unknown FLAG type {excerpt(fields[1])!r}")
                rules.flag_type = fields[1]
            elif name == "IGNORE":
                rules.ignore = fields[1]
            else:
                table = _table(rows, index, name, path)
                if name == "AF":
                    rules.flag_aliases = [rules.decode_flags(f[1], w) for w, f in table]
                elif name == "AM":
                    rules.field_aliases = [tuple(f[1:]) for _, f in table]
                else:
                    rules.iconv = [(f[1], f[2]) for w, f in table if _needs(f, 3, w)]
            break
    for number, fields in rows:
        if fields and fields[0] == "FULLSTRIP":
            rules.fullstrip = True
        if fields and fields[0] == "COMPLEXPREFIXES":
            raise UserError(f"{path}:{number}: COMPLEXPREFIXES is not supported")
        if len(fields) >= 2 and fields[0] in _FLAG_SETTINGS:
            name = "NEEDAFFIX" if fields[0] == "PSEUDOROOT" else fields[0]
            rules.special[name] = rules.decode_flag(fields[1], f"{path}:{number}")


def _needs(fields: list[str], count: int, where: str) -> bool:
    """Check that a table line has `count` fields."""
    if len(fields) < count:
        raise UserError(f"{where}: expected {count} fields, found {len(fields)}")
    return True


def _table(
    rows: list[tuple[int, list[str]]], index: int, name: str, path: Path
) -> list[tuple[str, list[str]]]:
    """The lines of a counted table (``NAME count`` then `count` lines ``NAME …``)."""
    number, fields = rows[index]
    count = _leading_int(fields[1])
    if count <= 0:
        raise UserError(f"{path}:{number}: {name} needs a positive count")
    table = []
    for line_number, line_fields in rows[index + 1 : index + 1 + count]:
        where = f"{path}:{line_number}"
        if not line_fields or line_fields[0] != name:
            raise UserError(
                f"{where}: expected line {len(table) + 1} of {count} of the {name} table"
            )
        table.append((where, line_fields))
    if len(table) < count:
        raise UserError(
            f"{path}:{number}: the {name} table ends after {len(table)} of {count} lines"
        )
    return table


def _read_affix_blocks(rules: _Rules, rows: list[tuple[int, list[str]]]) -> None:
    """Every PFX and SFX block, in order; entries of a flag defined twice are merged."""
    index = 0
    while index < len(rows):
        number, fields = rows[index]
        index += 1
        if not fields or fields[0] not in ("PFX", "SFX"):
            continue
        where = f"{rules.path}:{number}"
        if len(fields) < 4:
            raise UserError(f"{where}: expected '{fields[0]} flag Y|N count'")
        flag = rules.decode_flag(fields[1], where)
        cross = fields[2].startswith("Y")
        count = _leading_int(fields[3])
        if count <= 0:
            raise UserError(f"{where}: bad entry count {excerpt(fields[3])!r}")
        suffix = fields[0] == "SFX"
        table = rules.suffixes if suffix else rules.prefixes
        for _ in range(count):
            if index >= len(rows):
                raise UserError(f"{where}: the file ends inside this {fields[0]} block")
            entry_number, entry = rows[index]
            index += 1
            table.setdefault(flag, []).append(
                _affix(rules, entry, f"{rules.path}:{entry_number}", flag, suffix, cross)
            )


def _affix(
    rules: _Rules, fields: list[str], where: str, flag: int, suffix: bool, cross: bool
) -> _Affix:
    """One entry line of a PFX/SFX block."""
    if len(fields) < 4 or rules.decode_flag(fields[1], where) != flag:
        raise UserError(
            f"{where}: corrupt affix entry (expected '{'SFX' if suffix else 'PFX'} "
            "flag strip add [condition]')"
        )
    strip = "" if fields[2] == "0" else fields[2]
    add, slash, cont_text = fields[3].partition("/")
    add = _remove(add, rules.ignore)
    add = "" if add == "0" else add
    cont = rules.flags(cont_text, where) if slash else frozenset()
    positions = _condition(fields[4] if len(fields) > 4 else ".", where)
    if len(fields) > 5 and rules.field_aliases:
        index = _leading_int(fields[5])
        ok = 0 < index <= len(rules.field_aliases)
        morph = rules.field_aliases[index - 1] if ok else ()
    else:
        morph = tuple(fields[5:])
    special = rules.special
    return _Affix(
        flag=flag,
        name=fields[1],
        suffix=suffix,
        cross=cross,
        strip=strip,
        add=add,
        condition=re.compile("".join(positions), re.DOTALL) if positions else None,
        size=len(positions),
        edge=re.compile(positions[-1 if suffix else 0], re.DOTALL) if positions else None,
        cont=cont,
        fields=morph,
        need=special.get("NEEDAFFIX", -1) in cont,
        circumfix=special.get("CIRCUMFIX", -1) in cont,
        compound_only=special.get("ONLYINCOMPOUND", -1) in cont,
        simple=not strip and len(positions) <= 1,
    )


def _remove(text: str, chars: str) -> str:
    """`text` without any of `chars`."""
    return text.translate({ord(char): None for char in chars}) if chars else text


_POSITION = re.compile(r"\[(\^?)([^\]]*)\]|(.)", re.DOTALL)


def _condition(text: str, where: str) -> list[str]:
    """The positions of a condition (letters, ``.`` for any character, ``[abc]`` and ``[^abc]``
    groups, in which ``.`` is a dot), each as a regex matching one character; none for ``.``."""
    if text == ".":
        return []
    positions = []
    for match in _POSITION.finditer(text):
        negated, members, char = match.groups()
        if char == "[":
            raise UserError(f"{where}: unclosed '[' in condition {excerpt(text)!r}")
        if char is not None:
            positions.append("." if char == "." else re.escape(char))
        elif members:
            body = "".join(re.escape(member) for member in members)
            positions.append(f"[{'^' if negated else ''}{body}]")
        else:
            positions.append("." if negated else "(?!)")
    return positions


# --- the word list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    """One line of the word list."""

    word: str
    flags: frozenset[int]
    fields: tuple[str, ...]


# A morphological field starts where a two-character tag and ':' follow a blank.
_FIELDS_START = re.compile(r"[ \t]+(?=[^ \t]{2}:)")


def _parse_words(path: Path, rules: _Rules, tags: frozenset[str] | None = None) -> list[_Entry]:
    """The entries of a ``.dic``: a first line with the word count, then ``word[/flags]
    [fields…]`` lines (a tab also starts the fields). As in hunspell, blanks before the fields
    are not part of the word, but blanks ending a line without fields are. With `tags`, at
    least the entries carrying one of them (see ``_tagged_lines``)."""
    lines = _read_lines(path, "word list")
    first = lines[0].decode("ascii", "replace").strip() if lines else ""
    if _leading_int(first) <= 0:
        raise UserError(f"{path}:1: expected the number of words, found {excerpt(first)!r}")
    encoding = rules.encoding
    entries = []
    flag_cache: dict[str, frozenset[int]] = {}
    numbered = enumerate(lines[1:], 2) if tags is None else _tagged_lines(lines, rules, tags)
    for number, raw in numbered:
        line = raw.decode(encoding, "surrogateescape")
        word, fields = _split_fields(line)
        word, flags_text = _split_flags(word)
        word = _remove(word, rules.ignore)
        if not word:
            continue
        flags = flag_cache.get(flags_text)
        if flags is None:
            flags = flag_cache[flags_text] = rules.flags(flags_text, f"{path}:{number}")
        if rules.field_aliases and fields:
            index = _leading_int(fields[0])
            ok = 0 < index <= len(rules.field_aliases)
            fields = rules.field_aliases[index - 1] if ok else ()
        entries.append(_Entry(word, flags, fields))
    return entries


def _tagged_lines(
    lines: list[bytes], rules: _Rules, tags: frozenset[str]
) -> Iterable[tuple[int, bytes]]:
    """(line number, line) of the word list lines (``lines``: the whole file) that hold one of
    `tags` as written, when that finds every entry carrying one: tags not written as ``AM``
    alias numbers, and no line that may carry the FORBIDDENWORD flag (a forbidden entry hides
    the forms of other entries, see ``_forbidden_words``; the flag is looked for as written, so
    not with ``AF`` aliases). Otherwise every word list line. French's names: 7,080 lines of
    86,459, a second less a build."""
    every = enumerate(lines[1:], 2)
    if rules.field_aliases or rules.flag_aliases:
        return every
    try:
        needles = [tag.encode(rules.encoding) for tag in sorted(tags)]
    except UnicodeEncodeError:
        return every
    forbidden = rules.flag("FORBIDDENWORD")
    if forbidden is not None:
        written = rules.written_flag(forbidden)
        if any(written in raw for raw in lines[1:]):
            return every
    return [(number, raw) for number, raw in every if any(n in raw for n in needles)]


def _split_fields(line: str) -> tuple[str, tuple[str, ...]]:
    """The word part of a word list line and its morphological fields."""
    tab = line.find("\t")
    match = _FIELDS_START.search(line)
    start = match.start() if match else -1
    if tab >= 0 and (start < 0 or tab < start):
        return line[:tab], tuple(line[tab + 1 :].split())
    if start > 0:
        return line[:start], tuple(line[match.end() :].split())
    return line, ()


def _split_flags(text: str) -> tuple[str, str]:
    """The word and the flags of a word list line's word part, as hunspell splits them: at the
    first ``/`` not escaped as ``\\/`` (the escapes before it become slashes), except that a
    line starting with ``/`` is split after its first character, whatever the second is."""
    if text.startswith("/"):
        index = 1
    else:
        index = text.find("/")
        while index > 0 and text[index - 1] == "\\":
            text = text[: index - 1] + text[index:]
            index = text.find("/", index)
    if index < 0 or index == len(text):
        return text, ""
    return text[:index], text[index + 1 :]


# --- expansion -------------------------------------------------------------------------------


class _Expander:
    """Expands the entries of a word list (see the module docstring).

    With `skipped` (a ``_SkippedPrefixes``), the prefix entries it holds are left out of the
    expansion and the forms they would make are counted there instead."""

    def __init__(self, rules: _Rules, skipped: _SkippedPrefixes | None = None) -> None:
        self.rules = rules
        self.fullstrip = rules.fullstrip
        self.need = rules.flag("NEEDAFFIX")
        self.forbidden = rules.flag("FORBIDDENWORD")
        self.compound_only = rules.flag("ONLYINCOMPOUND")
        self.skipped = skipped
        self._prefixes = rules.prefixes if skipped is None else skipped.kept
        self._suffix_memo: dict[tuple[int, str], list[_Affix]] = {}
        self._prefix_memo: dict[tuple[int, str], list[_Affix]] = {}
        self._present_memo: dict[tuple[bool, tuple[frozenset[int], ...]], tuple[int, ...]] = {}

    def _candidates(self, flag: int, edge: str, suffix: bool) -> list[_Affix]:
        """The entries of `flag` whose condition and strip may apply to a word with this last
        (suffix) or first (prefix) character."""
        memo = self._suffix_memo if suffix else self._prefix_memo
        found = memo.get((flag, edge))
        if found is None:
            table = self.rules.suffixes if suffix else self._prefixes
            found = memo[(flag, edge)] = [
                entry for entry in table.get(flag, ()) if _may_apply(entry, edge)
            ]
        return found

    def _present(self, suffix: bool, *flag_sets: frozenset[int]) -> tuple[int, ...]:
        """The flags of the union of `flag_sets` that have suffix (or prefix) entries, sorted."""
        found = self._present_memo.get((suffix, flag_sets))
        if found is None:
            table = self.rules.suffixes if suffix else self._prefixes
            union = frozenset().union(*flag_sets)
            found = self._present_memo[(suffix, flag_sets)] = tuple(
                sorted(flag for flag in union if flag in table)
            )
        return found

    def _affixed(self, word: str, flags: tuple[int, ...], suffix: bool) -> list[tuple[_Affix, str]]:
        """(entry, form) of each suffix (or prefix) entry of `flags` that applies to `word`.

        An entry without strip and with at most one condition position applies whenever the
        word's edge character passed ``_candidates``: its form is made without ``apply``."""
        out = []
        if not flags:
            return out
        edge = word[-1:] if suffix else word[:1]
        for flag in flags:
            for entry in self._candidates(flag, edge, suffix):
                if entry.simple and word:
                    out.append((entry, word + entry.add if suffix else entry.add + word))
                else:
                    form = entry.apply(word, self.fullstrip)
                    if form is not None:
                        out.append((entry, form))
        return out

    def suffixed(self, word: str, *flag_sets: frozenset[int]) -> list[tuple[_Affix, str]]:
        """(entry, form) of each suffix entry of the union of `flag_sets` that applies to
        `word`."""
        return self._affixed(word, self._present(True, *flag_sets), True)

    def prefixed(self, word: str, *flag_sets: frozenset[int]) -> list[tuple[_Affix, str]]:
        """(entry, form) of each prefix entry of the union of `flag_sets` that applies to
        `word`."""
        return self._affixed(word, self._present(False, *flag_sets), False)

    def expand(self, entry: _Entry) -> Iterator[_Made]:
        """The forms of one word list entry, with their fields and the affix entries that made
        them (prefix first)."""
        flags = entry.flags
        if self.forbidden in flags or self.compound_only in flags:
            return  # hunspell rejects a forbidden root and its forms; compound parts only compound
        word, root_fields = entry.word, entry.fields
        if self.need not in flags:
            yield word, root_fields, ()
        if not flags:
            return
        for suffix, form in self.suffixed(word, flags):
            if suffix.compound_only:
                continue
            fields = root_fields + suffix.fields
            if not (suffix.need or suffix.circumfix):
                yield form, fields, (suffix,)
            yield from self._second_suffixes(flags, suffix, form, root_fields)
            if suffix.cross:
                for prefix, crossed in self.prefixed(form, flags, suffix.cont):
                    if _crosses(prefix, suffix):
                        yield crossed, root_fields + prefix.fields + suffix.fields, (prefix, suffix)
                if self.skipped is not None:
                    self.skipped.count_crossed(form, (flags, suffix.cont), suffix)
        for prefix, form in self.prefixed(word, flags):
            if not (prefix.need or prefix.compound_only):
                yield form, root_fields + prefix.fields, (prefix,)
            if prefix.cross and not prefix.compound_only and prefix.cont - flags:
                yield from self._enabled_suffixes(entry, prefix)
        if self.skipped is not None:
            for prefix in self.skipped.applying(word, (flags,)):
                form = prefix.apply(word, self.fullstrip)
                if form is not None and not (prefix.need or prefix.compound_only):
                    self.skipped.count_form(form)
                if prefix.cross and not prefix.compound_only and prefix.cont - flags:
                    for made in self._enabled_suffixes(entry, prefix):
                        self.skipped.count_form(made[0])

    def _second_suffixes(
        self, flags: frozenset[int], first: _Affix, form: str, root_fields: tuple[str, ...]
    ) -> Iterator[_Made]:
        """Forms of a second suffix (in the first's continuation class) on `form`, and of a cross
        prefix on those: without the prefix's own flag on the root, it must be in the second
        suffix's continuation class (hunspell's ``check_twosfx``)."""
        if first.circumfix or not first.cont:
            return
        for second, form2 in self.suffixed(form, first.cont):
            yield form2, root_fields + first.fields + second.fields, (first, second)
            if not second.cross:
                continue
            if self.skipped is not None:
                self.skipped.count_twice_crossed(form2, flags, first, second)
            for prefix, crossed in self.prefixed(form2, flags, first.cont, second.cont):
                if not _crosses_twice(prefix, flags, first, second):
                    continue
                yield (
                    crossed,
                    root_fields + prefix.fields + first.fields + second.fields,
                    (prefix, first, second),
                )

    def _enabled_suffixes(self, entry: _Entry, prefix: _Affix) -> Iterator[_Made]:
        """Cross forms whose suffix the root lacks but the prefix's continuation class enables."""
        flags = entry.flags
        for suffix, form in self.suffixed(entry.word, prefix.cont - flags):
            if suffix.compound_only or not suffix.cross:
                continue
            if _crosses(prefix, suffix):
                crossed = prefix.apply(form, self.fullstrip)
                if crossed is not None:
                    yield crossed, entry.fields + prefix.fields + suffix.fields, (prefix, suffix)
            if suffix.circumfix or prefix.circumfix:
                continue
            for second, form2 in self.suffixed(form, suffix.cont):
                if second.cross and prefix.flag not in second.cont:
                    crossed = prefix.apply(form2, self.fullstrip)
                    if crossed is not None:
                        fields = entry.fields + prefix.fields + suffix.fields + second.fields
                        yield crossed, fields, (prefix, suffix, second)


def _crosses_twice(prefix: _Affix, flags: frozenset[int], first: _Affix, second: _Affix) -> bool:
    """Whether hunspell accepts this prefix on a form of two suffixes of a root with `flags`: a
    cross prefix, in the second suffix's continuation class, or else on the root (or in the
    first suffix's class) with a cross first suffix and no circumfix."""
    if not prefix.cross:
        return False
    return prefix.flag in second.cont or (
        first.cross and (prefix.flag in flags or prefix.flag in first.cont) and not prefix.circumfix
    )


class _SkippedPrefixes:
    """The prefix entries whose add holds a reject character, left out of an expansion: nothing
    is applied after a prefix, so every form they make holds it. The forms they would make are
    counted in `pruned` by the set of reject characters each holds, as ``_filtered`` counts the
    forms it leaves out.

    Which of these entries apply to a word depends only on its first characters (their strips
    and conditions): that is memoized on them, and a cross product's count on those entries and
    what the cross tests of the suffixes. A form that holds no reject character makes crossed
    forms holding exactly those of the prefix's add, so its counts are tallied by memo key and
    added to `pruned` by ``flush``; the others are made and counted one by one."""

    def __init__(
        self, rules: _Rules, reject_chars: frozenset[str], pruned: Counter[frozenset[str]] | None
    ) -> None:
        self.reject_chars = reject_chars
        self.pruned = pruned
        self.fullstrip = rules.fullstrip
        self._reject = _reject_pattern(reject_chars)
        #: the prefix table without the skipped entries
        self.kept: dict[int, list[_Affix]] = {}
        self._skipped: dict[int, list[_Affix]] = {}
        for flag, entries in rules.prefixes.items():
            for entry in entries:
                table = self.kept if reject_chars.isdisjoint(entry.add) else self._skipped
                table.setdefault(flag, []).append(entry)
        #: how many first characters decide which skipped entries apply (one more than the
        #: longest strip or condition: a word that long is longer than any strip)
        self._width = 1 + max(
            (max(len(e.strip), e.size) for es in self._skipped.values() for e in es), default=0
        )
        self._flags_memo: dict[tuple[frozenset[int], ...], tuple[int, ...]] = {}
        self._applying_memo: dict[tuple[tuple[int, ...], str], tuple[_Affix, ...]] = {}
        self._counts: dict[tuple[object, ...], Counter[frozenset[str]]] = {}
        self._tally: Counter[tuple[object, ...]] = Counter()

    def __bool__(self) -> bool:
        return bool(self._skipped)

    def applying(self, word: str, flag_sets: tuple[frozenset[int], ...]) -> tuple[_Affix, ...]:
        """The skipped entries of the union of `flag_sets` that apply to `word`."""
        flags = self._flags_memo.get(flag_sets)
        if flags is None:
            union = frozenset().union(*flag_sets)
            flags = self._flags_memo[flag_sets] = tuple(sorted(union & self._skipped.keys()))
        if not flags:
            return ()
        key = (flags, word[: self._width])
        found = self._applying_memo.get(key)
        if found is None:
            found = self._applying_memo[key] = tuple(
                entry
                for flag in flags
                for entry in self._skipped[flag]
                if entry.apply(word, self.fullstrip) is not None
            )
        return found

    def count_form(self, form: str) -> None:
        """Count one form a skipped entry made."""
        if self.pruned is not None:
            self.pruned[self.reject_chars.intersection(form)] += 1

    def count_crossed(
        self, form: str, flag_sets: tuple[frozenset[int], ...], suffix: _Affix
    ) -> None:
        """Count the cross products of the skipped entries of `flag_sets` with the suffix form
        `form` (made by `suffix`), as ``_Expander.expand`` would yield them."""
        if self.pruned is None:
            return
        entries = self.applying(form, flag_sets)
        if entries:
            key = (id(entries), suffix.circumfix, suffix.need)
            self._count(form, key, lambda: [p for p in entries if _crosses(p, suffix)])

    def count_twice_crossed(
        self, form: str, flags: frozenset[int], first: _Affix, second: _Affix
    ) -> None:
        """Count the skipped prefixes on the form of two suffixes `form` of a root with `flags`,
        as ``_Expander._second_suffixes`` would yield them."""
        if self.pruned is None:
            return
        entries = self.applying(form, (flags, first.cont, second.cont))
        if entries:
            key = (id(entries), id(first), id(second), flags)
            self._count(
                form, key, lambda: [p for p in entries if _crosses_twice(p, flags, first, second)]
            )

    def _count(
        self, form: str, key: tuple[object, ...], prefixes: Callable[[], list[_Affix]]
    ) -> None:
        """Count the forms the `prefixes` (the list `key` names) make of `form`."""
        if self._reject.search(form) is not None:
            for prefix in prefixes():
                crossed = prefix.apply(form, self.fullstrip)
                if crossed is not None:
                    self.count_form(crossed)
            return
        if key not in self._counts:
            self._counts[key] = Counter(self.reject_chars.intersection(p.add) for p in prefixes())
        self._tally[key] += 1

    def flush(self) -> None:
        """Add the tallied counts to `pruned`."""
        if self.pruned is None:
            return
        for key, times in self._tally.items():
            for chars, count in self._counts[key].items():
                self.pruned[chars] += count * times
        self._tally.clear()


def _crosses(prefix: _Affix, suffix: _Affix) -> bool:
    """Whether hunspell accepts this cross-product prefix with this cross-product suffix: both
    circumfix or neither, not both NEEDAFFIX, no compound-only prefix."""
    return (
        prefix.cross
        and prefix.circumfix == suffix.circumfix
        and not (prefix.need and suffix.need)
        and not prefix.compound_only
    )


def _may_apply(entry: _Affix, edge: str) -> bool:
    """Whether `entry` may apply to a word with this edge character (its last for a suffix, its
    first for a prefix): a cheap filter before ``_Affix.apply``."""
    if not edge:
        return True
    if entry.strip:
        return entry.strip[-1 if entry.suffix else 0] == edge
    return entry.edge is None or entry.edge.fullmatch(edge) is not None


def _generate(
    entries: list[_Entry], rules: _Rules, tags: frozenset[str] | None = None
) -> Iterator[_Made]:
    """The forms of ``_generate_by_entry``, one after the other."""
    for _, forms in _generate_by_entry(entries, rules, tags):
        yield from forms


def _generate_by_entry(
    entries: list[_Entry],
    rules: _Rules,
    tags: frozenset[str] | None = None,
    reject_chars: frozenset[str] = frozenset(),
    pruned: Counter[frozenset[str]] | None = None,
) -> Iterator[tuple[str, Iterable[_Made]]]:
    """The root and forms of every entry (with `tags`, of every entry carrying one), in word
    list order, each form with its fields and the affix entries that made it, minus the
    spellings hunspell never matches: those whose first word list entry is forbidden, and those
    ICONV would change. With `reject_chars`, the forms of prefix entries whose add holds one are
    not made but counted in `pruned` (see ``_SkippedPrefixes``), unless the dictionary has
    forbidden words or ICONV (which would take some of them out before they are counted).

    A form holds an ICONV pattern only if it holds the pattern's last character, which comes from
    the root or an affix: only the forms of such roots are tested, unless an affix brings one."""
    forbidden = _forbidden_words(entries, rules.flag("FORBIDDENWORD"))
    changes = _iconv_changes(rules.iconv)
    skipped = None
    if reject_chars and changes is None and not forbidden:
        skipped = _SkippedPrefixes(rules, reject_chars, pruned) or None
    expander = _Expander(rules, skipped)
    ends = frozenset(_iconv_pattern(pattern)[-1:] for pattern, _ in rules.iconv) - {""}
    affixes = [
        entry for table in (rules.prefixes, rules.suffixes) for e in table.values() for entry in e
    ]
    test_all = any(not ends.isdisjoint(affix.add) for affix in affixes)
    if tags is not None:
        entries = [entry for entry in entries if not tags.isdisjoint(entry.fields)]
    for entry in entries:
        forms: Iterable[_Made] = expander.expand(entry)
        if changes is not None and (test_all or not ends.isdisjoint(entry.word)):
            forms = [made for made in forms if not changes(made[0])]
        if forbidden:
            forms = [made for made in forms if made[0] not in forbidden]
        yield entry.word, forms
    if skipped is not None:
        skipped.flush()


def _forbidden_words(entries: list[_Entry], flag: int | None) -> frozenset[str]:
    """Spellings whose first entry carries the FORBIDDENWORD flag (hunspell finds that entry
    first and rejects the word)."""
    if flag is None:
        return frozenset()
    first: dict[str, bool] = {}
    for entry in entries:
        first.setdefault(entry.word, flag in entry.flags)
    return frozenset(word for word, forbidden in first.items() if forbidden)


def _iconv_changes(table: list[tuple[str, str]]) -> Callable[[str], bool] | None:
    """A predicate telling whether hunspell's ICONV conversion changes a word, or None.

    As hunspell's ``RepList::conv``: left to right, the longest pattern at each place is replaced
    if it has a replacement for that place; ``_`` at a pattern's start or end ties it to the
    word's start or end (``RepList::add`` and ``replace``)."""
    if not table:
        return None
    # pattern → replacements anywhere, at the start, at the end, as the whole word
    outputs: dict[str, list[str]] = {}
    for pattern, replacement in table:
        kind = pattern.startswith("_") + 2 * (len(pattern) > 1 and pattern.endswith("_"))
        replacements = outputs.setdefault(_iconv_pattern(pattern), ["", "", "", ""])
        replacements[kind] = replacement.replace("_", " ")
    patterns = sorted((p for p in outputs if p), key=len, reverse=True)
    search = re.compile("|".join(map(re.escape, patterns))).search

    def changes(word: str) -> bool:
        if search(word) is None:
            return False
        i = 0
        while i < len(word):
            pattern = next((p for p in patterns if word.startswith(p, i)), None)
            if pattern is None:
                i += 1
                continue
            kind = 1 if i == 0 else 0
            if i + len(pattern) == len(word):
                kind += 2
            replacement = outputs[pattern]
            while kind and not replacement[kind]:
                kind = 0 if kind == 2 and i != 0 else kind - 1
            if not replacement[kind]:
                i += 1
            elif replacement[kind] != pattern:
                return True
            else:
                i += len(pattern)
        return False

    return changes


def _iconv_pattern(pattern: str) -> str:
    """An ICONV pattern without its ``_`` anchors (start, end), other ``_`` read as spaces."""
    if pattern.startswith("_"):
        pattern = pattern[1:]
    if pattern.endswith("_"):
        pattern = pattern[:-1]
    return pattern.replace("_", " ")
