"""The quality report (the tables step writes it) and ``lexforge report`` on a small hand-made
lexicon: every figure checked against counts made here from the words, the previous build's
change, determinism."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from step_inputs import compiled_args

from lexforge.errors import UserError
from lexforge.report import load_report, render_text
from pipeline import report as report_builder
from pipeline import tables

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("dict:a", "aspell:b.multi")
# word → sources holding it (bit 0: dict:a, bit 1: aspell:b.multi)
FIRST = {
    "AB": 3, "AH": 1, "BRR": 2, "CAT": 3, "CWM": 1, "DOG": 3, "MIX": 3, "XIV": 2, "HALLO": 3,
    "SHHHH": 2, "ZZZZZ": 1, "RATES": 3, "STARE": 2, "TEARS": 1, "WORDS": 3,
}  # fmt: skip
# Roman numerals up to 3999, written independently of pipeline.report.ROMAN
ROMAN_NUMERAL = "|".join(
    "M" * (n // 1000)
    + ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"][n // 100 % 10]
    + ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"][n // 10 % 10]
    + ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"][n % 10]
    for n in range(1, 4000)
)
SECOND = {**{w: m for w, m in FIRST.items() if w not in ("AH", "TEARS")}, "OX": 3, "ZEBRA": 1}


def write_inputs(folder: Path, words: dict[str, int], alphabet_rejections: int) -> list[str]:
    """words.txt, words.tsv, sources.json and the anagram index of a lexicon; the arguments of
    the tables step, which writes the report."""
    folder.mkdir(parents=True, exist_ok=True)
    ordered = sorted(words)
    (folder / "words.tsv").write_text("".join(f"{w}\t{words[w]}\n" for w in ordered))
    holds = [sum(1 for m in words.values() if m >> i & 1) for i in range(2)]
    sources = [
        {"id": SOURCES[0], "files": {}, "read": holds[0] + 7, "kept": holds[0],
         "words": holds[0], "rejected": {"hyphen": 7, "alphabet": 0}},
        {"id": SOURCES[1], "files": {}, "read": holds[1] + 2 + alphabet_rejections,
         "kept": holds[1], "words": holds[1],
         "rejected": {"hyphen": 2, "alphabet": alphabet_rejections},
         "examples": {"alphabet": ["col·lecció", "cel·la"][: min(2, alphabet_rejections)]}},
    ]  # fmt: skip
    (folder / "sources.json").write_text(json.dumps(sources))
    return [
        "--config", str(ROOT / "config/config.yaml"), "--lexicon", "en", "--out", str(folder),
        "--words", str(folder / "words.tsv"),
        "--sources", str(folder / "sources.json"),
        *compiled_args(folder, ordered),
    ]  # fmt: skip


def test_report_figures_match_the_words(tmp_path):
    args = write_inputs(tmp_path / "one", FIRST, 0)
    assert tables.main(args) == 0
    report = json.loads((tmp_path / "one/report.json").read_text())
    assert report["words"] == len(FIRST)
    assert report["two_letter"] == ["AB", "AH"]
    assert report["three_letter"] == sorted(w for w in FIRST if len(w) == 3)
    for row in report["lengths"]:
        at = {w: m for w, m in FIRST.items() if len(w) == row["length"]}
        assert row["words"] == len(at)
        assert row["only"] == {
            s: sum(m == 1 << i for m in at.values()) for i, s in enumerate(SOURCES)
        }
        assert row["shared"] == sum(m == 3 for m in at.values())
    alone = Counter((SOURCES[m.bit_length() - 1], len(w)) for w, m in FIRST.items() if m in (1, 2))
    assert {(r["source"], r["length"]): r["count"] for r in report["only_one_source"]} == alone
    kinds = {k["kind"]: k["words"] for k in report["suspicious"]}
    assert kinds == {
        "no-vowel": ["BRR", "CWM", "SHHHH", "ZZZZZ"],  # vowels from the language's classify
        "repeated-letter": ["SHHHH", "ZZZZZ"],
        "roman-numeral": ["MIX", "XIV"],
    }
    assert report["change"] is None
    rejections = {(r["source"], r["reason"]): r for r in report["rejections"]}
    assert rejections[(SOURCES[0], "hyphen")]["count"] == 7
    assert rejections[(SOURCES[0], "hyphen")]["share"] == 7 / (
        7 + sum(m & 1 for m in FIRST.values())
    )
    assert rejections[(SOURCES[1], "alphabet")]["previous"] is None
    assert not rejections[(SOURCES[0], "hyphen")]["listed"]  # a character class: examples only
    assert rejections[(SOURCES[1], "alphabet")]["listed"]

    # the words step's removed.tsv, copied beside the report, linked from it, in the manifest
    given = (tmp_path / "one/work-removed.tsv").read_bytes()
    assert (tmp_path / "one/removed.tsv").read_bytes() == given
    manifest = json.loads((tmp_path / "one/manifest.json").read_text())
    assert "removed.tsv" in {artifact["name"] for artifact in manifest["artifacts"]}
    page = (tmp_path / "one/report.html").read_text()
    assert '<a href="removed.tsv">' in page
    assert page.count("<svg") == 1 and "<script" not in page.lower()
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert all(word in page for word, mask in FIRST.items() if len(word) <= 3 or mask != 3)


def test_vowel_check_uses_the_language_vowels():
    words = ["BRR", "CAT", "CWM", "NTH", "RHYTHM"]
    (no_vowel, *_) = report_builder.suspicious(words, "ABCHMNRTWY", "AEIOU")
    assert no_vowel["kind"] == "no-vowel" and no_vowel["words"] == ["BRR", "CWM", "NTH", "RHYTHM"]
    (no_vowel, *_) = report_builder.suspicious(words, "ABCHMNRTWY", "AEIOUY")
    assert no_vowel["words"] == ["BRR", "CWM", "NTH"]
    assert [k["kind"] for k in report_builder.suspicious(words, "ABC", None)] == [
        "repeated-letter",
        "roman-numeral",
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="AÉIMXVCLDÑŁ", min_size=1, max_size=9), max_size=80, unique=True),
    st.sampled_from(["AÉI", "Ñ", "XL"]),
)
def test_suspicious_words_are_those_of_their_definitions(words, vowels):
    """The screens (one text scanned, runs found by array comparisons) against their plain
    definitions, word by word, on ASCII and non-ASCII letters (Ł is beyond Latin-1)."""
    words = sorted(words)
    alphabet = "AÉIMXVCLDÑŁ"
    found = {k["kind"]: k for k in report_builder.suspicious(words, alphabet, vowels)}
    definitions = {
        "no-vowel": [w for w in words if not set(w) & set(vowels)],
        "repeated-letter": [w for w in words if any(c * 4 in w for c in alphabet)],
        "roman-numeral": [w for w in words if len(w) >= 2 and re.fullmatch(ROMAN_NUMERAL, w)],
    }
    for kind, expected in definitions.items():
        assert found[kind]["count"] == len(expected)
        assert found[kind]["words"] == report_builder.sample(expected, report_builder.LISTED)


def test_tables_step_does_not_import_pandas(tmp_path):
    """pyarrow would import pandas (0.45 s) only to test its inputs for pandas objects."""
    args = write_inputs(tmp_path / "xx", FIRST, 0)
    code = (
        "import json, sys; from pipeline import tables;"
        " code = tables.main(json.loads(sys.argv[1])); print(code, 'pandas' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "False"]
    assert (tmp_path / "xx/report.json").is_file() and (tmp_path / "xx/stats.parquet").is_file()


def test_change_since_the_previous_build_and_jumping_rejections(tmp_path):
    folder = tmp_path / "lexicon"
    assert tables.main(write_inputs(folder, FIRST, 0)) == 0
    first = (folder / "report.json").read_bytes()
    assert tables.main(write_inputs(folder, FIRST, 0)) == 0  # a rerun: still no previous build
    assert (folder / "report.json").read_bytes() == first

    args = write_inputs(folder, SECOND, 480)
    assert tables.main(args) == 0
    report = json.loads((folder / "report.json").read_text())
    change = report["change"]
    assert change["previous_words"] == len(FIRST)
    assert change["added_sample"] == sorted(set(SECOND) - set(FIRST)) == ["OX", "ZEBRA"]
    assert change["removed_sample"] == sorted(set(FIRST) - set(SECOND)) == ["AH", "TEARS"]
    assert (change["added"], change["removed"]) == (2, 2)
    rejections = {(r["source"], r["reason"]): r for r in report["rejections"]}
    alphabet = rejections[(SOURCES[1], "alphabet")]
    assert (alphabet["count"], alphabet["previous"], alphabet["jump"]) == (480, 0, True)
    assert alphabet["examples"] == ["col·lecció", "cel·la"]
    assert not rejections[(SOURCES[0], "hyphen")]["jump"]
    text = render_text(report)
    assert "480 = " in text and "(previous build: 0)  JUMP" in text and "e.g. col·lecció" in text
    assert "2 added, 2 removed" in text

    html, json_bytes = (folder / "report.html").read_bytes(), (folder / "report.json").read_bytes()
    assert tables.main(args) == 0  # same previous state, same report
    assert (folder / "report.html").read_bytes() == html
    assert (folder / "report.json").read_bytes() == json_bytes


def test_lexforge_report_prints_the_text_without_pandas(tmp_path):
    folder = tmp_path / "xx"
    assert tables.main(write_inputs(folder, FIRST, 3)) == 0
    code = (
        "import sys; from lexforge.cli import main; main(['report', '--lexicon', sys.argv[1]]);"
        " bad = [m for m in sys.modules if m.split('.')[0] in ('pipeline', 'pandas', 'pyarrow')];"
        " print('IMPORTED', bad)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    text, imported = done.stdout.rsplit("IMPORTED ", 1)
    assert imported.strip() == "[]"
    assert text == render_text(load_report(folder))
    assert "Two-letter words (2)\n====================\nAB AH\n" in text


def test_missing_report_is_one_line(tmp_path):
    with pytest.raises(UserError, match=r"report.json: no quality report; build it with: "):
        load_report(tmp_path)
    (tmp_path / "report.json").write_text("{}")
    with pytest.raises(UserError, match="not a lexforge-report/1 report"):
        load_report(tmp_path)


def test_only_the_sources_holding_a_word_alone_get_a_column():
    from lexforge.report import sole_sources
    from pipeline import report_html

    report = {
        "sources": [{"id": "dict:a"}, {"id": "deny"}, {"id": "names-en"}],
        "lengths": [
            {"length": 2, "words": 3, "shared": 1, "only": {"dict:a": 2, "deny": 0, "names-en": 0}},
            {"length": 3, "words": 1, "shared": 1, "only": {"dict:a": 0, "deny": 0, "names-en": 0}},
        ],
    }
    assert sole_sources(report) == ["dict:a"]  # a deny list or name evidence adds no word
    table = report_html._lengths(report)  # the length table and its histogram's legend
    assert "only in dict:a" in table and "only in deny" not in table and "names" not in table
