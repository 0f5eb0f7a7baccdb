"""Reader for GNU aspell dictionaries as Debian ships them, in pure Python.

A dictionary is a ``<name>.multi`` listing parts (``add X.rws`` reads ``X.cwl.gz`` beside it,
``add Y.multi`` recurses), a ``<name>.alias`` (read as aspell does: exactly like a ``.multi``;
aspell-ca ships ``ca.alias`` → ``add ca-general.multi``) or a single ``X.cwl.gz``. The
language file ``<lang>.dat`` beside the first part gives the charset, the data encoding, the
special characters and the affix file ``<lang>_affix.dat``. ``read_aspell`` yields what
``aspell dump master | aspell expand`` prints:

* each part is decoded (prezip, see ``_unprezip``) and fed through the rules of
  ``aspell create master``: lines that are not valid words are skipped, and with affix compression
  the flags of a word listed twice in the same part are merged (parts are dumped separately, so
  flags are never merged across parts);
* each word then expands to itself, its prefix forms, its suffix forms and, where both the prefix
  and the suffix are cross-product (``Y``), prefix × suffix with the suffix condition checked on
  the root.

The behaviour follows aspell 0.60.8 (``prog/prezip.c``, ``modules/speller/default/affix.cpp``,
``language.cpp``, ``readonly_ws.cpp``) and is checked against the real binary by
``scripts/check-aspell-oracle.py``.
"""

from __future__ import annotations

import codecs
import gzip
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, starmap
from pathlib import Path

from lexforge._affixforms import add_suffix_forms
from lexforge._prezip import prezip_lines
from lexforge.errors import UserError
from lexforge.sources.affixrules import AffixRefusal, AffixRule, RefusedForms

#: aspell skips a word list line longer than this (word, plus ``/`` and flags if any).
MAX_LINE_LENGTH = 240
#: aspell keeps affix conditions in 8-bit masks: at most 8 positions work.
MAX_CONDITION_POSITIONS = 8
#: Letters in Unicode that aspell's charset tables (``*.cset``) class as non-letters.
NON_LETTERS = frozenset("ªµº")

_CWL_SUFFIX = ".cwl.gz"


def read_aspell(
    path: Path,
    reject_chars: frozenset[str] = frozenset(),
    pruned: Counter[frozenset[str]] | None = None,
    refusal: AffixRefusal | None = None,
    refused: RefusedForms | None = None,
) -> Iterator[str]:
    """Every form of the aspell dictionary `path` (a .multi or a single .cwl.gz), decoded to str,
    original case, as `aspell dump master | aspell expand` would print them (duplicates allowed).
    With reject_chars, forms containing any of those characters are not generated: affix entries
    whose `add` contains one are skipped before expansion (roots containing one are expanded and
    filtered, since a strip may remove it). Pruning is exact: the result equals the full set minus
    the forms containing a reject char.

    With `pruned`, every form left out is counted there under the set of reject characters it
    contains, duplicates included, as if the full stream had been filtered: the yielded forms and
    the counts add up to the full stream. The counts are derived from the affix entries, without
    building the pruned forms (see ``_RejectCounter``); they grow as the stream is consumed and
    are complete once it is exhausted.

    With `refusal`, the other forms made by an affix entry it refuses are left out too and, with
    `refused`, counted there.

    Errors (missing or garbled files) raise UserError, one line naming the file."""
    path = Path(path)
    parts = _dictionary_parts(path, ())
    language = _load_language(parts[0])
    if refusal:
        forms = _refusing(parts, language, refusal, refused, frozenset(reject_chars), pruned)
        return refusal.without_roots(forms, refused)
    return _generate(parts, language, frozenset(reject_chars), pruned)


def read_aspell_rules(path: Path) -> Iterator[tuple[str, tuple[AffixRule, ...]]]:
    """Every form of `path` (as ``read_aspell`` yields them, duplicates allowed) with the affix
    entries that made it, prefix first (none for a root itself)."""
    path = Path(path)
    parts = _dictionary_parts(path, ())
    language = _load_language(parts[0])
    full = _Expander(language.affixes or _AffixRules(), lambda rule: True)
    for part in parts:
        for root, flags in _roots(part, language, full):
            yield from full.expand_rules(root, flags)


def _refusing(
    parts: list[Path],
    language: _Language,
    refusal: AffixRefusal,
    refused: RefusedForms | None,
    reject_chars: frozenset[str],
    pruned: Counter[frozenset[str]] | None,
) -> Iterator[tuple[str, list[str]]]:
    """``read_aspell`` with a refusal, root by root (the root, its forms): each root's forms
    as ``_generate`` makes them (without the reject characters, counted in `pruned`), less those
    a refused entry made, counted in `refused` (the difference of the root's two expansions, as
    multisets). Both expansions are made in C, with the entries each keeps."""
    rules = language.affixes or _AffixRules()
    full = _Expander(rules, lambda rule: True)
    base = _pruned_expansion(rules, full, reject_chars, pruned) if reject_chars else full.expand
    kept_full = _Expander(rules, lambda rule: True, refusal.refuses)
    kept_of = kept_full.expand
    if reject_chars:
        reject = re.compile(f"[{_class_body(reject_chars)}]").search
        kept_pruned = _Expander(
            rules, lambda rule: reject_chars.isdisjoint(rule.add), refusal.refuses
        )
        careful = _careful_flags(rules, reject_chars)

        def kept_of(root: str, flags: str) -> list[str]:
            if reject(root) or (careful and not careful.isdisjoint(flags)):
                return [form for form in kept_full.expand(root, flags) if not reject(form)]
            return kept_pruned.expand(root, flags)

    for part in parts:
        for root, flags in _roots(part, language, full):
            forms = base(root, flags)
            kept = kept_of(root, flags) if flags else forms
            if len(kept) != len(forms) and refused is not None:
                gone = Counter(forms) - Counter(kept)
                for form in gone.elements():
                    refused.add(form)
                if not refused.watch.isdisjoint(gone):  # which classes refused them
                    for form, rules in full.expand_rules(root, flags):
                        if form in gone:
                            refused.note(form, map(refusal.reason, rules))
            yield root, kept


