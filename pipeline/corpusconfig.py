"""The ``corpus`` section of the build configuration: board corpora and the puzzle pack.

Kept apart from pipeline.config, which every lexicon step imports: a change here reruns the
corpus and puzzle steps only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexforge.errors import UserError
from lexforge.language import read_yaml
from pipeline.config import BuildConfig, LexiconSpec, load_config


@dataclass(frozen=True)
class BoardKind:
    """A kind of corpus board: the game and the size."""

    game: str  # boggle or ruzzle
    rows: int
    cols: int


@dataclass(frozen=True)
class CorpusConfig:
    """``snakemake corpus`` and ``puzzles``: what to generate, in how many shards."""

    lexicons: tuple[str, ...]
    seed: int = 1
    shards: int = 2
    boards_per_shard: int = 500
    kinds: dict[str, BoardKind] = field(
        default_factory=lambda: {
            "boggle-4x4": BoardKind("boggle", 4, 4),
            "boggle-5x5": BoardKind("boggle", 5, 5),
            "ruzzle-4x4": BoardKind("ruzzle", 4, 4),
        }
    )
    puzzle_kind: str = "boggle-4x4"
    puzzle_count: int = 365
    puzzle_band: tuple[float, float] = (0.25, 0.75)

    def kinds_of(self, spec: LexiconSpec) -> list[str]:
        """The kinds a lexicon's corpus holds: Ruzzle only where the language has its values."""
        return [
            name
            for name, kind in self.kinds.items()
            if kind.game != "ruzzle" or spec.language.ruzzle_values
        ]


def corpus_config(data: dict[str, Any], build: BuildConfig) -> CorpusConfig:
    """The schema-valid ``corpus`` section ``data`` with its defaults, checked against the
    lexicons of ``build``."""
    where = f"{build.path}: corpus"
    names = tuple(data.get("lexicons", build.default))
    for name in names:
        if name not in build.lexicons:
            raise UserError(f"{where}/lexicons: '{name}' is not a lexicon of this file")
    puzzles = data.get("puzzles", {})
    values: dict[str, Any] = {
        key: data[key] for key in ("seed", "shards", "boards_per_shard") if key in data
    }
    if "kinds" in data:
        values["kinds"] = {name: BoardKind(**kind) for name, kind in data["kinds"].items()}
    values |= {f"puzzle_{key}": puzzles[key] for key in ("kind", "count") if key in puzzles}
    if "band" in puzzles:
        values["puzzle_band"] = tuple(puzzles["band"])
    corpus = CorpusConfig(lexicons=names, **values)
    if corpus.puzzle_kind not in corpus.kinds:
        raise UserError(f"{where}/puzzles/kind: no kind '{corpus.puzzle_kind}' in corpus/kinds")
    for name in names:
        if corpus.puzzle_kind not in corpus.kinds_of(build.lexicons[name]):
            raise UserError(
                f"{where}/puzzles/kind: '{corpus.puzzle_kind}' is Ruzzle, and the language of "
                f"lexicon '{name}' has no Ruzzle values"
            )
    low, high = corpus.puzzle_band
    if low > high:
        raise UserError(f"{where}/puzzles/band: {low} is above {high}")
    return corpus


def load_corpus_config(path: Path) -> CorpusConfig:
    """The corpus section of a configuration file, the whole file validated."""
    build = load_config(path, check_files=False)
    return corpus_config(read_yaml(path).get("corpus", {}), build)
