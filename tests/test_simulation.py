"""The equity player's ranking and the simulation player (lexforge.players), each against a
plain enumeration of every action on a real game's position."""

from __future__ import annotations

import json
import random
import statistics
from itertools import combinations
from pathlib import Path

import pytest
from test_cli import fails_in_one_line, run

from lexforge import endgame, gcg, scrabble
from lexforge.game import Game, View, play_game
from lexforge.leaves import LeaveTable
from lexforge.lexicon import Lexicon
from lexforge.players import (
    PRUNE_EVERY,
    Equity,
    Simulated,
    Simulation,
    _prune,
    _Replies,
    unseen,
)
from lexforge.plays import Exchange, Pass, parse_tiles, placed_tiles, rack_after

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


def after(view: View, action) -> tuple[scrabble.Board, str, int]:
    """The board after ``action``, the rack's tiles left and how many fewer the bag holds."""
    if isinstance(action, Exchange):
        return view.board, rack_after(view.rack, action.tiles), 0
    if isinstance(action, Pass):
        return view.board, view.rack, 0
    left = rack_after(view.rack, placed_tiles(action.placed))
    return scrabble.play(view.board, action), left, min(view.bag, len(action.placed))


def test_a_two_ply_deal_is_the_candidates_equity_less_the_best_reply(view):
    """One deal, recomputed by hand: the opponent's rack dealt from the unseen tiles with the
    player's own random generator, their best reply by plain enumeration."""
    player = Simulation("s", LEAVES, seconds=None, iterations=1, candidates=4, seed=7)
    ranked = player.equity.ranked(view, 4)
    outcome = player.simulate(view, ranked)
    assert outcome.iterations == 1 and outcome.samples == [1] * 4 and not outcome.exact
    assert outcome.kept == [0, 1, 2, 3]
    pool = list(unseen(view))
    random.Random(7).shuffle(pool)
    rack = "".join(sorted(pool[:7], key=lambda t: (t == "?", t)))
    for (value, action), simulated in zip(ranked, outcome.values, strict=True):
        board, _, taken = after(view, action)
        reply = View(view.lexicon, board, rack, view.bag - taken, view.scores, 1 - view.player)
        assert simulated == pytest.approx(value - every_action(reply)[0][0])


def test_a_three_ply_deal_adds_our_next_turn_with_the_tiles_we_draw(view):
    """Three plies, by hand: our score, less the opponent's best reply's equity, plus the
    equity of our best next turn with our leave and the tiles drawn after the opponent's
    rack (the deal's next tiles); an exchange draws as many tiles as it puts back."""
    player = Simulation("s", LEAVES, seconds=None, iterations=1, plies=3, seed=11)
    ranked = player.ranked(view)
    assert any(isinstance(action, Exchange) for _, action in ranked)
    outcome = player.simulate(view, ranked)
    pool = list(unseen(view))
    random.Random(11).shuffle(pool)
    rack = "".join(sorted(pool[:7], key=lambda t: (t == "?", t)))
    for (_, action), simulated in zip(ranked, outcome.values, strict=True):
        board, left, taken = after(view, action)
        drawn = 7 - len(left)
        ours = "".join(sorted(left + "".join(pool[7 : 7 + drawn]), key=lambda t: (t == "?", t)))
        reply_view = View(view.lexicon, board, rack, view.bag - taken, view.scores, 1)
        reply_equity, reply = every_action(reply_view)[0]
        board2, _, taken2 = after(reply_view, reply)
        again = View(view.lexicon, board2, ours, view.bag - taken - taken2, view.scores, 0)
        score = 0 if isinstance(action, Exchange) else action.score
        assert simulated == pytest.approx(score - reply_equity + every_action(again)[0][0])


def test_the_candidates_are_the_best_by_equity_and_the_best_exchange(view):
    """The top candidates by plain enumeration, then the best exchange (none is among them
    here); with fewer than seven tiles in the bag, a pass instead."""
    expected = every_action(view)
    ranked = Simulation("s", LEAVES, iterations=1, candidates=5).ranked(view)
    assert ranked[:5] == expected[:5]
    assert ranked[5:] == [next(o for o in expected if isinstance(o[1], Exchange))]
    short = View(view.lexicon, view.board, view.rack, 3, view.scores, view.player)
    ranked = Simulation("s", LEAVES, iterations=1, candidates=5).ranked(short)
    assert ranked[5:] == [(LEAVES.value(view.rack), Pass())]
    assert not any(isinstance(a, Exchange) for _, a in ranked)


def test_pruning_drops_what_is_significantly_worse_on_the_same_deals():
    steady = [10.0 + (i % 3) for i in range(16)]
    history = [
        steady,
        [v - 4 + (i % 2) for i, v in enumerate(steady)],  # 4 worse, paired: gone
        [v + (-30 if i % 2 else 29) for i, v in enumerate(steady)],  # as good, noisy: kept
        [v + 0.5 + (-3 if i % 2 else 3) for i, v in enumerate(steady)],  # the best
    ]
    assert _prune([0, 1, 2, 3], history) == [0, 2, 3]