# --- dictionary structure --------------------------------------------------------------------


#: Files that list a dictionary's parts; aspell reads an alias exactly like a multi file.
_LIST_SUFFIXES = (".multi", ".alias")


def _dictionary_parts(path: Path, including: tuple[Path, ...]) -> list[Path]:
    """The ``.cwl.gz`` parts of `path` in order, each once; `including` are the enclosing .multi
    or .alias files."""
    if path.name.endswith(_CWL_SUFFIX):
        if not path.is_file():
            raise UserError(f"{path}: no such word list")
        return [path]
    if path.suffix not in _LIST_SUFFIXES:
        raise UserError(
            f"{path}: not an aspell dictionary (expected a .multi, .alias or .cwl.gz file)"
        )
    if path in including:
        raise UserError(f"{path}: includes itself")
    text = _read_text(path, "latin-1")
    parts: list[Path] = []
    for number, fields in _data_lines(text):
        if fields[0] != "add" or len(fields) != 2:
            raise UserError(
                f"{path}:{number}: expected 'add <name>.rws', 'add <name>.multi' or .alias"
            )
        name = fields[1]
        if name.endswith(".rws"):
            part = path.parent / (name.removesuffix(".rws") + _CWL_SUFFIX)
            if not part.is_file():
                raise UserError(f"{path}:{number}: part {name}: {part.name} not found")
            parts.append(part)
        elif name.endswith(_LIST_SUFFIXES):
            parts += _dictionary_parts(path.parent / name, (*including, path))
        else:
            raise UserError(
                f"{path}:{number}: cannot add {name!r} (expected .rws, .multi or .alias)"
            )
    if not parts:
        raise UserError(f"{path}: lists no parts")
    return list(dict.fromkeys(parts))


def _read_text(path: Path, encoding: str) -> str:
    """The text of `path`; a missing or unreadable file is a UserError."""
    try:
        return path.read_bytes().decode(encoding, errors="replace")
    except OSError as error:
        raise UserError(f"{path}: cannot read ({error.strerror or error})") from None


_COMMENT = re.compile(r"(?<!\\)#.*")
_BLANKS = re.compile(r"(?<!\\)[ \t]+")


def _data_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """aspell's data-file lines (``getdata_pair`` + ``split``): (line number, blank-separated
    fields) of each line that is not blank once its ``#`` comment is removed. Backslashes are kept
    as written, as aspell does for affix files."""
    for number, line in enumerate(text.split("\n"), 1):
        content = _COMMENT.sub("", line).strip(" \t")
        if content:
            yield number, _BLANKS.split(content)


# --- language (.dat) -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Language:
    """What a language's ``.dat`` (and affix file) decide about reading its word lists."""

    data_codec: str  # the encoding of the word lists and the affix file
    entry_line: re.Pattern[str]  # findall gives (word, flags) of each valid word list line
    foreign: re.Pattern[str] | None  # a character outside the charset (when data-encoding differs)
    affixes: _AffixRules | None
    affix_compress: bool


def _load_language(part: Path) -> _Language:
    """The language of a part: its ``.dat`` is the longest ``-``/``_`` prefix of the part's name
    that names a ``.dat`` in the same directory (``pt_PT`` → pt_PT.dat, ``en-common`` → en.dat)."""
    dat = _language_file(part)
    settings = {
        fields[0]: " ".join(fields[1:]) for _, fields in _data_lines(_read_text(dat, "latin-1"))
    }
    if not settings.get("name"):
        raise UserError(f"{dat}: the required field 'name' is missing")
    charset = _codec(dat, settings.get("charset", "iso-8859-1"))
    data_codec = _codec(dat, settings.get("data-encoding", charset))
    table = _charset_table(dat, charset)
    special = settings.get("special", "").encode("latin-1").decode(data_codec, errors="replace")
    affix = settings.get("affix", "none")
    affixes = None
    if affix != "none":
        affix_file = dat.parent / f"{settings['name']}_affix.dat"
        if not affix_file.is_file():
            raise UserError(f"{dat}: affix file {affix_file.name} not found")
        affixes = _parse_affix_file(affix_file, data_codec)
    return _Language(
        data_codec=data_codec,
        entry_line=_entry_pattern(table, _special_chars(dat, special), affixes is not None),
        foreign=None if data_codec == charset else re.compile(f"[^{_class_body(table)}]"),
        affixes=affixes,
        affix_compress=_boolean(dat, "affix-compress", settings.get("affix-compress", "false")),
    )


