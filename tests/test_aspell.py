"""The aspell reader (lexforge.sources.aspell).

Unit tests build small dictionaries in tmp_path. Oracle tests compare with the real aspell binary
(``aspell create master``, then ``dump master | expand``); they are skipped when aspell is not
installed, unless LEXFORGE_REQUIRE_ASPELL=1 (as in CI), which makes them fail instead.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexforge.errors import UserError
from lexforge.sources.aspell import (
    _Expander,
    _parse_affix_file,
    _read_word_list,
    _RejectCounter,
    read_aspell,
)

FIXTURES = Path(__file__).parent / "fixtures" / "aspell"
RAW = Path(__file__).parent.parent / "raw"
#: What the pipeline rejects.
PIPELINE_REJECT = frozenset("'-. 0123456789")
END = b"\x00\x1f\xff"  # prezip's end of stream (an empty last line, then the end marker)
DAT = "charset iso8859-1\naffix-compress true\n"  # the default xx.dat settings


# --- helpers ---------------------------------------------------------------------------------


def prezip(lines: list[bytes]) -> bytes:
    """The 0x02 format, as ``prezip-bin -z`` writes it (a line per word, then the end marker)."""
    out = bytearray(b"\x02")
    previous = b""
    for line in [*lines, b""]:
        escaped = b"".join(bytes((0x1F, c + 0x20)) if c < 0x20 else bytes((c,)) for c in line)
        shared = 0
        while shared < min(len(previous), len(escaped)) and previous[shared] == escaped[shared]:
            shared += 1
        if shared < 30:
            out.append(shared)
        else:
            out += b"\x1e" + b"\xff" * ((shared - 30) // 255) + bytes(((shared - 30) % 255,))
        out += escaped[shared:]
        previous = escaped
    return bytes(out + b"\x1f\xff")


def prezip_v1(lines: list[bytes]) -> bytes:
    """The older 0x01 format: shared length + 1, after a 0x00 if that is over 0x20."""
    out = bytearray()
    previous = b""
    for line in lines:
        shared = 0
        while shared < min(len(previous), len(line)) and previous[shared] == line[shared]:
            shared += 1
        out += bytes((shared + 1,)) if shared < 32 else bytes((0, shared + 1))
        out += line[shared:]
        previous = line
    return bytes(out)


def write_dictionary(
    directory: Path,
    parts: dict[str, bytes],
    affixes: str | None = None,
    dat: str = DAT,
) -> Path:
    """Write language ``xx`` (``xx.dat``, ``xx_affix.dat`` if `affixes`) and ``xx.multi`` adding
    each part ``xx-<name>`` (its decompressed .cwl data) to `directory`; return the .multi."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "xx.dat").write_text(
        f"name xx\n{dat}" + ("affix xx\n" if affixes is not None else "")
    )
    if affixes is not None:
        (directory / "xx_affix.dat").write_bytes(affixes.encode("latin-1"))
    for name, data in parts.items():
        (directory / f"xx-{name}.cwl.gz").write_bytes(gzip.compress(data, mtime=0))
    multi = directory / "xx.multi"
    multi.write_text("".join(f"add xx-{name}.rws\n" for name in parts))
    return multi


def words(*lines: str, encoding: str = "latin-1") -> bytes:
    """A 0x02 word list of `lines`."""
    return prezip([line.encode(encoding) for line in lines])


def forms(path: Path, reject: frozenset[str] = frozenset()) -> set[str]:
    """The set of forms ``read_aspell`` yields."""
    return set(read_aspell(path, reject))


def check_pruned_counts(path: Path, reject: frozenset[str]) -> Counter[frozenset[str]]:
    """Check the pruned stream of `path` and its `pruned` counts against a brute force over the
    full stream, duplicates included; return the counts."""
    kept: Counter[str] = Counter()
    rejected: Counter[frozenset[str]] = Counter()
    for form in read_aspell(path):
        chars = frozenset(c for c in form if c in reject)
        if chars:
            rejected[chars] += 1
        else:
            kept[form] += 1
    pruned: Counter[frozenset[str]] = Counter()
    assert Counter(read_aspell(path, reject, pruned)) == kept
    assert pruned == rejected
    return pruned


