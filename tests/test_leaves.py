"""Leave values (lexforge.leaves, pipeline/leaves.py, rules/leaves.smk): the least-squares fit
recovers known coefficients, shards sum to the same model whatever their count, the equity
player's choice is the best score + leave over an independent move generator's moves, bad leave
files are one line, and `snakemake leaves` runs on the fixture language, byte-identical twice."""

from __future__ import annotations

import json
import math
import random
from itertools import combinations
from pathlib import Path

import pytest
from build_helpers import copy_newlang, snakemake
from solver_fixtures import small_lexicon
from test_cli import fails_in_one_line, run

from lexforge import reference, scrabble
from lexforge.errors import UserError
from lexforge.game import Game, View, sort_rack
from lexforge.language import Language
from lexforge.leaves import (
    Features,
    LeaveModel,
    LeaveValues,
    Terms,
    add_counts,
    fit,
    load_leaves,
)
from lexforge.lexicon import Lexicon
from lexforge.players import Equity, Greedy
from lexforge.plays import Exchange, Pass, placed_tiles, rack_after
from pipeline.leaves import HOLDOUT, merge, shard_counts, write_json
from pipeline.leavesconfig import LeavesConfig


def linear_model(language: Language, seed: int) -> LeaveModel:
    """A ``lexforge-leaves/1`` model of random coefficients, read from its JSON."""
    features = Features.of(language)
    rng = random.Random(seed)
    data = {"format": "lexforge-leaves/1", "tiles": features.tiles, "vowels": features.vowels}
    data |= {"intercept": 30, "tile": {t: rng.uniform(-12, 12) for t in features.tiles}}
    data |= {"duplicate": {t: rng.uniform(-6, 2) for t in features.tiles}}
    data |= {"balance": {"vowels2": -1.0, "consonants2": -0.5, "vowels_consonants": 0.5}}
    return LeaveModel.from_json(data)


def synthetic(terms: Terms, rows: int, seed: int, noise: int = 0) -> tuple[list[int], int, dict]:
    """Random leaves of 0–6 tiles whose next scores are a linear function of the terms (plus
    uniform noise of ±``noise``): the true coefficients, the intercept, the per-leave sums."""
    rng = random.Random(seed)
    true = [rng.randint(-9, 9) for _ in terms.names]
    intercept = 30
    counts: dict[str, list[int]] = {}
    for _ in range(rows):
        leave = sort_rack("".join(rng.choices(terms.tiles, k=rng.randint(0, 6))))
        y = intercept + sum(true[i] * x for i, x in terms.sparse(leave))
        y += rng.randint(-noise, noise) if noise else 0
        add_counts(counts, {leave: [1, y, y * y]})
    return true, intercept, counts


def test_the_terms_of_a_leave_by_hand():
    terms = Terms.of(Language.load("en"))
    assert terms.tiles == "ABCDEFGHIJKLMNOPQRSTUVWXYZ?" and terms.vowels == "AEIOUY"
    assert len(terms.names) == 27 * 3 + 27 * 26 // 2 + 3 + 6
    named = sorted((terms.names[i], x) for i, x in terms.sparse("EEESS?"))
    assert named == sorted([
        ("#6", 1), ("?", 1), ("E", 3), ("EE", 1), ("EEE", 1), ("E?", 1), ("ES", 1), ("S", 2),
        ("S?", 1), ("SS", 1), ("consonants2", 4), ("vowels2", 9), ("vowels_consonants", 6),
    ])  # fmt: skip
    assert terms.sparse("") == []


def test_the_fit_recovers_known_coefficients():
    terms = Terms.of(Language.load("en"))
    true, intercept, counts = synthetic(terms, 60_000, seed=1)
    learned = fit(terms, counts, ridge=0, min_observations=1).values
    assert learned.intercept == pytest.approx(intercept, abs=1e-6)
    # The terms are not independent (the tiles' copies add up to the size), so the values,
    # not the coefficients, are unique: every leave's, seen or not.
    rng = random.Random(9)
    for _ in range(300):
        leave = sort_rack("".join(rng.choices(terms.tiles, k=rng.randint(1, 6))))
        truth = sum(true[i] * x for i, x in terms.sparse(leave))
        assert learned.model(leave) == pytest.approx(truth, abs=1e-4), leave
    # No noise: every observed leave's value is its exact mean less the intercept.
    for leave, (n, s, _) in list(counts.items())[:500]:
        assert learned.value(leave) == pytest.approx(s / n - intercept, abs=1e-3)
    assert learned.value("") == 0


