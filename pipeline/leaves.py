"""Step ``leaves``: leave values of one lexicon learned by self-play, in shards.

    python -m pipeline.leaves shard --config C --lexicon en --shard 0 \\
        --lexicon-dir build/stage/en --out build/work/en/leaves/0.json
    python -m pipeline.leaves shard --config C --lexicon en --shard holdout \\
        --lexicon-dir build/stage/en --out build/work/en/leaves/holdout.json
    python -m pipeline.leaves merge --config C --lexicon en --lexicon-dir build/stage/en \\
        --out build/leaves/en/leaves.json.gz --manifest build/leaves/en/manifest.json \\
        --holdout build/work/en/leaves/holdout.json SHARD.json...

Game ``i`` of a lexicon has its own seed (``game_seed``: a digest of the configured seed, the
lexicon and ``i``); shard ``s`` plays games ``s·n … s·n + n − 1`` (``n`` games per shard), the
configured player against itself (lexforge.players). The held-out shard plays games of other
seeds (the lexicon's name + ``/holdout``), never used for learning. Each turn played from a full
rack after which the player draws a full rack again gives its rack and the value of its best
play, and every leave the rack holds — each sub-multiset of up to six tiles, the empty one too —
is credited with that value: a leave's mean is the expected best-play value of a rack holding
it, the target of wolges' leave generation (``lab/leavegen.txt``: "each leave's value is the
average of the best-play values of the fuller racks that contain it", shifted so that the empty
leave is worth 0; lexforge.leaves). The games are greedy's (the best play's value: its score; an
exchange 0), or, for a next generation (``player: equity``), the equity player's with the values
of ``player_leaves`` (the best play's value: its equity, score + leave value with those values,
rounded to a whole point — wolges' "sum of the best-play equities seen for [the rack]"; the
endgame not searched: no turn with the bag empty is counted). A shard writes, per leave, the
count, Σ value and Σ value² as whole numbers, so the merge — a sum, then the fit — depends on
the games alone: 2 shards of 500 games and 4 of 250 give the same leaves.json.gz, byte for byte
(the manifest beside it records the shard count). The merge also measures the values on the
held-out games (the prediction's error against the mean's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from lexforge import gcg
from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.game import Game, View, play_game
from lexforge.leaves import (
    MAX_LEAVE,
    Counts,
    Leaves,
    LeaveTable,
    LeaveValues,
    Terms,
    add_counts,
    check_leaves,
    fit,
    load_leaves,
    squared_error,
)
from lexforge.lexicon import Lexicon
from lexforge.players import Equity, Greedy
from lexforge.plays import Action, parse_tiles
from pipeline.leavesconfig import LeavesConfig, load_leaves_config

SHARD_FORMAT = "lexforge-leave-counts/2"
HOLDOUT = "holdout"  # the shard of held-out games (their own seeds)
ROOT = Path(__file__).resolve().parent.parent
#: Seeds are below 10¹², the bound of lexforge's whole-number options (``selfplay --seed``).
SEED_BOUND = 10**12


def game_seed(seed: int, lexicon: str, index: int) -> int:
    """The seed of training game ``index`` of a lexicon."""
    digest = hashlib.sha256(f"{seed}/{lexicon}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_BOUND


class _Trainer(Equity):
    """The equity player of a next generation's games: it remembers the equity of the turn it
    chose (score + leave value), the target; the endgame is not searched."""

    def __init__(self, name: str, leaves: Leaves) -> None:
        super().__init__(name, leaves, endgame_positions=0)
        self.equity = 0.0

    def choose(self, view: View) -> Action:
        if not view.bag:
            return self.endgame(view)
        self.equity, action = self.ranked(view, 1)[0]
        return action


def game_racks(lexicon: Lexicon, seed: int, leaves: Leaves | None = None) -> list[tuple[str, int]]:
    """One game's training racks: (the full rack, sorted, the value of its best play), for each
    turn after which the player draws a full rack again (the bag not emptied). Greedy games
    (``leaves`` None): the best play's score, 0 for an exchange; else the equity player's games
    with ``leaves``: the best play's equity, rounded. The record spells multi-letter tiles
    (``[CH]``): they are read back into the lexicon's tile symbols."""
    turns: list[tuple[gcg.Event, int, int]] = []  # each turn, the bag after it, its value
    players: list[Greedy] | list[_Trainer]
    if leaves is None:
        players = [Greedy("one"), Greedy("two")]
    else:
        players = [_Trainer("one", leaves), _Trainer("two", leaves)]

    def on_turn(event: gcg.Event, game: Game) -> None:
        player = players[event.player]
        value = round(player.equity) if isinstance(player, _Trainer) else event.score
        turns.append((event, len(game.bag), value))

    play_game(lexicon, players, seed, on_turn=on_turn)
    language = lexicon.language
    racks = []
    for event, bag, value in turns:
        if event.kind not in (gcg.PLAY, gcg.EXCHANGE) or bag == 0:
            continue
        rack = parse_tiles(event.rack, language, "rack")
        if len(rack) == language.rack_size:
            racks.append((rack, value))
    return racks


