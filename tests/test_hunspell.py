"""The hunspell reader (lexforge.sources.hunspell).

Unit tests write small .dic/.aff pairs in tmp_path, one feature each, with the forms the hunspell
documentation gives. Oracle tests check the same fixtures against the real hunspell: every word
a brute force makes from the fixture (every affix entry applied to every root, one or two
suffixes, then a prefix, flags and conditions ignored) is fed to ``hunspell -G``; what it accepts
must be exactly what the reader yields. A shipped dictionary is checked against ``hunspell -G`` and
``unmunch``. Oracle tests are skipped when hunspell is not installed, unless
LEXFORGE_REQUIRE_HUNSPELL=1 (as in CI), which makes them fail instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from lexforge.errors import UserError
from lexforge.sources.hunspell import read_hunspell, read_hunspell_forms
from lexforge.sources.read import read_entries

RAW = Path(__file__).parent.parent / "raw"

# --- helpers ---------------------------------------------------------------------------------


def write(tmp_path: Path, aff: str, *words: str, encoding: str = "utf-8") -> Path:
    """Write ``xx.aff`` and ``xx.dic`` (the word count, then `words`); return the .dic."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "xx.aff").write_bytes(aff.encode(encoding))
    dic = tmp_path / "xx.dic"
    dic.write_bytes(f"{len(words)}\n".encode() + "".join(f"{w}\n" for w in words).encode(encoding))
    return dic


def forms(dic: Path) -> set[str]:
    """The set of forms the reader yields."""
    return set(read_hunspell(dic))


def user_error(dic: Path) -> str:
    """The message of the UserError reading `dic` raises; it must be one line."""
    with pytest.raises(UserError) as info:
        list(read_hunspell_forms(dic))
    assert "\n" not in str(info.value)
    return str(info.value)


BASIC = """SET UTF-8
PFX A Y 1
PFX A 0 re .
PFX B N 1
PFX B 0 un .
SFX S Y 3
SFX S y ies [^aeiou]y
SFX S 0 s [aeiou]y
SFX S 0 s [^y]
SFX D N 1
SFX D 0 ed [^y]
"""
BASIC_WORDS = ("city/SA", "play/SAB", "work/DAB", "try/S", "zoo")

# --- features --------------------------------------------------------------------------------


def test_suffixes_prefixes_conditions_strips_and_cross_products(tmp_path):
    assert forms(write(tmp_path, BASIC, *BASIC_WORDS)) == {
        *["city", "cities", "recity", "recities"],
        *["play", "plays", "replay", "replays", "unplay"],  # B is not a cross product: no unplays
        *["work", "worked", "rework", "unwork"],  # D is not a cross product: no reworked
        *["try", "tries", "zoo"],
    }


def test_prefix_condition_is_tested_on_the_suffixed_form(tmp_path):
    aff = "PFX P Y 1\nPFX P 0 x ab\nSFX S Y 1\nSFX S 0 b .\n"
    # The prefix's condition needs two letters: the root has one, its suffixed form two.
    assert forms(write(tmp_path, aff, "a/PS")) == {"a", "ab", "xab"}


@pytest.mark.parametrize(
    ("flag_line", "flags"),
    [
        ("", {"S": "S", "A": "A"}),
        ("FLAG long\n", {"S": "Ss", "A": "Aa"}),
        ("FLAG num\n", {"S": "101", "A": "7"}),
        ("FLAG UTF-8\n", {"S": "ß", "A": "Ä"}),
    ],
)
def test_flag_types_read_the_same_dictionary(tmp_path, flag_line, flags):
    sep = "," if flag_line == "FLAG num\n" else ""
    aff = f"SET UTF-8\n{flag_line}PFX {flags['A']} Y 1\nPFX {flags['A']} 0 re .\n"
    aff += f"SFX {flags['S']} Y 1\nSFX {flags['S']} 0 s .\n"
    dic = write(tmp_path, aff, f"cat/{flags['S']}{sep}{flags['A']}", f"dog/{flags['S']}")
    assert forms(dic) == {"cat", "cats", "recat", "recats", "dog", "dogs"}