def test_the_table_shrinks_a_leaves_mean_towards_the_model():
    """With noise, a leave's value is its model value plus n / (n + k) of its residual, k the
    within-leave variance over the between-leave variance, as computed here by hand."""
    terms = Terms.of(Language.load("en"))
    _, _, counts = synthetic(terms, 20_000, seed=2, noise=20)
    counts["AEINST"] = [400, 400 * 90, 400 * 90 * 90 + 400 * 100]  # much above the model
    result = fit(terms, counts, ridge=1.0, min_observations=3)
    learned, k = result.values, result.shrinkage
    sigma2 = sum(ss - s * s / n for n, s, ss in counts.values()) / (
        sum(c[0] for c in counts.values()) - len(counts)
    )
    assert result.sigma2 == pytest.approx(sigma2)
    assert k == pytest.approx(result.sigma2 / result.tau2)
    for leave in ("AEINST", *[leave for leave, c in counts.items() if c[0] >= 3][:50]):
        n, s, _ = counts[leave]
        model = learned.model(leave)
        expected = model + n / (n + k) * (s / n - learned.intercept - model)
        assert learned.value(leave) == pytest.approx(expected, abs=0.006), leave
    assert learned.value("AEINST") > 0.9 * (90 - learned.intercept)
    rare = next(leave for leave, c in counts.items() if c[0] < 3 and leave)
    assert rare not in learned.table and learned.value(rare) == learned.model(rare)


def test_counts_do_not_depend_on_how_rows_are_grouped():
    terms = Terms.of(Language.load("fr"))
    _, _, whole = synthetic(terms, 3000, seed=3, noise=5)
    parts: list[dict] = [{}, {}, {}]
    for r, (leave, row) in enumerate(sorted(whole.items())):
        add_counts(parts[r % 3], {leave: row})
    total: dict = {}
    for part in reversed(parts):
        add_counts(total, json.loads(json.dumps(part)))
    assert total == whole
    first = fit(terms, total, ridge=10, min_observations=5).values.to_bytes()
    assert first == fit(terms, whole, ridge=10, min_observations=5).values.to_bytes()


def test_the_values_file_reads_back(tmp_path):
    terms = Terms.of(Language.load("de"))
    _, _, counts = synthetic(terms, 4000, seed=3, noise=5)
    learned = fit(terms, counts, ridge=10, min_observations=5, info={"lexicon": "test"}).values
    for name, data in (("v.json.gz", learned.to_bytes()), ("v.json", learned.to_json().encode())):
        path = tmp_path / name
        path.write_bytes(data)
        again = load_leaves(str(path))
        assert isinstance(again, LeaveValues) and again.to_json() == learned.to_json()
        assert again.info["lexicon"] == "test" and again.info["rows"] == 4000
        for leave in ("ÄÖ", "EEN", "??S", *list(learned.table)[:20]):
            assert again.value(leave) == pytest.approx(learned.value(leave), abs=6e-3)
    assert learned.to_bytes() == learned.to_bytes()  # no time in the gzip header
    linear = linear_model(Language.load("de"), 3)
    path = tmp_path / "linear.json"
    path.write_text(linear.to_json(), encoding="utf-8")
    assert load_leaves(str(path)).value("EEN") == pytest.approx(linear.value("EEN"), abs=1e-3)


def best_equity(view: View, leaves: LeaveModel) -> float:
    """The best score + leave over every move of the plain-Python generator and every exchange,
    enumerated here independently of the player."""
    rack = view.rack
    options = [
        move.score + leaves.value(rack_after(rack, placed_tiles(move.placed)))
        for move in reference.scrabble_moves_python(view.lexicon, view.board, rack)
    ]
    if view.can_exchange:
        for size in range(1, len(rack) + 1):
            for given in combinations(rack, size):
                options.append(leaves.value(rack_after(rack, "".join(given))))
    return max(options, default=-math.inf)


