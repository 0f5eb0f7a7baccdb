"""Scrabble endgames: with the bag empty, both racks are known (the tiles no one has seen are
the opponent's), so the best sequence of turns for spread can be computed exactly.

The value of a position is the spread the player to move can secure from now to the end:
their points minus the opponent's, the end-of-game rack values included, under the rules of
lexforge.game — a player who plays out gains the other's rack value and the other loses it
(+2 × its value to the spread), six scoreless turns in a row (passes, plays scoring 0) end the
game with each player losing their own rack's value. With the bag empty there are no
exchanges: a turn is a play or a pass.

``solve`` is a negamax search with alpha-beta pruning and a transposition table (positions
repeat: two plays in either order; a position is keyed by the set of tiles played since the
root, not by the whole board), moves tried best first (the table's best move, then by score, a
play-out counted with its bonus, ordered from the generator's score column without building a
``Move``), deepened one turn at a time so that a budget (seconds or positions searched) still
leaves the best line of the deepest finished search. Below the
horizon a position is valued as if both racks stayed stuck (each player loses their own); a
search that met no horizon is exact, and says so. ``lexforge.reference.endgame_value`` is the
plain minimax it is tested against.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

from lexforge import scrabble
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.plays import BLANK, Pass, placed_tiles
from lexforge.scrabble import Board, Move

SCORELESS_TURNS = 6  # as lexforge.game: six scoreless turns in a row end the game
_UNBOUNDED = math.inf
_ROOT: frozenset[tuple[int, int, str]] = frozenset()  # no tile played since the root

Played = frozenset[tuple[int, int, str]]  # the tiles played since the root: the board's key


@dataclass(frozen=True)
class Endgame:
    """A solved (or, over budget, searched) endgame, from the mover's side."""

    spread: int  # the points the mover gains on the opponent from now to the end
    line: tuple[Move | Pass, ...]  # the best turns, alternating, the mover's first
    exact: bool  # False: the budget ran out before every line reached the end of the game
    positions: int  # positions searched


class _OutOfBudget(Exception):
    """The search's budget is spent: unwind to the last finished depth."""


def rack_points(rack: str, language: Language) -> int:
    """The value of a rack's tiles (blanks 0), as the end of a game counts them."""
    values = language.tile_values
    return sum(values.get(tile, 0) for tile in rack if tile != BLANK)


def solve(
    lexicon: Lexicon,
    board: Board,
    rack: str,
    other: str,
    *,
    scoreless: int = 0,
    seconds: float | None = None,
    max_positions: int | None = None,
) -> Endgame:
    """The best line for the player holding ``rack`` against ``other`` (racks as
    ``scrabble.generate`` takes them), ``scoreless`` turns in a row having passed without a
    score. ``seconds`` or ``max_positions`` bound the search (``max_positions`` keeps it
    deterministic); without either it runs to the exact answer."""
    rack, other = _sorted(rack), _sorted(other)
    search = _Search(lexicon, seconds, max_positions)
    best: Endgame | None = None
    depth = 1
    while True:
        try:
            value, complete = search.negamax(
                board, _ROOT, rack, other, scoreless, depth, -_UNBOUNDED, _UNBOUNDED
            )
        except _OutOfBudget:
            break
        best = Endgame(
            int(value), search.line(board, rack, other, scoreless), complete, search.positions
        )
        if complete:
            return best
        depth += 1
    if best is None:  # not even one turn deep: the best-scoring play (or a pass)
        moves = scrabble.find_moves(lexicon, board, rack, top=1)
        first: Move | Pass = moves[0] if moves else Pass()
        return Endgame(_score(first), (first,), False, search.positions)
    return Endgame(best.spread, best.line, False, search.positions)


