"""The highest-scoring Boggle board: hill climbing with restarts over the score-only search.

A board is a choice of one cell string per cell: any of the allowed letters, or, with dice,
an arrangement of the dice and a face of each. A climb starts from a random board, scores every
neighbour of the current board at once (``lexforge.boggle.score_boards``, compiled, on all
cores) and moves to the best one while it improves on the current score (steepest ascent).
Neighbours: every other letter in one cell (with dice: every other face of one die) and every
swap of two cells' contents. At a local optimum it restarts from a new random board. (Kicking
the optimum with a few random changes and climbing again, iterated local search, did worse in
the same time on en 4×4: boards near an optimum are dense, so slow to score.)

Deterministic: restart ``k`` draws from its own generator seeded with ``(seed, k)``, so a given
seed and number of restarts always give the same board. ``seconds`` stops the search at a
wall-clock limit instead (mid-climb, keeping the best board seen), so the result then depends
on the machine's speed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from lexforge.boggle import (
    BATCH_MAX_CELLS,
    Boards,
    _letter_index,
    _neighbour_table,
    score_boards,
)
from lexforge.errors import UserError
from lexforge.generate import letter_weights
from lexforge.grid import Grid
from lexforge.lexicon import Lexicon
from lexforge.text import fold_word


@dataclass(frozen=True)
class BestBoard:
    grid: Grid
    score: int
    words: int
    restarts: int  # restarts begun
    evaluations: int  # boards scored


@dataclass
class _Space:
    """The boards a search may visit: cell strings (tokens) and, with dice, each die's faces."""

    tokens: list[str]
    weights: list[float]  # of each token in a random board (letters only)
    dice: list[list[int]] | None  # per die: its faces as token indices
    letters: np.ndarray  # token → its graph letters (padded)
    lengths: np.ndarray  # token → letter count


def best_board(
    lexicon: Lexicon,
    rows: int,
    cols: int,
    *,
    letters: str | None = None,
    dice: list[list[str]] | None = None,
    seconds: float | None = None,
    restarts: int | None = None,
    seed: int = 0,
    min_length: int = 3,
    adjacency: int = 8,
    threads: int | None = None,
) -> BestBoard:
    """The best board found by at most ``restarts`` restarts within ``seconds`` (at least one
    limit is needed); cells from ``letters`` (default: the alphabet) or from ``dice``."""
    if seconds is None and restarts is None:
        raise ValueError("best_board needs seconds or restarts")
    if rows * cols > BATCH_MAX_CELLS:
        raise UserError(f"board {rows}×{cols}: best-board takes at most {BATCH_MAX_CELLS} cells")
    if letters is not None and dice is not None:
        raise UserError("board cells: give letters or dice, not both")
    space = _space(lexicon, letters, dice, rows * cols)
    search = _Climb(lexicon, space, rows, cols, min_length, adjacency, threads)
    deadline = None if seconds is None else time.monotonic() + seconds
    best: tuple[int, int, tuple[int, ...]] | None = None
    restart = 0
    while restarts is None or restart < restarts:
        rng = random.Random(seed * 1_000_003 + restart)
        restart += 1
        found = search.run(rng, deadline)
        if best is None or found[0] > best[0]:
            best = found
        if deadline is not None and time.monotonic() >= deadline:
            break
    assert best is not None
    score, words, state = best
    cells = tuple(space.tokens[t] for t in search.board(state))
    ones = (1,) * len(cells)
    return BestBoard(Grid(rows, cols, cells, ones, ones), score, words, restart, search.evaluations)


def _space(
    lexicon: Lexicon, letters: str | None, dice: list[list[str]] | None, cells: int
) -> _Space:
    alphabet = lexicon.language.alphabet
    if dice is not None:
        if len(dice) != cells:
            raise UserError(f"{len(dice)} dice for a board of {cells} cells")
        tokens = sorted({fold_word(face, lexicon.language) for die in dice for face in die})
        index = {token: i for i, token in enumerate(tokens)}
        faces = [[index[fold_word(face, lexicon.language)] for face in die] for die in dice]
        weights = [1.0] * len(tokens)
    else:
        chosen = alphabet if letters is None else fold_word(letters, lexicon.language)
        tokens = sorted(set(chosen) - set(lexicon.language.symbols))  # CH tiles are no cells
        frequencies = letter_weights(lexicon)
        weights = [frequencies.get(token, 0.0) or 1e-3 for token in tokens]
        faces = None
    foreign = sorted({c for token in tokens for c in token} - set(alphabet))
    if foreign or not tokens:
        what = f"{''.join(foreign)} not in the alphabet ({alphabet})" if foreign else "no letters"
        raise UserError(f"board cells: {what}")
    position = _letter_index(alphabet)
    width = max(map(len, tokens))
    table = np.zeros((len(tokens), width), dtype=np.int64)
    for row, token in enumerate(tokens):
        table[row, : len(token)] = [position[c] for c in token]
    lengths = np.array([len(token) for token in tokens], dtype=np.int64)
    return _Space(tokens, weights, faces, table, lengths)


