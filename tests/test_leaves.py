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
from lexforge.leaves import Features, LeaveModel, Sums, fit, load_leaves
from lexforge.lexicon import Lexicon
from lexforge.players import Equity, Greedy
from lexforge.plays import Exchange, Pass, placed_tiles, rack_after
from pipeline.leaves import merge, shard_sums, write_json
from pipeline.leavesconfig import LeavesConfig


def synthetic(features: Features, rows: int, seed: int) -> tuple[list[int], int, Sums]:
    """Random leaves of 0–6 tiles whose targets are an exact linear function of the features:
    the true coefficients, the intercept, and the summed rows."""
    rng = random.Random(seed)
    true = [rng.randint(-9, 9) for _ in features.names]
    intercept = 30
    sums = Sums(len(features.names))
    for _ in range(rows):
        x = features.row(sort_rack(rng.choices(features.tiles, k=rng.randint(0, 6))))
        sums.add(x, intercept + sum(a * b for a, b in zip(true, x, strict=True)))
    return true, intercept, sums


def test_the_fit_recovers_known_coefficients():
    features = Features.of(Language.load("en"))
    assert features.tiles == "ABCDEFGHIJKLMNOPQRSTUVWXYZ?" and features.vowels == "AEIOUY"
    true, intercept, sums = synthetic(features, 12_000, seed=1)
    model = fit(features, sums)
    assert model.intercept == pytest.approx(intercept, abs=1e-6)
    assert model.coefficients == pytest.approx(true, abs=1e-6)
    # The value of a leave is the sum of its terms, by hand: E, S, S, ? with EE absent.
    v = dict(zip(features.names, true, strict=True))
    expected = v["E"] + 2 * v["S"] + v["SS"] + v["?"] + v["vowels2"] + 4 * v["consonants2"]
    expected += 2 * v["vowels_consonants"]
    assert model.value("ESS?") == pytest.approx(expected)
    assert model.value("") == 0


def test_sums_do_not_depend_on_how_rows_are_grouped():
    features = Features.of(Language.load("fr"))
    rng = random.Random(2)
    rows = []
    for _ in range(3000):
        x = features.row(sort_rack(rng.choices(features.tiles, k=rng.randint(0, 6))))
        rows.append((x, rng.randint(0, 90)))
    whole = Sums(len(features.names))
    for x, y in rows:
        whole.add(x, y)
    total = Sums(len(features.names))
    for start, end in ((2200, 3000), (0, 500), (500, 2200)):  # three shards, merged out of order
        part = Sums(len(features.names))
        for x, y in rows[start:end]:
            part.add(x, y)
        total.merge(Sums.from_json(json.loads(json.dumps(part.to_json()))))
    assert total == whole and total.rows == 3000
    assert fit(features, total).to_json() == fit(features, whole).to_json()


def test_the_model_file_reads_back(tmp_path):
    features = Features.of(Language.load("de"))
    _, _, sums = synthetic(features, 4000, seed=3)
    model = fit(features, sums, {"lexicon": "test"})
    path = tmp_path / "leaves.json"
    path.write_text(model.to_json(), encoding="utf-8")
    again = load_leaves(str(path))
    assert isinstance(again, LeaveModel) and again.to_json() == model.to_json()
    assert again.info == {"lexicon": "test", "rows": 4000}
    for leave in ("ÄÖ", "EEN", "??S"):
        assert again.value(leave) == pytest.approx(model.value(leave), abs=1e-3)


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
    features = Features.of(lexicon.language)
    rng = random.Random(4)
    leaves = LeaveModel(features, tuple(rng.uniform(-12, 12) for _ in features.names))
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