def test_char_flags_are_bytes_so_a_two_byte_flag_is_two_flags(tmp_path):
    # Without FLAG UTF-8, hunspell reads 'é' (two UTF-8 bytes) in the .dic as two flags and the
    # affix header's 'é' as its first byte: the suffix applies, and so does flag 0xA9.
    aff = "SET UTF-8\nSFX é Y 1\nSFX é 0 s .\nSFX \xa9 Y 1\nSFX \xa9 0 x .\n"
    aff_bytes = aff.encode("utf-8").replace("\xa9".encode(), b"\xa9")
    dic = write(tmp_path, "", "cat/é")
    (tmp_path / "xx.aff").write_bytes(aff_bytes)
    assert forms(dic) == {"cat", "cats", "catx"}


def test_flag_and_field_aliases(tmp_path):
    aff = (
        "FLAG long\nAF 2\nAF AaBb # both\nAF Aa\nAM 2\nAM po:noun\nAM is:pl\n"
        "SFX Aa Y 1\nSFX Aa 0 s . 2\nPFX Bb Y 1\nPFX Bb 0 re .\n"
    )
    dic = write(tmp_path, aff, "cat/1\t1", "dog/2")
    assert set(read_hunspell_forms(dic)) == {
        ("cat", ("po:noun",)),
        ("cats", ("po:noun", "is:pl")),
        ("recat", ("po:noun",)),
        ("recats", ("po:noun", "is:pl")),
        ("dog", ()),
        ("dogs", ("is:pl",)),
    }


def test_morphological_fields_of_root_prefix_and_suffixes(tmp_path):
    aff = (
        "FLAG long\nPFX L' Y 1\nPFX L' 0 l' [aeiou] dp:le\n"
        "SFX S. Y 1\nSFX S. 0 s/X. . is:pl\nSFX X. Y 1\nSFX X. 0 x . is:x\n"
    )
    dic = write(tmp_path, aff, "ami/L'S. po:nom is:mas", "zut\tpo:interj")
    assert set(read_hunspell_forms(dic)) == {
        ("ami", ("po:nom", "is:mas")),
        ("amis", ("po:nom", "is:mas", "is:pl")),
        ("amisx", ("po:nom", "is:mas", "is:pl", "is:x")),
        ("l'ami", ("po:nom", "is:mas", "dp:le")),
        ("l'amis", ("po:nom", "is:mas", "dp:le", "is:pl")),
        ("l'amisx", ("po:nom", "is:mas", "dp:le", "is:pl", "is:x")),
        ("zut", ("po:interj",)),
    }


def test_tags_keep_only_the_forms_of_roots_carrying_one(tmp_path):
    aff = "SFX S Y 1\nSFX S 0 s . is:pl\n"
    dic = write(tmp_path, aff, "Paris po:npr", "pari/S po:nom", "Anna/S po:prn", "zut po:interj")
    every = list(read_hunspell_forms(dic))
    tagged = list(read_hunspell_forms(dic, frozenset({"po:npr", "po:prn"})))
    # the same forms as the full expansion restricted to roots whose own fields hold a tag
    assert tagged == [(f, fields) for f, fields in every if {"po:npr", "po:prn"} & set(fields)]
    assert [form for form, _ in tagged] == ["Paris", "Anna", "Annas"]  # not "paris" (pari + s)


@pytest.mark.parametrize(
    "aff",
    [
        "FORBIDDENWORD !\nSFX S Y 1\nSFX S 0 s . is:pl\n",
        "FLAG long\nFORBIDDENWORD !!\nSFX Ss Y 1\nSFX Ss 0 s . is:pl\n",
        "FLAG num\nFORBIDDENWORD 99\nSFX 7 Y 1\nSFX 7 0 s . is:pl\n",
    ],
)
def test_an_untagged_forbidden_entry_still_hides_a_tagged_form(tmp_path, aff):
    """Only tagged lines are parsed, unless a line may carry FORBIDDENWORD: its entry, untagged,
    hides the form ANNAS of a tagged root."""
    flag = {"!": "S", "!!": "Ss", "99": "7"}[aff.split("FORBIDDENWORD ")[1].split("\n")[0]]
    forbidden = aff.split("FORBIDDENWORD ")[1].split("\n")[0]
    dic = write(tmp_path, aff, f"Annas/{forbidden}", f"Anna/{flag} po:prn", "zut po:interj")
    tagged = list(read_hunspell_forms(dic, frozenset({"po:prn"})))
    assert [form for form, _ in tagged] == ["Anna"]


