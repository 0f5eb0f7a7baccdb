"""The players of lexforge.game: ``greedy``, ``equity`` (with leave values), ``simulation``
and ``human``.

* ``greedy`` plays the best-scoring move (ties: lexforge.scrabble's order); with no move it
  exchanges its whole rack while the bag allows, else passes.
* ``equity`` plays the move or exchange of highest score + leave value, the value of the tiles
  kept (lexforge.leaves: by default the lexicon's values learned by self-play, ``snakemake
  leaves``; or any given table or model; every leave 0 where the lexicon has none); ties go
  to moves, in the generator's order. With the bag empty and one opponent, the tiles no one has
  seen are the opponent's rack: it plays the first turn of lexforge.endgame's best line,
  searched within a budget of positions (so the same game comes out of the same seed).
  ``Adjusters`` add the static players' corrections of strong engines to score + leave, each
  switchable: the opening's vowel placement, the pre-endgame timing, the static endgame.
* ``simulation`` takes the equity player's best candidates (and its best exchange, or a pass)
  and plays each on the same deals of the unseen tiles (the opponent's rack, then the bag our
  draw comes from), two plies ahead as Quackle and Macondo do — the candidate's equity less
  the equity of the opponent's best reply — or three (plus our own best next turn); candidates
  significantly worse on the same deals are pruned. Choosing a turn, it simulates only the
  candidates within ``margin`` of the best equity (none when one is left), and below a rack in
  the bag it plays as ``equity``. Pre-endgame (``simulate``): when a candidate empties the
  bag, its value is its score less the endgame's for the opponent, and with one tile in the bag
  every split of the unseen tiles is valued instead of samples. A budget of seconds and/or of
  deals (deterministic for a seed). The endgame as ``equity``.
* ``human`` draws the board on a terminal and reads the turn in notation (``8H WORD``,
  ``-ABC``, ``-``; lexforge.plays); a play that is not legal gets one line and a new prompt.
"""

from __future__ import annotations

import heapq
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple, TextIO

import numpy as np

from lexforge import endgame, scrabble
from lexforge._scrabble import BLANK_FLAG, HEADER_INTS
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
from lexforge.scrabble import Board, Move, MoveList, place
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


# The equity player's endgame budget in positions (deterministic): a fifth of a second median,
# at most about a second; a larger budget plays stronger (docs/scrabble.md, "Strength").
ENDGAME_POSITIONS = 100_000
SIM_CANDIDATES = 8  # the simulation player's candidates: the equity player's best (+ 1)
SIM_ITERATIONS = 48  # its deals a turn in play and self-play (deterministic)
SIM_PLIES = 2  # our turn and the opponent's reply, each with its leave's value
SIM_PLAYER_PLIES = 3  # in play and self-play: and our next turn (Macondo's default look-ahead)
SIM_MARGIN = 12.0  # when choosing, candidates more than this below the best equity are dropped
SWITCH_Z = 1.64  # the best by equity is played unless another beats it by this many errors
PRUNE_EVERY = 16  # deals between two prunings of the candidates (the first after as many)
PRUNE_Z = 2.58  # a candidate goes when this many standard errors below the best (99 %)
PRE_ENDGAME_POSITIONS = 300  # the endgame search's budget when a candidate empties the bag
TABLES_KEPT = 4096  # racks whose leave tables a simulation keeps (then it starts afresh)


#: Quackle's pre-endgame timing (libquackle catchall.cpp, ``CatchallEvaluator``; Macondo's
#: default ``preEndgameAdjustmentValues`` alike): the equity a tile play gains by the tiles the
#: bag holds after it, indexed by that count + the rack's size (a play of more tiles than the
#: bag holds: below the rack size). Leaving the opponent one to three tiles to draw is worth
#: most, four or five slightly negative; beyond, nothing.
PRE_ENDGAME = (0.0, -8.0, 0.0, -0.5, -2.0, -3.5, -2.0, 2.0, 10.0, 7.0, 4.0, -1.0, -2.0)
#: Macondo's opening placement (equity/opening.go, "a very rough approximation from the Maven
#: paper"): on the empty board, each vowel placed beside a double-letter square (across the
#: play's line) costs this much — it opens a DL–DL spot for the opponent's high tiles.
OPENING_VOWEL = -0.7
#: Quackle's static endgame (catchall.cpp, ``endgameResult``), the bag empty and no search: a
#: play that goes out gains twice the others' racks, one that does not loses this constant
#: and this many times its leave's points (the tiles it is stuck with).
ENDGAME_STUCK = (-8.0, -2.61)