class _Search:
    """One endgame search: the transposition table, the budget, the count of positions."""

    def __init__(self, lexicon: Lexicon, seconds: float | None, max_positions: int | None) -> None:
        self.lexicon = lexicon
        self.language = lexicon.language
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.max_positions = max_positions
        self.positions = 0
        # (played, mover's rack, other rack, scoreless) → (lower, upper, depth searched, best turn)
        self.table: dict[tuple, tuple[float, float, float, Move | Pass | None]] = {}
        self.generated: dict[tuple[Played, str], tuple[scrabble.MoveList, list[int]]] = {}

    def negamax(
        self,
        board: Board,
        played: Played,
        rack: str,
        other: str,
        scoreless: int,
        depth: int,
        alpha: float,
        beta: float,
    ) -> tuple[float, bool]:
        """The mover's value searched ``depth`` turns deep within (alpha, beta), and whether
        no line met the horizon (the value is then exact, or an exact bound); ``played`` is
        the board's key."""
        self._spend()
        key = (played, rack, other, scoreless)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            lower, upper, searched, hint = entry
            if searched >= depth:
                complete = searched == _UNBOUNDED
                if lower >= beta:
                    return lower, complete
                if upper <= alpha:
                    return upper, complete
                if lower == upper:
                    return lower, complete
                alpha, beta = max(alpha, lower), min(beta, upper)
        if depth == 0:
            return self._stuck(rack, other), False
        start_alpha = alpha
        best, best_turn, complete = -_UNBOUNDED, None, True
        for turn, score, left in self._turns(board, played, rack, other, hint):
            value, done = self._after(
                board, played, other, scoreless, depth, alpha, beta, turn, score, left
            )
            complete = complete and done
            if value > best:
                best, best_turn = value, turn
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        searched = _UNBOUNDED if complete else depth
        if best <= start_alpha:
            self.table[key] = (-_UNBOUNDED, best, searched, best_turn)
        elif best >= beta:
            self.table[key] = (best, _UNBOUNDED, searched, best_turn)
        else:
            self.table[key] = (best, best, searched, best_turn)
        return best, complete

    def _after(
        self,
        board: Board,
        played: Played,
        other: str,
        scoreless: int,
        depth: int,
        alpha: float,
        beta: float,
        turn: Move | Pass,
        score: int,
        left: str,
    ) -> tuple[float, bool]:
        """The mover's value of playing ``turn`` (``score`` points, ``left`` kept)."""
        if not left:  # played out: the other's rack counts twice
            return score + 2 * rack_points(other, self.language), True
        streak = 0 if score else scoreless + 1
        if streak >= SCORELESS_TURNS:  # each loses their own rack
            return score + self._stuck(left, other), True
        if isinstance(turn, Pass):
            after = board
        else:
            after, played = scrabble.play(board, turn), played.union(turn.placed)
        value, done = self.negamax(after, played, other, left, streak, depth - 1, -beta, -alpha)
        return score - value, done

    def _stuck(self, rack: str, other: str) -> int:
        """The spread if neither player moved again: each loses their own rack."""
        return rack_points(other, self.language) - rack_points(rack, self.language)

    def _turns(
        self, board: Board, played: Played, rack: str, other: str, hint: Move | Pass | None
    ) -> Iterator[tuple[Move | Pass, int, str]]:
        """Every turn with its score and the tiles it keeps (each play, then the pass), in
        the order that prunes most: the table's best turn first, then plays by score, a
        play-out counted with its bonus. A play's ``Move`` is built only when reached."""
        if hint is not None:
            yield hint, _score(hint), _left(rack, hint)
        generated, ranked = self._generated(board, played, rack, other)
        for i in ranked:
            move = generated[i]
            if move != hint:
                yield move, generated.score(i), _without(rack, generated.tiles(i))
        if not isinstance(hint, Pass):
            yield Pass(), 0, rack

    def _generated(
        self, board: Board, played: Played, rack: str, other: str
    ) -> tuple[scrabble.MoveList, list[int]]:
        """The rack's moves on the board and their search order (kept: every deeper search
        meets the same positions again). The opponent's rack is the same wherever the mover
        holds ``rack`` on this board: the unseen tiles are fixed."""
        key = (played, rack)
        found = self.generated.get(key)
        if found is None:
            bonus = 2 * rack_points(other, self.language)
            moves = scrabble.generate(self.lexicon, board, rack)
            keys = [
                -score - bonus if out else -score
                for score, out in zip(moves.scores(), moves.whole_rack(), strict=True)
            ]
            found = self.generated[key] = (moves, sorted(range(len(keys)), key=keys.__getitem__))
        return found

    def _spend(self) -> None:
        self.positions += 1
        if self.max_positions is not None and self.positions > self.max_positions:
            raise _OutOfBudget
        if (
            self.deadline is not None
            and self.positions % 16 == 0
            and time.monotonic() > self.deadline
        ):
            raise _OutOfBudget

    def line(self, board: Board, rack: str, other: str, scoreless: int) -> tuple[Move | Pass, ...]:
        """The best line, read from the table's best turns."""
        turns: list[Move | Pass] = []
        seen = set()
        played = _ROOT
        while True:
            key = (played, rack, other, scoreless)
            entry = self.table.get(key)
            if entry is None or entry[3] is None or key in seen:
                return tuple(turns)
            seen.add(key)
            turn = entry[3]
            turns.append(turn)
            left, score = _left(rack, turn), _score(turn)
            if isinstance(turn, Move):
                board, played = scrabble.play(board, turn), played.union(turn.placed)
            scoreless = 0 if score else scoreless + 1
            if not left or scoreless >= SCORELESS_TURNS:
                return tuple(turns)
            rack, other = other, left


def _score(turn: Move | Pass) -> int:
    return 0 if isinstance(turn, Pass) else turn.score


def _left(rack: str, turn: Move | Pass) -> str:
    """The rack after ``turn``."""
    return rack if isinstance(turn, Pass) else _without(rack, placed_tiles(turn.placed))


def _sorted(rack: str) -> str:
    """The rack's tiles sorted, blanks last (as ``rack_after`` leaves them), so that a rack
    has one spelling in the table's keys."""
    return "".join(sorted(rack, key=lambda tile: (tile == BLANK, tile)))


def _without(rack: str, tiles: str) -> str:
    """The sorted rack less ``tiles`` (letters, ``?`` for a blank), which it holds: still
    sorted."""
    for tile in tiles:
        rack = rack.replace(tile, "", 1)
    return rack
