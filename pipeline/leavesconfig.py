"""The ``leaves`` section of the build configuration: self-play to learn leave values.

Kept apart from pipeline.config, which every lexicon step imports: a change here reruns the
leave steps only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexforge.errors import UserError
from lexforge.language import read_yaml
from pipeline.config import BuildConfig, load_config


@dataclass(frozen=True)
class LeavesConfig:
    """``snakemake leaves``: which lexicons, how many games, in how many shards, and the fit's
    settings (lexforge.leaves)."""

    lexicons: tuple[str, ...]
    seed: int = 1
    shards: int = 2  # per lexicon, but those of ``lexicon_shards``
    games_per_shard: int = 500
    lexicon_shards: dict[str, int] = field(default_factory=dict)
    holdout_games: int = 200
    ridge: float = 10.0
    min_observations: int = 5
    player: str = "greedy"  # who plays the games: greedy, or equity with ``player_leaves``
    player_leaves: str | None = None  # the equity player's values: a path, ``{lexicon}`` in it

    def shards_of(self, lexicon: str) -> int:
        return self.lexicon_shards.get(lexicon, self.shards)

    def games_of(self, lexicon: str) -> int:
        return self.shards_of(lexicon) * self.games_per_shard

    def player_leaves_of(self, lexicon: str) -> str | None:
        """The file of the values the equity player plays a lexicon's games with (None: the
        greedy player plays)."""
        if self.player_leaves is None:
            return None
        return self.player_leaves.replace("{lexicon}", lexicon)


def leaves_config(data: dict[str, Any], build: BuildConfig) -> LeavesConfig:
    """The schema-valid ``leaves`` section ``data`` with its defaults (lexicons: the default
    ones whose language has Scrabble tiles), checked against the lexicons of ``build``."""
    where = f"{build.path}: leaves/lexicons"
    names = data.get("lexicons")
    if names is None:
        names = [n for n in build.default if build.lexicons[n].language.tile_counts]
    for name in names:
        if name not in build.lexicons:
            raise UserError(f"{where}: '{name}' is not a lexicon of this file")
        if not build.lexicons[name].language.tile_counts:
            raise UserError(f"{where}: the language of lexicon '{name}' has no Scrabble tiles")
    for name in data.get("lexicon_shards", {}):
        if name not in names:
            raise UserError(
                f"{build.path}: leaves/lexicon_shards: '{name}' is not in leaves/lexicons"
            )
    player, player_leaves = data.get("player", "greedy"), data.get("player_leaves")
    if (player == "equity") != (player_leaves is not None):
        raise UserError(
            f"{build.path}: leaves/player_leaves: the values the equity player plays with, "
            "given with player: equity (and only then)"
        )
    keys = ("seed", "shards", "games_per_shard", "lexicon_shards", "holdout_games", "ridge")
    keys += ("min_observations", "player", "player_leaves")
    values = {k: data[k] for k in keys if k in data}
    return LeavesConfig(lexicons=tuple(names), **values)


def load_leaves_config(path: Path) -> LeavesConfig:
    """The leaves section of a configuration file, the whole file validated."""
    build = load_config(path, check_files=False)
    return leaves_config(read_yaml(path).get("leaves", {}), build)