@dataclass(frozen=True)
class Adjusters:
    """The corrections a static player adds to score + leave (each off: the plain player)."""

    opening: bool = False  # OPENING_VOWEL per vowel beside a DL on the first move
    pre_endgame: bool = False  # PRE_ENDGAME by the tiles left in the bag
    endgame: bool = False  # ENDGAME_STUCK when the bag is empty and the endgame not searched

    @classmethod
    def parse(cls, spec: str) -> Adjusters:
        """``opening,pre-endgame,endgame`` (any of them), ``all`` or ``none``."""
        names = [n.strip() for n in spec.split(",") if n.strip()]
        if names in (["all"], ["none"]):
            return STANDARD if names == ["all"] else PLAIN
        known = ("opening", "pre-endgame", "endgame")
        for name in names:
            if name not in known:
                raise UserError(
                    f"adjusters {spec!r}: {name!r} is not one of {', '.join(known)}, all, none"
                )
        return cls(*(k in names for k in known))


PLAIN = Adjusters()
STANDARD = Adjusters(opening=True, pre_endgame=True, endgame=True)


class Equity:
    """Score + the leave's value from ``leaves`` (None: the lexicon's learned values), with
    the ``adjust`` corrections; the endgame searched."""

    def __init__(
        self,
        name: str,
        leaves: Leaves | None = None,
        endgame_positions: int = ENDGAME_POSITIONS,
        adjust: Adjusters = PLAIN,
    ) -> None:
        self.name = name
        self.leaves = leaves
        self.endgame_positions = endgame_positions
        self.adjust = adjust

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
        # (equity, preference: moves first, in order; then exchanges in order), the move's
        # index or the tiles an exchange keeps
        best: list[tuple[tuple[float, int], int | str]] = []
        if view.can_exchange:
            for order, (kept, value) in enumerate(kept_value.items()):
                _keep_best(best, ((value, -(10**6) - order), kept), count)
        timing = self.adjust.pre_endgame and view.bag > 0
        # no leave (and timing) is worth more: later moves cannot win
        ceiling = max(kept_value.values()) + (max(PRE_ENDGAME) if timing else 0.0)
        opening = self.adjust.opening and not any(view.board.tiles)
        size = view.lexicon.language.rack_size
        leave_of: dict[str, float] = {}  # the tiles placed: their leave's value (and timing)
        for i in range(len(moves)):
            score = moves.score(i)
            if len(best) == count and (score + ceiling, -i - 1) < best[0][0]:
                break
            tiles = moves.tiles(i)
            if tiles not in leave_of:
                leave_of[tiles] = kept_value[rack_after(view.rack, tiles)]
                if timing:
                    leave_of[tiles] += _timing(view.bag - len(tiles) + size)
            equity = score + leave_of[tiles]
            if opening:
                equity += opening_placement(view, moves[i])
            _keep_best(best, ((equity, -i - 1), i), count)
        if not best:
            return [(0.0, Pass())]
        ordered = sorted(best, key=lambda option: option[0], reverse=True)
        return [
            (
                key[0],
                moves[kept] if isinstance(kept, int) else Exchange(rack_after(view.rack, kept)),
            )
            for key, kept in ordered
        ]

    def endgame(self, view: View) -> Action:
        """The bag empty: the endgame's best line where the opponent's rack is known (two
        players, a budget of positions), else the best score (with ``adjust.endgame``: the
        static endgame's correction)."""
        other = unseen(view)
        size = view.lexicon.language.rack_size
        if self.endgame_positions and len(view.scores) == 2 and other and len(other) <= size:
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
        if self.adjust.endgame:
            return static_endgame(view, other)
        best = scrabble.find_moves(view.lexicon, view.board, view.rack, top=1)
        return best[0] if best else Pass()