@pytest.mark.skipif(not (RAW / "fr/hunspell/fr.dic").is_file(), reason="no French hunspell")
def test_tags_on_the_shipped_french_dictionary():
    """The names the German lexicons take from French: the full expansion's forms of the tagged
    roots, though only the tagged lines are parsed."""
    tags = frozenset({"po:npr", "po:prn", "po:patr"})
    tagged = list(read_hunspell_forms(RAW / "fr/hunspell/fr.dic", tags))
    every = read_hunspell_forms(RAW / "fr/hunspell/fr.dic")
    assert tagged == [(form, fields) for form, fields in every if tags & set(fields)]
    names = {form for form, _ in tagged}
    assert {"Paris", "Berlin", "Londres"} <= names
    assert "paris" not in names and "maison" not in names


TWO_LEVEL = """SFX X Y 1
SFX X 0 able/Y .
SFX Y Y 1
SFX Y 0 s .
PFX P Y 1
PFX P 0 un .
SFX Z N 1
SFX Z 0 ing/Y .
"""


def test_two_level_suffixes_and_a_prefix_over_both(tmp_path):
    dic = write(tmp_path, TWO_LEVEL, "drink/XP", "sing/Z", "walk/ZP")
    assert forms(dic) == {
        *["drink", "drinkable", "drinkables", "undrink", "undrinkable", "undrinkables"],
        *["sing", "singing", "singings"],  # Y only through Z: no sings
        *["walk", "walking", "walkings", "unwalk"],  # Z is not a cross product: no unwalking(s)
    }


def test_continuation_classes_enable_the_other_side(tmp_path):
    aff = (
        "PFX P Y 1\nPFX P 0 re/S .\nSFX S Y 1\nSFX S 0 s .\n"
        "SFX T Y 1\nSFX T 0 ing/Q .\nPFX Q Y 1\nPFX Q 0 un .\n"
    )
    assert forms(write(tmp_path, aff, "do/P", "go/T")) == {
        *["do", "redo", "redos"],  # the prefix brings the suffix: no dos
        *["go", "going", "ungoing"],  # the suffix brings the prefix: no ungo
    }


def test_needaffix_roots_and_affixes(tmp_path):
    aff = (
        "NEEDAFFIX N\nSFX S Y 1\nSFX S 0 s .\nSFX T Y 1\nSFX T 0 ness/NU .\n"
        "SFX U Y 1\nSFX U 0 es .\nPFX Q Y 1\nPFX Q 0 pre/N .\n"
    )
    assert forms(write(tmp_path, aff, "foo/NS", "bar/T", "baz/QS")) == {
        "foos",  # the root needs an affix
        "bar",
        "barnesses",  # the suffix needs another affix: no barness
        *["baz", "bazs", "prebazs"],  # the prefix needs another affix: no prebaz
    }


def test_circumfix(tmp_path):
    # hunspell's tests/circumfix: the superlative prefix comes only with its suffix.
    aff = (
        "CIRCUMFIX X\nPFX A Y 1\nPFX A 0 leg/X .\nPFX B Y 1\nPFX B 0 legesleg/X .\n"
        "SFX C Y 3\nSFX C 0 obb . +COMPARATIVE\nSFX C 0 obb/AX . +SUPERLATIVE\n"
        "SFX C 0 obb/BX . +SUPERSUPERLATIVE\n"
    )
    dic = write(tmp_path, aff, "nagy/C po:adj")
    assert forms(dic) == {"nagy", "nagyobb", "legnagyobb", "legeslegnagyobb"}
    assert ("legnagyobb", ("po:adj", "+SUPERLATIVE")) in set(read_hunspell_forms(dic))


def test_forbidden_words_and_roots(tmp_path):
    aff = "FORBIDDENWORD F\nSFX S Y 1\nSFX S 0 s .\n"
    dic = write(tmp_path, aff, "foot/S", "foots/F", "bar/SF", "baz/F", "baz/S", "qux/S", "qux/F")
    # foots is forbidden; bar/SF makes nothing; baz's first entry is forbidden, so baz is not a
    # word but bazs (from baz/S) is; qux's first entry is not forbidden, so qux is a word.
    assert forms(dic) == {"foot", "bazs", "qux", "quxs"}


