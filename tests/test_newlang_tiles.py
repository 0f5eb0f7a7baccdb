"""A language with multi-letter tiles added by configuration alone, end to end: the fixture
tree's raw Catalan sample (tests/fixtures/newlang/raw/ca/), the repository's Catalan language
file and two lexicon entries, built by the pipeline and queried with the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from build_helpers import ROOT, copy_newlang, snakemake

#: What a user adds to config/config.yaml: the folded lexicon (Boggle, Ruzzle) and the
#: Scrabble one, whose L·L, NY and QU are one tile each (a lexicon setting, not a second
#: language file).
LEXICONS = """
  ca:
    language: ca
    sources:
      - {format: dict, path: raw/ca/dict/catala-mostra}
  ca-scrabble:
    language: ca
    tile_symbols: {"L·L": Ł, NY: Ñ, QU: Ɋ}
    sources:
      - {format: dict, path: raw/ca/dict/catala-mostra}
"""
EMPTY_BOARD = "/".join(["." * 15] * 15)


@pytest.fixture(scope="module")
def catalan(tmp_path_factory) -> Path:
    tree = copy_newlang(tmp_path_factory.mktemp("ca") / "tree")
    shutil.copy(ROOT / "config/languages/ca.yaml", tree / "config/languages/ca.yaml")
    config = tree / "config/config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + LEXICONS, encoding="utf-8")
    snakemake(tree, "build/stage/ca/manifest.json", "build/stage/ca-scrabble/manifest.json")
    return tree


def lexforge(tree: Path, *args: str, stdin: str | None = None) -> list[dict]:
    """A query's JSON results."""
    done = subprocess.run(
        [sys.executable, "-m", "lexforge.cli", *args, "--json"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["results"]


def words_of(tree: Path, lexicon: str) -> list[str]:
    return (tree / "build/stage" / lexicon / "words.txt").read_text(encoding="utf-8").split()


def test_the_lexicons_hold_the_sample_as_the_language_and_tiles_say(catalan):
    folded = words_of(catalan, "ca")
    assert {"COLLECCIO", "COLLEGI", "COLLEGUES", "CELLA", "LLIBRE", "BYTE", "QATARIA"} <= set(
        folded
    )
    assert not {"BARCELONA", "XIV"} & set(folded)  # proper noun, Roman numeral
    language = json.loads((catalan / "build/stage/ca-scrabble/language.json").read_text())
    assert language["tile_symbols"] == {"L·L": "Ł", "NY": "Ñ", "QU": "Ɋ"}  # what the solver reads
    assert language["joiners"] == "·"
    tiled = set(words_of(catalan, "ca-scrabble"))
    assert {"COŁECCIO", "COŁEGI", "COŁEGUES", "CEŁA", "CELLA", "LLIBRE", "AÑ", "ɊATRE"} <= tiled
    assert not {w for w in tiled if set(w) & set("KQWY")}  # BYTE, QATARIÀ, KIWI: no tile
    sources = json.loads((catalan / "build/work/ca-scrabble/sources.json").read_text())
    (source,) = sources if isinstance(sources, list) else sources["sources"]
    assert source["rejected"]["no-tile"] == 4  # byte, bytes, kiwi, qatarià


def test_anagram_boggle_and_scrabble_queries_use_the_tiles(catalan):
    tiled = str(catalan / "build/stage/ca-scrabble")
    anagrams = {r["word"] for r in lexforge(catalan, "anagram", "EGI[L·L]OC", "-l", tiled)}
    assert "COL·LEGI" in anagrams
    assert "COL·LEGI" not in {
        r["word"] for r in lexforge(catalan, "anagram", "EGILLOC", "-l", tiled)
    }  # two L tiles never make the L·L tile
    grid = "C O [L·L]\nI G E\nS NY A\n"
    found = {r["word"] for r in lexforge(catalan, "boggle", "-l", tiled, stdin=grid)}
    assert {"COL·LEGI", "COL·LEGIS"} <= found
    folded = str(catalan / "build/stage/ca")
    found = {r["word"] for r in lexforge(catalan, "boggle", "-l", folded, stdin=grid)}
    assert {"COLLEGI", "COLLEGIS", "ANYS"} <= found  # [L·L] and NY: two-letter cells there
    moves = lexforge(catalan, "scrabble", "-l", tiled, "--rack", "[L·L]EGIOC", EMPTY_BOARD)
    best = moves[0]
    assert best["word"] == "COL·LEGI"
    tiles = json.loads((catalan / "build/stage/ca-scrabble/language.json").read_text())
    value = {tile: points for tile, (_, points) in tiles["scrabble"]["tiles"].items()}
    played = [value[tile] for tile in ("C", "O", "L·L", "E", "G", "I")]  # six tiles, L·L one
    # Across or down through the centre star (double word), six tiles reach the double letter
    # four squares from the centre with their first two or last two tiles (G, 3 points).
    assert best["score"] == 2 * (sum(played) + max(played[:2] + played[-2:])) == 42
