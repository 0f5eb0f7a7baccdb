"""Scrabble endgames (lexforge.endgame) against plain minimax (lexforge.reference), on a real
game's board and on the last boards of self-play games in English and in Spanish (digraph
tiles): the same value for every pair of small random racks (blanks among them, with
scoreless turns behind), lines that replay to that value, the end rules (play-out bonus, six
scoreless turns), and budgets."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from lexforge import _scrabble, endgame, gcg, reference, scrabble
from lexforge.game import new_bag, play_game
from lexforge.leaves import LeaveTable
from lexforge.lexicon import Lexicon
from lexforge.players import Equity, Greedy, unseen
from lexforge.plays import Pass, placed_tiles, rack_after


class _Found(Exception):
    pass


GAME = Path(__file__).parent / "fixtures" / "gcg" / "boys1.gcg"
LETTERS = "AAEEIOURSTLNDGBCMPHKWYZQ?"


@pytest.fixture(scope="module")
def position(build_dir: Path) -> tuple[Lexicon, scrabble.Board]:
    """``en`` and the board of a real game before its turn 20 (Quackle vs. David Boys)."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    record = gcg.parse_record(GAME.read_text(), GAME.name)
    board = gcg.replay(record, lexicon.language, scrabble.load_layout(None), 20).board
    return lexicon, board


def replayed(
    lexicon: Lexicon, board: scrabble.Board, rack: str, other: str, line, scoreless: int = 0
) -> int:
    """The spread the line yields for the first mover, by the game's rules, when it ends the
    game (a rack played out, or six scoreless turns counting ``scoreless`` behind)."""
    points = {0: 0, 1: 0}
    racks, streak = [rack, other], scoreless
    for turn_number, turn in enumerate(line):
        mover = turn_number % 2
        score = 0 if isinstance(turn, Pass) else turn.score
        if not isinstance(turn, Pass):
            assert turn in scrabble.find_moves(lexicon, board, racks[mover])  # legal
            racks[mover] = rack_after(racks[mover], placed_tiles(turn.placed))
            board = scrabble.play(board, turn)
        points[mover] += score
        streak = 0 if score else streak + 1
        if not racks[mover]:
            bonus = endgame.rack_points(racks[1 - mover], lexicon.language)
            points[mover] += 2 * bonus
            break
        if streak >= endgame.SCORELESS_TURNS:
            for seat in (0, 1):
                points[seat] -= endgame.rack_points(racks[seat], lexicon.language)
            break
    else:
        raise AssertionError("the line does not end the game")
    return points[0] - points[1]


def last_board(lexicon: Lexicon, seed: int) -> scrabble.Board:
    """The board of a greedy self-play game when its bag first empties."""
    found: list[scrabble.Board] = []

    def on_turn(event, game) -> None:
        if not game.bag:
            found.append(game.board)
            raise _Found

    with pytest.raises(_Found):
        play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
    return found[0]


@pytest.mark.parametrize(
    ("name", "seed"),
    [("en", 1), ("en", 2), ("en", 3), ("es-scrabble", 0), ("es-scrabble", 3), ("es-scrabble", 5)],
)
def test_the_solver_equals_plain_minimax_on_random_endgames(build_dir, name, seed):
    """Random racks of one or two tiles drawn from the set, a blank in one of three, with 0,
    3 or 5 scoreless turns behind (at 5 a pass ends the game), on a self-play game's last
    board."""
    lexicon = Lexicon.open(build_dir / "stage" / name)
    board = last_board(lexicon, seed)
    rng = random.Random(seed)
    sizes = [(1, 1), (1, 1), (1, 2), (2, 1), (1, 1), (2, 1), (1, 2), (2, 1)]
    for mine, theirs in sizes:
        tiles = [tile for tile in new_bag(lexicon, rng) if tile != "?"]
        rack, other = "".join(tiles[:mine]), "".join(tiles[mine : mine + theirs])
        if rng.random() < 1 / 3:
            rack = "?" + rack[1:]
        scoreless = rng.choice((0, 3, 5))
        expected = reference.endgame_value(lexicon, board, rack, other, scoreless)
        for threads in (1, 2):
            solved = endgame.solve(
                lexicon, board, rack, other, scoreless=scoreless, threads=threads
            )
            assert solved.exact and solved.spread == expected, (rack, other, scoreless, threads)
            assert replayed(lexicon, board, rack, other, solved.line, scoreless) == expected


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (1, 1),
        (1, 2),
        (2, 1),
        pytest.param(1, 3, marks=pytest.mark.slow),  # minimax: 20 s
        pytest.param(2, 2, marks=pytest.mark.slow),
    ],
)
def test_the_solver_equals_plain_minimax_on_small_endgames(position, mine, theirs):
    lexicon, board = position
    rng = random.Random(mine * 10 + theirs)
    for _ in range(4):
        rack = "".join(sorted(rng.choice(LETTERS) for _ in range(mine)))
        other = "".join(sorted(rng.choice(LETTERS) for _ in range(theirs)))
        expected = reference.endgame_value(lexicon, board, rack, other)
        for threads in (1, 2):
            solved = endgame.solve(lexicon, board, rack, other, threads=threads)
            assert solved.exact and solved.spread == expected, (rack, other, threads)
            assert replayed(lexicon, board, rack, other, solved.line) == solved.spread


