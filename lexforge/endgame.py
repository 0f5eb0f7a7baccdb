"""Scrabble endgames: with the bag empty, both racks are known (the tiles no one has seen are
the opponent's), so the best sequence of turns for spread can be computed exactly.

The value of a position is the spread the player to move can secure from now to the end:
their points minus the opponent's, the end-of-game rack values included, under the rules of
lexforge.game — a player who plays out gains the other's rack value and the other loses it
(+2 × its value to the spread), six scoreless turns in a row (passes, plays scoring 0) end the
game with each player losing their own rack's value. With the bag empty there are no
exchanges: a turn is a play or a pass.

``solve`` runs a negamax search compiled end to end (``_scrabble.EndgameSearch``): the
board's tiles are placed and lifted in C as the search plays, each position's plays are
generated in C by the move generator of lexforge.scrabble and kept for the next visit (the
same board and rack: every deeper search meets them again), and the search prunes with
alpha-beta and a transposition table keyed by a hash of the tiles played since the root (two
plays in either order reach one position), both racks and the scoreless turns. Moves are tried
best first: the table's best move, then play-outs (their score with the other's rack counted
twice), then by score plus 3 points a tile placed, the pass last — much as Macondo's endgame
solver orders them (domino14/macondo, endgame/negamax: the hash move, going out, the score
with a weight on the tiles played); like it, every move after the first is searched with a
null window first (principal variation search).

The search deepens one turn, then two turns at a time (1, 2, 4, 6, … turns) so that a budget
(seconds or positions searched) still leaves the best line of the deepest finished search; below
the horizon a position is valued as if both racks stayed stuck (each player loses their own).
That estimate is not the same for the player to move as for the other, so the horizon stays on
the same player's turn from one search to the next: the table's bounds and best moves of one
search then guide the next (on the 7-vs-7 endgames of bench/bench_endgame.py deepening by two
took at most the time of deepening by one, up to a fifth less). A player who cannot play at all
passes without using up a turn of depth (the forced-pass bypass of MAGPIE's endgame solver,
jvc56/MAGPIE pull request 479): a stuck rack would otherwise halve the horizon, and the
scoreless turns still end a chain of such passes. Each search after the first tries a window of
±5 points around the previous one's value first (an aspiration window), and searches again with
the full window when the value falls outside it (on the 7-vs-7 endgames of the bench: 30 % less
time on one, within 5 % on the others). A line's plays (row or column) depend only on the rack
and the line's own squares (tiles, cross-checks, cross words' values, anchors): each side's plays
are generated once on the root board, a line still as it was there takes the root plays the rack
still holds, another line's plays are kept by its squares and the rack once generated, and the
generator runs only on the lines not met before with that rack. A search that met no horizon
is exact, and says so. ``lexforge.reference.endgame_value`` is the plain minimax it is tested
against.

With ``threads`` > 1 the search runs on that many threads (Lazy SMP), each with its own board,
racks and kept plays, sharing one table of fixed size (``_scrabble.EndgameTable``, lockless:
a slot holds its key XOR its record, so a slot read half-written reads as another position).
The main thread deepens as above and its answer is the answer; at each of its searches the
helpers search the same depth within the same window, the root's plays after the first in
reverse order (each helper from its own share of them on), so that the threads refute
different plays and each hits the other's results in the table; a helper done first searches
deeper. The helpers are stopped and joined when the main search ends or the budget does. A
store checks its slot, then writes it, and another thread may write in between: a value is
never wrong, but the line may keep a stale best turn, so an exact line is checked against the
value and, if it does not replay to it, taken from a one-thread search within the budget left.
"""

from __future__ import annotations

import threading
import time
from array import array
from dataclasses import dataclass

from lexforge import _scrabble, scrabble
from lexforge.graph import graph_letters
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.plays import BLANK, Pass, placed_tiles, rack_after
from lexforge.scrabble import Board, Move

SCORELESS_TURNS = 6  # as lexforge.game: six scoreless turns in a row end the game
ASPIRATION = 5  # half the window around the previous search's value a search tries first
TABLE_BYTES = 384 << 20  # the table the threads of a search share: 2**24 slots of 24 bytes


