"""Leave values: what the tiles a player keeps are worth, for the ``equity`` player.

A leave's value is how many more points a rack holding it scores, on average, than a rack
drawn from nothing: the mean score of the best play of the full racks that contain the leave,
less the mean over all racks (so the empty leave is worth 0). It is the target strong engines
learn their leave tables ("superleaves") from — wolges' leave generation averages "the
best-play values of the fuller racks that contain it" over self-play games, Quackle's and
Macondo's superleaves are made the same way — measured here on greedy self-play
(pipeline/leaves.py, ``snakemake leaves``), where every rack of a game credits each of its
leaves.

Three forms, read by ``load_leaves``:

* the *learned values* (``format: lexforge-leaves/2``, JSON, gzip-compressed or not), which
  ``fit`` makes from the per-leave counts of self-play: a **model** that values every leave
  of up to six tiles, refined by an **exact table** for the leaves seen often enough:

  - the model is a linear function of a leave's terms: per tile its copies, its second copy
    and its third (a second S is not a second U), one term per *pair* of different tiles kept
    together (QU, ER, CK: the combinations a per-tile value cannot say), the vowel/consonant
    balance (``v²``, ``c²``, ``v·c``; blanks are neither) and the leave's size; fitted by ridge
    regression (a small penalty ``ridge`` that pulls the terms of rarely seen pairs towards 0)
    on every observed leave (weighted by its count), an intercept taking the mean score of a
    rack;
  - the table: a leave seen ``n`` times, with mean score ``ȳ``, is worth its model value
    plus the shrunk residual ``n / (n + k) · (ȳ − intercept − model)``. ``k = σ² / τ²`` is
    estimated from the data (empirical Bayes): ``σ²`` the variance of the score among racks
    holding the same leave, ``τ²`` the variance of the true residuals between the leaves seen
    at least ``min_observations`` times (their observed squares less the sampling noise). A
    leave seen rarely keeps its model value; one seen thousands of times, its own measured
    mean. Only leaves seen at least ``min_observations`` times are stored; every other leave
    takes the model's value.

  An empty leave is worth 0.
* the earlier *linear model* (``format: lexforge-leaves/1``): per tile a value and a duplicate
  penalty, and the balance quadratic — 57 numbers for English;
* a *table* in text: lines ``TILES VALUE`` (tiles sorted, ``?`` for blanks; ``#`` comments), a
  value per multiset listed, 0 for the others.

Every fit is a function of the per-leave sums of whole numbers (racks, Σ score, Σ score²) that
the self-play shards write: summing shards in any grouping gives the same counts and the same
values.
"""

from __future__ import annotations

import gzip
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from lexforge.errors import UserError
from lexforge.game import sort_rack
from lexforge.language import Language
from lexforge.plays import BLANK
from lexforge.tiles import tile_counts

if TYPE_CHECKING:
    from lexforge.lexicon import Lexicon

FORMAT_LINEAR = "lexforge-leaves/1"
FORMAT = "lexforge-leaves/2"
MAX_LEAVE = 6  # the longest leave valued: a rack of 7 less one tile played
BALANCE = ("vowels2", "consonants2", "vowels_consonants")
DIGITS = 4  # coefficients are rounded: the artifact reads well and compares across machines
TABLE_DIGITS = 2  # the exact table's values


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


@dataclass(frozen=True)
class LeaveModel:
    """The linear model of ``format: lexforge-leaves/1`` (see the module docstring)."""

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
            "format": FORMAT_LINEAR,
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
        if data.get("format") != FORMAT_LINEAR:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT_LINEAR!r}")
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


#: Per leave (tiles sorted): racks holding it, Σ score, Σ score² — whole numbers, summed exactly.
Counts = dict[str, list[int]]
CHUNK = 20_000  # leaves per block of the normal equations (memory: CHUNK × terms floats)


@dataclass(frozen=True)
class Terms:
    """The learned model's terms for one tile set (see the module docstring)."""

    tiles: str  # the letters of the set, then ``?`` if it has blanks
    vowels: str

    @classmethod
    def of(cls, language: Language) -> Terms:
        features = Features.of(language)
        return cls(features.tiles, features.vowels)

    @cached_property
    def names(self) -> list[str]:
        """Each term's name: ``A`` (copies), ``AA`` (a second copy), ``AAA`` (a third), ``AB``
        (both kept), the balance terms, ``#n`` (a leave of n tiles)."""
        pairs = [a + b for i, a in enumerate(self.tiles) for b in self.tiles[i + 1 :]]
        return [
            *self.tiles,
            *(t * 2 for t in self.tiles),
            *(t * 3 for t in self.tiles),
            *pairs,
            *BALANCE,
            *(f"#{n}" for n in range(1, MAX_LEAVE + 1)),
        ]

    @cached_property
    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}

    def sparse(self, leave: str) -> list[tuple[int, int]]:
        """The nonzero terms of a leave: (index in ``names``, value); tiles not of this set
        count for nothing."""
        index = self.index
        counts = Counter(t for t in leave if t in index)
        out = []
        for t, n in counts.items():
            out.append((index[t], n))
            if n > 1:
                out.append((index[t * 2], 1))
            if n > 2:
                out.append((index[t * 3], 1))
        kept = sorted(counts, key=self.tiles.index)
        out += [(index[a + b], 1) for i, a in enumerate(kept) for b in kept[i + 1 :]]
        v = sum(n for t, n in counts.items() if t in self.vowels)
        c = sum(n for t, n in counts.items() if t != BLANK and t not in self.vowels)
        for name, x in zip(BALANCE, (v * v, c * c, v * c), strict=True):
            if x:
                out.append((index[name], x))
        size = sum(counts.values())
        if 0 < size <= MAX_LEAVE:
            out.append((index[f"#{size}"], 1))
        return out


