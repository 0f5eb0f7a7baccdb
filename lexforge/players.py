"""The players of lexforge.game: ``greedy``, ``equity`` (with leave values) and ``human``.

* ``greedy`` plays the best-scoring move (ties: lexforge.scrabble's order); with no move it
  exchanges its whole rack while the bag allows, else passes.
* ``equity`` plays the move or exchange of highest score + leave value, the value of the tiles
  kept (lexforge.leaves: by default the lexicon's values learned by self-play, ``snakemake
  leaves``; or any given table or model; every leave 0 where the lexicon has none); ties go
  to moves, in the generator's order. With the bag empty and one opponent, the tiles no one has
  seen are the opponent's rack: it plays the first turn of lexforge.endgame's best line,
  searched within a budget of positions (so the same game comes out of the same seed).
* ``simulation`` takes the equity player's best candidates and plays each against sampled
  opponent racks (the unseen tiles dealt at random): the candidate's equity less the equity of
  the opponent's best reply, averaged over the same samples for every candidate; a budget of
  seconds, or of samples (deterministic for a seed). The endgame as ``equity``.
* ``human`` draws the board on a terminal and reads the turn in notation (``8H WORD``,
  ``-ABC``, ``-``; lexforge.plays); a play that is not legal gets one line and a new prompt.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import TextIO

from lexforge import endgame, scrabble
from lexforge.errors import UserError, error_prefix, one_line
from lexforge.game import Player, View
from lexforge.leaves import Leaves, LeaveTable, default_leaves
from lexforge.lexicon import Lexicon
from lexforge.plays import (
    BLANK,
    Action,
    Exchange,
    Pass,
    check_play,
    make_move,
    parse_action,
    placed_tiles,
    rack_after,
    words_formed,
)
from lexforge.scrabble import Board, Move, place
from lexforge.tiles import tile_counts

KINDS = ("greedy", "equity", "simulation", "human")


class Greedy:
    """The best score now; an exchange of the whole rack (or a pass) when nothing plays."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: View) -> Action:
        best = scrabble.find_moves(view.lexicon, view.board, view.rack, top=1)
        if best:
            return best[0]
        return Exchange(view.rack) if view.can_exchange else Pass()


ENDGAME_POSITIONS = 3000  # the equity player's endgame budget: about half a second
SIM_CANDIDATES = 8  # the simulation player's candidates: the equity player's best
SIM_ITERATIONS = 24  # its samples a turn in self-play (deterministic): 1–2 s a turn


class Equity:
    """Score + the leave's value from ``leaves`` (None: the lexicon's learned values); the
    endgame searched."""

    def __init__(
        self, name: str, leaves: Leaves | None = None, endgame_positions: int = ENDGAME_POSITIONS
    ) -> None:
        self.name = name
        self.leaves = leaves
        self.endgame_positions = endgame_positions

    def values(self, lexicon: Lexicon) -> Leaves:
        """The leave values played with: those given, else the lexicon's (every leave 0 where
        it has none)."""
        if self.leaves is None:
            self.leaves = default_leaves(lexicon) or LeaveTable({})
        return self.leaves

    def choose(self, view: View) -> Action:
        if not view.bag:
            return self.endgame(view)
        return self.ranked(view, 1)[0][1]

    def ranked(self, view: View, count: int) -> list[tuple[float, Action]]:
        """The ``count`` best actions by equity, best first, with their equity (ties: moves
        before exchanges, moves in the generator's order); a pass when nothing else is
        possible."""
        moves = scrabble.generate(view.lexicon, view.board, view.rack)
        leaves = self.values(view.lexicon)
        # Each multiset of kept tiles once (the rack is sorted, so each comes out sorted).
        kept_value = {
            "".join(kept): leaves.value("".join(kept))
            for size in range(len(view.rack))
            for kept in sorted(set(combinations(view.rack, size)))
        }
        # (equity, preference: moves first, in order; then exchanges in order), the action
        best: list[tuple[tuple[float, int], Action | int]] = []
        if view.can_exchange:
            for order, (kept, value) in enumerate(kept_value.items()):
                option = ((value, -(10**6) - order), Exchange(rack_after(view.rack, kept)))
                _keep_best(best, option, count)
        ceiling = max(kept_value.values())  # no leave is worth more: later moves cannot win
        for i in range(len(moves)):
            score = moves.score(i)
            if len(best) == count and (score + ceiling, -i - 1) < best[0][0]:
                break
            option = ((score + kept_value[rack_after(view.rack, moves.tiles(i))], -i - 1), i)
            _keep_best(best, option, count)
        if not best:
            return [(0.0, Pass())]
        ordered = sorted(best, key=lambda option: option[0], reverse=True)
        return [
            (key[0], moves[action] if isinstance(action, int) else action)
            for key, action in ordered
        ]

    def endgame(self, view: View) -> Action:
        """The bag empty: the endgame's best line where the opponent's rack is known (two
        players), else the best score."""
        other = unseen(view)
        if len(view.scores) == 2 and other and len(other) <= view.lexicon.language.rack_size:
            solved = endgame.solve(
                view.lexicon,
                view.board,
                view.rack,
                other,
                scoreless=view.scoreless,
                max_positions=self.endgame_positions,
            )
            if solved.line:
                return solved.line[0]
        best = scrabble.find_moves(view.lexicon, view.board, view.rack, top=1)
        return best[0] if best else Pass()