@dataclass(frozen=True)
class Endgame:
    """A solved (or, over budget, searched) endgame, from the mover's side."""

    spread: int  # the points the mover gains on the opponent from now to the end
    line: tuple[Move | Pass, ...]  # the best turns, alternating, the mover's first
    exact: bool  # False: the budget ran out before every line reached the end of the game
    positions: int  # positions searched


def rack_points(rack: str, language: Language) -> int:
    """The value of a rack's tiles (blanks 0), as the end of a game counts them."""
    values = language.tile_values
    return sum(values.get(tile, 0) for tile in rack if tile != BLANK)


def new_search(
    lexicon: Lexicon, board: Board, rack: str, other: str, **options: object
) -> _scrabble.EndgameSearch:
    """The compiled search of the endgame of ``rack`` (to move) against ``other`` on
    ``board``, as ``solve`` runs it (``options``: ``EndgameSearch``'s own, e.g.
    ``max_set_bytes``, ``table``)."""
    language = lexicon.language
    return _scrabble.EndgameSearch(
        *scrabble.board_arrays(lexicon, board),
        language.rack_size,
        language.bingo_bonus,
        [scrabble.rack_counts(lexicon, rack), scrabble.rack_counts(lexicon, other)],
        **options,
    )


def solve(
    lexicon: Lexicon,
    board: Board,
    rack: str,
    other: str,
    *,
    scoreless: int = 0,
    seconds: float | None = None,
    max_positions: int | None = None,
    threads: int = 1,
    table_bytes: int = TABLE_BYTES,
) -> Endgame:
    """The best line for the player holding ``rack`` against ``other`` (racks as
    ``scrabble.generate`` takes them), ``scoreless`` turns in a row having passed without a
    score. ``seconds`` or ``max_positions`` bound the search (``max_positions`` keeps it
    deterministic with one thread; with more, it bounds the main thread's positions); without
    either it runs to the exact answer. ``threads`` > 1 searches on that many threads sharing
    one table of ``table_bytes`` (Lazy SMP: the answer is the main thread's, the others fill
    the table); ``positions`` then counts every thread's."""
    if threads < 1:
        raise ValueError(f"threads={threads}: at least 1")
    deadline = None if seconds is None else time.monotonic() + seconds
    table = None if threads == 1 else _scrabble.EndgameTable(table_bytes)
    searches = [new_search(lexicon, board, rack, other, table=table) for _ in range(threads)]
    rounds = None if table is None else _Rounds(table)
    helpers = []
    for k in range(1, threads):
        searches[k].perturb, searches[k].threads = k, threads
        helpers.append(
            threading.Thread(target=_help, args=(searches[k], rounds, scoreless, deadline))
        )

    def stop() -> None:
        """Stop the helper threads and wait for them."""
        if rounds is not None:
            rounds.stop()
        for helper in helpers:
            helper.join()

    for helper in helpers:
        helper.start()
    try:
        best = _deepen(lexicon, board, searches[0], scoreless, deadline, max_positions, rounds)
    finally:
        stop()
    positions = sum(search.positions for search in searches)
    if best is None:  # not even one turn deep: the best-scoring play (or a pass)
        moves = scrabble.find_moves(lexicon, board, rack, top=1)
        first: Move | Pass = moves[0] if moves else Pass()
        return Endgame(0 if isinstance(first, Pass) else first.score, (first,), False, positions)
    if not best.exact:
        return Endgame(best.spread, best.line, False, positions)
    line = _line(lexicon, board, searches[0].line(scoreless))  # the helpers stopped
    if threads > 1 and _line_spread(lexicon, rack, other, scoreless, line) != best.spread:
        # A helper's store that raced the main search's (a check of the slot, then a write)
        # can leave a stale best turn on the line: the value stands, the line is one thread's
        # (if it is found exactly within the budget left).
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        again = solve(lexicon, board, rack, other, scoreless=scoreless, seconds=left)
        line = again.line if again.exact else line
    return Endgame(best.spread, line, True, positions)


