"""Step ``leaves``: leave values of one lexicon learned by self-play, in shards.

    python -m pipeline.leaves shard --config C --lexicon en --shard 0 \\
        --lexicon-dir build/stage/en --out build/work/en/leaves/0.json
    python -m pipeline.leaves merge --config C --lexicon en --lexicon-dir build/stage/en \\
        --out build/leaves/en/leaves.json --manifest build/leaves/en/manifest.json SHARD.json...

Game ``i`` of a lexicon has its own seed (``game_seed``: a digest of the configured seed, the
lexicon and ``i``); shard ``s`` plays games ``s·n … s·n + n − 1`` (``n`` games per shard),
greedy against greedy (lexforge.players). Each turn that plays or exchanges while the bag still
holds a full rack after the draw gives a training row: the tiles kept, and the points the same
player scores on their next turn. A shard writes the rows' normal equations as exact integers
(lexforge.leaves.Sums), so the merge — a sum, then one least-squares solve — depends on the
games alone: 2 shards of 500 games and 4 of 250 give the same leaves.json, byte for byte (the
manifest beside it records the shard count).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from lexforge import gcg
from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.game import Game, play_game
from lexforge.language import Language
from lexforge.leaves import Features, Sums, fit
from lexforge.lexicon import Lexicon
from lexforge.players import Greedy
from lexforge.plays import PLAYED_THROUGH, parse_tiles, rack_after
from pipeline.leavesconfig import LeavesConfig, load_leaves_config

SHARD_FORMAT = "lexforge-leave-sums/1"
#: Seeds are below 10¹², the bound of lexforge's whole-number options (``selfplay --seed``).
SEED_BOUND = 10**12


def game_seed(seed: int, lexicon: str, index: int) -> int:
    """The seed of training game ``index`` of a lexicon."""
    digest = hashlib.sha256(f"{seed}/{lexicon}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_BOUND


def kept_tiles(event: gcg.Event, language: Language) -> str:
    """The tiles a play or exchange left on the rack, as the lexicon's letters. The record
    spells multi-letter tiles (rack and exchange ``[CH]``, word ``CH``, a blank ``ch``): they
    are read back into the lexicon's tile symbols first."""
    rack = parse_tiles(event.rack, language, "rack")
    if event.kind == gcg.EXCHANGE:
        return rack_after(rack, parse_tiles(event.tiles, language, "tiles"))
    # Read the word as tiles before dropping the tiles it plays through: in R.RO the two Rs
    # are R tiles, never the RR tile their concatenation would spell.
    return rack_after(rack, language.tokenize(event.word).replace(PLAYED_THROUGH, ""))


def game_rows(lexicon: Lexicon, seed: int) -> list[tuple[str, int]]:
    """One greedy game's training rows: (tiles kept, the player's next turn's score)."""
    turns: list[tuple[gcg.Event, int]] = []  # each turn, and the bag after it

    def on_turn(event: gcg.Event, game: Game) -> None:
        turns.append((event, len(game.bag)))

    play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
    full = lexicon.language.rack_size
    rows = []
    for t, (event, bag) in enumerate(turns):
        if event.kind not in (gcg.PLAY, gcg.EXCHANGE) or bag < full:
            continue
        following = (later for later, _ in turns[t + 1 :] if later.player == event.player)
        after = next(following, None)
        if after is not None:
            rows.append((kept_tiles(event, lexicon.language), after.score))
    return rows


def shard_sums(lexicon: Lexicon, name: str, config: LeavesConfig, shard: int) -> dict[str, Any]:
    """The normal equations of one shard's games, as the shard file holds them."""
    if not 0 <= shard < config.shards:
        raise UserError(f"shard {shard}: the leave run has shards 0 to {config.shards - 1}")
    features = Features.of(lexicon.language)
    sums = Sums(len(features.names))
    first = shard * config.games_per_shard
    for index in range(first, first + config.games_per_shard):
        for kept, score in game_rows(lexicon, game_seed(config.seed, name, index)):
            sums.add(features.row(kept), score)
    return {
        "format": SHARD_FORMAT,
        "lexicon": name,
        "seed": config.seed,
        "first_game": first,
        "games": config.games_per_shard,
        "features": features.names,
        **sums.to_json(),
    }


def merge(
    lexicon: Lexicon, name: str, config: LeavesConfig, shards: list[Path]
) -> tuple[str, dict[str, Any]]:
    """The model's JSON and the facts for its manifest, from the shard files (any order);
    UserError if games are missing or repeated or a shard is of another run."""
    features = Features.of(lexicon.language)
    total = Sums(len(features.names))
    parts = sorted((_read_shard(path), path) for path in shards)
    expected = 0
    for (first, data), path in parts:
        if (data["lexicon"], data["seed"], data["features"]) != (
            name,
            config.seed,
            features.names,
        ):
            raise UserError(f"{path}: a shard of another run (lexicon, seed or tiles differ)")
        if first != expected:
            raise UserError(f"{path}: starts at game {first}, not {expected}")
        expected += data["games"]
        total.merge(Sums.from_json(data))
    if expected != config.games:
        raise UserError(f"the shards hold {expected} games, the configuration {config.games}")
    info = {"lexicon": name, "language": lexicon.language.code, "seed": config.seed}
    model = fit(features, total, {**info, "games": expected})
    facts = {**info, "games": expected, "shards": len(shards), "rows": total.rows}
    return model.to_json(), facts


def _read_shard(path: Path) -> tuple[int, dict[str, Any]]:
    try:
        data = json.loads(path.read_bytes())
        if data.get("format") != SHARD_FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        keys = ("lexicon", "seed", "games", "features", "size", "xtx", "xty")
        missing = [key for key in keys if key not in data]
        if missing:
            raise ValueError(f"no {missing[0]!r}")
        return int(data["first_game"]), data
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise UserError(f"{path}: not a leave shard ({error})") from None


def write_json(path: Path, data: Any) -> None:
    with atomic_open(path) as out:
        out.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    shard = commands.add_parser("shard", help="play one shard's games")
    merged = commands.add_parser("merge", help="fit the model from a lexicon's shards")
    for command in (shard, merged):
        command.add_argument("--config", type=Path, default=Path("config/config.yaml"))
        command.add_argument("--lexicon", required=True)
        command.add_argument("--lexicon-dir", type=Path, required=True, help="the built lexicon")
        command.add_argument("--out", type=Path, required=True)
    shard.add_argument("--shard", type=int, required=True)
    merged.add_argument("--manifest", type=Path, required=True)
    merged.add_argument("shards", type=Path, nargs="+")
    args = parser.parse_args(argv)
    config = load_leaves_config(args.config)
    if args.lexicon not in config.lexicons:
        raise UserError(f"{args.config}: leaves/lexicons: no lexicon '{args.lexicon}'")
    lexicon = Lexicon.open(args.lexicon_dir)
    if args.command == "shard":
        write_json(args.out, shard_sums(lexicon, args.lexicon, config, args.shard))
        return 0
    text, facts = merge(lexicon, args.lexicon, config, args.shards)
    with atomic_open(args.out) as out:
        out.write(text)
    artifact = {
        "file": args.out.name,
        "bytes": len(text.encode()),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
    write_json(args.manifest, {**facts, "games_per_shard": config.games_per_shard, **artifact})
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