def _timing(index: int) -> float:
    """PRE_ENDGAME's entry (0 beyond it)."""
    return PRE_ENDGAME[index] if 0 <= index < len(PRE_ENDGAME) else 0.0


def opening_placement(view: View, move: Move) -> float:
    """OPENING_VOWEL for each vowel ``move`` places beside a double-letter square, across its
    line (on the standard board, the centre row's columns C, G, I and M)."""
    layout = view.board.layout
    vowels = view.lexicon.language.classify.get("vowels", "")
    penalty = 0.0
    for row, col, letter in move.placed:
        if letter.upper() not in vowels:
            continue
        beside = (
            ((row - 1, col), (row + 1, col)) if move.across else ((row, col - 1), (row, col + 1))
        )
        if any(
            0 <= r < layout.rows
            and 0 <= c < layout.cols
            and layout.letter_mult(r * layout.cols + c) == 2
            for r, c in beside
        ):
            penalty += OPENING_VOWEL
    return penalty


def static_endgame(view: View, others: str) -> Action:
    """The bag empty, the endgame not searched: the best score + ENDGAME_STUCK's correction
    (a play out gains twice ``others``' points; one that does not loses the constant and a
    multiple of its leave's points); ties: the generator's order."""
    language = view.lexicon.language
    moves = scrabble.generate(view.lexicon, view.board, view.rack)
    if not len(moves):
        return Pass()
    out = 2.0 * endgame.rack_points(others, language)
    constant, per_point = ENDGAME_STUCK
    best, chosen = -math.inf, 0
    for i in range(len(moves)):
        left = rack_after(view.rack, moves.tiles(i))
        bonus = constant + per_point * endgame.rack_points(left, language) if left else out
        if moves.score(i) + bonus > best:
            best, chosen = moves.score(i) + bonus, i
    return moves[chosen]