def test_a_pruned_simulation_stops_when_one_candidate_is_left(view):
    player = Simulation("s", LEAVES, seconds=None, iterations=400, seed=3)
    ranked = player.ranked(view)
    outcome = player.simulate(view, ranked)
    assert outcome.iterations < 400 and outcome.iterations % PRUNE_EVERY == 0
    assert len(outcome.kept) == 1 and outcome.best() == outcome.kept[0]
    assert outcome.samples[outcome.best()] == outcome.iterations


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


def test_scrabble_sim_on_the_command_line(build_dir, tmp_path):
    """``lexforge scrabble --sim``: the equity player's eight best candidates (leaves all worth
    0: by score) and its best exchange, each with a simulated value, best first; refused with a
    picture."""
    board = "tests/fixtures/scrabble/fr-midgame.board"
    zero = tmp_path / "zero.txt"
    zero.write_text("# every leave worth 0\n", encoding="utf-8")
    done = run(
        "scrabble", board, "--rack", "EIRSTAN", "--lexicon", "fr", "--sim", "0.3", "--json",
        "--leaves", str(zero),
    )  # fmt: skip
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
    expected = {lexicon.language.spell(m.notation) for m in top} | {"-AEINRST"}
    assert {r["notation"] for r in rows} == expected  # the best exchange: every tile (no leaves)
    assert all(r["equity"] == r["score"] for r in rows)  # every leave worth 0
    kept = data["kept"]  # the candidates never pruned first, each part best first
    for part in (rows[:kept], rows[kept:]):
        assert [r["simulated"] for r in part] == sorted(
            (r["simulated"] for r in part), reverse=True
        )
    assert max(r["deals"] for r in rows) == data["samples"]
    assert data["samples"] >= 1 and data["bag"] > 0
    fails_in_one_line(
        run("scrabble", board, "--rack", "EIRSTAN", "--lexicon", "fr", "--sim", "1", "--show"),
        "lexforge scrabble: --sim ranks the candidates",
    )


@pytest.fixture(scope="module")
def one_in_the_bag(view: View) -> View:
    """A self-played game (equity players, the first seed from 2 on whose game passes through
    it) at the turn when one tile is left in the bag: the eight unseen tiles are that tile and
    the opponent's seven."""
    for seed in range(2, 40):
        players = [Equity("a", LEAVES), Equity("b", LEAVES)]
        game = Game(view.lexicon, players, seed)
        mover = 0
        while len(game.bag) > 1:
            game.apply(mover, players[mover].choose(game.view(mover)))
            mover = 1 - mover
        if len(game.bag) == 1:
            return game.view(mover)
    raise AssertionError("no game of seeds 2–39 left exactly one tile in the bag")


def test_with_one_tile_in_the_bag_every_split_is_valued_by_the_endgame(one_in_the_bag):
    """The pre-endgame: each of the eight unseen tiles in turn is the one left in the bag (the
    others the opponent's rack); a play draws it and the endgame follows, searched within
    the budget, the opponent to move; a pass leaves the bag to the opponent's best reply."""
    view = one_in_the_bag
    player = Simulation(
        "s", LEAVES, seconds=None, iterations=1, candidates=3, endgame_positions=200, seed=5
    )
    ranked = player.ranked(view)
    assert isinstance(ranked[-1][1], Pass) and len(ranked) == 4
    outcome = player.simulate(view, ranked)
    pool = unseen(view)
    assert len(pool) == 8 and outcome.exact and outcome.iterations == len(set(pool))
    assert outcome.samples == [len(set(pool))] * 4
    again = Simulation(
        "s", LEAVES, seconds=None, iterations=1, candidates=3, endgame_positions=200, seed=99
    )
    assert again.simulate(view, ranked).values == outcome.values  # no sampling: no seed
    for (equity, action), simulated in zip(ranked, outcome.values, strict=True):
        board, left, _ = after(view, action)
        values = []
        for k in range(8):  # the tile left in the bag
            other = pool[:k] + pool[k + 1 :]
            if isinstance(action, Pass):
                reply = View(view.lexicon, board, other, 1, view.scores, 1 - view.player)
                values.append(equity - every_action(reply)[0][0])
            else:
                ours = "".join(sorted(left + pool[k], key=lambda t: (t == "?", t)))
                solved = endgame.solve(view.lexicon, board, other, ours, max_positions=200)
                values.append(action.score - solved.spread)
        assert simulated == pytest.approx(sum(values) / 8)


def test_the_best_reply_read_from_the_records_is_the_equity_players(view):
    """The simulation's replies (no ``Move`` built, leaves from a per-rack table) against the
    equity player's ranking, itself checked against plain enumeration above: the same equity
    and the same move, over racks dealt from the unseen tiles — with two blanks, repeated
    tiles, a bag too small to exchange and an empty bag (the best score)."""
    replies = _Replies(view.lexicon, LEAVES)
    pool = list(unseen(view))
    rng = random.Random(4)
    for n in range(60):
        rng.shuffle(pool)
        letters = [t for t in pool if t != "?"]
        tiles = [*letters[:5], "?", "?"] if n % 4 == 0 else pool[:7]
        rack = "".join(sorted(tiles, key=lambda t: (t == "?", t)))
        for bag in (40, 3, 0):
            equity, moves, index = replies.best(view.board, rack, bag)
            if bag:
                reply = View(view.lexicon, view.board, rack, bag, view.scores, view.player)
                expected, action = Equity("e", LEAVES).ranked(reply, 1)[0]
            else:
                top = scrabble.find_moves(view.lexicon, view.board, rack, top=1)
                expected, action = float(top[0].score), top[0]
            assert equity == pytest.approx(expected)
            if isinstance(action, scrabble.Move):
                assert moves is not None and index is not None and moves[index] == action
            else:
                assert index is None