def test_onlyincompound_roots_and_affixes(tmp_path):
    aff = "ONLYINCOMPOUND O\nSFX S Y 1\nSFX S 0 s .\nSFX T Y 1\nSFX T 0 s/O .\n"
    assert forms(write(tmp_path, aff, "foo/OS", "bar/T", "baz/ST")) == {"bar", "baz", "bazs"}


def test_keepcase_words_are_forms_as_written(tmp_path):
    aff = "KEEPCASE K\nSFX S Y 1\nSFX S 0 s .\n"
    assert forms(write(tmp_path, aff, "NASA/K", "iPod/KS")) == {"NASA", "iPod", "iPods"}


def test_ignored_characters_are_removed_from_words_and_affixes(tmp_path):
    aff = "SET UTF-8\nIGNORE ־\nSFX S Y 1\nSFX S 0 ־ים .\n"
    assert forms(write(tmp_path, aff, "ספ־ר/S")) == {"ספר", "ספרים"}


def test_forms_iconv_changes_are_left_out(tmp_path):
    aff = "SET UTF-8\nICONV 2\nICONV ’ '\nICONV _ß ss\nSFX S Y 1\nSFX S 0 ’s .\n"
    dic = write(tmp_path, aff, "can't", "don’t", "ßa", "aß/S")
    # hunspell turns ’ into ' before looking a word up: don’t and aß’s can never match;
    # ß is converted only at the start of a word.
    assert forms(dic) == {"can't", "aß"}
    # Without an affix that adds ’, only the roots holding one are tested.
    dic = write(tmp_path, "ICONV 1\nICONV ’ '\nSFX S Y 1\nSFX S 0 s .\n", "don’t/S", "can't/S")
    assert forms(dic) == {"can't", "can'ts"}


def test_set_encoding_decodes_both_files(tmp_path):
    aff = "SET ISO8859-1\nSFX S Y 1\nSFX S 0 és [^é]\n"
    dic = write(tmp_path, aff, "café/S", "caf/S", encoding="latin-1")
    assert forms(dic) == {"café", "caf", "cafés"}


def test_fullstrip_lets_an_affix_replace_the_whole_root(tmp_path):
    aff = "SFX A Y 1\nSFX A abc xyz abc\n"
    assert forms(write(tmp_path, aff, "abc/A", "zabc/A")) == {"abc", "zabc", "zxyz"}
    assert forms(write(tmp_path, "FULLSTRIP\n" + aff, "abc/A")) == {"abc", "xyz"}


def test_compounding_is_not_expanded(tmp_path):
    aff = "COMPOUNDFLAG C\nCOMPOUNDMIN 1\n"
    assert forms(write(tmp_path, aff, "foot/C", "ball/C")) == {"foot", "ball"}


def test_dictionary_lines(tmp_path):
    dic = write(
        tmp_path,
        "SFX S Y 1\nSFX S 0 s .\n",
        "a\\/b/S",  # an escaped slash is part of the word
        "/xS",  # a leading slash is the word: hunspell splits after it, dropping the x
        "New York/S po:npr",  # a space inside the word
        "trailing/",  # a slash with no flags
        "blank ",  # a blank ending a line without fields stays in the word
        "",
    )
    assert forms(dic) == {"a/b", "a/bs", "/", "/s", "New York", "New Yorks", "trailing", "blank "}


def test_duplicates_are_yielded_and_read_entries_dispatches(tmp_path):
    dic = write(tmp_path, "SFX S Y 1\nSFX S 0 s .\n", "cat/S", "cat")
    assert sorted(read_entries("hunspell", dic)) == ["cat", "cat", "cats"]


def test_pruned_forms_are_counted_by_their_reject_characters(tmp_path):
    aff = "SFX S Y 2\nSFX S 0 's .\nSFX S 0 s .\nPFX P Y 1\nPFX P 0 a- .\n"
    dic = write(tmp_path, aff, "cat/SP", "o'clock/S", "cat/S")
    full = list(read_hunspell(dic))
    reject = frozenset("'-")
    pruned: Counter[frozenset[str]] = Counter()
    kept = list(read_hunspell(dic, reject, pruned))
    assert kept == [form for form in full if reject.isdisjoint(form)]
    expected = Counter(frozenset(reject.intersection(form)) for form in full)
    del expected[frozenset()]
    assert pruned == expected and sum(pruned.values()) + len(kept) == len(full)


