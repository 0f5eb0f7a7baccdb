"""The shipped leave values (leaves/<lexicon>.json.gz, learned by `snakemake leaves`) have the
shape every strong engine's tables have: the blank far above S, S above the other tiles, Q
negative and QU better than Q, duplicates penalized, two blanks worth less than twice one, the
bingo-prone leaves strongly positive and above their parts; Spanish Y no vowel-like penalty.
The players use them by default (`--leaves FILE` overrides), and the bundles carry them."""

from __future__ import annotations

import gzip
import json
import tarfile

import pytest
from solver_fixtures import language

from lexforge.game import View
from lexforge.leaves import SHIPPED, LeaveValues, default_leaves, load_leaves
from lexforge.lexicon import Lexicon
from lexforge.players import Equity

ENGLISH = SHIPPED / "en.json.gz"


@pytest.fixture(scope="module")
def en() -> LeaveValues:
    values = load_leaves(ENGLISH)
    assert isinstance(values, LeaveValues)
    return values


def test_the_english_values_are_learned_at_scale_with_their_provenance(en):
    info = en.info
    assert info["lexicon"] == "en" and info["games"] >= 16_000 and info["racks"] > 300_000
    assert info["command"] == "snakemake leaves" and info["seed"] == 1 and info["code"]
    # The held-out games: the values predict a rack's best score better than its mean does,
    # and the table better than the model alone.
    held = info["held_out"]
    assert held["games"] >= 1000 and held["rows"] > 1_000_000
    assert held["rmse_values"] < held["rmse_model"] < held["rmse_mean"] - 1
    assert len(en.table) > 100_000 and 50 < info["shrinkage"]["k"] < 1000
    assert ENGLISH.stat().st_size < 2_000_000  # compact: a few MB at most


def test_single_tiles(en):
    v = en.value
    assert v("?") > 3 * v("S") > 15  # the blank far above S
    # S above every other tile but Z, which greedy play scores for its own 10 points at once:
    # the two are within a point.
    others = [t for t in en.terms.tiles if t not in "SZ?"]
    assert all(v("S") > v(t) + 0.5 for t in others), sorted((v(t), t) for t in others)[-3:]
    assert abs(v("Z") - v("S")) < 1
    assert v("Q") < -1 and v("U") < 0 and v("V") < 0


def test_combinations(en):
    v = en.value
    assert v("QU") > v("Q") + 5 and v("QU") > 0  # the U rescues the Q
    assert v("QUUU") < v("QU")
    for tile in "AEIOUVWGNRT":  # a second copy is worth less than the first, even a negative
        assert v(tile * 2) < v(tile) - 2, tile
    assert v("?") < v("??") < 2.5 * v("?")  # two blanks: measured, not absurd
    # Bingo-prone leaves: strongly positive, and above every part one tile shorter.
    for leave in ("AEINST", "EINRST", "AEINRT", "EIRST", "ERST", "AERS", "ERS", "AEST", "ING"):
        parts = [leave[:i] + leave[i + 1 :] for i in range(len(leave))]
        assert v(leave) > max(v(p) for p in parts), (leave, parts)
        assert v(leave) > 5, leave
    assert v("AEINST") > 25 and v("EINRST") > 25
    # Awkward leaves are negative.
    for leave in ("IIU", "VVW", "UUV", "IIII", "UUU", "QV", "GG"):
        assert v(leave) < -3, (leave, v(leave))


def test_spanish_y_is_valued_as_measured_not_as_a_vowel():
    """Y counts as a vowel in Spanish's classes, but its value is its own: measured on thousands
    of racks (racks holding a Y score about 7 points less than the mean), in the table."""
    spanish = load_leaves(SHIPPED / "es-scrabble.json.gz")
    assert isinstance(spanish, LeaveValues)
    assert "Y" in spanish.table and -8 < spanish.value("Y") < -4
    assert spanish.value("?") > 15 and spanish.value("Q") < spanish.value("Y")


def test_every_shipped_file_is_of_its_lexicons_tile_set():
    files = sorted(SHIPPED.glob("*.json.gz"))
    assert {f.name for f in files} >= {"en.json.gz", "fr.json.gz"}
    for path in files:
        data = json.loads(gzip.decompress(path.read_bytes()))
        lexicon = data["lexicon"]
        assert path.name == f"{lexicon}.json.gz"
        values = load_leaves(path)
        assert isinstance(values, LeaveValues)
        assert values.terms == type(values.terms).of(language(lexicon))
        assert all(len(leave) <= 6 for leave in values.table)


def test_the_equity_player_uses_the_lexicons_values_by_default(build_dir):
    lexicon = Lexicon.open("en")
    assert default_leaves(lexicon) is default_leaves(lexicon)  # read once
    assert default_leaves(lexicon).to_json() == load_leaves(ENGLISH).to_json()
    player = Equity("e")
    player.choose(View(lexicon, empty_board(lexicon), "AEINSTQ", 80, (0, 0), 0))
    assert player.leaves is default_leaves(lexicon)


def empty_board(lexicon: Lexicon):
    from lexforge import scrabble

    layout = scrabble.load_layout(None)
    return scrabble.parse_board(("." * 15 + "\n") * 15, lexicon.language, layout)


@pytest.mark.slow
def test_the_bundle_carries_the_values(build_dir, tmp_path):
    from pipeline.publish import write_bundle

    stage = build_dir / "stage" / "en"
    version = json.loads((stage / "manifest.json").read_text())["version"]
    out = tmp_path / "en.tar.gz"
    write_bundle(stage, version, out, ENGLISH)
    with tarfile.open(out) as tar:
        member = tar.extractfile(f"en-{version}/leaves.json.gz")
        assert member is not None and member.read() == ENGLISH.read_bytes()
        readme = tar.extractfile(f"en-{version}/README")
        assert readme is not None and b"leaves.json.gz" in readme.read()