def test_racks_in_any_order_are_the_same_endgame(position):
    """Racks are keys of the search's table: an unsorted rack is the same rack."""
    lexicon, board = position
    for rack, other in (("TA", "E"), ("S", "OE")):
        solved = endgame.solve(lexicon, board, rack, other)
        ordered = endgame.solve(lexicon, board, "".join(sorted(rack)), "".join(sorted(other)))
        assert solved.exact and solved.spread == ordered.spread
        assert solved.spread == reference.endgame_value(lexicon, board, rack, other)
        assert replayed(lexicon, board, rack, other, solved.line) == solved.spread


def test_two_tiles_each_with_a_blank(position):
    lexicon, board = position
    solved = endgame.solve(lexicon, board, "AA", "AZ")
    assert solved.exact and solved.spread == reference.endgame_value(lexicon, board, "AA", "AZ")
    assert replayed(lexicon, board, "AA", "AZ", solved.line) == solved.spread


def test_a_stuck_rack_passes_and_six_scoreless_turns_end_the_game(position):
    """Neither J nor V plays on this board: the mover passes; with five scoreless turns
    behind, that pass ends the game, each player losing their rack's value."""
    lexicon, board = position
    assert not scrabble.find_moves(lexicon, board, "J") and not scrabble.find_moves(
        lexicon, board, "V"
    )
    solved = endgame.solve(lexicon, board, "J", "V", scoreless=5)
    j, v = (endgame.rack_points(r, lexicon.language) for r in ("J", "V"))
    assert solved.exact and solved.line == (Pass(),) and solved.spread == v - j == -4
    assert solved.spread == reference.endgame_value(lexicon, board, "J", "V", 5)
    # With no scoreless turn behind, the pair passes six times all the same.
    assert endgame.solve(lexicon, board, "J", "V").line == (Pass(),) * 6


def test_a_budget_stops_the_search_with_its_best_line_and_says_so(position):
    lexicon, board = position
    rack, other = "ACDELOR", "AEIOSTU"
    first = endgame.solve(lexicon, board, rack, other, max_positions=400)
    again = endgame.solve(lexicon, board, rack, other, max_positions=400)
    assert not first.exact and first.line and first == again  # a position budget: deterministic
    assert first.line[0] in scrabble.find_moves(lexicon, board, rack)
    timed = endgame.solve(lexicon, board, rack, other, seconds=0.2)
    assert not timed.exact and timed.line