def assert_pruning_is_exact(dic: Path, reject: frozenset[str]) -> Counter[frozenset[str]]:
    """The forms read with `reject` are the full expansion's without a reject character, and
    the counts of the others are theirs; return those counts."""
    full = Counter(read_hunspell(dic))
    pruned: Counter[frozenset[str]] = Counter()
    kept = Counter(read_hunspell(dic, reject, pruned))
    assert kept == Counter({form: n for form, n in full.items() if reject.isdisjoint(form)})
    expected: Counter[frozenset[str]] = Counter()
    for form, n in full.items():
        if not reject.isdisjoint(form):
            expected[reject.intersection(form)] += n
    assert pruned == expected
    return pruned


# Elision prefixes (their forms are never made when the apostrophe is a reject character, only
# counted): crossed with one and two suffixes, enabling a suffix, needing an affix, on a root
# that holds an apostrophe itself, and a prefix whose strip reaches into a short word.
ELISION = """SET UTF-8
PFX T Y 3
PFX T 0 l' [aeiou]
PFX T 0 dell' [aeiou]
PFX T a all'A a
PFX N Y 1
PFX N 0 un'/S .
PFX K Y 1
PFX K 0 d'/Z .
PFX B Y 1
PFX B 0 ri .
SFX S Y 2
SFX S o i o
SFX S 0 ne/Y [ao]
SFX Y Y 1
SFX Y 0 ro/T .
SFX Z Y 1
SFX Z 0 zz .
NEEDAFFIX Q
"""


@pytest.mark.parametrize(
    "words",
    [
        ("amico/TSB", "acqua/TS", "a/T", "ora/TNS", "erba/KS", "o'ra/TS", "ala/TS"),
        ("uovo/TSBQ", "arte/TN", "eco/K", "isola/TSN"),
    ],
)
def test_reject_prefixes_are_counted_not_made(tmp_path, words):
    pruned = assert_pruning_is_exact(write(tmp_path, ELISION, *words), frozenset("'-"))
    assert pruned[frozenset("'")] > 0


@pytest.mark.skipif(not (RAW / "it/hunspell/it_IT.dic").is_file(), reason="no Italian hunspell")
def test_reject_prefixes_on_a_sample_of_the_italian_dictionary(tmp_path):
    """hunspell-it's elided articles (L'ACQUA, DELL'ACQUA) cross nearly every form: counted
    without being made, the counts and forms are those of the full expansion, filtered."""
    lines = (RAW / "it/hunspell/it_IT.dic").read_text(encoding="utf-8").splitlines()[1::150]
    dic = write(tmp_path, (RAW / "it/hunspell/it_IT.aff").read_text(encoding="utf-8"), *lines)
    pruned = assert_pruning_is_exact(dic, frozenset("'-. 0123456789"))
    assert pruned[frozenset("'")] > 100_000


@pytest.mark.parametrize(
    ("aff", "words", "problem"),
    [
        ("FLAG wide\n", ("a",), "xx.aff:1: unknown FLAG type 'wide'"),
        ("SET klingon\n", ("a",), "unknown encoding SET 'klingon'"),
        ("COMPLEXPREFIXES\n", ("a",), "xx.aff:1: COMPLEXPREFIXES is not supported"),
        ("SFX S Y 2\nSFX S 0 s .\n", ("a",), "xx.aff:1: the file ends inside this SFX block"),
        ("SFX S Y 1\nSFX T 0 s .\n", ("a",), "xx.aff:2: corrupt affix entry"),
        ("SFX S Y x\n", ("a",), "xx.aff:1: bad entry count 'x'"),
        ("SFX S Y 1\nSFX S 0 s [ab\n", ("a",), "xx.aff:2: unclosed '[' in condition"),
        ("AF 2\nAF ab\n", ("a",), "xx.aff:1: the AF table ends after 1 of 2 lines"),
        ("FLAG num\n", ("a/x",), "xx.dic:2: bad numeric flags 'x'"),
    ],
)
def test_malformed_files_are_one_line_errors_naming_file_and_line(tmp_path, aff, words, problem):
    assert problem in user_error(write(tmp_path, aff, *words))