def leaves_of(rack: str) -> set[str]:
    """Every leave a rack holds: its distinct sub-multisets of up to ``MAX_LEAVE`` tiles,
    the empty one included (the rack sorted, so each comes out sorted)."""
    return {
        "".join(kept)
        for size in range(min(len(rack) - 1, MAX_LEAVE) + 1)
        for kept in combinations(rack, size)
    }


@dataclass(frozen=True)
class Player:
    """Who plays a run's games: greedy (``leaves`` None), or the equity player with the values
    of the file whose digest is ``digest``."""

    leaves: Leaves | None = None
    digest: str | None = None

    @classmethod
    def of(cls, config: LeavesConfig, path: Path | None, lexicon: Lexicon) -> Player:
        """The configured player, its values read from ``path`` (UserError: none given for
        the equity player, or one given for greedy, or a file of another tile set)."""
        if (config.player == "equity") != (path is not None):
            raise UserError(
                f"player {config.player}: --player-leaves gives the equity player's values "
                "(and only its)"
            )
        if path is None:
            return cls()
        leaves = load_leaves(path)
        check_leaves(leaves, lexicon.language, path)
        return cls(leaves, hashlib.sha256(path.read_bytes()).hexdigest()[:12])


def shard_counts(
    lexicon: Lexicon,
    name: str,
    config: LeavesConfig,
    shard: int | str,
    player: Player = Player(),
) -> dict[str, Any]:
    """The per-leave sums of one shard's games (``holdout``: the held-out games) played by
    ``player``, as the shard file holds them."""
    if shard == HOLDOUT:
        first, games, tag = 0, config.holdout_games, f"{name}/{HOLDOUT}"
    else:
        shards = config.shards_of(name)
        if not isinstance(shard, int) or not 0 <= shard < shards:
            raise UserError(f"shard {shard}: the leave run of {name} has shards 0 to {shards - 1}")
        first, games, tag = shard * config.games_per_shard, config.games_per_shard, name
    counts: Counts = {}
    for index in range(first, first + games):
        seed = game_seed(config.seed, tag, index)
        for rack, score in game_racks(lexicon, seed, player.leaves):
            for leave in leaves_of(rack):
                row = counts.get(leave)
                if row is None:
                    counts[leave] = [1, score, score * score]
                else:
                    row[0] += 1
                    row[1] += score
                    row[2] += score * score
    return {
        "format": SHARD_FORMAT,
        "lexicon": name,
        "seed": config.seed,
        "holdout": shard == HOLDOUT,
        "first_game": first,
        "games": games,
        "player": config.player,
        "player_leaves": player.digest,
        "tiles": Terms.of(lexicon.language).tiles,
        "leaves": dict(sorted(counts.items())),
    }


def merge(
    lexicon: Lexicon, name: str, config: LeavesConfig, shards: list[Path], holdout: Path
) -> tuple[LeaveValues, dict[str, Any]]:
    """The learned values and the facts for the manifest, from the shard files (any order)
    and the held-out games' file; UserError if games are missing or repeated or a shard is of
    another run."""
    terms = Terms.of(lexicon.language)
    total: Counts = {}
    parts = sorted(((_read_shard(path), path) for path in shards), key=lambda p: p[0][0])
    expected = 0
    for (first, data), path in parts:
        _check_run(data, name, config, terms, path, holdout=False)
        if first != expected:
            raise UserError(f"{path}: starts at game {first}, not {expected}")
        expected += data["games"]
        add_counts(total, data["leaves"])
    if expected != config.games_of(name):
        raise UserError(
            f"the shards hold {expected} games, the configuration {config.games_of(name)}"
        )
    _, held = _read_shard(holdout)
    _check_run(held, name, config, terms, holdout, holdout=True)
    digests = {data["player_leaves"] for (_, data), _ in parts} | {held["player_leaves"]}
    if len(digests) != 1:
        raise UserError("the shards were played with different leave values")
    info = {
        "lexicon": name,
        "language": lexicon.language.code,
        "seed": config.seed,
        "games": expected,
        "player": config.player,
        "player_leaves": digests.pop(),
        "command": "snakemake leaves",
        "code": code_version(),
    }
    learned = fit(
        terms,
        total,
        ridge=config.ridge,
        min_observations=config.min_observations,
        info=info,
    ).values
    check = held_out_check(learned, held["leaves"], total)
    learned.info["held_out"] = check
    facts = {**info, "shards": len(shards), "rows": learned.info["rows"], "held_out": check}
    return learned, facts