@dataclass
class LeaveValues:
    """Learned leave values: the exact table, else the model (see the module docstring)."""

    terms: Terms
    coefficients: tuple[float, ...]  # in ``terms.names`` order
    table: dict[str, float]
    intercept: float = 0.0  # the mean score of a rack (not part of any value)
    info: dict[str, Any] = field(default_factory=dict)  # provenance: lexicon, games, rows …
    cache: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def value(self, tiles: str) -> float:
        known = self.table.get(tiles)
        if known is not None:
            return known
        cached = self.cache.get(tiles)
        if cached is None:
            cached = self.model(tiles)
            self.cache[tiles] = cached
        return cached

    def model(self, tiles: str) -> float:
        """The model's value of a leave (the table aside)."""
        return sum(self.coefficients[i] * x for i, x in self.terms.sparse(tiles))

    def to_json(self) -> str:
        """The artifact: JSON, keys in a fixed order, the table sorted."""
        rounded = (round(c, DIGITS) + 0.0 for c in self.coefficients)  # + 0.0: no -0.0
        data = {
            "format": FORMAT,
            **self.info,
            "tiles": self.terms.tiles,
            "vowels": self.terms.vowels,
            "intercept": round(self.intercept, DIGITS),
            "terms": dict(zip(self.terms.names, rounded, strict=True)),
            "table": {k: round(v, TABLE_DIGITS) + 0.0 for k, v in sorted(self.table.items())},
        }
        return json.dumps(data, indent=0, ensure_ascii=False, separators=(",", ":")) + "\n"

    def to_bytes(self) -> bytes:
        """The artifact, gzip-compressed with no name or time in the header: deterministic."""
        return gzip.compress(self.to_json().encode(), compresslevel=9, mtime=0)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeaveValues:
        """Learned values from their parsed JSON; KeyError/TypeError/ValueError when malformed."""
        terms = Terms(str(data["tiles"]), str(data["vowels"]))
        given = data["terms"]
        coefficients = tuple(float(given[name]) for name in terms.names)
        table = {str(k): float(v) for k, v in data["table"].items()}  # keys sorted (to_json)
        numbers = [*coefficients, *table.values(), float(data["intercept"])]
        if not all(math.isfinite(x) for x in numbers):
            raise ValueError("a value is not a finite number")
        if set("".join(table)) - set(terms.tiles) or max(map(len, table), default=0) > MAX_LEAVE:
            strange = next(k for k in table if len(k) > MAX_LEAVE or set(k) - set(terms.tiles))
            raise ValueError(f"table leave {strange!r} is not of the tiles {terms.tiles}")
        known = {"format", "tiles", "vowels", "intercept", "terms", "table"}
        info = {k: v for k, v in data.items() if k not in known}
        return cls(terms, coefficients, table, float(data["intercept"]), info)


def add_counts(total: Counts, part: Counts) -> None:
    """Add the per-leave sums ``part`` into ``total``."""
    for leave, (n, s, ss) in part.items():
        row = total.setdefault(leave, [0, 0, 0])
        row[0] += n
        row[1] += s
        row[2] += ss


def design(terms: Terms, leaves: list[str]) -> np.ndarray:
    """The rows (1, terms…) of ``leaves``, dense."""
    x = np.zeros((len(leaves), len(terms.names) + 1))
    x[:, 0] = 1.0
    for r, leave in enumerate(leaves):
        for i, value in terms.sparse(leave):
            x[r, i + 1] = value
    return x


@dataclass(frozen=True)
class Fit:
    """The learned values and the figures of the fit."""

    values: LeaveValues
    sigma2: float  # the next score's variance among rows of one leave
    tau2: float  # the variance of the true residuals between leaves
    shrinkage: float  # k = sigma2 / tau2