def test_missing_files_and_word_count(tmp_path):
    assert "no such word list" in user_error(tmp_path / "none.dic")
    assert "not a hunspell dictionary" in user_error(tmp_path / "xx.aff")
    dic = tmp_path / "xx.dic"
    dic.write_text("1\ncat\n")
    assert "xx.aff: no such affix file" in user_error(dic)
    write(tmp_path, "", "cat")
    dic.write_text("cat\n")
    assert "xx.dic:1: expected the number of words" in user_error(dic)


def test_pipeline_read_prints_the_forms(tmp_path):
    dic = write(tmp_path, BASIC, *BASIC_WORDS)
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.read", "--format", "hunspell", str(dic)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parent,
        check=True,
    )
    assert set(result.stdout.splitlines()) == forms(dic)


def test_a_config_source_spans_the_dic_and_its_aff(tmp_path):
    from pipeline.config import load_config

    dic = write(tmp_path / "raw", BASIC, *BASIC_WORDS)
    config = tmp_path / "config.yaml"
    languages = Path(__file__).parent.parent / "lexforge" / "languages"
    config.write_text(
        f"languages_dir: {languages}\nlexicons:\n  xx:\n    language: en\n"
        f"    sources:\n      - {{format: hunspell, path: {dic}}}\n"
    )
    (source,) = load_config(config).lexicons["xx"].sources
    assert source.files() == [dic, dic.with_suffix(".aff")]
    assert source.case_sensitive and source.id == "hunspell:xx.dic"


