"""The equity player's ranking and the simulation player (lexforge.players), each against a
plain enumeration of every action on a real game's position."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import pytest
from test_cli import fails_in_one_line, run

from lexforge import gcg, scrabble
from lexforge.game import View, play_game
from lexforge.leaves import LeaveTable
from lexforge.lexicon import Lexicon
from lexforge.players import Equity, Simulation, unseen
from lexforge.plays import Exchange, parse_tiles, placed_tiles, rack_after

GAME = Path(__file__).parent / "fixtures" / "gcg" / "boys1.gcg"
# Some leaves worth something, so that equity and score disagree.
LEAVES = LeaveTable({"?": 25.0, "S": 8.0, "ES": 10.0, "Q": -7.0, "V": -5.0, "E": 2.0, "R": 1.5})


@pytest.fixture(scope="module")
def view(build_dir: Path) -> View:
    """Turn 12 of a real game (David to play WALTIER, 42 tiles in the bag)."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    record = gcg.parse_record(GAME.read_text(), GAME.name)
    position = gcg.replay(record, lexicon.language, scrabble.load_layout(None), 12)
    on_board = sum(1 for tile in position.board.tiles if tile)
    bag = 100 - on_board - 2 * 7
    rack = parse_tiles(position.rack, lexicon.language, "rack")  # sorted, as a game deals
    return View(lexicon, position.board, rack, bag, position.scores, position.player)


def every_action(view: View) -> list[tuple[float, object]]:
    """Every play and exchange with its equity, best first (moves by the generator's order,
    then exchanges keeping fewer tiles first)."""
    leave = LEAVES.value
    moves = scrabble.generate(view.lexicon, view.board, view.rack)
    options = [
        ((m.score + leave(rack_after(view.rack, placed_tiles(m.placed))), -i), m)
        for i, m in enumerate(moves[i] for i in range(len(moves)))
    ]
    kept_sets = sorted(
        {"".join(k) for n in range(len(view.rack)) for k in combinations(view.rack, n)},
        key=lambda k: (len(k), k),
    )
    options += [
        ((leave(kept), -(10**6) - order), Exchange(rack_after(view.rack, kept)))
        for order, kept in enumerate(kept_sets)
    ]
    return [(key[0], action) for key, action in sorted(options, key=lambda o: o[0], reverse=True)]


def test_the_equity_ranking_is_the_top_of_every_action(view):
    expected = every_action(view)
    for count in (1, 5, 12):
        assert Equity("e", LEAVES).ranked(view, count) == expected[:count]
    assert Equity("e", LEAVES).choose(view) == expected[0][1]


def test_a_simulation_sample_is_the_candidates_equity_less_the_best_reply(view):
    """One sample, recomputed by hand: the opponent's rack dealt from the unseen tiles with
    the player's own random generator, their best reply by plain enumeration."""
    player = Simulation("s", LEAVES, seconds=None, iterations=1, candidates=4, seed=7)
    ranked = player.equity.ranked(view, 4)
    values, samples = player.simulate(view, ranked)
    assert samples == 1
    pool = list(unseen(view))
    random.Random(7).shuffle(pool)
    rack = "".join(sorted(pool[:7], key=lambda t: (t == "?", t)))
    for (value, action), simulated in zip(ranked, values, strict=True):
        board = (
            scrabble.play(view.board, action) if not isinstance(action, Exchange) else view.board
        )
        drawn = len(action.placed) if not isinstance(action, Exchange) else 0
        reply = View(view.lexicon, board, rack, view.bag - drawn, view.scores, 1 - view.player)
        best_reply = every_action(reply)[0][0]
        assert simulated == pytest.approx(value - best_reply)


def test_the_simulation_player_is_deterministic_for_a_seed_and_plays_a_candidate(view):
    first = Simulation("s", LEAVES, seconds=None, iterations=6, seed=3).choose(view)
    again = Simulation("s", LEAVES, seconds=None, iterations=6, seed=3).choose(view)
    assert first == again
    assert first in [a for _, a in Equity("e", LEAVES).ranked(view, 8)]
    assert Simulation("s", LEAVES, seconds=0.05, seed=3).choose(view) in [
        a for _, a in Equity("e", LEAVES).ranked(view, 8)
    ]


def test_a_whole_game_between_simulation_and_equity(view):
    players = [Simulation("sim", LEAVES, seconds=None, iterations=2, seed=1), Equity("eq", LEAVES)]
    result = play_game(view.lexicon, players, seed=5)
    again = play_game(
        view.lexicon,
        [Simulation("sim", LEAVES, seconds=None, iterations=2, seed=1), Equity("eq", LEAVES)],
        seed=5,
    )
    assert gcg.format_record(result.record) == gcg.format_record(again.record)
    position = gcg.replay(result.record, view.lexicon.language, scrabble.load_layout(None))
    assert position.over and not position.warnings


def test_scrabble_sim_on_the_command_line(build_dir):
    """``lexforge scrabble --sim``: the equity player's eight best candidates (no leaves: by
    score), each with a simulated value, best first; refused with a picture."""
    board = "tests/fixtures/scrabble/fr-midgame.board"
    done = run("scrabble", board, "--rack", "EIRSTAN", "--lexicon", "fr", "--sim", "0.3", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    rows = data["results"]
    lexicon = Lexicon.open(build_dir / "stage" / "fr")
    top = scrabble.find_moves(
        lexicon,
        scrabble.parse_board(Path(board).read_text(), lexicon.language, scrabble.load_layout(None)),
        "EIRSTAN",
        top=8,
    )
    assert {r["notation"] for r in rows} == {lexicon.language.spell(m.notation) for m in top}
    assert all(r["equity"] == r["score"] for r in rows)  # no leave values given
    assert [r["simulated"] for r in rows] == sorted((r["simulated"] for r in rows), reverse=True)
    assert data["samples"] >= 1 and data["bag"] > 0
    fails_in_one_line(
        run("scrabble", board, "--rack", "EIRSTAN", "--lexicon", "fr", "--sim", "1", "--show"),
        "lexforge scrabble: --sim ranks the candidates",
    )