def _keep_best(
    best: list[tuple[tuple[float, int], int | str]],
    option: tuple[tuple[float, int], int | str],
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


class _Memo:
    """Leave values remembered by leave: a simulation asks for the same leaves again and
    again."""

    def __init__(self, leaves: Leaves) -> None:
        self.leaves = leaves
        self.known: dict[str, float] = {}

    def value(self, tiles: str) -> float:
        found = self.known.get(tiles)
        if found is None:
            found = self.known[tiles] = self.leaves.value(tiles)
        return found


@dataclass(frozen=True)
class Simulated:
    """A simulation's outcome: per candidate its mean value and the deals it was played on
    (a candidate pruned early got fewer), the candidates never pruned, the deals dealt and
    whether they were every split of the unseen tiles (one tile in the bag, all valued within
    the seconds)."""

    values: list[float]
    samples: list[int]
    kept: list[int]
    iterations: int
    exact: bool
    deals: list[list[float]] = field(default_factory=list, repr=False)  # per deal, in order

    def best(self) -> int:
        """The best candidate never pruned (ties: the first)."""
        return max(self.kept, key=lambda k: (self.values[k], -k))

    def over(self, base: int, z: float = SWITCH_Z) -> int:
        """The candidate to play rather than ``base`` (the best by equity): ``base`` unless
        another never pruned beats it on the same deals by more than ``z`` standard errors
        of the paired difference (then the best of those by mean); ``best()`` if ``base``
        was pruned."""
        if base not in self.kept:
            return self.best()
        ahead = []
        for k in self.kept:
            if k != base:
                diffs = [a - b for a, b in zip(self.deals[k], self.deals[base], strict=False)]
                if len(diffs) > 1:
                    error = statistics.stdev(diffs) / math.sqrt(len(diffs))
                    if statistics.fmean(diffs) > z * error:
                        ahead.append(k)
        return max(ahead, key=lambda k: (self.values[k], -k)) if ahead else base


class Decision(NamedTuple):
    """The simulation player's choice: the action, its equity, and its simulated value over
    the deals simulated (None and 0: chosen without simulating)."""

    equity: float
    action: Action
    simulated: float | None = None
    deals: int = 0


class Simulation:
    """The equity player's best candidates (with its best exchange, or a pass when no exchange
    is allowed), each played out two plies (or three) against the same sampled deals of the
    unseen tiles; the best mean spread plus leave value wins. With one tile in the bag the
    splits of the unseen tiles are enumerated exactly, and a candidate that empties the bag
    is valued by the endgame search (the pre-endgame)."""

    def __init__(
        self,
        name: str,
        leaves: Leaves | None,
        *,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        candidates: int = SIM_CANDIDATES,
        plies: int = SIM_PLIES,
        margin: float = SIM_MARGIN,
        switch_z: float = SWITCH_Z,
        seed: int = 0,
        endgame_positions: int = PRE_ENDGAME_POSITIONS,
    ) -> None:
        if seconds is None and iterations is None:
            raise UserError("a simulation needs a budget: seconds or iterations")
        if plies not in (2, 3):
            raise UserError(f"a simulation looks 2 or 3 plies ahead, not {plies}")
        self.name = name
        self.equity = Equity(name, _Memo(leaves))
        self.replies: _Replies | None = None
        self.seconds = seconds
        self.iterations = iterations
        self.candidates = candidates
        self.plies = plies
        self.margin = margin
        self.switch_z = switch_z
        self.endgame_positions = endgame_positions
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if not view.bag:
            return self.equity.choose(view)
        return self.decide(view).action

    def decide(self, view: View) -> Decision:
        """With tiles in the bag, the action to play: the best by equity unless a candidate
        within ``margin`` of it beats it on the same deals (``Simulated.over``)."""
        # Below a rack in the bag, the pre-endgame's values (the endgame's for a candidate that
        # empties the bag, two plies for the others) are not comparable: played, they chose
        # passes over 50-point plays and lost games. The equity player plays there.
        if view.bag < view.lexicon.language.rack_size or len(view.scores) != 2:
            return Decision(*self.equity.ranked(view, 1)[0])
        ranked = self.ranked(view)
        best = max(equity for equity, _ in ranked)
        ranked = [option for option in ranked if option[0] >= best - self.margin]
        if len(ranked) == 1:
            return Decision(*ranked[0])
        base = max(range(len(ranked)), key=lambda k: (ranked[k][0], -k))
        outcome = self.simulate(view, ranked)
        chosen = outcome.over(base, self.switch_z)
        return Decision(*ranked[chosen], outcome.values[chosen], outcome.iterations)

    def ranked(self, view: View) -> list[tuple[float, Action]]:
        """The candidates, best equity first: the equity player's top ``candidates``, then
        its best exchange if none is among them, or a pass if the bag is too small to
        exchange (a pass keeps the bag for the opponent to empty)."""
        ranked = self.equity.ranked(view, self.candidates)
        value = self.equity.leaves.value
        if view.can_exchange and not any(isinstance(a, Exchange) for _, a in ranked):
            # the kept tiles of highest value (ties: the first, as Equity.ranked orders them)
            kept = max(
                (
                    "".join(k)
                    for n in range(len(view.rack))
                    for k in sorted(set(combinations(view.rack, n)))
                ),
                key=value,
            )
            ranked.append((value(kept), Exchange(rack_after(view.rack, kept))))
        elif not view.can_exchange and not any(isinstance(a, Pass) for _, a in ranked):
            ranked.append((value(view.rack), Pass()))
        return ranked

    def simulate(self, view: View, ranked: list[tuple[float, Action]]) -> Simulated:
        """Each candidate's mean value over the same deals of the unseen tiles (the
        opponent's rack, then the bag in order: our draw first), until the budget is spent
        (at least one deal); candidates significantly worse than the best are pruned."""
        size = view.lexicon.language.rack_size
        if self.replies is None or self.replies.lexicon is not view.lexicon:
            self.replies = _Replies(view.lexicon, self.equity.values(view.lexicon))
        pool = list(unseen(view))
        deals = _splits(pool) if view.bag == 1 else None
        after = [_after(view, action) for _, action in ranked]
        sums = [0.0] * len(ranked)
        weights = [0.0] * len(ranked)
        history: list[list[float]] = [[] for _ in ranked]
        live = list(range(len(ranked)))
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        budget = len(deals) if deals is not None else self.iterations or math.inf
        done = 0
        while done == 0 or (done < budget and len(live) > 1):
            if done and deadline is not None and time.monotonic() >= deadline:
                break
            if deals is not None:
                weight, rack, bag = deals[done]
            else:
                self.rng.shuffle(pool)
                weight, rack, bag = 1, _sorted(pool[:size]), pool[size:]
            self.replies.forget()
            for k in live:
                value = self.playout(view, ranked[k], after[k], rack, bag)
                sums[k] += weight * value
                weights[k] += weight
                history[k].append(value)
            done += 1
            if deals is None and done % PRUNE_EVERY == 0:
                live = _prune(live, history)
        means = [s / w for s, w in zip(sums, weights, strict=True)]
        exact = deals is not None and done == len(deals)  # not cut short by the seconds
        return Simulated(means, [len(h) for h in history], live, done, exact, history)

    def playout(
        self,
        view: View,
        candidate: tuple[float, Action],
        after: tuple[Board, str, int, int],
        rack: str,
        bag: list[str],
    ) -> float:
        """One deal's value of a candidate: its score, less the opponent's best reply, plus
        our best next turn (three plies), each with its leave's value; or, when the
        candidate empties the bag, its score less the endgame's value for the opponent."""
        equity, action = candidate
        board, leave, drawn, taken = after
        score = action.score if isinstance(action, Move) else 0
        ours = _sorted(leave + "".join(bag[:drawn]))
        left = view.bag - taken
        if taken and not left:  # both racks known: the endgame, the opponent to move
            solved = endgame.solve(
                view.lexicon,
                board,
                rack,
                ours,
                scoreless=0 if score else view.scoreless + 1,
                max_positions=self.endgame_positions,
            )
            return score - solved.spread
        reply_equity, moves, index = self.replies.best(board, rack, left)
        if self.plies == 2:
            return equity - reply_equity
        if moves is not None and index is not None:  # the opponent's tile play: the board after
            reply = moves[index]
            board = scrabble.play(board, reply)
            left -= min(left, len(reply.placed))
        return score - reply_equity + self.replies.best(board, ours, left)[0]


_Best = tuple[float, MoveList | None, int | None]  # an equity, the moves, the best's index


class _Replies:
    """The best turn of a rack on a board by equity — its equity as ``Equity.ranked(view,
    1)`` gives it (ties: moves first, in the generator's order; an exchange only when the bag
    allows; a pass, 0, when nothing else is possible; with the bag empty, the best score) —
    read from the generator's records without building a ``Move``: per rack, the leave value
    of every sub-multiset of its tiles a move may place, indexed by a mixed-radix key (how
    many of each distinct tile it places), so that each move's leave is one table read."""

    def __init__(self, lexicon: Lexicon, leaves: Leaves) -> None:
        self.lexicon = lexicon
        self.leaves = leaves
        self.tables: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}
        self.memo: dict[tuple[int, str, int], tuple[Board, _Best]] = {}

    def best(self, board: Board, rack: str, bag: int) -> _Best:
        """The best turn's equity, the moves generated and the index of the best one among
        them (None: an exchange or a pass is best, or there is no move); remembered until
        ``forget`` (an exchange and a pass leave the same board to the same rack)."""
        key = (id(board), rack, bag)
        found = self.memo.get(key)
        if found is not None and found[0] is board:  # the board held: its id is not reused
            return found[1]
        best = self.find(board, rack, bag)
        self.memo[key] = (board, best)
        return best

    def forget(self) -> None:
        """A new deal: the turns remembered are forgotten."""
        self.memo.clear()

    def find(self, board: Board, rack: str, bag: int) -> _Best:
        """``best``, searched."""
        if not bag:
            top = scrabble.generate(self.lexicon, board, rack, top=1)
            return (float(top.score(0)), top, 0) if len(top) else (0.0, None, None)
        moves = scrabble.generate(self.lexicon, board, rack)
        lookup, values, exchange = self.table(rack, moves.letters)
        equity, index = -math.inf, None
        count = len(moves)
        if count:
            records = np.frombuffer(moves.records, dtype=np.int32, count=count * moves.stride)
            records = records.reshape(count, moves.stride)
            keys = lookup[records[:, HEADER_INTS:] + 1].sum(axis=1)
            equities = records[:, 0] + values[keys]
            index = int(equities.argmax())
            equity = float(equities[index])
        if bag >= self.lexicon.language.rack_size and exchange > equity:
            return exchange, None, None
        if index is None:
            return 0.0, None, None
        return equity, moves, index

    def table(self, rack: str, letters: str) -> tuple[np.ndarray, np.ndarray, float]:
        """The rack's key weight per record code + 1 (0: no tile; a letter's index; a
        blank's, BLANK_FLAG added), the leave value kept per key of the tiles placed, and
        the best exchange's value (any key but placing nothing)."""
        found = self.tables.get(rack)
        if found is not None:
            return found
        if len(self.tables) >= TABLES_KEPT:
            self.tables.clear()
        distinct = list(Counter(rack).items())  # in the rack's order, as leaves are read
        lookup = np.zeros(BLANK_FLAG + len(letters) + 1, dtype=np.int64)
        radix = 1
        for tile, copies in distinct:
            if tile == BLANK:
                lookup[BLANK_FLAG + 1 : BLANK_FLAG + 1 + len(letters)] = radix
            else:
                lookup[letters.index(tile) + 1] = radix
            radix *= copies + 1
        kept = [""]  # by key: the first tile's count placed varies fastest
        for tile, copies in reversed(distinct):
            kept = [tile * (copies - n) + rest for rest in kept for n in range(copies + 1)]
        values = np.fromiter(map(self.leaves.value, kept), dtype=float, count=radix)
        exchange = float(values[1:].max()) if radix > 1 else -math.inf
        found = self.tables[rack] = (lookup, values, exchange)
        return found


