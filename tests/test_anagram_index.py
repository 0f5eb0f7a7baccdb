"""The compile step's anagram index against its definition, on random words (the real lexicons are
checked in test_artifacts)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from lexforge.anagramindex import anagram_index
from lexforge.lexicon import anagram_class_offsets


def random_words(letters: str, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return sorted({"".join(rng.choices(letters, k=rng.randint(2, 7))) for _ in range(count)})


@pytest.mark.parametrize(
    "letters",
    [
        "ABCDE",  # ASCII: one-byte codes, latin-1 text
        "AEÄÖÜS",  # latin-1 letters, two UTF-8 bytes each
        "AEŁŃZ",  # beyond latin-1: the text decoded from four-byte code points
        "".join(chr(0x4E00 + i) for i in range(300)),  # over 253 letters: keys spelled one by one
    ],
)
def test_lines_keys_and_offsets_are_their_definitions(letters):
    words = random_words(letters, 3000, seed=len(letters))
    lines = sorted("".join(sorted(w)) + "=" + w for w in words)
    index = anagram_index(words)
    assert index.lines == lines
    assert index.keys == list(dict.fromkeys(line.partition("=")[0] for line in lines))
    assert index.offsets.tolist() == list(anagram_class_offsets(lines))
    given = anagram_index(words, letters)  # the alphabet given, not found
    assert given.lines == lines and given.keys == index.keys
    assert given.offsets.tolist() == index.offsets.tolist()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"AB\t1\nABC\n", "not WORD<TAB>MASK lines"),
        (b"AB\t1\n\xff\xfe\t1\n", "not a words.tsv (line 2: 'utf-8' codec can't decode"),
    ],
)
def test_the_step_refuses_a_damaged_words_tsv(tmp_path, capsys, content, message):
    """One line naming the file, status 1, nothing written."""
    from lexforge.errors import report_user_errors
    from pipeline.compile import main

    words = tmp_path / "words.tsv"
    words.write_bytes(content)
    sources = tmp_path / "sources.json"
    sources.write_text('[{"id": "dict:x"}]')
    out = tmp_path / "out"
    out.mkdir()
    config = str(Path(__file__).resolve().parent.parent / "config/config.yaml")
    argv = ["--config", config, "--lexicon", "en", "--words", str(words), "--out", str(out)]
    argv += ["--sources", str(sources)]
    assert report_user_errors(lambda: main(argv)) == 1
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and str(words) in error and message in error
    assert list(out.iterdir()) == []
    assert not any(out.iterdir())


def test_no_words_no_lines():
    for alphabet in ("AB", "".join(chr(0x4E00 + i) for i in range(300))):
        index = anagram_index([], alphabet)
        assert (index.lines, index.keys, index.offsets.tolist()) == ([], [], [0])
        assert len(index.graph()) == 1  # the root alone


def test_the_compiled_index_refuses_a_code_beyond_its_letters():
    """``index_lines`` trusts no caller: a code past the letters is named, not read past."""
    from lexforge._anagramindex import index_lines

    rows = np.array([[1, 2, 0], [3, 9, 1]], dtype=np.uint8)
    with pytest.raises(ValueError, match="row 1 holds a code beyond the 3 letters"):
        index_lines(rows, [b"A", b"B", b"C"])