def test_equity_plays_the_best_score_plus_leave_of_every_move():
    lexicon = small_lexicon("en")
    leaves = linear_model(lexicon.language, 4)
    checked = 0

    class Checked(Equity):
        def choose(self, view: View):
            nonlocal checked
            action = super().choose(view)
            if view.bag and checked < 12:
                rack = view.rack
                if isinstance(action, Exchange):
                    got = leaves.value(rack_after(rack, action.tiles))
                else:
                    assert not isinstance(action, Pass)
                    got = action.score + leaves.value(rack_after(rack, placed_tiles(action.placed)))
                assert got == pytest.approx(best_equity(view, leaves)), (rack, action)
                checked += 1
            return action

    Game(lexicon, [Checked("e", leaves), Greedy("g")], seed=3).run()
    assert checked == 12


def test_the_leave_decides_the_move():
    lexicon = Lexicon.from_words(["CHAT", "CHATS", "AS"], small_lexicon("fr").language)
    board = scrabble.parse_board(
        ("." * 15 + "\n") * 15, lexicon.language, scrabble.load_layout(None)
    )
    view = View(lexicon, board, "ACHSTX?", 80, (0, 0), 0)
    features = Features.of(lexicon.language)
    zero = [0.0] * len(features.names)
    assert Greedy("g").choose(view).word == "CHATS"
    keep_s = zero.copy()
    keep_s[features.names.index("S")] = 100.0
    move = Equity("e", LeaveModel(features, tuple(keep_s))).choose(view)
    # 8D CHATS scores (2×3 + 4 + 1 + 1 + 1) × 2 = 26; with the blank as S, 24, and the S tile
    # (worth 100 here) stays on the rack.
    assert (move.word, move.score) == ("CHATs", 24)
    # The bag empty: nothing is drawn after the turn, the leave does not count.
    assert (
        Equity("e", LeaveModel(features, tuple(keep_s)))
        .choose(View(lexicon, board, "ACHSTX?", 0, (0, 0), 0))
        .word
        == "CHATS"
    )


def test_shard_count_does_not_change_the_values(tmp_path):
    lexicon = small_lexicon("en")
    texts = []
    for shards, per_shard in ((2, 3), (3, 2), (2, 3)):
        config = LeavesConfig(
            ("en-sample",), seed=5, shards=shards, games_per_shard=per_shard, holdout_games=2
        )
        folder = tmp_path / f"{shards}-{len(texts)}"
        files = []
        for shard in reversed(range(shards)):
            files.append(folder / f"{shard}.json")
            write_json(files[-1], shard_counts(lexicon, "en-sample", config, shard))
        holdout = folder / "holdout.json"
        write_json(holdout, shard_counts(lexicon, "en-sample", config, HOLDOUT))
        learned, facts = merge(lexicon, "en-sample", config, files, holdout)
        assert facts["games"] == 6 and facts["shards"] == shards and facts["rows"] > 30
        assert facts["held_out"]["rows"] > 10
        texts.append(learned.to_bytes())
    assert texts[0] == texts[1] == texts[2]
    assert (tmp_path / "2-0/0.json").read_bytes() == (tmp_path / "2-2/0.json").read_bytes()
    # The held-out games are other games than the training ones.
    held = json.loads((tmp_path / "2-0/holdout.json").read_text())
    assert held["leaves"] != json.loads((tmp_path / "3-1/0.json").read_text())["leaves"]
    # A shard missing, or one of another run, or the held-out games as a shard: one line each.
    config = LeavesConfig(("en-sample",), seed=5, shards=2, games_per_shard=3, holdout_games=2)
    holdout = tmp_path / "2-0/holdout.json"
    with pytest.raises(UserError, match="the shards hold 3 games, the configuration 6"):
        merge(lexicon, "en-sample", config, [tmp_path / "2-0/0.json"], holdout)
    with pytest.raises(UserError, match="starts at game 2, not 0"):
        merge(lexicon, "en-sample", config, [tmp_path / "3-1/1.json"], holdout)
    with pytest.raises(UserError, match="a shard of another run"):
        merge(lexicon, "en-sample", config, [tmp_path / "2-0/0.json", holdout], holdout)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "lexforge-leave-counts/2", "first_game": 0}', encoding="utf-8")
    with pytest.raises(UserError, match=r"broken\.json: not a leave shard \(no 'lexicon'\)"):
        merge(lexicon, "en-sample", config, [broken], holdout)


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "cannot read the leave values"),
        ('{"format": "lexforge-leaves/1", ', "not a leave model"),
        ('{"format": "other/1"}', "not a leave model (format 'other/1'"),
        ('{"format": "lexforge-leaves/1", "tiles": "AB"}', "not a leave model (missing 'vowels')"),
        ("NAN", "not a finite number"),
        (
            "TILES",
            "leave model for the tiles AB, but the English set has ABCDEFGHIJKLMNOPQRSTUVWXYZ?",
        ),
        ("?S 25\nQ -7 x\n", "line 2: expected TILES VALUE"),
        (
            '{"format": "lexforge-leaves/2", "tiles": "AB", "vowels": "A", "intercept": 0, '
            '"terms": {}, "table": {}}',
            "not a leave model (missing 'A')",
        ),
        ("GZIP", "cannot read the leave values"),
    ],
)
def test_bad_leave_files_are_one_line(build_dir, tmp_path, content, fragment):
    path = tmp_path / "leaves.json"
    if content in ("NAN", "TILES"):
        model = {"format": "lexforge-leaves/1", "tiles": "AB", "vowels": "A", "intercept": 0}
        model |= {"tile": {"A": 1, "B": 2}, "duplicate": {"A": 0, "B": 0}}
        model |= {"balance": {"vowels2": 0, "consonants2": 0, "vowels_consonants": 0}}
        if content == "NAN":
            model["tile"]["A"] = math.nan
        content = json.dumps(model)
    if content == "GZIP":
        path.write_bytes(b"\x1f\x8b\x08 not gzip")
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    args = ("scrabble", "selfplay", "--players", "equity,greedy", "--lexicon", "en")
    fails_in_one_line(run(*args, "--games", "1", "--leaves", str(path)), fragment)