def expand(tmp_path: Path, affixes: str, *lines: str, dat: str = DAT) -> set[str]:
    """The forms of a one-part dictionary of `lines` with `affixes`."""
    return forms(write_dictionary(tmp_path, {"a": words(*lines)}, affixes, dat))


def spaced(text: str) -> list[str]:
    """The space-separated items of `text` (for long lists of words)."""
    return text.split()


def user_error(path: Path) -> str:
    """The message of the UserError that reading `path` raises; it must be one line."""
    with pytest.raises(UserError) as info:
        list(read_aspell(path))
    message = str(info.value)
    assert "\n" not in message
    return message


# --- the 0x02 (prezip) format ----------------------------------------------------------------


def test_prezip_lines_share_a_prefix_with_the_previous_line(tmp_path):
    data = b"\x02" + b"\x00abc" + b"\x02d" + b"\x00xyz" + END
    assert list(read_aspell(write_dictionary(tmp_path, {"a": data}))) == ["abc", "abd", "xyz"]


def test_prezip_long_prefix_is_30_plus_the_next_byte(tmp_path):
    long = "q" * 40
    data = b"\x02\x00" + long.encode() + b"\x1e\x05r" + END
    assert list(read_aspell(write_dictionary(tmp_path, {"a": data}))) == [long, "q" * 35 + "r"]


def test_prezip_long_prefix_adds_255_per_0xff(tmp_path):
    data = b"\x02\x00" + b"a" * 600 + b"\x1e\xff\x05" + b"b" * 300 + b"\x1e\xff\xff\x00c" + END
    write_dictionary(tmp_path, {"a": data})
    lines = [b"a" * 600, b"a" * 290 + b"b" * 300, b"a" * 290 + b"b" * 250 + b"c"]
    assert _read_word_list(tmp_path / "xx-a.cwl.gz") == b"\n".join(lines) + b"\n"


def test_prezip_escape_is_undone_after_sharing_the_escaped_bytes(tmp_path):
    # line 2 shares 4 stored bytes of "ab\x1f\x29cd": "ab" and the whole escape of a tab.
    data = b"\x02\x00ab\x1f\x29cd" + b"\x04x" + END
    write_dictionary(tmp_path, {"a": data})
    assert _read_word_list(tmp_path / "xx-a.cwl.gz") == b"ab\tcd\nab\tx\n"


def test_prezip_round_trip_of_the_test_encoder(tmp_path):
    lines = [b"alpha", b"alphabet", b"tab\there", b"z" * 40, b"z" * 300 + b"y", b"z" * 299]
    write_dictionary(tmp_path, {"a": prezip(lines)})
    assert _read_word_list(tmp_path / "xx-a.cwl.gz") == b"\n".join(lines) + b"\n"


# --- the 0x01 format -------------------------------------------------------------------------


def test_v1_shared_length_plus_one_and_0x00_before_long_ones(tmp_path):
    long = "q" * 40
    lines = [
        b"\x01abc",  # the magic byte is the first length: 0 shared
        b"\x03d",  # 2 shared: abd
        b"\x01" + long.encode(),
        b"\x00\x24r",  # 0x00, then 36: 35 shared
        b"\x20s",  # 0x20 (a space) is a length too: 31 shared
    ]
    found = list(read_aspell(write_dictionary(tmp_path, {"a": b"".join(lines)})))
    assert found == ["abc", "abd", long, "q" * 35 + "r", "q" * 31 + "s"]


def test_v1_fixture_part_is_what_the_test_encoder_writes():
    lines = (FIXTURES / "xx-b.words").read_bytes().splitlines()
    assert gzip.decompress((FIXTURES / "xx-b.cwl.gz").read_bytes()) == prezip_v1(lines)


