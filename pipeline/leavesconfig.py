"""The ``leaves`` section of the build configuration: self-play to learn leave values.

Kept apart from pipeline.config, which every lexicon step imports: a change here reruns the
leave steps only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexforge.errors import UserError
from lexforge.language import read_yaml
from pipeline.config import BuildConfig, load_config


@dataclass(frozen=True)
class LeavesConfig:
    """``snakemake leaves``: which lexicons, how many games, in how many shards."""

    lexicons: tuple[str, ...]
    seed: int = 1
    shards: int = 2
    games_per_shard: int = 500

    @property
    def games(self) -> int:
        return self.shards * self.games_per_shard


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
    values = {k: data[k] for k in ("seed", "shards", "games_per_shard") if k in data}
    return LeavesConfig(lexicons=tuple(names), **values)


def load_leaves_config(path: Path) -> LeavesConfig:
    """The leaves section of a configuration file, the whole file validated."""
    build = load_config(path, check_files=False)
    return leaves_config(read_yaml(path).get("leaves", {}), build)