def _sorted(tiles: Iterable[str]) -> str:
    return "".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


def _after(view: View, action: Action) -> tuple[Board, str, int, int]:
    """The board after ``action``, the tiles it keeps, how many it draws and how many fewer
    the bag holds (an exchange draws as many as it puts back: the bag keeps its size)."""
    if isinstance(action, Move):
        drawn = min(view.bag, len(action.placed))
        leave = rack_after(view.rack, placed_tiles(action.placed))
        return scrabble.play(view.board, action), leave, drawn, drawn
    if isinstance(action, Exchange):
        return view.board, rack_after(view.rack, action.tiles), len(action.tiles), 0
    return view.board, view.rack, 0, 0


def _splits(pool: list[str]) -> list[tuple[int, str, list[str]]]:
    """With one tile in the bag, every split of the unseen tiles: the tile left in the bag
    (each distinct one, weighted by its copies), the others the opponent's rack."""
    tiles = _sorted(pool)
    return [
        (copies, rack_after(tiles, tile), [tile]) for tile, copies in sorted(Counter(pool).items())
    ]


def _prune(live: list[int], history: list[list[float]]) -> list[int]:
    """The candidates not significantly worse than the best so far: a candidate goes when
    its mean difference from the best, paired deal by deal, is below zero by more than
    PRUNE_Z standard errors (paired: the same deals)."""
    best = max(live, key=lambda k: (statistics.fmean(history[k]), -k))
    kept = []
    for k in live:
        if k != best:
            diffs = [a - b for a, b in zip(history[k], history[best], strict=True)]
            error = statistics.stdev(diffs) / math.sqrt(len(diffs))
            if statistics.fmean(diffs) + PRUNE_Z * error < 0:
                continue
        kept.append(k)
    return kept


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
            return Simulation(
                name, leaves, seconds=None, iterations=SIM_ITERATIONS, plies=SIM_PLAYER_PLIES
            )
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