@pytest.mark.parametrize("part", ["xx-a", "xx-b"])
def test_fixture_parts_decode_to_their_word_files(part):
    expected = (FIXTURES / f"{part}.words").read_bytes()
    assert _read_word_list(FIXTURES / f"{part}.cwl.gz") == expected


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"\x02\x00abc\x01d", "truncated word list"),
        (b"\x02\x00abc\x00def\x1e\xff", "garbled or truncated"),
        (b"\x03\x00abc" + END, "not a compressed word list (0x03"),
        (b"", "not a compressed word list (empty"),
        (b"\x02\x00ab\x05c" + END, "garbled word list (line 2 shares more"),
        (b"\x02\x00a\x1f\x80b" + END, "bad 0x1f escape"),
        (b"\x02\x00a\x1f\xff\x00b" + END, "early end marker"),
        (b"\x01ab\x05c", "garbled word list (line 2 shares more"),
        (b"\x01ab\x00", "0x00 without a length"),
    ],
)
def test_bad_word_list_is_a_one_line_error_naming_the_part(tmp_path, data, problem):
    multi = write_dictionary(tmp_path, {"a": data})
    message = user_error(multi)
    assert message.startswith(f"{tmp_path / 'xx-a.cwl.gz'}: ") and problem in message


def test_truncated_gzip_is_a_one_line_error(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc", "abd")})
    part = tmp_path / "xx-a.cwl.gz"
    part.write_bytes(part.read_bytes()[:-6])
    assert "xx-a.cwl.gz: truncated or corrupt gzip" in user_error(multi)


def test_missing_part_names_the_multi_and_the_part(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc")})
    multi.write_text("# parts\nadd xx-a.rws\nadd xx-gone.rws\n")
    assert user_error(multi) == f"{multi}:3: part xx-gone.rws: xx-gone.cwl.gz not found"


def test_multi_including_itself_is_an_error(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc")})
    multi.write_text("add xx.multi\n")
    assert user_error(multi) == f"{multi}: includes itself"


def test_alias_reads_like_a_multi(tmp_path):
    """aspell-ca's layout: ca.alias → add ca-general.multi → add ca-common.rws."""
    multi = write_dictionary(tmp_path, {"a": words("abc", "abd"), "b": words("xyz")})
    (tmp_path / "xx-general.multi").write_text("add xx-a.rws\n")
    (tmp_path / "xx.alias").write_text("add xx-general.multi  \n")
    (tmp_path / "xx-both.alias").write_text("add xx.alias\nadd xx-b.rws\n")
    assert forms(tmp_path / "xx.alias") == {"abc", "abd"}
    assert forms(tmp_path / "xx-both.alias") == forms(multi) == {"abc", "abd", "xyz"}
    (tmp_path / "xx.alias").write_text("add xx-general.txt\n")
    assert user_error(tmp_path / "xx.alias") == (
        f"{tmp_path / 'xx.alias'}:1: cannot add 'xx-general.txt' (expected .rws, .multi or .alias)"
    )


def test_missing_language_file(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc")})
    (tmp_path / "xx.dat").unlink()
    assert "xx-a.cwl.gz: no language file" in user_error(multi)


def test_missing_affix_file(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc")}, affixes="")
    (tmp_path / "xx_affix.dat").unlink()
    assert user_error(multi) == f"{tmp_path / 'xx.dat'}: affix file xx_affix.dat not found"


def test_unknown_charset(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc")}, dat="charset klingon-8\n")
    assert user_error(multi) == f"{tmp_path / 'xx.dat'}: unknown charset 'klingon-8'"


def test_multibyte_charset_is_refused(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc")}, dat="charset utf-8\n")
    assert "is not a single-byte charset" in user_error(multi)


@pytest.mark.parametrize(
    ("affixes", "problem"),
    [
        ("# rules\nSFX S Y\nSFX S 0 s .\n", ":2: malformed affix header 'SFX S Y'"),
        ("SFX S Y 2\nSFX S 0 s .\n", ": flag 'S' ends before its 2 entries"),
        ("SFX S Y 1\nSFX T 0 s .\n", ":2: malformed entry 'SFX T 0 s .'"),
        ("SFX S Y 1\nSFX S 0 s\n", ":2: malformed entry"),
        ("SFX S Y 1\nSFX S 0 s [ab\n", ":2: invalid condition '[ab'"),
        ("SFX S Y 1\nSFX S y ies [^aeiou]x\n", "does not end with the stripped 'y'"),
        ("PFX P Y 1\nPFX P un 0 .\n", "does not start with the stripped 'un'"),
        ("SFX S Y 1\nSFX S 0 s abcdefghi\n", "more than 8 positions"),
        ("SFX S Y 1\nSFX S 0 s .\nSFX S Y 1\nSFX S 0 x .\n", ":3: flag 'S' repeats"),
        ("SET UTF-8\n", ":1: SET 'UTF-8' differs from the language's data encoding"),
    ],
)
def test_malformed_affix_file_names_file_and_line(tmp_path, affixes, problem):
    multi = write_dictionary(tmp_path, {"a": words("abc")}, affixes)
    message = user_error(multi)
    assert message.startswith(str(tmp_path / "xx_affix.dat")) and problem in message


def test_not_a_dictionary(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("abc\n")
    assert "not an aspell dictionary" in user_error(path)


# --- words aspell accepts --------------------------------------------------------------------


def test_special_characters_only_where_the_dat_allows_them(tmp_path):
    dat = "charset iso8859-1\nspecial ' -*- . -** - -*-\n"
    lines = ["don't", "'tis", "o'", "e.g.", "a--b", "x-", "-y", "x", "3d", "a b", "ok\r", ""]
    assert expand(tmp_path, "", *lines, dat=dat) == {"don't", "e.g.", "x"}


def test_a_leading_special_must_be_allowed_at_the_beginning_and_in_the_middle(tmp_path):
    # aspell checks the first character against both rules.
    found = expand(tmp_path, "", "'s", "-s", dat="charset iso8859-1\nspecial ' **- - *--\n")
    assert found == {"'s"}


def test_ordinal_indicators_and_micro_sign_are_not_letters(tmp_path):
    assert expand(tmp_path, "", "Nª", "µm", "ºC", "Øre", "ß") == {"Øre", "ß"}


def test_lines_over_240_characters_are_skipped_counting_only_applicable_flags(tmp_path):
    # Lines of 240 (239 without flags) pass this check but make "aspell create" fail: not tested.
    affixes = "SFX A Y 1\nSFX A 0 s .\nSFX B Y 1\nSFX B 0 x q\n"  # B never applies here
    found = expand(tmp_path, affixes, "a" * 239, "b" * 241, "c" * 237 + "/ABB", "d" * 239 + "/A")
    assert found == {"a" * 239, "c" * 237, "c" * 237 + "s"}


def test_iso8859_15_and_iso8859_1_read_the_same_byte_differently(tmp_path):
    data = prezip([b"c\xbdur", b"\xa6a"])
    fifteen = write_dictionary(tmp_path / "15", {"a": data}, dat="charset iso8859-15\n")
    one = write_dictionary(tmp_path / "1", {"a": data}, dat="charset iso8859-1\n")
    assert forms(fifteen) == {"cœur", "Ša"}
    assert forms(one) == set()  # ½ and ¦ are not letters


def test_data_encoding_utf8_is_converted_to_the_charset(tmp_path):
    # nl.dat: charset iso8859-1, data-encoding utf-8. Words outside ISO-8859-1 are skipped.
    dat = "charset iso8859-1\ndata-encoding utf-8\n"
    data = words("één", "naïef", "Łódź", "a\xff", encoding="utf-8")
    multi = write_dictionary(tmp_path, {"a": data}, dat=dat)
    assert forms(multi) == {"één", "naïef", "aÿ"}


def test_a_single_cwl_part_can_be_read_directly(tmp_path):
    write_dictionary(tmp_path, {"common": words("abc", "abd")})
    assert forms(tmp_path / "xx-common.cwl.gz") == {"abc", "abd"}


def test_language_file_is_the_longest_prefix_of_the_part_name(tmp_path):
    write_dictionary(tmp_path, {"a": words("abc")}, dat="charset iso8859-15\n")
    (tmp_path / "xx_YY-a-only.cwl.gz").write_bytes(gzip.compress(prezip([b"c\xbdur"])))
    assert forms(tmp_path / "xx_YY-a-only.cwl.gz") == {"cœur"}  # xx.dat (iso8859-15)
    (tmp_path / "xx_YY.dat").write_text("name xx_YY\ncharset iso8859-1\n")
    assert forms(tmp_path / "xx_YY-a-only.cwl.gz") == set()  # xx_YY.dat (iso8859-1)


def test_without_affix_file_a_slash_is_part_of_the_word(tmp_path):
    multi = write_dictionary(tmp_path, {"a": words("abc/S", "abd")}, dat="charset iso8859-1\n")
    assert forms(multi) == {"abd"}


# --- affixes ---------------------------------------------------------------------------------

CONDITIONS = """
SFX S Y 4
SFX S y ies [^aeiou]y
SFX S 0 s [aeiou]y
SFX S 0 es [sxz]
SFX S 0 s [^sxyz]
SFX W Y 1
SFX W ere ato .ere
SFX V Y 1
SFX V 0 X [ab]c.
"""


def test_conditions_groups_negated_groups_wildcards_and_strips(tmp_path):
    lines = spaced("city/S toy/S box/S cat/S credere/W ere/W acq/V bcd/V ccq/V ac/V")
    # "ere" gets no W: ".ere" needs a fourth character
    expected = (
        "city cities toy toys box boxes cat cats credere credato ere acq acqX bcd bcdX ccq ac"
    )
    assert expand(tmp_path, CONDITIONS, *lines) == set(spaced(expected))


def test_prefix_conditions_are_checked_at_the_start(tmp_path):
    affixes = "PFX U Y 2\nPFX U 0 un [^i]\nPFX U 0 in i\nPFX K Y 1\nPFX K ab x ab\n"
    found = expand(tmp_path, affixes, "do/U", "ink/U", "abc/K", "ab/K")
    assert found == {"do", "undo", "ink", "inink", "abc", "xc", "ab"}  # "ab" is not > strip


CROSS = """
PFX Y Y 1
PFX Y 0 re .
PFX N N 1
PFX N 0 non .
SFX Y Y 1
SFX Y 0 s .
SFX N N 1
SFX N 0 ing .
"""


def test_cross_product_only_between_y_prefix_and_y_suffix(tmp_path):
    found = expand(tmp_path, CROSS.replace("SFX Y", "SFX S").replace("SFX N", "SFX G"), "do/YNSG")
    assert found == {"do", "redo", "nondo", "dos", "doing", "redos"}


def test_cross_product_suffix_condition_is_checked_on_the_root(tmp_path):
    affixes = "PFX D Y 1\nPFX D b a b\nSFX S Y 1\nSFX S y ies [^aeiou]y\n"
    assert expand(tmp_path, affixes, "by/DS") == {"by", "ay", "bies", "aies"}


def test_cross_product_suffix_cannot_strip_more_than_the_prefixed_form_has(tmp_path):
    # As aspell after 0.60.8 (0.60.8 itself copies a negative length and prints garbage).
    affixes = "PFX C Y 1\nPFX C xy 0 xy\nSFX T Y 1\nSFX T yz q yz\n"
    assert expand(tmp_path, affixes, "xyz/CT") == {"xyz", "z", "xq"}


def test_flags_of_a_word_listed_twice_merge_within_a_part_only(tmp_path):
    parts = {"a": words("do/Y", "go/Y", "do/S", "go/S"), "b": words("to/Y"), "c": words("to/S")}
    multi = write_dictionary(tmp_path, parts, CROSS.replace("SFX Y", "SFX S"))
    # no "retos": parts are dumped separately
    assert forms(multi) == set(spaced("do redo dos redos go rego gos regos to reto tos"))


def test_without_affix_compression_lines_expand_separately(tmp_path):
    # en.dat has no affix-compress: aspell expands each line when it compiles the dictionary.
    data = words("do/Y", "do/S")
    multi = write_dictionary(
        tmp_path, {"a": data}, CROSS.replace("SFX Y", "SFX S"), dat="charset iso8859-1\n"
    )
    assert forms(multi) == {"do", "redo", "dos"}


def test_flags_without_rules_or_conditions_add_nothing(tmp_path):
    assert expand(tmp_path, CONDITIONS, "cat/QZ", "cat/V") == {"cat"}


def test_fixture_forms():
    found = forms(FIXTURES / "xx.multi")
    expected = "cœur cœurs toyœuvre l'amò reamò aies qx dons recity naïves amo-bis e.g."
    assert set(spaced(expected)) <= found
    assert not {"recities", "-dash", "o'", "3d", "tab\tword", "nontoys", "retoyœuvre"} & found


# --- pruning ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reject", [PIPELINE_REJECT, frozenset("'"), frozenset("-"), frozenset("ò"), frozenset("sx")]
)
def test_pruning_is_exact_on_the_fixture(reject):
    full = list(read_aspell(FIXTURES / "xx.multi"))
    pruned = list(read_aspell(FIXTURES / "xx.multi", reject))
    assert set(pruned) == {form for form in full if reject.isdisjoint(form)}
    assert len(pruned) < len(full)


def test_pruning_keeps_forms_whose_strip_removes_the_reject_character(tmp_path):
    affixes = "PFX Q Y 1\nPFX Q abc q' abc\nSFX R Y 1\nSFX R cd x cd\nSFX Y N 1\nSFX Y 't s 't\n"
    dat = "charset iso8859-1\nspecial ' -*-\naffix-compress true\n"
    multi = write_dictionary(tmp_path, {"a": words("abcd/QR", "don't/Y")}, affixes, dat)
    assert forms(multi) == {"abcd", "q'd", "abx", "qx", "don't", "dons"}
    assert forms(multi, frozenset("'")) == {"abcd", "abx", "qx", "dons"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.frozensets(st.sampled_from(sorted(set("'-.abcdeilmorstuxyzòœ"))), min_size=1))
def test_pruning_is_exact_for_any_reject_set(reject):
    full = read_aspell(FIXTURES / "xx.multi")
    assert forms(FIXTURES / "xx.multi", reject) == {f for f in full if reject.isdisjoint(f)}
    check_pruned_counts(FIXTURES / "xx.multi", reject)


# --- counting what pruning leaves out --------------------------------------------------------


def test_pruned_counts_on_the_fixture():
    pruned = check_pruned_counts(FIXTURES / "xx.multi", PIPELINE_REJECT)
    # l'amò, l'hotel, l'hotels…; amo-bis, t-shirt, t-shirts; e.g.; don't; q'd (the careful Q)
    assert pruned[frozenset("'")] >= 4 and pruned[frozenset("-")] >= 3
    assert pruned[frozenset(".")] == 1


@pytest.mark.parametrize("reject", [frozenset("'"), frozenset("-."), frozenset("sx"), frozenset()])
def test_pruned_counts_on_the_fixture_for_other_reject_sets(reject):
    check_pruned_counts(FIXTURES / "xx.multi", reject)


def test_pruned_counts_only_what_the_suffix_strip_of_a_cross_product_leaves(tmp_path):
    # abc: P gives 'x-c, Q gives c, S gives ay., T gives abz-. P×S strips "bc" from 'x-c, leaving
    # 'x: 'xy.; P×T gives 'x-z-. Q×S and Q×T would strip all of c or more: no form.
    affixes = (
        "PFX P Y 1\nPFX P ab 'x- ab\nPFX Q Y 1\nPFX Q ab 0 ab\n"
        "SFX S Y 1\nSFX S bc y. bc\nSFX T Y 1\nSFX T c z- c\n"
    )
    multi = write_dictionary(tmp_path, {"a": words("abc/PQST")}, affixes)
    assert forms(multi) == {"abc", "'x-c", "c", "ay.", "abz-", "'xy.", "'x-z-"}
    pruned = check_pruned_counts(multi, PIPELINE_REJECT)
    assert pruned == {frozenset("'-"): 2, frozenset("-"): 1, frozenset("."): 1, frozenset("'."): 1}


def test_pruned_counts_duplicates(tmp_path):
    # "do" is in both parts; in part a its flags repeat (A twice): each copy of a form counts.
    affixes = "PFX A Y 2\nPFX A 0 l' .\nPFX A 0 d' .\nSFX S Y 1\nSFX S 0 s .\n"
    multi = write_dictionary(tmp_path, {"a": words("do/AAS"), "b": words("do/A")}, affixes)
    pruned = check_pruned_counts(multi, PIPELINE_REJECT)
    # part a: l'do and d'do twice each, and with s; part b: l'do, d'do
    assert pruned == {frozenset("'"): 10}


#: Random affix entries: strips, adds (with reject characters), and what the condition has
#: beside the strip.
STRIPS = ["", "a", "b", "aa", "ba", "'"]
ADDS = ["", "a", "c", "'", "-", ".", "c'", "'a", "-a", "a.", "'-", "'a.", "-.'"]
EXTRAS = ["", "", "", ".", "a", "'", "[ab]", "[^a]"]
#: The blocks of a random affix file: X is a flag on both sides; P and S have two blocks (Y/N is
#: per entry for a prefix, the last block's for a suffix).
AFFIX_BLOCKS = ["PFX X", "PFX P", "PFX Q", "SFX S", "SFX T", "SFX X", "PFX P", "SFX S"]
#: Roots for random dictionaries: short ones, so suffix strips reach into prefix adds.
ROOTS = spaced("aa ab ba aaa aab aba baa aaaa aaba abab baaa a'a a-ab ca cab")


@st.composite
def affix_files(draw: st.DrawFn) -> str:
    """A random affix file (see ``AFFIX_BLOCKS``) whose conditions are valid."""
    lines = []
    for kind, flag in map(str.split, AFFIX_BLOCKS):
        cross = draw(st.sampled_from("YYN"))
        entry = st.tuples(*map(st.sampled_from, (STRIPS, ADDS, EXTRAS)))
        entries = draw(st.lists(entry, min_size=2, max_size=5))
        lines.append(f"{kind} {flag} {cross} {len(entries)}")
        for strip, add, extra in entries:
            condition = (strip + extra if kind == "PFX" else extra + strip) or "."
            lines.append(f"{kind} {flag} {strip or 0} {add or 0} {condition}")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    affixes=affix_files(),
    lines=st.lists(
        st.tuples(st.sampled_from(ROOTS), st.text("PQSTX", max_size=4)), min_size=1, max_size=8
    ),
    reject=st.frozensets(st.sampled_from("'-.c"), min_size=1),
)
def test_pruned_counts_for_random_dictionaries(tmp_path_factory, affixes, lines, reject):
    dat = "charset iso8859-1\nspecial ' -*- - -*-\naffix-compress true\n"
    entries = [f"{root}/{flags}" if flags else root for root, flags in lines]
    directory = tmp_path_factory.mktemp("random")
    multi = write_dictionary(directory, {"a": words(*entries)}, affixes, dat)
    check_pruned_counts(multi, reject)
    # The counter alone, root by root: also for the flags the reader expands in full instead
    # (a prefix whose reject character a suffix strip can remove).
    full = _Expander(_parse_affix_file(directory / "xx_affix.dat", "iso8859-1"), lambda _: True)
    for root, flags in lines:
        if reject.isdisjoint(root):
            pruned: Counter[frozenset[str]] = Counter()
            _RejectCounter(full, reject, pruned).count_root(root, flags)
            expanded = full.expand(root, flags)
            expected = Counter(frozenset(c for c in form if c in reject) for form in expanded)
            del expected[frozenset()]
            assert pruned == expected


# --- against the real aspell -----------------------------------------------------------------


@pytest.fixture
def aspell_tools() -> None:
    """Skip (or, with LEXFORGE_REQUIRE_ASPELL=1, fail) when aspell is not installed."""
    missing = [tool for tool in ("aspell", "prezip-bin") if shutil.which(tool) is None]
    if missing:
        message = f"{' and '.join(missing)} not installed"
        if os.environ.get("LEXFORGE_REQUIRE_ASPELL") == "1":
            pytest.fail(f"{message} (LEXFORGE_REQUIRE_ASPELL=1)")
        pytest.skip(message)


def run(command: list[str], stdin: bytes = b"") -> bytes:
    """Run a tool; return its standard output (a failure shows its standard error)."""
    result = subprocess.run(
        command, input=stdin, capture_output=True, env={**os.environ, "LC_ALL": "C"}
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout


def aspell_forms(source: Path, dictionary: str, lang: str, work: Path) -> set[str]:
    """What the real aspell makes of the raw dictionary files in `source`: each part compiled with
    ``prezip-bin -d | aspell create master`` (as Debian does), then ``dump master | expand``."""
    work.mkdir(parents=True, exist_ok=True)
    for file in [*source.glob("*.dat"), *source.glob("*.multi"), *source.glob("*.alias")]:
        shutil.copy(file, work)
    dirs = [f"--dict-dir={work}", f"--local-data-dir={work}"]
    for part in source.glob("*.cwl.gz"):
        text = run(["prezip-bin", "-d"], gzip.decompress(part.read_bytes()))
        rws = work / part.name.replace(".cwl.gz", ".rws")
        run(["aspell", *dirs, f"--lang={lang}", "--dont-warn", "create", "master", str(rws)], text)
    dump = run(["aspell", *dirs, "-d", dictionary, "--encoding=utf-8", "dump", "master"])
    expanded = run(["aspell", *dirs, "-l", lang, "--encoding=utf-8", "expand"], dump)
    return set(expanded.decode("utf-8").split())


def test_fixture_equals_real_aspell(aspell_tools, tmp_path):
    expected = aspell_forms(FIXTURES, "xx", "xx", tmp_path)
    assert "recity" in expected and "recities" not in expected  # parts are dumped separately
    assert forms(FIXTURES / "xx.multi") == expected


def test_alias_equals_real_aspell(aspell_tools, tmp_path):
    """An alias naming a multi and a part, as aspell-ca ships them, read by the real binary."""
    source = tmp_path / "source"
    shutil.copytree(FIXTURES, source)
    (source / "xx-general.alias").write_text("add xx-b.multi\nadd xx-a.rws\n")
    expected = aspell_forms(source, "xx-general", "xx", tmp_path / "aspell")
    assert expected and forms(source / "xx-general.alias") == expected


def test_edge_cases_equal_real_aspell(aspell_tools, tmp_path):
    affixes = (
        CONDITIONS
        + CROSS.replace("SFX Y", "SFX T")
        + ("PFX Q Y 1\nPFX Q abc q' abc\nSFX R Y 1\nSFX R cd x cd\n")
    )
    dat = "charset iso8859-1\nspecial ' **- . -** - *--\naffix-compress true\n"
    lines = [
        "city/SY",
        "city/N",
        "box/ST",
        "credere/WYN",
        "acq/VY",
        "abcd/QR",
        "don't/Y",
        "'tis/S",
        "-s",
        "o'",
        "a-b",
        "e.g./S",
        "Nª",
        "µm",
        "c½ur/S",
        "a" * 239,
        "b" * 241,
        "c" * 237 + "/SVQ",
        "d" * 239 + "/S",
        "ok\r",
        "a b",
        "city/T",
    ]
    source = tmp_path / "source"
    write_dictionary(source, {"a": words(*lines), "b": words("city/T", "zoo/S")}, affixes, dat)
    assert forms(source / "xx.multi") == aspell_forms(source, "xx", "xx", tmp_path / "aspell")


def test_fixture_parts_decode_like_prezip_bin(aspell_tools):
    for part in FIXTURES.glob("*.cwl.gz"):
        expected = run(["prezip-bin", "-d"], gzip.decompress(part.read_bytes()))
        assert _read_word_list(part) == expected


def test_shipped_parts_decode_like_prezip_bin(aspell_tools):
    """Every compressed part of the seven shipped dictionaries (both formats: French's are
    0x01), 1.5 million lines, as the real decoder prints them."""
    parts = sorted(RAW.glob("*/aspell/*.cwl.gz"))
    assert {gzip.decompress(part.read_bytes())[:1] for part in parts} == {b"\x01", b"\x02"}
    for part in parts:
        expected = run(["prezip-bin", "-d"], gzip.decompress(part.read_bytes()))
        assert _read_word_list(part) == expected, part


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.binary(max_size=70).filter(lambda b: b"\n" not in b), max_size=30))
def test_prezip_format_equals_prezip_bin(aspell_tools, tmp_path_factory, lines):
    text = b"".join(line + b"\n" for line in lines)
    compressed = run(["prezip-bin", "-z"], text)
    assert compressed == prezip(lines)  # the test encoder writes what prezip-bin writes
    directory = tmp_path_factory.mktemp("prezip")
    write_dictionary(directory, {"a": compressed})
    assert _read_word_list(directory / "xx-a.cwl.gz") == text


def test_shipped_portuguese_equals_real_aspell(aspell_tools, tmp_path):
    source = RAW / "pt" / "aspell"
    expected = aspell_forms(source, "pt_PT", "pt_PT", tmp_path)
    assert len(expected) > 400_000
    assert forms(source / "pt_PT.multi") == expected