def held_out_check(learned: LeaveValues, held: Counts, train: Counts) -> dict[str, Any]:
    """How well the values predict the next score on the held-out games: the root mean
    squared error of the training mean alone (every leave 0 and the mean score), of the model
    alone and of the model with the table."""
    rows = sum(c[0] for c in train.values())
    mean = sum(c[1] for c in train.values()) / rows
    model_only = LeaveValues(learned.terms, learned.coefficients, {}, learned.intercept)
    return {
        "games": None,  # filled by the caller
        "rows": sum(c[0] for c in held.values()),
        "rmse_mean": round(math.sqrt(squared_error(LeaveTable({}), mean, held)), 3),
        "rmse_model": round(math.sqrt(squared_error(model_only, learned.intercept, held)), 3),
        "rmse_values": round(math.sqrt(squared_error(learned, learned.intercept, held)), 3),
    }


def _check_run(
    data: dict[str, Any], name: str, config: LeavesConfig, terms: Terms, path: Path, holdout: bool
) -> None:
    run = (data["lexicon"], data["seed"], data["tiles"], data["holdout"], data["player"])
    if run != (name, config.seed, terms.tiles, holdout, config.player):
        raise UserError(
            f"{path}: a shard of another run (lexicon, seed, tiles, held-out or player differ)"
        )
    if holdout and data["games"] != config.holdout_games:
        raise UserError(
            f"{path}: {data['games']} held-out games, the configuration {config.holdout_games}"
        )


def code_version() -> str:
    """The learning code's version: a digest of the modules that count and fit."""
    digest = hashlib.sha256()
    for module in ("lexforge/leaves.py", "pipeline/leaves.py"):
        digest.update((ROOT / module).read_bytes())
    return digest.hexdigest()[:12]


def _read_shard(path: Path) -> tuple[int, dict[str, Any]]:
    try:
        data = json.loads(path.read_bytes())
        if data.get("format") != SHARD_FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        keys = ("lexicon", "seed", "holdout", "games", "player", "player_leaves", "tiles")
        keys += ("leaves",)
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
    merged = commands.add_parser("merge", help="learn the values from a lexicon's shards")
    for command in (shard, merged):
        command.add_argument("--config", type=Path, default=Path("config/config.yaml"))
        command.add_argument("--lexicon", required=True)
        command.add_argument("--lexicon-dir", type=Path, required=True, help="the built lexicon")
        command.add_argument("--out", type=Path, required=True)
    shard.add_argument("--shard", required=True, help=f"a shard number, or {HOLDOUT}")
    shard.add_argument(
        "--player-leaves", type=Path, help="the values of the equity player (player: equity)"
    )
    merged.add_argument("--manifest", type=Path, required=True)
    merged.add_argument("--holdout", type=Path, required=True, help="the held-out games' shard")
    merged.add_argument("shards", type=Path, nargs="+")
    args = parser.parse_args(argv)
    config = load_leaves_config(args.config)
    if args.lexicon not in config.lexicons:
        raise UserError(f"{args.config}: leaves/lexicons: no lexicon '{args.lexicon}'")
    lexicon = Lexicon.open(args.lexicon_dir)
    if args.command == "shard":
        which = args.shard if args.shard == HOLDOUT else _shard_number(args.shard)
        player = Player.of(config, args.player_leaves, lexicon)
        write_json(args.out, shard_counts(lexicon, args.lexicon, config, which, player))
        return 0
    learned, facts = merge(lexicon, args.lexicon, config, args.shards, args.holdout)
    facts["held_out"]["games"] = config.holdout_games
    learned.info["held_out"]["games"] = config.holdout_games
    data = learned.to_bytes()
    with atomic_open(args.out, "wb") as out:
        out.write(data)
    artifact = {
        "file": args.out.name,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    write_json(args.manifest, {**facts, "games_per_shard": config.games_per_shard, **artifact})
    return 0


def _shard_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserError(f"--shard {text!r}: a shard number or {HOLDOUT}") from None


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
