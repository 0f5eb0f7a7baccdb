"""The equity player's static corrections (lexforge.players.Adjusters), each checked against
the published rule it follows, applied here to every move of the plain-Python generator
(lexforge.reference), independently of the player: Macondo's opening vowel placement (a vowel
on the centre line's columns C, G, I, M, beside the double-letter squares, costs 0.7),
Quackle's pre-endgame timing (by the tiles left in the bag) and its static endgame (a play
out gains twice the opponent's rack; one that does not loses 8 + 2.61 × its leave's points)."""

from __future__ import annotations

import pytest
from solver_fixtures import small_lexicon

from lexforge import reference, scrabble
from lexforge.errors import UserError
from lexforge.game import Game, View
from lexforge.leaves import LeaveTable
from lexforge.lexicon import Lexicon
from lexforge.players import (
    PLAIN,
    STANDARD,
    Adjusters,
    Equity,
    Greedy,
    opening_placement,
    unseen,
)
from lexforge.plays import placed_tiles, rack_after
from lexforge.scrabble import Move

# Quackle's catchall.cpp, copied here from its source: the bag after the play + 7 → equity.
QUACKLE_TIMING = [0.0, -8.0, 0.0, -0.5, -2.0, -3.5, -2.0, 2.0, 10.0, 7.0, 4.0, -1.0, -2.0]
# The standard board: the double-letter squares beside the centre line (rows 7 and 9 of the
# printed board, columns C, G, I, M; and their transposes).
BESIDE_DL = {2, 6, 8, 12}
LEAVES = LeaveTable({"S": 8.0, "?": 25.0, "Q": -7.0, "ER": 4.0, "I": -1.0, "II": -6.0})


def empty_board(lexicon: Lexicon) -> scrabble.Board:
    return scrabble.parse_board(
        ("." * 15 + "\n") * 15, lexicon.language, scrabble.load_layout(None)
    )


def views(lexicon: Lexicon, seeds: range, keep) -> list[View]:
    """The views of greedy games' turns that ``keep`` accepts."""
    found: list[View] = []

    class Watching(Greedy):
        def choose(self, view: View):
            if keep(view):
                found.append(view)
            return super().choose(view)

    for seed in seeds:
        Game(lexicon, [Watching("a"), Watching("b")], seed).run()
    return found


def macondo_opening(move: Move, vowels: str) -> float:
    """Macondo's rule: -0.7 per vowel at line index 2, 6, 8 or 12 (first move: all tiles new)."""
    line = [col if move.across else row for row, col, _ in move.placed]
    letters = [letter.upper() for _, _, letter in move.placed]
    return -0.7 * sum(
        1 for k, t in zip(line, letters, strict=True) if k in BESIDE_DL and t in vowels
    )


def test_opening_vowels_beside_double_letters_by_hand():
    lexicon = small_lexicon("en")
    view = View(lexicon, empty_board(lexicon), "AEOXZ", 80, (0, 0), 0)
    across = Move("AXE", 7, 6, True, 0, ((7, 6, "A"), (7, 7, "X"), (7, 8, "E")))
    down = Move("AXE", 6, 7, False, 0, ((6, 7, "A"), (7, 7, "X"), (8, 7, "E")))
    clear = Move("OXO", 7, 5, True, 0, ((7, 5, "O"), (7, 6, "X"), (7, 7, "O")))
    blank = Move("AXe", 7, 6, True, 0, ((7, 6, "A"), (7, 7, "X"), (7, 8, "e")))
    assert opening_placement(view, across) == pytest.approx(-1.4)
    assert opening_placement(view, down) == pytest.approx(-1.4)
    assert opening_placement(view, clear) == 0
    assert opening_placement(view, blank) == pytest.approx(-1.4)  # a blank played as a vowel