def test_a_learned_model_plays_on_the_command_line(build_dir, tmp_path):
    terms = Terms.of(Lexicon.open("en").language)
    _, _, counts = synthetic(terms, 2000, seed=6, noise=10)
    path = tmp_path / "leaves.json.gz"
    path.write_bytes(fit(terms, counts, ridge=10, min_observations=5).values.to_bytes())
    done = run(
        "scrabble", "selfplay", "--players", "equity,greedy", "--leaves", str(path),
        "--lexicon", "en", "--games", "2", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [r["player"] for r in json.loads(done.stdout)["results"]] == ["equity1", "greedy2"]


def test_snakemake_leaves_on_the_fixture_language(tmp_path):
    tree = copy_newlang(tmp_path / "tree")
    config = tree / "config/config.yaml"
    base = config.read_text(encoding="utf-8")
    run_of = (
        "leaves: {lexicons: [sv], seed: 3, shards: 9, games_per_shard: %d, "
        "lexicon_shards: {sv: %d}, holdout_games: 3, min_observations: 2}\n"
    )
    config.write_text(base + run_of % (6, 2), encoding="utf-8")
    assert "leaves_shard" not in snakemake(tree, "-n", "all").stdout  # not part of the build
    snakemake(tree, "leaves")
    values = tree / "build/leaves/sv/leaves.json.gz"
    first = values.read_bytes()
    manifest = json.loads((tree / "build/leaves/sv/manifest.json").read_text())
    assert manifest["sha256"] == __import__("hashlib").sha256(first).hexdigest()
    assert (manifest["games"], manifest["shards"], manifest["seed"]) == (12, 2, 3)
    assert manifest["held_out"]["games"] == 3 and manifest["held_out"]["rows"] > 0
    learned = load_leaves(values)
    assert isinstance(learned, LeaveValues) and learned.terms.tiles == "AEKSTÅÄÖ?"
    assert learned.info["held_out"] == manifest["held_out"] and learned.info["games"] == 12
    # Again from scratch: the same bytes. With 3 shards of 4 games: the same values.
    for path in (tree / "build/leaves", tree / "build/work/sv/leaves"):
        __import__("shutil").rmtree(path)
    snakemake(tree, "leaves")
    assert values.read_bytes() == first
    config.write_text(base + run_of % (4, 3), encoding="utf-8")
    snakemake(tree, "leaves")
    assert values.read_bytes() == first
    assert json.loads((tree / "build/leaves/sv/manifest.json").read_text())["shards"] == 3
    assert Path(tree / "build/work/sv/leaves/2.json").is_file()


def test_every_leave_a_rack_holds_is_credited_once():
    from pipeline.leaves import leaves_of

    assert len(leaves_of("ABCDEFG")) == 2**7 - 1  # every subset but the whole rack
    assert leaves_of("AAB") == {"", "A", "B", "AA", "AB"}
    assert leaves_of("EEEEEE?") >= {"", "?", "EEEEEE", "EEEEE?"}
    assert len(leaves_of("EEEEEE?")) == 7 + 6  # 0–6 Es, and 0–5 Es with the blank


def test_training_racks_are_full_racks_of_the_lexicons_tiles():
    """A game record spells multi-letter tiles ([CH] in a rack); the training racks are read
    back into the lexicon's tile symbols: full racks, each a tile a symbol."""
    from pipeline.leaves import game_racks

    lexicon = small_lexicon("es-scrabble")
    racks = game_racks(lexicon, 7)
    assert len(racks) > 5
    tiles = set(Terms.of(lexicon.language).tiles)
    for rack, score in racks:
        assert len(rack) == lexicon.language.rack_size and set(rack) <= tiles, rack
        assert rack == sort_rack(rack) and score >= 0


def test_a_next_generation_is_played_by_the_equity_player(tmp_path):
    """``player: equity``: the games are the equity player's with the given values, and a
    rack's value is its best play's equity (score + leave), rounded — checked on each game's
    first rack against every move of the plain-Python generator."""
    from pipeline.leaves import Player, game_racks

    lexicon = small_lexicon("en")
    leaves = linear_model(lexicon.language, 4)
    differ = 0
    for seed in (3, 4, 5):
        racks = game_racks(lexicon, seed, leaves)
        first = Game(lexicon, [Greedy("one"), Greedy("two")], seed).view(0)
        assert racks[0][0] == first.rack
        assert abs(racks[0][1] - best_equity(first, leaves)) <= 0.5 + 1e-9
        differ += racks != game_racks(lexicon, seed)
    assert differ == 3  # not greedy's games nor values
    # Shards of one run must be played with the same values; the file says which.
    config = LeavesConfig(
        ("en-sample",), seed=5, shards=1, games_per_shard=2, holdout_games=1, player="equity",
        player_leaves="values/{lexicon}.json",
    )  # fmt: skip
    assert config.player_leaves_of("en-sample") == "values/en-sample.json"
    shard, holdout = tmp_path / "0.json", tmp_path / "holdout.json"
    write_json(shard, shard_counts(lexicon, "en-sample", config, 0, Player(leaves, "aaa")))
    write_json(holdout, shard_counts(lexicon, "en-sample", config, HOLDOUT, Player(leaves, "bbb")))
    with pytest.raises(UserError, match="played with different leave values"):
        merge(lexicon, "en-sample", config, [shard], holdout)
    write_json(holdout, shard_counts(lexicon, "en-sample", config, HOLDOUT, Player(leaves, "aaa")))
    learned, _ = merge(lexicon, "en-sample", config, [shard], holdout)
    assert (learned.info["player"], learned.info["player_leaves"]) == ("equity", "aaa")
    # A greedy run's shard is of another run.
    greedy = LeavesConfig(("en-sample",), seed=5, shards=1, games_per_shard=2, holdout_games=1)
    with pytest.raises(UserError, match="a shard of another run"):
        merge(lexicon, "en-sample", greedy, [shard], holdout)


def test_the_training_player_is_configured_in_one_line(tmp_path):
    from pipeline.config import load_config
    from pipeline.leaves import Player
    from pipeline.leavesconfig import leaves_config

    build = load_config(Path("config/config.yaml"), check_files=False)
    with pytest.raises(UserError, match="leaves/player_leaves: the values the equity player"):
        leaves_config({"lexicons": ["en"], "player": "equity"}, build)
    with pytest.raises(UserError, match="leaves/player_leaves"):
        leaves_config({"lexicons": ["en"], "player_leaves": "leaves/{lexicon}.json.gz"}, build)
    config = leaves_config({"lexicons": ["en"]}, build)
    lexicon = small_lexicon("en")
    with pytest.raises(UserError, match="player greedy: --player-leaves gives the equity"):
        Player.of(config, tmp_path / "values.json", lexicon)
    assert Player.of(config, None, lexicon) == Player()