def test_the_equity_player_reads_the_opponents_rack_and_plays_the_endgame_line(build_dir):
    """In self-play endgames, the tiles a player has not seen are exactly the opponent's rack,
    and the equity player plays the first turn of the endgame's line."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    found: list[tuple] = []

    def on_turn(event, game) -> None:
        if not game.bag and all(game.racks):
            mover = (event.player + 1) % 2
            found.append((game.view(mover), game.racks[1 - mover]))
            raise _Found

    for seed in (0, 1):
        found.clear()
        with pytest.raises(_Found):
            play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
        view, other = found[0]
        assert unseen(view) == other
        player = Equity("e", LeaveTable({}))
        solved = endgame.solve(
            lexicon, view.board, view.rack, other, max_positions=player.endgame_positions
        )
        assert player.choose(view) == solved.line[0]


def test_the_value_is_the_best_play_less_the_opponents_value_after_it(build_dir):
    """One ply of minimax over the solver itself, on the empty-bag positions of a Spanish
    self-play game where no rack holds more than four tiles: the root's exact value is the
    best of each play's score less the opponent's exact value after it (a play-out: plus twice
    the other rack) and of the pass. Cutoffs on wrong bounds break this equality."""
    lexicon = Lexicon.open(build_dir / "stage" / "es-scrabble")
    positions: list[tuple] = []

    def on_turn(event, game) -> None:
        streak = 0 if event.score else game.scoreless + 1
        mover = (event.player + 1) % 2
        racks = game.racks[mover], game.racks[1 - mover]
        if not game.bag and all(racks) and max(map(len, racks)) <= 4 and streak < 6:
            positions.append((game.board, *racks, streak))

    play_game(lexicon, [Greedy("one"), Greedy("two")], 4, on_turn=on_turn)
    assert positions
    language = lexicon.language
    for board, rack, other, scoreless in positions:
        solved = endgame.solve(lexicon, board, rack, other, scoreless=scoreless)
        values = []
        for move in [*scrabble.find_moves(lexicon, board, rack), Pass()]:
            score = 0 if isinstance(move, Pass) else move.score
            left = rack if isinstance(move, Pass) else rack_after(rack, placed_tiles(move.placed))
            streak = 0 if score else scoreless + 1
            if not left:
                values.append(score + 2 * endgame.rack_points(other, language))
            elif streak >= endgame.SCORELESS_TURNS:
                stuck = endgame.rack_points(other, language) - endgame.rack_points(left, language)
                values.append(score + stuck)
            else:
                after = board if isinstance(move, Pass) else scrabble.play(board, move)
                reply = endgame.solve(lexicon, after, other, left, scoreless=streak)
                values.append(score - reply.spread)
        assert solved.exact and solved.spread == max(values), (rack, other)


def full_endgame(lexicon: Lexicon, seed: int) -> tuple:
    """(board, rack to move, the other rack) of a greedy self-play game when its bag first
    holds fewer tiles than a rack, both racks full: a 7-vs-7 endgame (bench_endgame --full)."""
    found: list[tuple] = []

    def on_turn(event, game) -> None:
        if len(game.bag) < 7 and all(len(rack) == 7 for rack in game.racks):
            mover = (event.player + 1) % 2
            found.append((game.board, game.racks[mover], game.racks[1 - mover]))
            raise _Found

    with pytest.raises(_Found):
        play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
    return found[0]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("seed", "spread"), [(1, 23), (7, -7), (8, 19)])
def test_seven_tile_endgames_keep_their_exact_values(build_dir, seed, spread, threads):
    """Full 7-vs-7 endgames of bench_endgame.py --full, with the values the plain negamax
    (one turn a ply, plays generated at every position, no killer plays) proved exactly:
    the faster search (root plays kept on unchanged lines, forced passes extended), on one
    thread or two sharing the table, finds the same values, exactly, and lines that replay
    to them."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    board, rack, other = full_endgame(lexicon, seed)
    assert (len(rack), len(other)) == (7, 7)
    solved = endgame.solve(lexicon, board, rack, other, threads=threads)
    assert solved.exact and solved.spread == spread
    assert replayed(lexicon, board, rack, other, solved.line) == spread
    # The check a threaded line passes (else the line is searched again on one thread).
    assert endgame._line_spread(lexicon, rack, other, 0, solved.line) == spread
    assert endgame._line_spread(lexicon, rack, other, 0, solved.line[:-1]) is None


def test_threads_sharing_a_small_table_keep_the_exact_value(build_dir):
    """A shared table of 1 MB (43,690 slots) for a search of hundreds of thousands of
    positions: entries are replaced all the time, and the threads still prove the value."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    board, rack, other = full_endgame(lexicon, 8)
    for threads in (2, 3):
        solved = endgame.solve(lexicon, board, rack, other, threads=threads, table_bytes=1 << 20)
        assert solved.exact and solved.spread == 19, threads


def test_a_search_on_a_shared_table_finds_what_another_stored(build_dir):
    """Two search objects (a thread's each) on one table: the second, searching what the first
    searched, finds its entries (far fewer positions) and the same value."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    position = full_endgame(lexicon, 8)
    table = _scrabble.EndgameTable(16 << 20)
    first, second = (endgame.new_search(lexicon, *position, table=table) for _ in range(2))
    assert table.used() == 0
    value = first.search(4, 0, None, None)
    assert table.used() > 1000
    assert second.search(4, 0, None, None) == value
    assert second.positions < first.positions // 10


def test_threads_stop_within_the_budget(build_dir):
    """A budget too short for the exact value: the threads are stopped and joined within it
    (the wall time includes building the search objects and reading the line)."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    board, rack, other = full_endgame(lexicon, 0)  # not exact within 30 s
    before = threading.active_count()
    start = time.monotonic()
    solved = endgame.solve(lexicon, board, rack, other, seconds=0.5, threads=2)
    assert time.monotonic() - start < 1.0
    assert threading.active_count() == before
    assert not solved.exact and solved.line[0] in scrabble.find_moves(lexicon, board, rack)
    with pytest.raises(ValueError, match="threads=0"):
        endgame.solve(lexicon, board, rack, other, threads=0)


def test_plays_past_their_memory_are_generated_again_to_the_same_search(build_dir):
    """Past the memory for kept plays (here a few kilobytes) a position's plays are generated
    for that visit only and freed after it: the search meets the same positions and values as
    with the plays kept."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    position = full_endgame(lexicon, 8)
    searched = []
    for memory in (512 << 20, 4096):
        search = endgame.new_search(lexicon, *position, max_set_bytes=memory)
        values = [search.search(depth, 0, None, None) for depth in (1, 2, 4)]
        searched.append((values, search.positions))
    assert searched[0] == searched[1]
    assert searched[0][1] > 10_000  # enough positions to overflow 4 kB many times over
