"""Damaged lexicon files: every outcome is the right answer or one line naming the file.

A small lexicon is compiled into a temporary directory by the pipeline's own functions, then one
artifact at a time is damaged (a byte changed anywhere, truncated, replaced by garbage) and every
search is run on it. The letter graphs are checked once at load (lexforge._nodecheck), so every
single-byte change in a graph's nodes must be refused, never answered differently or crashed on.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from lexforge import boggle, ruzzle, scrabble
from lexforge.anagram import anagram
from lexforge.errors import UserError
from lexforge.grid import parse_grids
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.verify import sha256_file
from pipeline.compile import build_index, compile_lexicon

GRID = "S T A R\nE O N L\nR I E S\nT A P E\n"
RACK = "ETOILES?"
NODE_FILES = ("graph.npy", "anagram-graph.npy")
SOURCE_FILES = ("word-sources.npy", "sources.json")


def _queries(lexicon: Lexicon) -> list:
    """The answers of every search kind on this lexicon (each forces the graph it reads)."""
    grid = parse_grids(GRID, lexicon.language)[0]
    empty = scrabble.parse_board(
        ("." * 15 + "\n") * 15, lexicon.language, scrabble.load_layout(None)
    )
    return [
        [(m.word, m.row, m.col, m.score) for m in scrabble.find_moves(lexicon, empty, "ETOILES")],
        [(w.word, w.path) for w in boggle.solve(lexicon, grid)],
        boggle.solve_batch(lexicon, [grid]),
        [(w.word, w.score) for w in ruzzle.solve(lexicon, grid)],
        [m.shown for m in anagram(lexicon, RACK)],
        [lexicon.sources_of(word) for word in ("STAR", "TOILE", "SOIE")],
    ]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory, build_dir) -> tuple[Path, list]:
    """A 4,000-word French lexicon built like the pipeline builds one, and its answers."""
    folder = tmp_path_factory.mktemp("lexicon") / "fr-small"
    folder.mkdir()
    language = Language.load("fr")
    text = (build_dir / "fr/words.txt").read_text(encoding="utf-8").split()
    words = sorted([*random.Random(7).sample(text, 4000), "ETOILES", "STAR", "TOILE", "SOIE"])
    language_text = (build_dir / "fr/language.json").read_text(encoding="utf-8")
    unique = sorted(set(words))
    masks = np.array([1 + (i % 3 == 0) * 2 for i in range(len(unique))])  # two sources
    compile_lexicon(unique, masks, ["dict:a", "aspell:b"], language_text, language.alphabet, folder)
    build_index(sorted(set(words)), language.alphabet, folder)
    artifacts = [
        {"name": p.name, "bytes": p.stat().st_size, "sha256": sha256_file(p)}
        for p in sorted(folder.iterdir())
    ]
    (folder / "manifest.json").write_text(
        json.dumps({"lexicon": "fr-small", "artifacts": artifacts})
    )
    return folder, _queries(Lexicon.open(folder))


def _damaged_copy(pristine: Path, target: Path, name: str, damage) -> Path:
    shutil.copytree(pristine, target)
    path = target / name
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(damage(data)))
    return target


def _outcome(folder: Path, expected: list) -> str:
    try:
        answers = _queries(Lexicon.open(folder))
    except UserError as error:
        assert "\n" not in str(error) and str(folder) in str(error), str(error)
        return "refused"
    assert answers == expected, "a damaged lexicon answered differently without an error"
    return "same answer"


@pytest.mark.parametrize("name", NODE_FILES)
def test_every_changed_node_byte_is_refused(pristine, tmp_path, name):
    """Bytes changed at random places of the node records (not the header): always refused."""
    folder, expected = pristine
    size = (folder / name).stat().st_size
    header = 128  # .npy version-1 header of these files
    rng = random.Random(name)
    for case in range(40):
        offset = rng.randrange(header, size)
        flip = 1 << rng.randrange(8)

        def damage(data: bytearray, offset=offset, flip=flip) -> bytearray:
            data[offset] ^= flip
            return data

        copy = _damaged_copy(folder, tmp_path / f"{case}", name, damage)
        assert _outcome(copy, expected) == "refused", (name, offset, flip)


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("words.marisa", "damaged trie"),
        ("anagrams.txt", "damaged anagram index"),
        ("anagram-classes.npy", "damaged anagram index"),
    ],
)
def test_every_changed_byte_of_a_hashed_file_is_refused(pristine, tmp_path, name, problem):
    """marisa reads a trie with a changed byte and may answer otherwise, and the rack search
    reads a key's words in ``anagrams.txt`` at the offsets of ``anagram-classes.npy`` without
    parsing either: each file is checked against the manifest's sha256 when first read (once
    per file version), so every change is refused."""
    folder, _ = pristine
    size = (folder / name).stat().st_size
    rng = random.Random(name)
    for case in range(20):
        offset, flip = rng.randrange(size), 1 << rng.randrange(8)

        def damage(data: bytearray, offset=offset, flip=flip) -> bytearray:
            data[offset] ^= flip
            return data

        copy = _damaged_copy(folder, tmp_path / f"{case}", name, damage)
        with pytest.raises(UserError, match=f"{name}: {problem}"):
            anagram(Lexicon.open(copy), RACK)


@pytest.mark.parametrize(
    "name",
    [
        *NODE_FILES,
        "words.marisa",
        "anagrams.txt",
        "anagram-classes.npy",
        "language.json",
        "word-sources.npy",
        "sources.json",
    ],
)
@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:9], id="header-only"),
        pytest.param(lambda data: bytearray(b"{bad"), id="garbage"),
        pytest.param(lambda data: bytearray(), id="empty"),
        pytest.param(lambda data: data[:8] + bytes([data[8] ^ 0x40]) + data[9:], id="header-byte"),
    ],
)
def test_damaged_files_give_one_line_or_the_right_answer(pristine, tmp_path, name, damage):
    folder, expected = pristine
    copy = _damaged_copy(folder, tmp_path / "copy", name, damage)
    assert _outcome(copy, expected) in {"refused", "same answer"}
