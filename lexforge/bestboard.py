"""The highest-scoring Boggle board: simulated annealing over the compiled score-only search.

A board is a choice of one cell string (token) per cell: any of the allowed letters, or, with
dice, an arrangement of the dice and a face of each. A search is a sequence of runs (restarts);
each run starts from a random board and takes ``steps`` annealing steps, all in compiled code
(``lexforge._search.anneal``): a step changes the board by a random move (swap two cells, or
turn one cell to another letter, another face of its die), and with probability
``MORE_MOVES`` one more, and so on; the new board is scored by the score-only search, and kept
if it scores as much or more, or else with probability exp(Δ/T), the temperature T falling
geometrically from ``T_START`` to ``T_END`` over the run. This is danvk's simulated annealing
for Boggle (the moves of hybrid-boggle's ``boggle/anneal.py``; "Sky-High Boggle Scores with
Simulated Annealing", danvk.org, 2009), with a slower cooling: with ENABLE2K it reaches the
best 4×4 board, PERS/LATG/SINE/TERS (3,625 points), in about a run in twenty.

Runs go to threads (one per core) as they free up, and run ``k`` draws from its own generator
seeded with ``(seed, k)``: a given seed and number of restarts always give the same board,
whatever the number of threads. ``seconds`` stops the search at a wall-clock limit instead
(the runs under way stop where they are, keeping the best board seen), and ``stop_at`` as soon
as a board scores that much: both make the result depend on the machine's speed.
"""

from __future__ import annotations

import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from lexforge._search import anneal
from lexforge.boggle import BATCH_MAX_CELLS, POINTS_TABLE, _letter_index, _neighbour_table
from lexforge.errors import UserError
from lexforge.generate import letter_weights
from lexforge.grid import Grid
from lexforge.lexicon import Lexicon
from lexforge.text import fold_word

#: Annealing steps of a run (a restart), by default.
STEPS = 20_000
#: The temperature at a run's first step and at its last (in points).
T_START = 50.0
T_END = 1.0
#: Of a step's moves, the share that swap two cells (the others change one cell).
SWAP_SHARE = 0.5
#: The probability that a step makes one more move.
MORE_MOVES = 0.25
#: Boards a run remembers the scores of (the most recent in each of as many hash slots).
CACHE = 1 << 16
#: Steps a thread takes between two looks at the clock.
SLICE = 1_000


@dataclass(frozen=True)
class BestBoard:
    grid: Grid
    score: int
    words: int
    restarts: int  # runs begun
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
    steps: int = STEPS,
    stop_at: int | None = None,
    seed: int = 0,
    min_length: int = 3,
    adjacency: int = 8,
    threads: int | None = None,
) -> BestBoard:
    """The best board found by at most ``restarts`` runs of ``steps`` annealing steps within
    ``seconds``, or until a board scores ``stop_at`` (at least one of ``seconds`` and
    ``restarts`` is needed); cells from ``letters`` (default: the alphabet) or from ``dice``."""
    if seconds is None and restarts is None:
        raise ValueError("best_board needs seconds or restarts")
    if rows * cols > BATCH_MAX_CELLS:
        raise UserError(f"board {rows}×{cols}: best-board takes at most {BATCH_MAX_CELLS} cells")
    if letters is not None and dice is not None:
        raise UserError("board cells: give letters or dice, not both")
    space = _space(lexicon, letters, dice, rows * cols)
    search = _Anneal(lexicon, space, (rows, cols), adjacency, min_length, steps, seed, stop_at)
    deadline = None if seconds is None else time.monotonic() + seconds
    workers = max(1, threads or len(os.sched_getaffinity(0)))
    if restarts is not None:
        workers = min(workers, restarts)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(lambda _: search.work(restarts, deadline), range(workers)))
    score, _, words, cells = max(search.results)  # of equal scores, the first run's board
    ones = (1,) * len(cells)
    grid = Grid(rows, cols, tuple(space.tokens[t] for t in cells), ones, ones)
    return BestBoard(grid, score, words, search.begun, search.evaluations)


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