def _keep_best(
    best: list[tuple[tuple[float, int], Action | int]],
    option: tuple[tuple[float, int], Action | int],
    count: int,
) -> None:
    """Keep ``option`` among the ``count`` best of the heap ``best`` (keys are distinct)."""
    if len(best) < count:
        heapq.heappush(best, option)
    elif option[0] > best[0][0]:
        heapq.heapreplace(best, option)


def unseen(view: View) -> str:
    """The tiles the player has not seen: the set less the board and their rack (sorted,
    blanks last) — with the bag empty, the other players' racks."""
    language = view.lexicon.language
    left = Counter(tile_counts(language))
    left[BLANK] = language.blanks
    board = view.board
    left.subtract(BLANK if i in board.blanks else t for i, t in enumerate(board.tiles) if t)
    left.subtract(view.rack)
    return "".join(sorted((+left).elements(), key=lambda t: (t == BLANK, t)))


class Simulation:
    """The equity player's best candidates, each played out against sampled opponent racks:
    the candidate's equity less the equity of the opponent's best reply, averaged."""

    def __init__(
        self,
        name: str,
        leaves: Leaves | None,
        *,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        candidates: int = SIM_CANDIDATES,
        seed: int = 0,
    ) -> None:
        if seconds is None and iterations is None:
            raise UserError("a simulation needs a budget: seconds or iterations")
        self.name = name
        self.equity = Equity(name, leaves)
        self.seconds = seconds
        self.iterations = iterations
        self.candidates = candidates
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if not view.bag or len(view.scores) != 2:
            return self.equity.choose(view)
        ranked = self.equity.ranked(view, self.candidates)
        if len(ranked) == 1:
            return ranked[0][1]
        values, _ = self.simulate(view, ranked)
        best = max(range(len(ranked)), key=lambda k: (values[k], -k))
        return ranked[best][1]

    def simulate(self, view: View, ranked: list[tuple[float, Action]]) -> tuple[list[float], int]:
        """Each candidate's mean of its equity less the opponent's best reply's equity, over
        the same sampled racks (the unseen tiles dealt at random: the opponent's rack, the
        rest in the bag), until the budget is spent (at least one sample); and the samples."""
        language = view.lexicon.language
        pool = list(unseen(view))
        after = [
            (
                view.board if not isinstance(action, Move) else scrabble.play(view.board, action),
                _drawn(view, action),
            )
            for _, action in ranked
        ]
        totals = [0.0] * len(ranked)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        samples = 0
        while samples < (self.iterations or math.inf) and (
            samples == 0 or deadline is None or time.monotonic() < deadline
        ):
            self.rng.shuffle(pool)
            rack = "".join(sorted(pool[: language.rack_size], key=lambda t: (t == BLANK, t)))
            for k, ((value, _), (board, drawn)) in enumerate(zip(ranked, after, strict=True)):
                reply = View(
                    view.lexicon, board, rack, view.bag - drawn, view.scores, 1 - view.player
                )
                totals[k] += value - self.reply(reply)
            samples += 1
        return [total / samples for total in totals], samples

    def reply(self, view: View) -> float:
        """The opponent's best reply's equity (its score, with the bag empty)."""
        if not view.bag:
            best = scrabble.find_moves(view.lexicon, view.board, view.rack, top=1)
            return best[0].score if best else 0.0
        return self.equity.ranked(view, 1)[0][0]