@pytest.mark.parametrize("rack", ["AEINRST", "AEIOUXZ", "EORSTVX", "ADEIOQU"])
def test_the_opening_move_is_the_best_with_macondos_placement(rack):
    lexicon = small_lexicon("en")
    vowels = lexicon.language.classify["vowels"]
    view = View(lexicon, empty_board(lexicon), rack, 86, (0, 0), 0)
    moves = reference.scrabble_moves_python(lexicon, view.board, rack)
    expected = max(
        m.score
        + LEAVES.value(rack_after(rack, placed_tiles(m.placed)))
        + macondo_opening(m, vowels)
        for m in moves
    )
    player = Equity("e", LEAVES, adjust=Adjusters(opening=True))
    (equity, action), *_ = player.ranked(view, 3)
    assert equity == pytest.approx(max(expected, best_exchange(rack)))
    if isinstance(action, Move):
        leave = LEAVES.value(rack_after(rack, placed_tiles(action.placed)))
        assert equity == pytest.approx(action.score + leave + macondo_opening(action, vowels))


def leave_value(rack: str, move: Move) -> float:
    return LEAVES.value(rack_after(rack, placed_tiles(move.placed)))


def timing(after: int) -> float:
    """Quackle's entry for the bag after the play + 7 (0 beyond the table)."""
    return QUACKLE_TIMING[after] if after < len(QUACKLE_TIMING) else 0.0


def best_exchange(rack: str) -> float:
    from itertools import combinations

    return max(
        LEAVES.value(rack_after(rack, "".join(given)))
        for size in range(1, len(rack) + 1)
        for given in combinations(rack, size)
    )


def test_pre_endgame_timing_over_every_move():
    lexicon = small_lexicon("en")
    found = views(lexicon, range(1, 4), lambda v: 0 < v.bag <= 8)
    assert len(found) >= 6 and {v.bag for v in found} & {1, 2, 3}
    player = Equity("e", LEAVES, adjust=Adjusters(pre_endgame=True))
    for view in found:
        rack = view.rack
        options = [
            m.score
            + LEAVES.value(rack_after(rack, placed_tiles(m.placed)))
            + timing(view.bag - len(m.placed) + 7)
            for m in reference.scrabble_moves_python(lexicon, view.board, rack)
        ]
        if view.can_exchange:
            options.append(best_exchange(rack))
        (equity, action), *_ = player.ranked(view, 1)
        assert equity == pytest.approx(max(options, default=0.0)), (view.bag, rack, action)
        # the plain player differs only by the timing
        plain = Equity("p", LEAVES).ranked(view, 1)[0][0]
        assert abs(equity - plain) <= 10


def test_static_endgame_goes_out_when_the_opponents_rack_pays():
    lexicon = small_lexicon("en")
    found = views(lexicon, range(1, 6), lambda v: v.bag == 0)
    assert len(found) >= 5
    values = lexicon.language.tile_values

    def points(tiles: str) -> int:
        return sum(values.get(t, 0) for t in tiles if t != "?")

    static = Equity("s", LEAVES, endgame_positions=0, adjust=Adjusters(endgame=True))
    differs = 0
    for view in found:
        other = unseen(view)
        moves = reference.scrabble_moves_python(lexicon, view.board, view.rack)
        if not moves:
            continue

        def quackle(m: Move, rack: str = view.rack, other: str = other) -> float:
            left = rack_after(rack, placed_tiles(m.placed))
            return m.score + (2 * points(other) if not left else -8 - 2.61 * points(left))

        chosen = static.choose(view)
        assert isinstance(chosen, Move)
        assert quackle(chosen) == pytest.approx(max(quackle(m) for m in moves))
        plain = Equity("p", LEAVES, endgame_positions=0).choose(view)
        differs += plain.score != chosen.score or plain.placed != chosen.placed
    assert differs >= 1  # the correction changes some choices


def test_adjusters_by_name():
    assert Adjusters.parse("all") == STANDARD
    assert Adjusters.parse("none") == PLAIN
    assert Adjusters.parse("opening, endgame") == Adjusters(opening=True, endgame=True)
    with pytest.raises(UserError, match="'timing' is not one of opening, pre-endgame, endgame"):
        Adjusters.parse("timing")