def _line_spread(
    lexicon: Lexicon, rack: str, other: str, scoreless: int, line: tuple[Move | Pass, ...]
) -> int | None:
    """The spread ``line`` yields for the mover by the end rules, or None if it does not end
    the game."""
    language = lexicon.language
    racks, points, streak = [rack, other], [0, 0], scoreless
    for number, turn in enumerate(line):
        mover = number % 2
        score = 0 if isinstance(turn, Pass) else turn.score
        if not isinstance(turn, Pass):
            racks[mover] = rack_after(racks[mover], placed_tiles(turn.placed))
        points[mover] += score
        streak = 0 if score else streak + 1
        if not racks[mover]:
            return (
                points[0]
                - points[1]
                + (2 if mover == 0 else -2) * rack_points(racks[1 - mover], language)
            )
        if streak >= SCORELESS_TURNS:
            return (
                points[0]
                - points[1]
                - rack_points(racks[0], language)
                + rack_points(racks[1], language)
            )
    return None


def _deepen(
    lexicon: Lexicon,
    board: Board,
    search: _scrabble.EndgameSearch,
    scoreless: int,
    deadline: float | None,
    max_positions: int | None,
    rounds: _Rounds | None,
) -> Endgame | None:
    """The main search's iterative deepening: the deepest finished search's value and line
    (exact when it met no horizon), or None if not even one turn deep finished. Each search
    begins a round of ``rounds`` (the helper threads', if any)."""

    def run(depth: int, window: tuple[int, int] | None = None) -> tuple[int, bool] | None:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if rounds is not None:
            rounds.begin(depth, window)
        return search.search(depth, scoreless, max_positions, left, *(window or ()))

    best: Endgame | None = None
    depth = 1
    while True:
        if best is None:
            searched = run(depth)
        else:  # an aspiration window first; outside it, the value is only a bound: again
            low, high = best.spread - ASPIRATION, best.spread + ASPIRATION
            searched = run(depth, (low, high))
            if searched is not None and not low < searched[0] < high:
                searched = run(depth)
        if searched is None:  # out of budget: the deepest finished search stands
            return None if best is None else Endgame(best.spread, best.line, False, 0)
        value, complete = searched
        if complete:
            return Endgame(value, (), True, 0)
        best = Endgame(value, _line(lexicon, board, search.line(scoreless)), False, 0)
        depth = 2 if depth == 1 else depth + 2


class _Rounds:
    """The main search's current search (depth and window), which the helper threads search
    too, in another order."""

    def __init__(self, table: _scrabble.EndgameTable) -> None:
        self.table = table
        self.changed = threading.Condition()
        self.current: tuple[int, int, tuple[int, int] | None] | None = None  # round, depth, window
        self.stopped = False

    def begin(self, depth: int, window: tuple[int, int] | None) -> None:
        """The main search begins a search: the helpers leave theirs for it."""
        with self.changed:
            self.current = (self.table.next_round(), depth, window)
            self.changed.notify_all()

    def stop(self) -> None:
        """Stop the helpers."""
        with self.changed:
            self.table.stop()
            self.stopped = True
            self.changed.notify_all()

    def next(self, last: int) -> tuple[int, int, tuple[int, int] | None] | None:
        """Wait for a search after round ``last``; None once stopped."""
        with self.changed:
            self.changed.wait_for(
                lambda: self.stopped or (self.current is not None and self.current[0] != last)
            )
            return None if self.stopped else self.current


def _help(
    search: _scrabble.EndgameSearch, rounds: _Rounds, scoreless: int, deadline: float | None
) -> None:
    """A helper thread: it searches the main search's current search (the root's plays in
    another order, see ``EndgameSearch.perturb``) and, done before the main, deeper ones as
    the main would, until the main begins another search."""
    last = -1
    while (current := rounds.next(last)) is not None:
        last, depth, window = current
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            searched = search.search(depth, scoreless, None, left, *(window or ()), round=last)
            if searched is None or searched[1]:
                break
            depth, window = (2 if depth == 1 else depth + 2), None


def _line(
    lexicon: Lexicon, board: Board, records: list[list[int] | None]
) -> tuple[Move | Pass, ...]:
    """The search's line as turns: each play's record (as ``_scrabble.generate`` writes it)
    read on the board it is played on."""
    letters = graph_letters(lexicon.language.alphabet)
    turns: list[Move | Pass] = []
    for record in records:
        if record is None:
            turns.append(Pass())
            continue
        width = len(record) - _scrabble.HEADER_INTS
        move = scrabble.MoveList(array("i", record), width, board, letters)[0]
        turns.append(move)
        board = scrabble.play(board, move)
    return tuple(turns)