def _drawn(view: View, action: Action) -> int:
    """The tiles the player draws after ``action``."""
    if isinstance(action, Move):
        return min(view.bag, len(action.placed))
    return 0  # an exchange draws as many as it puts back: the bag keeps its size


class Human:
    """A person at the terminal: the board, the scores and the rack, then a prompt."""

    def __init__(
        self, name: str, read: Callable[[str], str], out: TextIO, draw: Callable[[Board], str]
    ) -> None:
        self.name = name
        self.read = read  # input(): raises EOFError at the end of input
        self.out = out
        self.draw = draw  # the board as text (the CLI passes lexforge.picture's)

    def choose(self, view: View) -> Action:
        language = view.lexicon.language
        self.out.write(self.draw(view.board))
        scores = "  ".join(f"player {i + 1}: {s}" for i, s in enumerate(view.scores))
        self.out.write(f"{scores}   bag: {view.bag}\n")
        while True:
            try:
                rack = language.spell(view.rack, bracket=True)
                text = self.read(f"{self.name}, rack {rack} (8H WORD, -TILES, -): ")
            except EOFError:
                raise UserError(f"{self.name}: no more input, the game is abandoned") from None
            try:
                action = parse_action(text, view.board, language)
                if isinstance(action, tuple):
                    return self.tile_play(view, *action)
                if isinstance(action, Exchange):
                    if not view.can_exchange:
                        raise UserError(f"no exchange with {view.bag} tiles in the bag")
                    rack_after(view.rack, action.tiles)
                return action
            except UserError as error:  # rack errors name tiles: [CH] as typed
                message = one_line(language.spell(str(error), bracket=True))
                self.out.write(f"{error_prefix('scrabble play')}{message}\n")

    def tile_play(self, view: View, placed: tuple, across: bool) -> Action:
        board, lexicon = view.board, view.lexicon
        check_play(board, placed, across)
        rack_after(view.rack, placed_tiles(placed))
        after = place(board, placed)
        for word in words_formed(board, placed, across):
            spelled = "".join(after.tiles[s] for s in word)
            if spelled not in lexicon:
                shown = lexicon.language.spell(spelled)
                raise UserError(f"{shown} is not in the {lexicon.name} lexicon")
        return make_move(board, placed, across, lexicon.language)


def make_player(
    kind: str,
    name: str,
    *,
    leaves: Leaves | None = None,
    human: Callable[[str], Human] | None = None,
) -> Player:
    """A player of ``kind`` (one of ``KINDS``); ``leaves`` None: the lexicon's learned values;
    ``human`` makes the human one (it needs a terminal, which the caller has)."""
    if kind == "greedy":
        return Greedy(name)
    if kind in ("equity", "simulation"):
        if kind == "simulation":
            return Simulation(name, leaves, seconds=None, iterations=SIM_ITERATIONS)
        return Equity(name, leaves)
    if kind == "human" and human is not None:
        return human(name)
    raise UserError(f"player {kind!r}: expected one of {', '.join(KINDS)}")


def player_kinds(spec: str) -> list[str]:
    """``--players greedy,human``: two or more kinds."""
    kinds = [k.strip() for k in spec.split(",")]
    for kind in kinds:
        if kind not in KINDS:
            raise UserError(f"--players {spec!r}: {kind!r} is not one of {', '.join(KINDS)}")
    if len(kinds) < 2:
        raise UserError(f"--players {spec!r}: a game needs two or more players")
    return kinds
