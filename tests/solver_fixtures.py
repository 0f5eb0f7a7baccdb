"""Shared helpers of the grid, Boggle and Ruzzle tests: small real lexicons, random grids, checks.

The lexicons are samples of the raw Debian word lists (raw/<lang>/dict), a few thousand words
each, normalized like the pipeline does, so that hypothesis can run hundreds of boards quickly
against the slow reference searches.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from pathlib import Path

from hypothesis import strategies as st

from lexforge.grid import Grid, adjacent_cells
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.text import fold_word

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "fr", "de", "it", "es", "nl", "pt")
#: The Scrabble lexicons whose language config/config.yaml overrides (es-scrabble: Ñ kept, no K
#: or W, the CH, LL and RR tiles as one letter each): samples of them too.
SCRABBLE_LANGUAGES = (*LANGUAGES, "de-scrabble", "es-scrabble")
DICT_FILES = {
    "en": "american-english",
    "fr": "french",
    "de": "ngerman",
    "it": "italian",
    "es": "spanish",
    "nl": "dutch",
    "pt": "portuguese",
}
SAMPLE_SIZE = 3000
# Multi-letter dice: Qu (classic Boggle) and the Big Boggle / Super Big Boggle ones.
DIGRAPHS = ("QU", "TH", "ER", "IN", "HE", "AN")


@cache
def language(code: str) -> Language:
    """A shipped language, or a configured lexicon's resolved one (``es-scrabble``)."""
    if code in LANGUAGES:
        return Language.load(code)
    from pipeline.config import load_config

    return load_config(ROOT / "config" / "config.yaml", check_files=False).lexicons[code].language


def dict_words(code: str, *, sample: int | None = SAMPLE_SIZE) -> list[str]:
    """Normalized words of raw/<code>/dict: all of them, or every short word (≤ 4 letters,
    which random grids hit often) plus an evenly spaced sample of about ``sample`` lines."""
    lang = language(code)
    path = ROOT / "raw" / lang.code / "dict" / DICT_FILES[lang.code]
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if line]
    step = max(1, len(lines) // sample) if sample else 1
    words = set()
    for number, line in enumerate(lines):
        if number % step and len(line) > 4:
            continue
        if lang.proper_nouns_by_case and not line[0].islower():
            continue  # a capitalised entry of a case-sensitive list is a proper noun
        word = fold_word(line, lang)
        if lang.min_length <= len(word) <= lang.max_length and set(word) <= set(lang.alphabet):
            words.add(lang.tokenize(word))  # as tiles: CH one letter where the lexicon says
    return sorted(words)


@cache
def small_lexicon(code: str) -> Lexicon:
    return Lexicon.from_words(dict_words(code), language(code), name=f"{code}-sample")


@cache
def _letter_pool(code: str) -> tuple[str, ...]:
    """Letters in the proportions of the lexicon's words, plus some multi-letter cells."""
    text = "".join(small_lexicon(code).words.keys())
    letters = tuple(text[:: max(1, len(text) // 400)])
    return letters + DIGRAPHS * 4


@st.composite
def grids(draw, code: str, *, max_side: int = 6, multipliers: bool = False) -> Grid:
    """A random rows×cols grid (1..max_side each side) of the language's letters and some
    multi-letter cells, usually with a word of the lexicon planted along a random path."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    n = rows * cols
    cells = draw(st.lists(st.sampled_from(_letter_pool(code)), min_size=n, max_size=n))
    if draw(st.booleans()) or draw(st.booleans()):
        word = draw(st.sampled_from(small_lexicon(code).words.keys()))
        around = adjacent_cells((rows, cols), 8)
        cell = draw(st.integers(0, n - 1))
        path = [cell]
        for _ in word[1:]:
            free = [c for c in around[path[-1]] if c not in path]
            if not free:
                break
            path.append(free[draw(st.integers(0, len(free) - 1))])
        for cell, letter in zip(path, word, strict=False):
            cells[cell] = letter
    ones = (1,) * n
    if not multipliers:
        return Grid(rows, cols, tuple(cells), ones, ones)
    boosts = st.sampled_from((1, 1, 1, 1, 2, 3))
    letter_mult = draw(st.lists(boosts, min_size=n, max_size=n))
    word_mult = draw(st.lists(boosts, min_size=n, max_size=n))
    return Grid(rows, cols, tuple(cells), tuple(letter_mult), tuple(word_mult))


def assert_valid_path(grid: Grid, word: str, path: tuple[tuple[int, int], ...], adjacency: int):
    """``path`` is a walk of distinct, adjacent cells of ``grid`` spelling ``word``."""
    assert path, word
    assert len(set(path)) == len(path), f"{word}: a cell used twice in {path}"
    for (r1, c1), (r2, c2) in pairwise(path):
        step = (abs(r1 - r2), abs(c1 - c2))
        allowed = {(0, 1), (1, 0), (1, 1)} if adjacency == 8 else {(0, 1), (1, 0)}
        assert step in allowed, f"{word}: {(r1, c1)} → {(r2, c2)} is not a step"
    assert "".join(grid.cells[r * grid.cols + c] for r, c in path) == word