def test_shard_count_does_not_change_the_model(tmp_path):
    lexicon = small_lexicon("en")
    texts = []
    for shards, per_shard in ((2, 3), (3, 2), (2, 3)):
        config = LeavesConfig(("en-sample",), seed=5, shards=shards, games_per_shard=per_shard)
        folder = tmp_path / f"{shards}-{len(texts)}"
        files = []
        for shard in reversed(range(shards)):
            files.append(folder / f"{shard}.json")
            write_json(files[-1], shard_sums(lexicon, "en-sample", config, shard))
        text, facts = merge(lexicon, "en-sample", config, files)
        assert facts["games"] == 6 and facts["shards"] == shards and facts["rows"] > 30
        texts.append(text)
    assert texts[0] == texts[1] == texts[2]
    assert (tmp_path / "2-0/0.json").read_bytes() == (tmp_path / "2-2/0.json").read_bytes()
    assert json.loads(texts[0])["games"] == 6
    # A shard missing, or one of another run: one line each.
    config = LeavesConfig(("en-sample",), seed=5, shards=2, games_per_shard=3)
    with pytest.raises(UserError, match="the shards hold 3 games, the configuration 6"):
        merge(lexicon, "en-sample", config, [tmp_path / "2-0/0.json"])
    with pytest.raises(UserError, match="starts at game 2, not 0"):
        merge(lexicon, "en-sample", config, [tmp_path / "3-1/1.json"])
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "lexforge-leave-sums/1", "first_game": 0}', encoding="utf-8")
    with pytest.raises(UserError, match=r"broken\.json: not a leave shard \(no 'lexicon'\)"):
        merge(lexicon, "en-sample", config, [broken])


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
    if content is not None:
        path.write_text(content, encoding="utf-8")
    args = ("scrabble", "selfplay", "--players", "equity,greedy", "--lexicon", "en")
    fails_in_one_line(run(*args, "--games", "1", "--leaves", str(path)), fragment)


def test_a_learned_model_plays_on_the_command_line(build_dir, tmp_path):
    features = Features.of(Lexicon.open("en").language)
    _, _, sums = synthetic(features, 2000, seed=6)
    path = tmp_path / "leaves.json"
    path.write_text(fit(features, sums).to_json(), encoding="utf-8")
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
    run_of = "leaves: {lexicons: [sv], seed: 3, shards: %d, games_per_shard: %d}\n"
    config.write_text(base + run_of % (2, 6), encoding="utf-8")
    assert "leaves_shard" not in snakemake(tree, "-n", "all").stdout  # not part of the build
    snakemake(tree, "leaves")
    model = tree / "build/leaves/sv/leaves.json"
    first = model.read_bytes()
    manifest = json.loads((tree / "build/leaves/sv/manifest.json").read_text())
    assert manifest["sha256"] == __import__("hashlib").sha256(first).hexdigest()
    assert (manifest["games"], manifest["shards"], manifest["seed"]) == (12, 2, 3)
    assert json.loads(first)["tiles"] == "AEKSTÅÄÖ?"
    # Again from scratch: the same bytes. With 3 shards of 4 games: the same model.
    for path in (tree / "build/leaves", tree / "build/work/sv/leaves"):
        __import__("shutil").rmtree(path)
    snakemake(tree, "leaves")
    assert model.read_bytes() == first
    config.write_text(base + run_of % (3, 4), encoding="utf-8")
    snakemake(tree, "leaves")
    assert model.read_bytes() == first
    assert json.loads((tree / "build/leaves/sv/manifest.json").read_text())["shards"] == 3
    assert Path(tree / "build/work/sv/leaves/2.json").is_file()


def test_kept_tiles_read_a_records_spelled_tiles_back_into_the_lexicons_letters():
    """A game record spells multi-letter tiles (rack [CH], a blank CH in a word as ch); the
    training rows count tiles as the lexicon's letters, so a blank CH is one blank, not two."""
    from solver_fixtures import language

    from lexforge import gcg
    from pipeline.leaves import kept_tiles

    spanish = language("es-scrabble")
    ch = spanish.tokenize("CH")
    play = gcg.Event(0, gcg.PLAY, "[CH]ADEOS?", 20, 20, "8H", "chADO")  # the blank stands for CH
    assert kept_tiles(play, spanish) == "".join(sorted(ch + "ES"))
    through = gcg.Event(0, gcg.PLAY, "ADORRS?", 8, 28, "H8", "R.RO")  # two R tiles, not RR
    assert kept_tiles(through, spanish) == "ADS?"
    exchange = gcg.Event(1, gcg.EXCHANGE, "[CH][LL]AEIO?", 0, 0, tiles="[LL]A")
    assert kept_tiles(exchange, spanish) == "".join(sorted(ch + "EIO")) + "?"