def _language_file(part: Path) -> Path:
    """The ``.dat`` of a part, found from the part's name (see ``_load_language``)."""
    name = part.name.removesuffix(_CWL_SUFFIX)
    while name:
        dat = part.parent / f"{name}.dat"
        if dat.is_file():
            return dat
        name = re.sub(r"[-_][^-_]*$|^[^-_]*$", "", name)
    raise UserError(f"{part}: no language file (<lang>.dat) found beside it")


def _codec(dat: Path, name: str) -> str:
    """The Python codec of an aspell encoding name (``iso8859-1``, ``ISO-8859-15``, ``utf-8``…)."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise UserError(f"{dat}: unknown charset {name!r}") from None


def _charset_table(dat: Path, charset: str) -> str:
    """The characters of a single-byte charset (undefined bytes left out)."""
    table = bytes(range(256)).decode(charset, errors="replace")
    if len(table) != 256 or table.count("\ufffd") > 64:
        raise UserError(f"{dat}: charset {charset!r} is not a single-byte charset")
    return table.replace("\ufffd", "")


def _special_chars(dat: Path, special: str) -> dict[str, str]:
    """The ``special`` setting: character → where it may appear, e.g. ``{"'": "-*-"}`` (begin,
    middle, end; ``*`` = allowed)."""
    fields = special.split()
    if len(fields) % 2:
        raise UserError(f"{dat}: 'special' must list pairs of a character and a -*- pattern")
    return {
        char[0]: where.ljust(3, "-") for char, where in zip(fields[::2], fields[1::2], strict=True)
    }


def _boolean(dat: Path, key: str, value: str) -> bool:
    """A true/false setting."""
    if value.lower() not in ("true", "false"):
        raise UserError(f"{dat}: {key} must be true or false, not {value!r}")
    return value.lower() == "true"


def _is_letter(char: str) -> bool:
    """Whether aspell counts `char` as a letter (its charset tables: Unicode letters and marks)."""
    return (
        char.isalpha() or unicodedata.category(char).startswith("M")
    ) and char not in NON_LETTERS


def _class_body(chars: Iterable[str]) -> str:
    """The inside of a regex character class matching exactly `chars`."""
    return "".join(re.escape(char) for char in sorted(set(chars)))


def _entry_pattern(table: str, special: dict[str, str], flagged: bool) -> re.Pattern[str]:
    """A multiline regex whose findall gives (word, flags) for each line aspell accepts.

    The word must pass aspell's ``check_if_valid``: letters, and special characters where allowed.
    A non-letter first character must be allowed at the beginning *and* in the middle (aspell
    checks both) and, like a middle one, be followed by a letter; a non-letter last character must
    be allowed at the end. Characters outside the charset never match. If `flagged`, the word ends
    at the first ``/`` and the flags follow it."""
    allowed = table.replace("/", "") if flagged else table

    def char_class(chars: Iterable[str]) -> str:
        body = _class_body(char for char in chars if char in allowed)
        return f"[{body}]" if body else "(?!)"

    letter = char_class(char for char in table if _is_letter(char))
    begin = char_class(char for char, where in special.items() if where[0] == where[1] == "*")
    middle = char_class(char for char, where in special.items() if where[1] == "*")
    end = char_class(char for char, where in special.items() if where[2] == "*")
    # Possessive: the loop never takes the last non-letter, so it never has to give back.
    word = f"(?:{letter}|{begin}(?={letter}))(?:{letter}++|{middle}(?={letter}))*+{end}?"
    flags = "(?:/([^\\n]*))?" if flagged else "()"
    return re.compile(f"^({word}){flags}$", re.MULTILINE)


# --- word lists (.cwl.gz) --------------------------------------------------------------------


def _read_word_list(path: Path) -> bytes:
    """The text of a ``.cwl.gz`` part, as ``prezip -d`` prints it (newline-separated lines)."""
    try:
        data = gzip.decompress(path.read_bytes())
    except OSError as error:
        raise UserError(f"{path}: cannot read gzip data ({error.strerror or error})") from None
    except (EOFError, zlib.error) as error:
        raise UserError(f"{path}: truncated or corrupt gzip data ({error})") from None
    if data[:1] == b"\x02":
        return _unprezip(path, data)
    if data[:1] == b"\x01":
        return _unprezip_v1(path, data)
    magic = f"0x{data[0]:02x}" if data else "empty data"
    raise UserError(f"{path}: not a compressed word list ({magic}; expected 0x01 or 0x02 first)")


# One line of the 0x02 format: the shared-prefix length (0x00-0x1d, or 0x1e 0xff* n for
# 30 + 255 per 0xff + n), then the rest of the line (bytes >= 0x1f; 0x1f escapes a control byte).
# The lines are rebuilt in C (lexforge._prezip).
_PREZIP_END = b"\x1f\xff"
# Bytes out of place: text before the first length, an unfinished long length.
_PREZIP_GAP = re.compile(rb"\A.[\x1f-\xff]|\x1e\xff*\Z", re.DOTALL)
_PREZIP_BAD_ESCAPE = re.compile(rb"\x1f(?:[^\x20-\x3f]|\Z)")
_PREZIP_ESCAPE = re.compile(rb"\x1f[\x20-\x3f]")


def _unprezip(path: Path, data: bytes) -> bytes:
    """Decode the 0x02 (prezip) format, as ``prezip-bin -d`` does.

    Each line shares a prefix with the previous line as stored (escapes included, before
    unescaping). The stream ends with ``0x1f 0xff``. (prezip-bin also accepts a further 0x02
    stream after it; aspell's tools never write one, so it is reported as garbled here.)"""
    if _PREZIP_GAP.search(data):
        raise UserError(f"{path}: garbled or truncated word list (a byte out of place)")
    text, overlong = prezip_lines(data, 2)
    if overlong:
        raise _overlong_prefix(path, overlong)
    text = text[:-1]  # the last line's newline
    if not text.endswith(_PREZIP_END):
        raise UserError(f"{path}: truncated word list (no end marker)")
    text = text[: -len(_PREZIP_END)]
    if b"\x1f" in text:  # escapes, or an end marker before the end
        if _PREZIP_BAD_ESCAPE.search(text):
            raise UserError(f"{path}: garbled word list (bad 0x1f escape or early end marker)")
        text = _PREZIP_ESCAPE.sub(lambda escape: bytes((escape[0][1] - 0x20,)), text)
    return text


def _overlong_prefix(path: Path, line: int) -> UserError:
    """The error for a line that shares more bytes than the previous line has."""
    return UserError(f"{path}: garbled word list (line {line} shares more than the previous line)")


# One line of the 0x01 format: shared length + 1 (0x01-0x20, or 0x00 then any byte), then the
# rest (bytes > 0x20). The magic byte 0x01 doubles as the first line's prefix byte.
# Bytes out of place: a 0x00 not followed by a length.
_PREZIP_V1_GAP = re.compile(rb"\x00(?![\x01-\xff])")


def _unprezip_v1(path: Path, data: bytes) -> bytes:
    """Decode the older 0x01 format (aspell-fr), as ``prezip-bin -d`` does."""
    if _PREZIP_V1_GAP.search(data):
        raise UserError(f"{path}: garbled or truncated word list (0x00 without a length)")
    text, overlong = prezip_lines(data, 1)
    if overlong:
        raise _overlong_prefix(path, overlong)
    return text


_LONG_LINE = re.compile(f"[^\n]{{{MAX_LINE_LENGTH + 1}}}")


def _entries(part: Path, language: _Language, expander: _Expander) -> list[tuple[str, str]]:
    """(word, flags) of each line of a part that ``aspell create master`` keeps: lines it cannot
    convert to the charset, invalid words and over-long lines are skipped."""
    text = _read_word_list(part).decode(language.data_codec, errors="replace")
    if "\0" in text:  # aspell reads lines as C strings
        text = "\n".join(line.partition("\0")[0] for line in text.split("\n"))
    if language.foreign and language.foreign.search(text):
        text = "\n".join(line for line in text.split("\n") if not language.foreign.search(line))
    entries = language.entry_line.findall(text)
    if _LONG_LINE.search(text):
        entries = [(word, flags) for word, flags in entries if _fits(word, flags, expander)]
    return entries


def _fits(word: str, flags: str, expander: _Expander) -> bool:
    """Whether ``word/flags`` fits in ``MAX_LINE_LENGTH`` once aspell has removed the flags that
    have no entry applicable to `word` (``clean-affixes``)."""
    kept = expander.applicable_flags(word, flags)
    return len(word) + (kept + 1 if kept else 0) <= MAX_LINE_LENGTH


def _merged(entries: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Words listed more than once in a part, with their flags merged (first listing first)."""
    merged: dict[str, str] = {}
    for word, flags in entries:
        known = merged.get(word)
        if known is None:
            merged[word] = flags
        elif flags:
            merged[word] = known + "".join(flag for flag in flags if flag not in known)
    return merged


# --- affix rules (<lang>_affix.dat) ----------------------------------------------------------

# One position of a condition: (negated, characters). A literal is (False, {c}); ``.`` is
# (True, {}) (anything); ``[..]`` / ``[^..]`` are sets; (False, {}) matches nothing.
_Position = tuple[bool, frozenset[str]]


@dataclass(frozen=True)
class _Rule:
    """One ``PFX``/``SFX`` entry."""

    strip: int  # characters removed (at the start for a prefix, at the end for a suffix)
    add: str
    condition: tuple[_Position, ...]  # checked on the root, at its start / end
    cross: bool  # the header's Y/N
    stripped: str = ""  # the characters `strip` counts


@dataclass
class _AffixRules:
    """The entries of an affix file by flag (a flag may have both prefix and suffix entries)."""

    prefixes: dict[str, list[_Rule]] = field(default_factory=dict)
    suffixes: dict[str, list[_Rule]] = field(default_factory=dict)
    #: Whether a suffix flag crosses with prefixes: aspell asks its last-read entry.
    suffix_cross: dict[str, bool] = field(default_factory=dict)


def _parse_affix_file(path: Path, codec: str) -> _AffixRules:
    """Read the ``PFX``/``SFX`` entries of an affix file (other lines are ignored, as aspell does).

    A header ``PFX|SFX flag Y|N count`` is followed by `count` entries ``PFX|SFX flag strip add
    condition`` (blank and comment lines between them are skipped)."""
    rules = _AffixRules()
    lines = _data_lines(_read_text(path, codec))
    previous_flag = None
    for number, fields in lines:
        if fields[0] == "SET":
            _check_affix_encoding(path, number, fields, codec)
        if fields[0] not in ("PFX", "SFX"):
            continue
        suffix = fields[0] == "SFX"
        if (
            len(fields) < 4
            or len(fields[1]) != 1
            or fields[2] not in ("Y", "N")
            or not fields[3].isdigit()
        ):
            raise UserError(
                f"{path}:{number}: malformed affix header {' '.join(fields)!r} "
                "(expected PFX|SFX <flag> Y|N <count>)"
            )
        flag, cross, count = fields[1], fields[2] == "Y", int(fields[3])
        if flag == previous_flag:
            raise UserError(
                f"{path}:{number}: flag {flag!r} repeats the previous header "
                "(is the previous count wrong?)"
            )
        previous_flag = flag
        table = rules.suffixes if suffix else rules.prefixes
        for _ in range(count):
            entry = next(lines, None)
            if entry is None:
                raise UserError(f"{path}: flag {flag!r} ends before its {count} entries")
            number, fields = entry
            if len(fields) < 5 or fields[1] != flag:
                raise UserError(
                    f"{path}:{number}: malformed entry {' '.join(fields)!r} "
                    f"(expected {'SFX' if suffix else 'PFX'} {flag} <strip> <add> "
                    "<condition>; is the count wrong?)"
                )
            rule = _rule(f"{path}:{number}", fields[2], fields[3], fields[4], suffix, cross)
            table.setdefault(flag, []).append(rule)
            if suffix:
                rules.suffix_cross[flag] = cross
    return rules


def _check_affix_encoding(path: Path, number: int, fields: list[str], codec: str) -> None:
    """aspell refuses an affix file whose ``SET`` is not the language's data encoding."""
    declared = _codec(path, fields[1]) if len(fields) > 1 else ""
    if declared != codec:
        raise UserError(
            f"{path}:{number}: SET {' '.join(fields[1:])!r} differs from the "
            f"language's data encoding {codec!r}"
        )


def _rule(where: str, strip: str, add: str, condition: str, suffix: bool, cross: bool) -> _Rule:
    """Build one entry; `where` is ``file:line`` for errors."""
    strip = "" if strip == "0" else strip
    add = "" if add == "0" else add
    normalized = _normalize_condition(condition)
    if normalized is None:
        raise UserError(f"{where}: invalid condition {condition!r}")
    # aspell requires the stripped text to be spelled out at the condition's end (start for PFX).
    spelled = normalized[len(normalized) - len(strip) :] if suffix else normalized[: len(strip)]
    if strip and spelled != strip:
        side = "end" if suffix else "start"
        raise UserError(
            f"{where}: condition {condition!r} does not {side} with the stripped {strip!r}"
        )
    positions = _condition_positions(normalized)
    if len(positions) > MAX_CONDITION_POSITIONS:
        raise UserError(
            f"{where}: condition {condition!r} has more than "
            f"{MAX_CONDITION_POSITIONS} positions (aspell cannot check them)"
        )
    return _Rule(len(strip), add, positions, cross, strip)


def _normalize_condition(condition: str) -> str | None:
    """aspell's ``normalize_cond_str``: ``[x]`` becomes ``x``; None if a group is empty,
    unterminated or nested. (aspell also sorts group members, which changes nothing here.)"""
    out: list[str] = []
    i = 0
    while i < len(condition):
        if condition[i] != "[":
            out.append(condition[i])
            i += 1
        elif condition[i + 1 : i + 2] in ("", "]"):
            return None
        elif condition[i + 2 : i + 3] == "]":
            out.append(condition[i + 1])
            i += 3
        else:
            close = condition.find("]", i + 1)
            if close < 0 or "[" in condition[i + 1 : close]:
                return None
            out.append(condition[i : close + 1])
            i = close + 1
    return "".join(out)


def _condition_positions(normalized: str) -> tuple[_Position, ...]:
    """aspell's ``encodeit``: one position per literal, ``.`` or ``[..]`` group. Inside a group any
    ``^`` negates it; a ``]`` outside a group is a position nothing matches; ``.`` alone means no
    condition."""
    if normalized == ".":
        return ()
    positions: list[_Position] = []
    group: list[str] | None = None
    negated = False
    for char in normalized:
        if group is None:
            if char == "[":
                group, negated = [], False
            elif char == "]":
                positions.append((False, frozenset()))
            else:
                positions.append((True, frozenset()) if char == "." else (False, frozenset(char)))
        elif char == "^":
            negated = True
        elif char == "]":
            positions.append((negated, frozenset(group)))
            group = None
        else:
            group.append(char)
    return tuple(positions)


def _position_pattern(position: _Position) -> str:
    """One condition position as a regex atom (compile with DOTALL)."""
    negated, members = position
    if not members:
        return "." if negated else "(?!)"
    return f"[{'^' if negated else ''}{_class_body(members)}]"


# --- expansion -------------------------------------------------------------------------------


# What an applicable entry contributes: (strip, add, cross). A suffix's own cross is unused:
# aspell asks the flag (see _AffixRules.suffix_cross).
_Result = tuple[int, str, bool]


class _AffixTable:
    """The entries of one flag on one side (prefix or suffix), looked up by the word they apply to.

    Whether an entry applies depends only on the word's first (prefix) or last (suffix) `span`
    characters, `span` covering every condition and strip length: results are memoized on them.
    Where that edge is new, each condition is tested on its own edge (as many characters as it
    has positions), memoized per condition length: short conditions, the most, repeat often."""

    def __init__(self, rules: list[_Rule], suffix: bool, cross: bool) -> None:
        self.cross = cross  # for a suffix flag: whether prefixed forms take it
        self.suffix = suffix
        self._span = max(max(len(rule.condition), rule.strip + 1) for rule in rules)
        by_condition: dict[tuple[_Position, ...], list[_Result]] = {}
        for rule in rules:
            by_condition.setdefault(rule.condition, []).append((rule.strip, rule.add, rule.cross))
        self._results = list(by_condition.values())  # per condition, in the file's order
        by_length: dict[int, list[tuple[int, re.Pattern[str]]]] = {}
        for index, condition in enumerate(by_condition):
            pattern = re.compile("".join(map(_position_pattern, condition)), re.DOTALL)
            by_length.setdefault(len(condition), []).append((index, pattern))
        #: (condition length, its conditions as (index, pattern), memo: edge → indices matched)
        self._lengths = [
            (length, conditions, {}) for length, conditions in sorted(by_length.items())
        ]
        self._memo: dict[str, tuple[_Result, ...]] = {}

    def key(self, word: str) -> str:
        """The edge of `word` that decides which entries apply to it."""
        return word[-self._span :] if self.suffix else word[: self._span]

    def applicable(self, word: str) -> tuple[_Result, ...]:
        """The results of the entries whose condition and length limits hold for `word`
        (non-empty)."""
        key = self.key(word)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._match(key)
        return found

    def _match(self, key: str) -> tuple[_Result, ...]:
        """`applicable` without the memo."""
        size = len(key)
        matched: list[int] = []
        for length, conditions, memo in self._lengths:
            if length > size:
                break
            edge = key[size - length :] if self.suffix else key[:length]
            indices = memo.get(edge)
            if indices is None:
                indices = memo[edge] = tuple(i for i, pattern in conditions if pattern.match(edge))
            matched += indices
        matched.sort()  # the file's order
        found: list[_Result] = []
        for index in matched:
            found += [result for result in self._results[index] if result[0] < size]
        return tuple(found)


class _Expander:
    """Expands a root and its flags into its forms, as aspell's ``AffixMgr::expand``.

    ``prefixes`` and ``suffixes`` are the tables of the flags that keep entries."""

    def __init__(
        self,
        rules: _AffixRules,
        keep: Callable[[_Rule], bool],
        refuses: Callable[[AffixRule], bool] | None = None,
    ) -> None:
        """Use only the entries `keep` accepts (all of them when not pruning) and, with
        `refuses`, that it does not refuse."""

        def kept(flag: str, entries: list[_Rule], kind: str) -> list[_Rule]:
            return [
                rule
                for rule in entries
                if keep(rule)
                and not (refuses and refuses(AffixRule(kind, flag, rule.stripped, rule.add)))
            ]

        self.prefixes = {
            flag: _AffixTable(found, suffix=False, cross=False)
            for flag, entries in rules.prefixes.items()
            if (found := kept(flag, entries, "PFX"))
        }
        self.suffixes = {
            flag: _AffixTable(found, suffix=True, cross=rules.suffix_cross[flag])
            for flag, entries in rules.suffixes.items()
            if (found := kept(flag, entries, "SFX"))
        }

    def applicable_flags(self, word: str, flags: str) -> int:
        """How many of `flags` have an entry that applies to `word`."""
        return sum(
            bool(
                (flag in self.prefixes and self.prefixes[flag].applicable(word))
                or (flag in self.suffixes and self.suffixes[flag].applicable(word))
            )
            for flag in flags
        )

    def expand_rules(self, root: str, flags: str) -> list[tuple[str, tuple[AffixRule, ...]]]:
        """The forms of ``expand`` in the same order, each with the affix entries that made it
        (prefix first)."""
        forms: list[tuple[str, tuple[AffixRule, ...]]] = [(root, ())]
        suffixes: list[tuple[_Result, AffixRule]] = []
        cross_suffixes: list[tuple[_Result, AffixRule]] = []
        crossing: list[tuple[str, AffixRule]] = []
        size = len(root)
        for flag in flags:
            table = self.suffixes.get(flag)
            if table is not None:
                found = [
                    (result, AffixRule("SFX", flag, root[size - result[0] :], result[1]))
                    for result in table.applicable(root)
                ]
                suffixes += found
                if table.cross:
                    cross_suffixes += found
            table = self.prefixes.get(flag)
            if table is not None:
                for strip, add, cross in table.applicable(root):
                    form = add + root[strip:]
                    rule = AffixRule("PFX", flag, root[:strip], add)
                    forms.append((form, (rule,)))
                    if cross:
                        crossing.append((form, rule))
        forms += [
            (root[: size - strip] + add, (rule,))
            for (strip, add, _), rule in suffixes
            if strip < size
        ]
        for form, prefix in crossing:
            forms += [
                (form[: len(form) - strip] + add, (prefix, rule))
                for (strip, add, _), rule in cross_suffixes
                if strip < len(form)
            ]
        return forms

    def expand(self, root: str, flags: str) -> list[str]:
        """The root, its prefix forms, its suffix forms, and cross-product forms: a prefix form
        whose entry is ``Y`` takes each ``Y`` suffix whose condition holds on the root, with the
        suffix's strip taken from the prefixed form."""
        if not flags:
            return [root]
        forms = [root]
        suffixes: list[_Result] = []
        cross_suffixes: list[_Result] = []
        crossing: list[str] = []
        for flag in flags:
            table = self.suffixes.get(flag)
            if table is not None:
                found = table.applicable(root)
                suffixes += found
                if table.cross:
                    cross_suffixes += found
            table = self.prefixes.get(flag)
            if table is not None:
                for strip, add, cross in table.applicable(root):
                    form = add + root[strip:]
                    forms.append(form)
                    if cross:
                        crossing.append(form)
        add_suffix_forms(forms, root, suffixes)
        if cross_suffixes:
            for form in crossing:
                add_suffix_forms(forms, form, cross_suffixes)
        return forms


def _generate(
    parts: list[Path],
    language: _Language,
    reject_chars: frozenset[str],
    pruned: Counter[frozenset[str]] | None,
) -> Iterator[str]:
    """The forms of every part (see ``read_aspell``), streamed part by part, root by root.

    The roots' lists of forms are chained in C (no Python code runs per form)."""
    rules = language.affixes or _AffixRules()
    full = _Expander(rules, lambda rule: True)
    forms_of = _pruned_expansion(rules, full, reject_chars, pruned) if reject_chars else full.expand
    per_part = (starmap(forms_of, _roots(part, language, full)) for part in parts)
    return chain.from_iterable(chain.from_iterable(roots) for roots in per_part)


def _roots(part: Path, language: _Language, full: _Expander) -> Iterable[tuple[str, str]]:
    """(root, flags) of a part as ``aspell dump master`` prints them."""
    entries = _entries(part, language, full)
    if language.affix_compress and language.affixes is not None:
        return _merged(entries).items()
    return entries


def _pruned_expansion(
    rules: _AffixRules,
    full: _Expander,
    reject_chars: frozenset[str],
    pruned: Counter[frozenset[str]] | None,
) -> Callable[[str, str], list[str]]:
    """A function giving the forms of a root without those containing a reject character, and
    counting those in `pruned` if given.

    Entries whose ``add`` contains one are dropped: their add survives whole in every form they
    make, except a cross prefix whose reject character a suffix strip can reach (see
    ``_strippable_prefix``). Roots holding a reject character, or flags with such a prefix, are
    expanded in full and filtered (and the forms filtered out are counted one by one); the forms
    the dropped entries would have made are counted by ``_RejectCounter``."""
    reject = re.compile(f"[{_class_body(reject_chars)}]").search
    kept_entries = _Expander(rules, lambda rule: reject_chars.isdisjoint(rule.add))
    careful = _careful_flags(rules, reject_chars)
    counter = None if pruned is None else _RejectCounter(full, reject_chars, pruned)

    def filtered(forms: list[str]) -> list[str]:
        """`forms` without those holding a reject character, which are counted."""
        if counter is None:
            return [form for form in forms if not reject(form)]
        kept = []
        for form in forms:
            if reject(form):
                counter.count_form(form)
            else:
                kept.append(form)
        return kept

    def forms_of(root: str, flags: str) -> list[str]:
        if not flags:  # the root alone: no expander (French's 630,000 roots have no flags)
            return filtered([root])
        if reject(root) or (careful and not careful.isdisjoint(flags)):
            return filtered(full.expand(root, flags))
        if counter is not None:
            counter.count_root(root, flags)
        return kept_entries.expand(root, flags)

    return forms_of


def _careful_flags(rules: _AffixRules, reject_chars: frozenset[str]) -> set[str]:
    """The flags with a prefix entry whose reject characters a cross suffix may strip: their
    roots are expanded in full and filtered (see ``_pruned_expansion``)."""
    return {
        flag
        for flag, entries in rules.prefixes.items()
        if any(_strippable_prefix(rule, reject_chars) for rule in entries)
    }


def _strippable_prefix(rule: _Rule, reject_chars: frozenset[str]) -> bool:
    """Whether a cross-product form of this prefix entry may lose the reject characters of its
    ``add``: a suffix strips fewer characters than the root has, so it can reach into the add only
    if the prefix stripped more than the add's tail from its first reject character on."""
    first = next((i for i, char in enumerate(rule.add) if char in reject_chars), None)
    return rule.cross and first is not None and rule.strip > len(rule.add) - first


# The reject characters of the adds of some entries → how many entries have them.
_Tally = tuple[tuple[frozenset[str], int], ...]


@dataclass(frozen=True, eq=False)
class _Rejected:
    """The entries of one flag on one side that apply to a root, as far as reject characters go."""

    alone: _Tally  # of the entries whose add has reject characters: their forms are rejected
    crossing: _Tally  # of the entries taking part in cross products (empty sets included)
    crossing_entries: tuple[tuple[int, str], ...]  # (strip, add) of those entries
    reach: int  # the longest strip of those entries


class _RejectCounter:
    """Counts, by their set of reject characters, the forms of a root's full expansion that hold
    reject characters, without building the forms of roots that hold none.

    For such a root, a prefix form (``add + root[strip:]``) or a suffix form (``root[:-strip] +
    add``) holds exactly the reject characters of its entry's add. A cross-product form is a
    prefix form whose end loses the suffix's strip, then gains the suffix's add: it holds the
    reject characters of both adds, unless the suffix strip reaches into the prefix add, which
    takes a root no longer than the two strips together. So, for longer roots, the count of a
    pair of flags only depends on how many crossing entries of each flag have each reject set:
    pairs of sets are counted, not pairs of entries. What the entries of a flag give is memoized
    on the edge of the root that decides which entries apply (see ``_AffixTable``), and on the
    entries that apply (many edges share them)."""

    def __init__(
        self, full: _Expander, reject_chars: frozenset[str], pruned: Counter[frozenset[str]]
    ) -> None:
        """Count the forms of `full` (the expander with every entry) in `pruned`."""
        self._reject_chars = reject_chars
        self._pruned = pruned
        #: flag → its prefix and suffix tables, each with its summaries by root edge and by
        #: the entries that apply
        self._sides: dict[
            str,
            list[tuple[_AffixTable, dict[str, _Rejected], dict[tuple[_Result, ...], _Rejected]]],
        ] = {}
        for tables in (full.prefixes, full.suffixes):
            for flag, table in tables.items():
                self._sides.setdefault(flag, []).append((table, {}, {}))
        #: (prefix summary, suffix summary) → their rejected cross products on a long root
        self._pairs: dict[tuple[_Rejected, _Rejected], _Tally] = {}

    def count_form(self, form: str) -> None:
        """Count one rejected form."""
        self._pruned[self._reject_chars.intersection(form)] += 1

    def count_root(self, root: str, flags: str) -> None:
        """Count the rejected forms of `root` (which holds no reject character) with `flags`,
        as ``_Expander.expand`` makes them: each flag's prefix and suffix forms, then the
        cross products of the crossing prefix entries with the crossing suffix entries."""
        pruned = self._pruned
        crossing: tuple[list[_Rejected], list[_Rejected]] = ([], [])  # prefixes, suffixes
        for flag in flags:
            for table, by_edge, by_results in self._sides.get(flag, ()):
                key = table.key(root)
                rejected = by_edge.get(key)
                if rejected is None:
                    results = table.applicable(root)
                    rejected = by_results.get(results)
                    if rejected is None:
                        rejected = by_results[results] = self._rejected(table, results)
                    by_edge[key] = rejected
                for chars, count in rejected.alone:
                    pruned[chars] += count
                if rejected.crossing:
                    crossing[table.suffix].append(rejected)
        size = len(root)
        for prefix in crossing[False]:
            for suffix in crossing[True]:
                if size > prefix.reach + suffix.reach:
                    pair = (prefix, suffix)
                    tally = self._pairs.get(pair)
                    if tally is None:
                        tally = self._pairs[pair] = _cross_tally(prefix, suffix)
                    for chars, count in tally:
                        pruned[chars] += count
                else:
                    self._count_short_cross(size, prefix, suffix)

    def _count_short_cross(self, size: int, prefix: _Rejected, suffix: _Rejected) -> None:
        """Count the rejected cross products of a root of `size` characters entry by entry: the
        suffix strip may reach into the prefix add, or leave no form at all."""
        reject_chars = self._reject_chars
        for prefix_strip, prefix_add in prefix.crossing_entries:
            form_size = len(prefix_add) + size - prefix_strip
            for suffix_strip, suffix_add in suffix.crossing_entries:
                kept = form_size - suffix_strip  # how much of the prefix form is left
                if kept > 0:
                    chars = reject_chars.intersection(prefix_add[:kept] + suffix_add)
                    if chars:
                        self._pruned[chars] += 1

    def _rejected(self, table: _AffixTable, results: tuple[_Result, ...]) -> _Rejected:
        """Summarize the applicable `results` of `table`. A prefix entry crosses if its own
        header said ``Y``; a suffix entry if its flag does (as in ``_Expander.expand``)."""
        alone: Counter[frozenset[str]] = Counter()
        crossing: Counter[frozenset[str]] = Counter()
        crossing_entries: list[tuple[int, str]] = []
        for strip, add, cross in results:
            chars = self._reject_chars.intersection(add)
            if chars:
                alone[chars] += 1
            if table.cross if table.suffix else cross:
                crossing[chars] += 1
                crossing_entries.append((strip, add))
        return _Rejected(
            alone=tuple(alone.items()),
            crossing=tuple(crossing.items()),
            crossing_entries=tuple(crossing_entries),
            reach=max((strip for strip, _ in crossing_entries), default=0),
        )


def _cross_tally(prefix: _Rejected, suffix: _Rejected) -> _Tally:
    """The rejected cross products of the crossing entries of a prefix and a suffix flag on a
    root long enough for every suffix strip to leave every prefix add whole, by reject set."""
    tally: Counter[frozenset[str]] = Counter()
    for prefix_chars, prefix_count in prefix.crossing:
        for suffix_chars, suffix_count in suffix.crossing:
            chars = prefix_chars | suffix_chars
            if chars:
                tally[chars] += prefix_count * suffix_count
    return tuple(tally.items())
