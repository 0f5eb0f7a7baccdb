"""Loading and validating config/config.yaml and config/languages/<lang>.yaml.

Both are checked against the JSON schemas in config/schema/ before anything runs; any problem
is a UserError naming the file and the offending key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from pipeline.normalize import DEFAULT_REJECT
from pipeline.sources import CASE_SENSITIVE
from solver.errors import UserError
from solver.language import Language

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "config" / "schema"


@dataclass(frozen=True)
class Source:
    format: str
    path: Path
    encoding: str | None
    case_sensitive: bool

    @property
    def id(self) -> str:
        """A short stable name for stats and manifests: ``<format>:<file name>``."""
        return f"{self.format}:{self.path.name}"

    def files(self) -> list[Path]:
        """Every raw file this source reads (an aspell dictionary spans its directory)."""
        if self.format != "aspell":
            return [self.path]
        folder = self.path.parent
        return sorted(
            p for pattern in ("*.multi", "*.cwl.gz", "*.dat") for p in folder.glob(pattern)
        )


@dataclass(frozen=True)
class LexiconSpec:
    name: str
    language: Language
    language_data: dict[str, Any]
    language_file: Path
    sources: tuple[Source, ...]
    reject: dict[str, bool]
    reference_dir: Path


@dataclass(frozen=True)
class BuildConfig:
    path: Path
    version: str
    lexicons: dict[str, LexiconSpec]
    default: tuple[str, ...]


def _load_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read ({error})") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise UserError(
            f"{path}: invalid YAML{where}: {getattr(error, 'problem', error)}"
        ) from None


@cache
def _schema(name: str) -> dict[str, Any]:
    return yaml.safe_load((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def _validate(document: Any, schema_name: str, path: Path) -> None:
    validator = jsonschema.Draft202012Validator(_schema(schema_name))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise UserError(f"{path}: {where}: {error.message}")


def load_language_data(path: Path) -> dict[str, Any]:
    """A language file, validated against config/schema/language.schema.yaml."""
    data = _load_yaml(path)
    _validate(data, "language.schema.yaml", path)
    if data["code"] != path.stem:
        raise UserError(f"{path}: code '{data['code']}' does not match the file name")
    alphabet = data["alphabet"]
    if len(set(alphabet)) != len(alphabet):
        raise UserError(f"{path}: alphabet repeats a letter")
    if data["length"]["min"] > data["length"]["max"]:
        raise UserError(f"{path}: length min is greater than max")
    return data


def load_config(path: Path | str = "config/config.yaml", check_files: bool = True) -> BuildConfig:
    """The build configuration with every lexicon resolved (language loaded, sources checked)."""
    path = Path(path)
    data = _load_yaml(path)
    _validate(data, "config.schema.yaml", path)
    languages_dir = path.parent / data.get("languages_dir", "languages")
    lexicons = {
        name: _lexicon(name, spec, languages_dir, path, check_files)
        for name, spec in data["lexicons"].items()
    }
    default = tuple(data.get("default", lexicons))
    for name in default:
        if name not in lexicons:
            raise UserError(f"{path}: default: '{name}' is not a lexicon of this file")
    return BuildConfig(path, data.get("version", "0.0.0"), lexicons, default)


def _lexicon(
    name: str, spec: dict, languages_dir: Path, config_path: Path, check_files: bool
) -> LexiconSpec:
    language_file = languages_dir / f"{spec['language']}.yaml"
    if not language_file.is_file():
        raise UserError(
            f"{config_path}: lexicons/{name}: "
            f"no language file {language_file} for '{spec['language']}'"
        )
    language_data = load_language_data(language_file)
    for key in ("alphabet", "keep"):
        if key in spec:
            language_data[key] = spec[key]
    if "length" in spec:
        language_data["length"] = {**language_data["length"], **spec["length"]}
    sources = tuple(
        Source(
            format=s["format"],
            path=Path(s["path"]),
            encoding=s.get("encoding"),
            case_sensitive=s.get("case_sensitive", CASE_SENSITIVE[s["format"]]),
        )
        for s in spec["sources"]
    )
    if check_files:
        for source in sources:
            if not source.path.is_file():
                raise UserError(
                    f"{config_path}: lexicons/{name}: source file {source.path} not found"
                )
    return LexiconSpec(
        name=name,
        language=Language.from_dict(language_data),
        language_data=language_data,
        language_file=language_file,
        sources=sources,
        reject={**DEFAULT_REJECT, **spec.get("reject", {})},
        reference_dir=Path(spec.get("reference", f"raw/{spec['language']}/reference")),
    )


def language_json(spec: LexiconSpec) -> str:
    """The resolved language, as written to build/<lexicon>/language.json (sorted, stable)."""
    return json.dumps(spec.language_data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