class _Climb:
    """Hill climbing from random boards (one restart per ``run``).

    A state is a tuple of integers: without dice, the token of each cell; with dice, the die of
    each cell followed by the face shown by each die."""

    def __init__(
        self,
        lexicon: Lexicon,
        space: _Space,
        rows: int,
        cols: int,
        min_length: int,
        adjacency: int,
        threads: int | None,
    ) -> None:
        self.lexicon = lexicon
        self.space = space
        self.cells = rows * cols
        self.shape = (rows, cols, adjacency)
        self.min_length = min_length
        self.threads = threads
        self.evaluations = 0

    def board(self, state: tuple[int, ...]) -> list[int]:
        """The token of each cell."""
        if self.space.dice is None:
            return list(state)
        die_of, face_of = state[: self.cells], state[self.cells :]
        return [self.space.dice[die][face_of[die]] for die in die_of]

    def random_state(self, rng: random.Random) -> tuple[int, ...]:
        if self.space.dice is None:
            tokens = range(len(self.space.tokens))
            return tuple(rng.choices(tokens, weights=self.space.weights, k=self.cells))
        order = list(range(self.cells))
        rng.shuffle(order)
        return tuple(order) + tuple(rng.randrange(len(die)) for die in self.space.dice)

    def neighbours(self, state: tuple[int, ...]) -> list[tuple[int, ...]]:
        found = []
        n = self.cells
        if self.space.dice is None:
            for cell in range(n):
                for token in range(len(self.space.tokens)):
                    if token != state[cell]:
                        found.append((*state[:cell], token, *state[cell + 1 :]))
        else:
            for die, faces in enumerate(self.space.dice):
                for face in range(len(faces)):
                    if face != state[n + die] and faces[face] != faces[state[n + die]]:
                        found.append((*state[: n + die], face, *state[n + die + 1 :]))
        board = self.board(state)
        for a in range(n):
            for b in range(a + 1, n):
                if board[a] != board[b]:  # cells (or dice) trade places
                    swapped = list(state)
                    swapped[a], swapped[b] = swapped[b], swapped[a]
                    found.append(tuple(swapped))
        return found

    def score(self, states: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """Total scores and word counts of ``states``, by the compiled score-only search."""
        self.evaluations += len(states)
        tokens = np.array([self.board(state) for state in states], dtype=np.int64).ravel()
        nbr, count = _neighbour_table(self.shape[:2], self.shape[2])  # shared by the boards
        boards = Boards(
            board_start=np.arange(len(states) + 1, dtype=np.int64) * self.cells,
            cell_letters=self.space.letters[tokens],
            cell_len=self.space.lengths[tokens],
            nbr=nbr,
            nbr_count=count,
        )
        return score_boards(self.lexicon, boards, self.min_length, self.threads)

    def climb(
        self, state: tuple[int, ...], score: int, words: int, deadline: float | None
    ) -> tuple[int, int, tuple[int, ...]]:
        """Steepest ascent from ``state`` to a local optimum (or the deadline)."""
        while deadline is None or time.monotonic() < deadline:
            options = self.neighbours(state)
            if not options:
                break
            totals, counts = self.score(options)
            best = int(np.argmax(totals))  # the first of equal bests: deterministic
            if totals[best] <= score:
                break
            state, score, words = options[best], int(totals[best]), int(counts[best])
        return score, words, state

    def run(self, rng: random.Random, deadline: float | None) -> tuple[int, int, tuple[int, ...]]:
        """One restart: climb from a random board. Returns (score, words, state) of the top."""
        start = self.random_state(rng)
        totals, counts = self.score([start])
        return self.climb(start, int(totals[0]), int(counts[0]), deadline)
