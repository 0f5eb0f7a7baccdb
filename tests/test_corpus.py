"""Board corpora and puzzle packs (pipeline.corpus, pipeline.puzzles) on the real lexicons:
deterministic and independent of the shard count, every sampled row re-derived by the
brute-force oracles, packs inside their band. Through Snakemake: tests/test_workflow.py (the
fixture language's `dist`) and tests/test_slurm.py."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lexforge import Lexicon
from lexforge.boggle import boggle_score
from lexforge.errors import UserError
from lexforge.generate import generate_boards
from lexforge.grid import format_grid_line, parse_grids
from lexforge.reference import boggle_brute_force, ruzzle_brute_force
from pipeline.config import load_config
from pipeline.corpus import merge, shard_table
from pipeline.corpusconfig import CorpusConfig, corpus_config
from pipeline.puzzles import pack_lines

KINDS = ("boggle-4x4", "boggle-5x5", "ruzzle-4x4")


def corpus(shards: int, per_shard: int, seed: int = 3) -> CorpusConfig:
    return CorpusConfig(lexicons=("en",), seed=seed, shards=shards, boards_per_shard=per_shard)


def build_corpus(lexicon: Lexicon, config: CorpusConfig, kind: str, folder: Path) -> Path:
    """What `snakemake corpus` does for one lexicon and kind: each shard, then the merge."""
    folder.mkdir(parents=True, exist_ok=True)
    shards = []
    for shard in range(config.shards):
        path = folder / f"{shard}.parquet"
        pq.write_table(shard_table(lexicon, config, lexicon.name, kind, shard), path)
        shards.append(path)
    merged = folder / f"{kind}.parquet"
    merge(list(reversed(shards)), merged)  # the order given does not matter
    return merged


@pytest.fixture(scope="module")
def en(build_dir) -> Lexicon:
    return Lexicon.open(build_dir / "en")


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_file_whatever_the_shard_count(en, tmp_path, kind):
    first = build_corpus(en, corpus(2, 30), kind, tmp_path / "a")
    again = build_corpus(en, corpus(2, 30), kind, tmp_path / "b")
    resharded = build_corpus(en, corpus(3, 20), kind, tmp_path / "c")
    assert first.read_bytes() == again.read_bytes() == resharded.read_bytes()
    other_seed = build_corpus(en, corpus(2, 30, seed=4), kind, tmp_path / "d")
    assert pq.read_table(other_seed)["board"] != pq.read_table(first)["board"]
    rows = pq.read_table(first).to_pylist()
    assert [row["index"] for row in rows] == list(range(60))
    assert len({row["board"] for row in rows}) == 60


def test_row_groups_do_not_follow_the_shards(en, tmp_path, monkeypatch):
    """The merge cuts fixed row groups across shard boundaries (7 rows here, for 20- and
    30-board shards), so the file still does not depend on the shard count."""
    import pipeline.corpus

    monkeypatch.setattr(pipeline.corpus, "ROW_GROUP", 7)
    two = build_corpus(en, corpus(2, 30), "boggle-4x4", tmp_path / "two")
    three = build_corpus(en, corpus(3, 20), "boggle-4x4", tmp_path / "three")
    assert two.read_bytes() == three.read_bytes()
    groups = pq.ParquetFile(two).metadata
    assert [groups.row_group(i).num_rows for i in range(groups.num_row_groups)] == [7] * 8 + [4]


def test_a_merge_refuses_a_missing_shard(en, tmp_path):
    config = corpus(3, 5)
    paths = []
    for shard in (0, 2):
        paths.append(tmp_path / f"{shard}.parquet")
        pq.write_table(shard_table(en, config, "en", "boggle-4x4", shard), paths[-1])
    with pytest.raises(UserError, match="starts at board 10, not 5"):
        merge(paths, tmp_path / "merged.parquet")
    assert not (tmp_path / "merged.parquet").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_rows_agree_with_the_brute_force_oracle(en, tmp_path, kind):
    """A sample of rows, re-solved by tracing every plausible lexicon word on the board read
    back from its text."""
    rows = pq.read_table(build_corpus(en, corpus(2, 20), kind, tmp_path)).to_pylist()
    ruzzle = kind.startswith("ruzzle")
    for row in random.Random(kind).sample(rows, 4):
        board = parse_grids(row["board"], en.language, multipliers=ruzzle)[0]
        if ruzzle:
            scored = [(w.word, w.score) for w in ruzzle_brute_force(en, board)]
        else:
            scored = [(w.word, boggle_score(w.word)) for w in boggle_brute_force(en, board)]
        assert row["words"] == len(scored), row
        assert row["score"] == sum(score for _, score in scored), row
        longest = sorted(scored, key=lambda ws: (-len(ws[0]), -ws[1], ws[0]))[0]
        best = sorted(scored, key=lambda ws: (-ws[1], -len(ws[0]), ws[0]))[0]
        assert (row["longest"], row["best"], row["best_score"]) == (longest[0], *best), row


def test_a_rows_seed_draws_its_board_again(en, tmp_path):
    """`lexforge generate --seed SEED` with the kind's options gives the row's board: English
    4×4 Boggle rolls the classic dice, 5×5 the big ones, Ruzzle draws letters with multipliers."""
    for kind, options in (
        ("boggle-4x4", {"rows": 4, "cols": 4, "dice": ""}),
        ("boggle-5x5", {"rows": 5, "cols": 5, "dice": ""}),
        ("ruzzle-4x4", {"rows": 4, "cols": 4, "multipliers": True}),
    ):
        rows = pq.read_table(build_corpus(en, corpus(1, 5), kind, tmp_path / kind)).to_pylist()
        for row in rows:
            (board,) = generate_boards(en, seed=row["seed"], **options)
            assert format_grid_line(board) == row["board"]


def test_the_puzzle_pack_is_in_its_band_with_full_solutions(en, tmp_path):
    table = build_corpus(en, corpus(2, 100), "boggle-4x4", tmp_path)
    lines = pack_lines(en, "en", "boggle-4x4", "boggle", table, (0.25, 0.75), 30)
    header, days = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    rows = pq.read_table(table).to_pylist()
    counts = sorted(row["words"] for row in rows if row["words"] > 0)
    low = counts[math.floor(0.25 * (len(counts) - 1))]
    high = counts[math.ceil(0.75 * (len(counts) - 1))]
    assert (header["band"]["low"], header["band"]["high"]) == (low, high)
    in_band = [row for row in rows if low <= row["words"] <= high]
    assert [day["index"] for day in days] == [row["index"] for row in in_band[:30]]
    assert [day["day"] for day in days] == list(range(1, 31))
    for day in days[:3]:
        board = parse_grids(day["board"], en.language)[0]
        oracle = {w.word: boggle_score(w.word) for w in boggle_brute_force(en, board)}
        assert {s["word"]: s["score"] for s in day["solution"]} == oracle
        assert day["words"] == len(oracle) and day["score"] == sum(oracle.values())
        for entry in day["solution"]:
            assert (
                "".join(board.cells[r * board.cols + c] for r, c in entry["path"])
                == (entry["word"])
            )
    with pytest.raises(UserError, match="the pack needs 1000"):
        pack_lines(en, "en", "boggle-4x4", "boggle", table, (0.25, 0.75), 1000)


def test_corpus_config_mistakes_are_one_line():
    build = load_config("config/config.yaml", check_files=False)
    with pytest.raises(UserError, match="corpus/lexicons: 'xx' is not a lexicon"):
        corpus_config({"lexicons": ["xx"]}, build)
    with pytest.raises(UserError, match="corpus/puzzles/kind: no kind 'huge'"):
        corpus_config({"puzzles": {"kind": "huge"}}, build)
    with pytest.raises(UserError, match=r"corpus/puzzles/band: 0\.9 is above 0\.1"):
        corpus_config({"puzzles": {"band": [0.9, 0.1]}}, build)