@pytest.fixture(scope="module")
def lane(view: View) -> View:
    """HOUSE down the centre column; DELOORX to play. The best plays by equity (LOXED, REDOX:
    29) put a tile on the top row, where the opponent can reach the triple word square at H1;
    I3 DEX (27) opens nothing."""
    rows = [["."] * 15 for _ in range(15)]
    for i, letter in enumerate("HOUSE"):
        rows[3 + i][7] = letter
    text = "\n".join(" ".join(row) for row in rows)
    board = scrabble.parse_board(text, view.lexicon.language, scrabble.load_layout(None))
    return View(view.lexicon, board, "DELOORX", 80, (0, 0), 0)


def test_simulation_declines_a_play_that_opens_a_triple_word_lane(lane):
    ranked = Equity("e", LEAVES).ranked(lane, 4)
    assert [(e, a.notation) for e, a in ranked] == [
        (29.0, "G1 LOXED"),
        (29.0, "I1 LOXED"),
        (29.0, "I1 REDOX"),
        (27.0, "I3 DEX"),
    ]
    assert Equity("e", LEAVES).choose(lane).notation == "G1 LOXED"
    # The opponent's best reply, plain: on average it scores more than the 2 points
    # LOXED gains after LOXED than after DEX.
    loxed, dex = ranked[0][1], ranked[3][1]
    pool = list(unseen(lane))
    rng = random.Random(0)
    gains = []
    for _ in range(100):
        rng.shuffle(pool)
        rack = "".join(sorted(pool[:7], key=lambda t: (t == "?", t)))
        best = [
            scrabble.find_moves(lane.lexicon, scrabble.play(lane.board, m), rack, top=1)[0].score
            for m in (loxed, dex)
        ]
        gains.append(best[0] - best[1])
    assert statistics.fmean(gains) - 2 * statistics.stdev(gains) / 10 > 2
    for seed in (1, 2, 3):
        player = Simulation("s", LEAVES, seconds=None, iterations=200, seed=seed)
        assert player.choose(lane).notation == "I3 DEX"


def test_a_simulation_is_the_same_for_a_seed(lane):
    """The same seed: the same deals, the same values and prunings; another seed: others."""
    ranked = Equity("e", LEAVES).ranked(lane, 6)

    def outcome(seed: int):
        return Simulation("s", LEAVES, seconds=None, iterations=48, seed=seed).simulate(
            lane, ranked
        )

    first = outcome(9)
    assert first == outcome(9)
    assert first.values != outcome(10).values


def test_below_a_rack_in_the_bag_the_player_plays_the_equity_move(one_in_the_bag):
    """The pre-endgame stays an analysis (``simulate``): the player plays as ``equity``."""
    view = one_in_the_bag
    player = Simulation("s", LEAVES, seconds=None, iterations=8, seed=5)
    assert player.choose(view) == Equity("e", LEAVES).choose(view)
    three = View(view.lexicon, view.board, view.rack, 3, view.scores, view.player)
    assert player.choose(three) == Equity("e", LEAVES).choose(three)


def test_the_best_by_equity_is_played_unless_another_is_significantly_ahead():
    """Paired on the same deals: a candidate ahead by under one standard error does not
    displace the best by equity (0); one ahead by several does; a pruned base gives way."""
    base = [10.0 + (5 if i % 2 else -5) for i in range(32)]
    close = [v + 0.5 + (3 if i % 4 < 2 else -3) for i, v in enumerate(base)]  # +0.5, error 0.5
    clear = [v + 4 + (3 if i % 4 < 2 else -3) for i, v in enumerate(base)]  # +4, error ~0.5
    noisy = [v + 6 + (40 if i % 2 else -40) for i, v in enumerate(base)]  # +6, error ~7
    means = [statistics.fmean(h) for h in (base, close, clear, noisy)]

    def outcome(*deals, kept=None):
        values = [statistics.fmean(h) for h in deals]
        kept = list(range(len(deals))) if kept is None else list(kept)
        return Simulated(values, [32] * len(deals), kept, 32, False, list(deals))

    assert outcome(base, close).over(0) == 0
    assert outcome(base, close).over(0, z=0) == 1  # no margin: the best simulated
    assert outcome(base, close, clear, noisy).over(0) == 2
    assert outcome(base, noisy).over(0) == 0 and means[3] > means[2]
    assert outcome(base, close, clear, noisy, kept=(1, 3)).over(0) == 3  # base pruned: best()