def test_the_cli_reads_a_hunspell_word_list(tmp_path):
    dic = write(tmp_path, BASIC, *BASIC_WORDS)
    lexforge = Path(sys.executable).with_name("lexforge")
    result = subprocess.run(
        [
            str(lexforge),
            "anagram",
            "seitic",
            "-d",
            str(dic),
            "--list-format",
            "hunspell",
            "--exact",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["CITIES"]


# --- against the real hunspell ---------------------------------------------------------------


@pytest.fixture
def hunspell_tools() -> None:
    """Skip (or, with LEXFORGE_REQUIRE_HUNSPELL=1, fail) when hunspell is not installed."""
    missing = [tool for tool in ("hunspell", "unmunch") if shutil.which(tool) is None]
    if missing:
        message = f"{' and '.join(missing)} not installed"
        if os.environ.get("LEXFORGE_REQUIRE_HUNSPELL") == "1":
            pytest.fail(f"{message} (LEXFORGE_REQUIRE_HUNSPELL=1)")
        pytest.skip(message)


def hunspell_accepts(dic: Path, words: set[str]) -> set[str]:
    """The words of `words` that ``hunspell -G`` prints back (it prints the words it accepts)."""
    result = subprocess.run(
        ["hunspell", "-i", "UTF-8", "-d", str(dic.with_suffix("")), "-G"],
        input="".join(f"{word}\n" for word in sorted(words)).encode(),
        capture_output=True,
        env={**os.environ, "LC_ALL": "C"},
        check=True,
    )
    return set(result.stdout.decode().splitlines()) & words


def candidates(aff: str, words: tuple[str, ...]) -> set[str]:
    """Every word the affix entries of `aff` could make of the roots, ignoring flags and
    conditions: one or two suffixes, then a prefix (a superset of what hunspell accepts)."""
    entries = [
        (fields[0], "" if fields[2] == "0" else fields[2], fields[3].split("/")[0])
        for fields in map(str.split, aff.splitlines())
        if len(fields) >= 5 and fields[0] in ("PFX", "SFX")
    ]
    roots = {word.split("/")[0].split("\t")[0].split(" po:")[0] for word in words if word}
    level = set(roots)
    for _ in range(2):
        level |= {
            word[: len(word) - len(strip)] + ("" if add == "0" else add)
            for word in level
            for kind, strip, add in entries
            if kind == "SFX" and word.endswith(strip) and len(word) >= len(strip)
        }
    return level | {
        ("" if add == "0" else add) + word[len(strip) :]
        for word in level
        for kind, strip, add in entries
        if kind == "PFX" and word.startswith(strip)
    }


ORACLE_CASES = {
    "basic": (BASIC, BASIC_WORDS),
    "two-level": (TWO_LEVEL, ("drink/XP", "sing/Z", "walk/ZP")),
    "prefix-condition": ("PFX P Y 1\nPFX P 0 x ab\nSFX S Y 1\nSFX S 0 b .\n", ("a/PS",)),
    "enabling": (
        "PFX P Y 1\nPFX P 0 re/S .\nSFX S Y 1\nSFX S 0 s .\n"
        "SFX T Y 1\nSFX T 0 ing/Q .\nPFX Q Y 1\nPFX Q 0 un .\n",
        ("do/P", "go/T"),
    ),
    "needaffix": (
        "NEEDAFFIX N\nSFX S Y 1\nSFX S 0 s .\nSFX T Y 1\nSFX T 0 ness/NU .\n"
        "SFX U Y 1\nSFX U 0 es .\nPFX Q Y 1\nPFX Q 0 pre/N .\n",
        ("foo/NS", "bar/T", "baz/QS"),
    ),
    "circumfix": (
        "CIRCUMFIX X\nPFX A Y 1\nPFX A 0 leg/X .\nPFX B Y 1\nPFX B 0 legesleg/X .\n"
        "SFX C Y 3\nSFX C 0 obb . +COMPARATIVE\nSFX C 0 obb/AX . +SUPERLATIVE\n"
        "SFX C 0 obb/BX . +SUPERSUPERLATIVE\nPFX D Y 1\nPFX D 0 meg/X .\n",
        ("nagy/C", "kis/CD"),
    ),
    "forbidden": (
        "FORBIDDENWORD F\nSFX S Y 1\nSFX S 0 s .\n",
        ("foot/S", "foots/F", "bar/SF", "baz/F", "baz/S", "qux/S", "qux/F"),
    ),
    "onlyincompound": (
        "ONLYINCOMPOUND O\nSFX S Y 1\nSFX S 0 s .\nSFX T Y 1\nSFX T 0 s/O .\n",
        ("foo/OS", "bar/T", "baz/ST"),
    ),
    "long-flags-and-aliases": (
        "FLAG long\nAF 2\nAF AaBb\nAF Aa\nSFX Aa Y 1\nSFX Aa y ies [^e]y\n"
        "PFX Bb Y 1\nPFX Bb 0 re [ct]\n",
        ("city/1", "try/1", "play/2"),
    ),
    "fullstrip": ("FULLSTRIP\nSFX A Y 1\nSFX A abc xyz abc\n", ("abc/A", "zabc/A")),
    "utf8-conditions": (
        "SET UTF-8\nFLAG UTF-8\nSFX É Y 2\nSFX É é ées [^ï]é\nSFX É 0 s [^é]\n"
        "PFX Ü Y 1\nPFX Ü ü ö [ü]\n",
        ("aimé/ÉÜ", "naïé/É", "üla/ÉÜ"),
    ),
}


@pytest.mark.parametrize("case", ORACLE_CASES)
def test_fixture_forms_equal_what_real_hunspell_accepts(hunspell_tools, tmp_path, case):
    aff, words = ORACLE_CASES[case]
    dic = write(tmp_path, aff if aff.startswith("SET") else "SET UTF-8\n" + aff, *words)
    made = candidates(aff, words)
    assert forms(dic) <= made  # the brute force covers the reader
    assert forms(dic) == hunspell_accepts(dic, made)


def test_shipped_english_equals_hunspell_and_unmunch(hunspell_tools):
    dic = RAW / "en" / "hunspell" / "en_US.dic"
    made = forms(dic)
    assert len(made) > 150_000
    assert hunspell_accepts(dic, made) == made
    result = subprocess.run(
        ["unmunch", str(dic), str(dic.with_suffix(".aff"))], capture_output=True, check=True
    )
    unmunched = set(result.stdout.decode().splitlines())
    # unmunch ignores ONLYINCOMPOUND: it prints the compound-only roots 1th, 2th, 3th, which
    # hunspell rejects; otherwise the two expansions are the same.
    assert unmunched - made == {"1th", "2th", "3th"}
    assert not hunspell_accepts(dic, unmunched - made)
    assert made <= unmunched
