"""The tables step on small hand-made inputs (the real build is checked in test_artifacts)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from step_inputs import compiled_args

from lexforge.errors import report_user_errors
from lexforge.language import Language
from pipeline.tables import main

ROOT = Path(__file__).resolve().parent.parent


def test_words_that_look_like_missing_values_stay_words(tmp_path):
    words = ["NA", "NAN", "NULL", "NONE", "TRUE"]
    (tmp_path / "words.tsv").write_text("".join(f"{w}\t1\n" for w in words))
    sources = (
        '[{"id": "dict:x", "files": {}, "read": 5, "kept": 5, "words": 5, "rejected": {"dot": 0}}]'
    )
    (tmp_path / "sources.json").write_text(sources)
    args = [
        "--config",
        str(ROOT / "config/config.yaml"),
        "--lexicon",
        "en",
        "--out",
        str(tmp_path),
        "--words",
        str(tmp_path / "words.tsv"),
        "--sources",
        str(tmp_path / "sources.json"),
        *compiled_args(tmp_path, words),
    ]
    assert main(args) == 0
    letters = {r["letter"]: r for r in pq.read_table(tmp_path / "letters.parquet").to_pylist()}
    assert letters["N"]["occurrences"] == 6 and letters["N"]["words_containing"] == 4
    assert letters["N"]["word_initial"] == 4 and letters["T"]["word_initial"] == 1
    assert letters["A"]["scrabble_value"] == Language.load("en").tile_values["A"]
    assert all(row["in_alphabet"] for row in letters.values()) and len(letters) == 26

    stats = pq.read_table(tmp_path / "stats.parquet").to_pylist()
    lengths = {r["length"]: r["value"] for r in stats if r["metric"] == "word_length"}
    assert lengths == {2: 1, 3: 1, 4: 3}
    only = {r["length"]: r["value"] for r in stats if r["metric"] == "only_source"}
    assert only == {2: 1, 3: 1, 4: 3}
    assert {r["lexicon"] for r in stats} == {"en"}


def test_sources_combined_and_examples(tmp_path):
    """Two sources: per-source lengths, words held by one alone, the overlap, and rejection
    examples carried over from sources.json when the words step gives them (and not required)."""
    (tmp_path / "words.tsv").write_text("AB\t3\nABC\t1\nABCD\t2\nABCDE\t3\n")
    first = {
        "id": "dict:a",
        "files": {},
        "read": 4,
        "kept": 3,
        "words": 3,
        "rejected": {"hyphen": 1},
    }
    second = {
        **first,
        "id": "aspell:b.multi",
        "read": 5,
        "words": 3,
        "rejected": {"hyphen": 1, "alphabet": 1},
        "examples": {"hyphen": ["a-b"], "alphabet": ["ab·c"]},
    }
    (tmp_path / "sources.json").write_text(json.dumps([first, second]))
    args = ["--config", str(ROOT / "config/config.yaml"), "--lexicon", "fr", "--out", str(tmp_path)]
    for name in ("words.tsv", "sources.json"):
        args += [f"--{name.split('.')[0]}", str(tmp_path / name)]
    args += compiled_args(tmp_path, ["AB", "ABC", "ABCD", "ABCDE"])
    assert main(args) == 0
    rows = pq.read_table(tmp_path / "stats.parquet").to_pylist()

    def pick(metric: str, source: str) -> dict:
        return {
            r["length"]: r["value"] for r in rows if (r["metric"], r["source"]) == (metric, source)
        }

    assert pick("source_length", "dict:a") == {2: 1, 3: 1, 5: 1}
    assert pick("source_length", "aspell:b.multi") == {2: 1, 4: 1, 5: 1}
    assert pick("only_source", "dict:a") == {3: 1}
    assert pick("only_source", "aspell:b.multi") == {4: 1}
    (overlap,) = [r for r in rows if r["metric"] == "overlap"]
    assert (overlap["source"], overlap["other_source"], overlap["value"]) == (
        "dict:a",
        "aspell:b.multi",
        2,
    )
    examples = [(r["source"], r["reason"], r["example"], r["value"]) for r in rows if r["example"]]
    assert examples == [
        ("aspell:b.multi", "hyphen", "a-b", 1),
        ("aspell:b.multi", "alphabet", "ab·c", 1),
    ]
    assert all(r["example"] is None for r in rows if r["metric"] != "example")


def test_letters_list_every_tile_of_the_language(tmp_path):
    """German Scrabble has Ä Ö Ü tiles the default lexicon folds: listed, with zero counts."""
    (tmp_path / "words.tsv").write_text("AEPFEL\t1\nUBER\t1\n")
    (tmp_path / "sources.json").write_text(
        '[{"id": "dict:x", "files": {}, "read": 2, "kept": 2, "words": 2, "rejected": {}}]'
    )
    args = ["--config", str(ROOT / "config/config.yaml"), "--lexicon", "de", "--out"]
    args += [str(tmp_path), "--words", str(tmp_path / "words.tsv"), "--sources"]
    args += [str(tmp_path / "sources.json"), *compiled_args(tmp_path, ["AEPFEL", "UBER"])]
    assert main(args) == 0
    rows = pq.read_table(tmp_path / "letters.parquet").to_pylist()
    tiles = Language.load("de").tile_counts
    assert {row["letter"] for row in rows} == set(tiles) | set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    umlaut = next(row for row in rows if row["letter"] == "Ü")
    assert umlaut["in_alphabet"] is False and umlaut["occurrences"] == 0
    assert (umlaut["scrabble_tiles"], umlaut["scrabble_value"]) == (1, 6)


def test_anagram_class_sizes_and_letter_counts(tmp_path):
    """Class sizes and per-letter counts against plain Python counts of the same words."""
    words = sorted(["ABC", "BCA", "CAB", "AB", "BA", "ABCD", "AAB", "BAA", "ZZZ"])
    (tmp_path / "words.tsv").write_text("".join(f"{w}\t1\n" for w in words))
    (tmp_path / "sources.json").write_text(
        '[{"id": "dict:x", "files": {}, "read": 9, "kept": 9, "words": 9, "rejected": {}}]'
    )
    args = ["--config", str(ROOT / "config/config.yaml"), "--lexicon", "en", "--out"]
    args += [str(tmp_path), "--words", str(tmp_path / "words.tsv"), "--sources"]
    args += [str(tmp_path / "sources.json"), *compiled_args(tmp_path, words)]
    assert main(args) == 0
    stats = pq.read_table(tmp_path / "stats.parquet").to_pylist()
    sizes = {r["class_size"]: r["value"] for r in stats if r["metric"] == "anagram_class_size"}
    assert sizes == dict(Counter(Counter("".join(sorted(w)) for w in words).values()))
    letters = {r["letter"]: r for r in pq.read_table(tmp_path / "letters.parquet").to_pylist()}
    for letter, row in letters.items():
        assert row["occurrences"] == "".join(words).count(letter)
        assert row["words_containing"] == sum(letter in w for w in words)
        assert row["word_initial"] == sum(w[0] == letter for w in words)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda folder: (folder / "anagram-classes.npy").unlink(), "classes.npy: cannot read"),
        (lambda folder: (folder / "anagram-classes.npy").write_bytes(b"junk"), "cannot read"),
        (
            lambda folder: np.save(folder / "anagram-classes.npy", np.array([0, 3], dtype="<u8")),
            "not the class offsets of",
        ),
        (lambda folder: (folder / "words.tsv").write_text("AB\tx\n"), "not a words.tsv"),
        (lambda folder: (folder / "words.tsv").write_text("AB\t-1\n"), "not a words.tsv"),
        (lambda folder: (folder / "words.tsv").write_text("AB\t" + "9" * 25 + "\n"), "words.tsv"),
        (lambda folder: (folder / "words.txt").unlink(), "words.txt: cannot read"),
        (lambda folder: (folder / "words.txt").write_text("AB\nABC\nBB\n"), "not as its build"),
    ],
)
def test_bad_inputs_are_one_line_and_write_nothing(tmp_path, capsys, damage, message):
    """A missing, foreign or mismatched input, or a compile artifact changed since it was
    recorded: one line naming it, status 1, no table, report or manifest written."""
    words = ["AB", "BA", "ABC"]
    (tmp_path / "words.tsv").write_text("".join(f"{w}\t1\n" for w in sorted(words)))
    (tmp_path / "sources.json").write_text(
        '[{"id": "dict:x", "files": {}, "read": 3, "kept": 3, "words": 3, "rejected": {}}]'
    )
    args = ["--config", str(ROOT / "config/config.yaml"), "--lexicon", "en", "--out"]
    args += [str(tmp_path), "--words", str(tmp_path / "words.tsv"), "--sources"]
    args += [str(tmp_path / "sources.json"), *compiled_args(tmp_path, sorted(words))]
    damage(tmp_path)
    assert report_user_errors(lambda: main(args)) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert message in line and "Traceback" not in line
    assert not list(tmp_path.glob("*.parquet")) and not list(tmp_path.glob("report.*"))
    assert not (tmp_path / "manifest.json").exists()


def test_letter_counts_are_plain_python_counts():
    """Random words of a five-letter alphabet with an accented letter (two-byte text), counted
    in C: the counts of plain Python; a letter outside the alphabet is refused."""
    import random

    from pipeline import tables

    rng = random.Random(5)
    words = sorted({"".join(rng.choices("ABCDÉ", k=rng.randint(1, 7))) for _ in range(500)})
    occurrences, containing, initial = tables.letter_counts(words, list("ABCDÉ"))
    for letter in "ABCDÉ":
        assert occurrences[letter] == "".join(words).count(letter)
        assert containing[letter] == sum(letter in w for w in words)
        assert initial[letter] == sum(w[0] == letter for w in words)
    with pytest.raises(ValueError, match="not in the alphabet"):
        tables.letter_counts(["ABX"], list("ABC"))