class _Anneal:
    """The runs of a search, handed out to threads in order (run ``k`` is the same whichever
    thread takes it), and what they found."""

    def __init__(
        self,
        lexicon: Lexicon,
        space: _Space,
        shape: tuple[int, int],
        adjacency: int,
        min_length: int,
        steps: int,
        seed: int,
        stop_at: int | None,
    ) -> None:
        self.lexicon = lexicon
        self.space = space
        self.cells = shape[0] * shape[1]
        self.nbr, self.nbr_count = _neighbour_table(shape, adjacency)
        # without dice: one "die" of every token, shared by all cells
        die_faces = space.dice or [list(range(len(space.tokens)))]
        self.face_start = np.cumsum([0, *map(len, die_faces)]).astype(np.int64)
        self.faces = np.array([f for die in die_faces for f in die], dtype=np.int64)
        self.min_length = min_length
        self.steps = steps
        self.seed = seed
        self.stop_at = stop_at or 0
        self.lock = threading.Lock()
        self.begun = 0
        self.evaluations = 0
        self.results: list[tuple[int, int, int, tuple[int, ...]]] = []  # score, -run, words, cells
        self.stopped = False

    def start(self, run: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Run ``run``'s random board (token and die of each cell) and generator state."""
        rng = random.Random(self.seed * 1_000_003 + run)
        space = self.space
        if space.dice is None:
            tokens = rng.choices(range(len(space.tokens)), weights=space.weights, k=self.cells)
            dice = [0] * self.cells
        else:
            dice = list(range(self.cells))
            rng.shuffle(dice)
            tokens = [rng.choice(space.dice[die]) for die in dice]
        state = np.array([rng.getrandbits(64)], dtype=np.uint64)
        as_row = np.array([tokens], dtype=np.int64), np.array([dice], dtype=np.int64)
        return *as_row, state

    def work(self, restarts: int | None, deadline: float | None) -> None:
        """Take runs until ``restarts`` are begun, the deadline passes or a run reaches
        ``stop_at``."""
        while True:
            with self.lock:
                if self.stopped or (restarts is not None and self.begun >= restarts):
                    return
                run = self.begun
                self.begun += 1
            if not self.run(run, deadline):
                with self.lock:
                    self.stopped = True
                return

    def run(self, run: int, deadline: float | None) -> bool:
        """Anneal run ``run``, a slice of steps at a time; whether the search goes on."""
        tokens, dice, rng = self.start(run)
        score = np.full(1, -1, dtype=np.int64)
        done = np.zeros(1, dtype=np.int64)
        best = np.zeros_like(tokens)
        best_score = np.full(1, -1, dtype=np.int64)
        best_words = np.zeros(1, dtype=np.int64)
        cache = np.zeros((CACHE, 4), dtype=np.uint64)
        going = True
        while done[0] < self.steps:
            evaluations = anneal(
                self.lexicon.graph,
                self.space.letters,
                self.space.lengths,
                self.face_start,
                self.faces,
                self.nbr,
                self.nbr_count,
                self.min_length,
                POINTS_TABLE,
                tokens,
                dice,
                score,
                done,
                rng,
                best,
                best_score,
                best_words,
                cache,
                self.steps,
                T_START,
                T_END,
                min(SLICE, self.steps - int(done[0])),
                SWAP_SHARE,
                MORE_MOVES,
                self.stop_at,
            )
            with self.lock:
                self.evaluations += evaluations
                going = not self.stopped
            reached = 0 < self.stop_at <= best_score[0]
            if reached or not going or (deadline is not None and time.monotonic() >= deadline):
                going = False
                break
        with self.lock:
            self.results.append((int(best_score[0]), -run, int(best_words[0]), tuple(best[0])))
        return going
