"""Leave values: what the tiles a player keeps are worth, for the ``equity`` player.

Two forms, read by ``load_leaves``:

* a *table*: lines ``TILES VALUE`` (tiles sorted, ``?`` for blanks; ``#`` comments), a value per
  multiset listed, 0 for the others;
* a *model* (JSON, ``format: lexforge-leaves/1``), fitted by ``fit`` from self-play: the value of
  a leave is the sum of a value per tile, a penalty per extra copy of a tile (per tile: a second
  S is not a second U) and a quadratic in the numbers of vowels ``v`` and consonants ``c`` kept
  (``v²``, ``c²``, ``v·c``: the balance; blanks are neither). An empty leave is worth 0.

The fit is least squares on the normal equations, which self-play shards accumulate as exact
integers (``Sums``: features and targets are whole numbers), so summing shards in any grouping
gives the same equations and the same model; the target of a row is what the learning
pipeline (pipeline/leaves.py) measured after the leave, an intercept absorbing its mean.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from lexforge.errors import UserError
from lexforge.game import sort_rack
from lexforge.language import Language
from lexforge.plays import BLANK
from lexforge.tiles import tile_counts

FORMAT = "lexforge-leaves/1"
BALANCE = ("vowels2", "consonants2", "vowels_consonants")
DIGITS = 4  # coefficients are rounded: the artifact reads well and compares across machines


class Leaves(Protocol):
    """Anything that values a leave (tiles sorted, ``?`` for blanks)."""

    def value(self, tiles: str) -> float: ...


@dataclass(frozen=True)
class LeaveTable:
    """A value per listed multiset; 0 for the others."""

    values: dict[str, float]

    def value(self, tiles: str) -> float:
        return self.values.get(tiles, 0.0)


@dataclass(frozen=True)
class Features:
    """The model's terms for one tile set: per tile its count and its extra copies, then the
    vowel/consonant balance."""

    tiles: str  # the letters of the set, then ``?`` if it has blanks
    vowels: str

    @classmethod
    def of(cls, language: Language) -> Features:
        in_set = tile_counts(language)  # the tiles a bag holds, folded as the board's
        letters = "".join(t for t in language.alphabet if in_set[t])
        blank = BLANK if language.blanks else ""
        return cls(letters + blank, language.classify.get("vowels", ""))

    @property
    def names(self) -> list[str]:
        return [*self.tiles, *(f"{t}{t}" for t in self.tiles), *BALANCE]

    def row(self, leave: str) -> list[int]:
        """The features of a leave (tiles of this set)."""
        counts = Counter(leave)
        v = sum(n for t, n in counts.items() if t in self.vowels)
        c = sum(n for t, n in counts.items() if t != BLANK and t not in self.vowels)
        return [
            *(counts[t] for t in self.tiles),
            *(max(0, counts[t] - 1) for t in self.tiles),
            v * v,
            c * c,
            v * c,
        ]


@dataclass
class Sums:
    """The normal equations of a least-squares fit with an intercept, as exact integers:
    ``xtx`` = Σ x xᵀ and ``xty`` = Σ x·y over rows x = (1, features), and the row count."""

    size: int  # features (the intercept not included)
    xtx: list[list[int]] = field(default_factory=list)
    xty: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.size + 1
        self.xtx = self.xtx or [[0] * n for _ in range(n)]
        self.xty = self.xty or [0] * n

    @property
    def rows(self) -> int:
        return self.xtx[0][0]

    def add(self, features: list[int], target: int) -> None:
        x = [(i, xi) for i, xi in enumerate([1, *features]) if xi]
        for i, xi in x:
            self.xty[i] += xi * target
            row = self.xtx[i]
            for j, xj in x:
                row[j] += xi * xj

    def merge(self, other: Sums) -> None:
        if other.size != self.size:
            raise ValueError(f"sums of {other.size} features added to sums of {self.size}")
        for i, row in enumerate(other.xtx):
            self.xty[i] += other.xty[i]
            for j, value in enumerate(row):
                self.xtx[i][j] += value

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "xtx": self.xtx, "xty": self.xty}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sums:
        return cls(data["size"], data["xtx"], data["xty"])


def solve(sums: Sums) -> tuple[float, list[float]]:
    """The intercept and the coefficients minimizing the squared error (the minimum-norm
    solution where a feature never varies, e.g. two copies of a tile the set has once)."""
    xtx = np.array(sums.xtx, dtype=np.float64)
    xty = np.array(sums.xty, dtype=np.float64)
    beta = np.linalg.lstsq(xtx, xty, rcond=None)[0]
    return float(beta[0]), [float(b) for b in beta[1:]]


@dataclass(frozen=True)
class LeaveModel:
    """A fitted leave model (see the module docstring)."""

    features: Features
    coefficients: tuple[float, ...]  # in ``features.names`` order
    intercept: float = 0.0  # the mean target of an empty leave (not part of any value)
    info: dict[str, Any] = field(default_factory=dict)  # provenance: lexicon, games, rows …

    def value(self, tiles: str) -> float:
        row = self.features.row(tiles)
        return sum(c * x for c, x in zip(self.coefficients, row, strict=True) if x)

    def to_json(self) -> str:
        """The artifact: a few lines of JSON, keys in a fixed order."""
        names = self.features.names
        rounded = (round(c, DIGITS) + 0.0 for c in self.coefficients)  # + 0.0: no -0.0
        coefficients = dict(zip(names, rounded, strict=True))
        data = {
            "format": FORMAT,
            **self.info,
            "tiles": self.features.tiles,
            "vowels": self.features.vowels,
            "intercept": round(self.intercept, DIGITS),
            "tile": {t: coefficients[t] for t in self.features.tiles},
            "duplicate": {t: coefficients[t + t] for t in self.features.tiles},
            "balance": {name: coefficients[name] for name in BALANCE},
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeaveModel:
        """A model from its parsed JSON; KeyError/TypeError/ValueError when malformed."""
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT!r}")
        features = Features(str(data["tiles"]), str(data["vowels"]))
        tile, duplicate, balance = data["tile"], data["duplicate"], data["balance"]
        coefficients = [
            *(float(tile[t]) for t in features.tiles),
            *(float(duplicate[t]) for t in features.tiles),
            *(float(balance[name]) for name in BALANCE),
        ]
        if not all(math.isfinite(c) for c in coefficients):
            raise ValueError("a coefficient is not a finite number")
        known = {"format", "tiles", "vowels", "intercept", "tile", "duplicate", "balance"}
        info = {k: v for k, v in data.items() if k not in known}
        return cls(features, tuple(coefficients), float(data["intercept"]), info)


def fit(features: Features, sums: Sums, info: dict[str, Any] | None = None) -> LeaveModel:
    """The least-squares model of the rows summed in ``sums``."""
    if sums.size != len(features.names):
        raise ValueError(f"sums of {sums.size} features for a model of {len(features.names)}")
    intercept, coefficients = solve(sums)
    return LeaveModel(features, tuple(coefficients), intercept, {**(info or {}), "rows": sums.rows})


def load_leaves(path: str) -> Leaves:
    """A leave model (JSON) or table (``TILES VALUE`` lines); UserError naming the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: cannot read the leave values ({error})") from None
    if text.lstrip().startswith("{"):
        try:
            return LeaveModel.from_json(json.loads(text))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            problem = f"missing {error}" if isinstance(error, KeyError) else str(error)
            raise UserError(f"{path}: not a leave model ({problem})") from None
    return LeaveTable(read_table(text, path))


def check_leaves(leaves: Leaves, language: Language, path: str) -> None:
    """UserError if a model was fitted for another tile set than the language's."""
    if isinstance(leaves, LeaveModel):
        tiles = Features.of(language).tiles
        if leaves.features.tiles != tiles:
            raise UserError(
                f"{path}: leave model for the tiles {leaves.features.tiles}, but the "
                f"{language.name} set has {tiles}"
            )


def read_table(text: str, path: str) -> dict[str, float]:
    """A leave table's lines (see the module docstring); UserError naming the line."""
    values = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError
            values[sort_rack(parts[0].upper())] = float(parts[1])
        except ValueError:
            raise UserError(f"{path}: line {number}: expected TILES VALUE (e.g. ?S 25.5)") from None
    return values