def fit(
    terms: Terms,
    counts: Counts,
    *,
    ridge: float,
    min_observations: int,
    info: dict[str, Any] | None = None,
) -> Fit:
    """The learned values of the per-leave sums ``counts`` (see the module docstring)."""
    leaves = sorted(counts)
    size = len(terms.names) + 1
    xtx = np.zeros((size, size))
    xty = np.zeros(size)
    for start in range(0, len(leaves), CHUNK):
        block = leaves[start : start + CHUNK]
        x = design(terms, block)
        n = np.array([counts[leave][0] for leave in block], dtype=np.float64)
        s = np.array([counts[leave][1] for leave in block], dtype=np.float64)
        xtx += (x * n[:, None]).T @ x
        xty += x.T @ s
    penalty = np.full(size, float(ridge))
    penalty[0] = 0.0  # the intercept is not pulled
    beta = np.linalg.lstsq(xtx + np.diag(penalty), xty, rcond=None)[0]
    intercept, coefficients = float(beta[0]), tuple(float(b) for b in beta[1:])
    rows = sum(c[0] for c in counts.values())
    # The empirical-Bayes shrinkage: within-leave variance, then between-leave variance.
    within = sum(ss - s * s / n for n, s, ss in counts.values())
    sigma2 = within / max(1, rows - len(leaves))
    residual2 = 0.0  # Σ n·r² over the leaves the table may hold, r a leave mean's residual
    kept = [leave for leave in leaves if counts[leave][0] >= min_observations and leave]
    for start in range(0, len(kept), CHUNK):
        block = kept[start : start + CHUNK]
        predicted = design(terms, block) @ beta
        for leave, p in zip(block, predicted, strict=True):
            n, s, _ = counts[leave]
            residual2 += n * (s / n - p) ** 2
    weight = sum(counts[leave][0] for leave in kept)
    tau2 = max((residual2 - len(kept) * sigma2) / max(1, weight), 1e-9)
    k = sigma2 / tau2
    values = LeaveValues(terms, coefficients, {}, intercept)
    table = {}
    for leave in leaves:
        n, s, _ = counts[leave]
        if leave and n >= min_observations and len(leave) <= MAX_LEAVE:
            model = values.model(leave)
            table[leave] = model + n / (n + k) * (s / n - intercept - model)
    figures = {"racks": counts.get("", [0])[0], "rows": rows, "leaves_seen": len(leaves)}
    figures["table_leaves"] = len(table)
    shrink = {"sigma2": round(sigma2, 2), "tau2": round(tau2, 2), "k": round(k, 1)}
    learned = LeaveValues(
        terms, coefficients, table, intercept, {**(info or {}), **figures, "shrinkage": shrink}
    )
    return Fit(learned, sigma2, tau2, k)


def squared_error(leaves: Leaves, intercept: float, counts: Counts) -> float:
    """The mean squared error of ``intercept + value(leave)`` as the score of the racks
    summed in ``counts`` (held-out games: how well the values predict)."""
    total = rows = 0.0
    for leave, (n, s, ss) in counts.items():
        p = intercept + leaves.value(leave)
        total += ss - 2 * p * s + n * p * p
        rows += n
    return total / rows if rows else 0.0


def load_leaves(path: str | Path) -> Leaves:
    """Learned values or a linear model (JSON, gzip-compressed or not) or a table (``TILES
    VALUE`` lines); UserError naming the file and the problem."""
    try:
        raw = Path(path).read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        text = raw.decode("utf-8")
    except (OSError, ValueError, EOFError) as error:
        raise UserError(f"{path}: cannot read the leave values ({error})") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
            if isinstance(data, dict) and data.get("format") == FORMAT:
                return LeaveValues.from_json(data)
            return LeaveModel.from_json(data)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            problem = f"missing {error}" if isinstance(error, KeyError) else str(error)
            raise UserError(f"{path}: not a leave model ({problem})") from None
    return LeaveTable(read_table(text, str(path)))


def check_leaves(leaves: Leaves, language: Language, path: str | Path) -> None:
    """UserError if a model was fitted for another tile set than the language's."""
    if isinstance(leaves, LeaveModel | LeaveValues):
        made_for = leaves.features.tiles if isinstance(leaves, LeaveModel) else leaves.terms.tiles
        tiles = Features.of(language).tiles
        if made_for != tiles:
            raise UserError(
                f"{path}: leave model for the tiles {made_for}, but the "
                f"{language.name} set has {tiles}"
            )


#: The learned values in a lexicon's folder (an installed bundle holds them).
LEXICON_FILE = "leaves.json.gz"
#: The learned values committed with the source, one file per lexicon (``<lexicon>.json.gz``).
SHIPPED = Path(__file__).resolve().parent.parent / "leaves"


def default_leaves(lexicon: Lexicon) -> Leaves | None:
    """The lexicon's learned leave values: ``leaves.json.gz`` in its folder (an installed
    bundle), else the ones shipped with the source for its name or for another lexicon of its
    tile set; None when there are none."""
    candidates = []
    if lexicon.path is not None:
        candidates.append(lexicon.path / LEXICON_FILE)
    candidates.append(SHIPPED / f"{lexicon.name}.json.gz")
    if SHIPPED.is_dir():
        candidates += sorted(SHIPPED.glob(f"{lexicon.language.code}*.json.gz"))
    tiles = Features.of(lexicon.language).tiles
    for path in candidates:
        if path.is_file():
            leaves = _load_default(path)
            if isinstance(leaves, LeaveValues) and leaves.terms.tiles == tiles:
                return leaves
    return None


@cache
def _load_default(path: Path) -> Leaves:
    return load_leaves(path)


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
