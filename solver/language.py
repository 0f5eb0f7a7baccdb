"""A language as data: alphabet, normalization bounds and game tables.

Read from ``config/languages/<code>.yaml`` (validated by the pipeline) or from the
``language.json`` the pipeline writes beside each lexicon, so that a published lexicon
carries everything the solver needs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.errors import UserError

CONFIG_DIR = Path("config/languages")


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    alphabet: str
    min_length: int = 2
    max_length: int = 20
    keep: str = ""
    fold: dict[str, str] = field(default_factory=dict)
    proper_nouns_by_case: bool = True
    tile_counts: dict[str, int] = field(default_factory=dict)
    tile_values: dict[str, int] = field(default_factory=dict)
    blanks: int = 0
    rack_size: int = 7
    bingo_bonus: int = 50
    ruzzle_values: dict[str, int] = field(default_factory=dict)
    dice: dict[str, list[list[str]]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Language:
        """Build from the language YAML/JSON document (see config/schema/language.schema.yaml)."""
        scrabble = data.get("scrabble") or {}
        tiles = scrabble.get("tiles") or {}
        dice_sets = (data.get("boggle") or {}).get("dice") or {}
        return cls(
            code=data["code"],
            name=data.get("name", data["code"]),
            alphabet=data.get("alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            min_length=data.get("length", {}).get("min", 2),
            max_length=data.get("length", {}).get("max", 20),
            keep=data.get("keep", ""),
            fold=dict(data.get("fold") or {}),
            proper_nouns_by_case=data.get("proper_nouns_by_case", True),
            tile_counts={letter: count for letter, (count, _) in tiles.items()},
            tile_values={letter: value for letter, (_, value) in tiles.items()},
            blanks=scrabble.get("blanks", 0),
            rack_size=scrabble.get("rack_size", 7),
            bingo_bonus=scrabble.get("bingo_bonus", 50),
            ruzzle_values=dict((data.get("ruzzle") or {}).get("values") or {}),
            dice={name: [die.split() for die in spec["dice"]] for name, spec in dice_sets.items()},
        )

    @classmethod
    def load(cls, spec: str | Path, config_dir: Path = CONFIG_DIR) -> Language:
        """Load a language by code (``config/languages/<code>.yaml``) or from a YAML/JSON file."""
        path = Path(spec)
        if not path.suffix:
            path = config_dir / f"{spec}.yaml"
        if not path.is_file():
            known = sorted(p.stem for p in config_dir.glob("*.yaml")) if config_dir.is_dir() else []
            hint = f" (known: {', '.join(known)})" if known else ""
            raise UserError(f"{path}: unknown language '{spec}'{hint}")
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            return cls.from_dict(json.loads(text))
        import yaml  # only needed for YAML configs, not for built lexicons

        try:
            return cls.from_dict(yaml.safe_load(text))
        except (yaml.YAMLError, KeyError, TypeError, ValueError) as error:
            raise UserError(f"{path}: not a valid language file ({error})") from None
