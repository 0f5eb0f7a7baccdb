"""Loading and validating the build configuration (config/config.yaml) and its languages.

Both are checked against the JSON schemas in config/schema/ before anything runs; any problem
is a UserError naming the file and the offending key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexforge.errors import UserError, excerpt
from lexforge.language import (
    Language,
    check_language_data,
    find_language_file,
    load_language_data,
    read_yaml,
    schema_message,
    trusted_yaml,
    validate,
)
from lexforge.reasons import DEFAULT_REJECT
from lexforge.sources import CASE_SENSITIVE, CLEANED
from lexforge.sources.affixrules import AffixRefusal

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "config" / "schema" / "config.schema.yaml"
#: The configuration as the workflow resolved and validated it (rules/common.smk writes it, in
#: the work directory, for the steps to read).
WORKFLOW_CONFIG = Path(".snakemake/lexforge/config.json")


#: Language settings a lexicon may override (its ``language.json`` records the result, which the
#: solver reads): the others replace the language file's value, these merge into it key by key.
LANGUAGE_OVERRIDES = ("alphabet", "keep", "fold", "joiners", "tile_symbols", "length", "classify",
                      "scrabble")  # fmt: skip
MERGED_OVERRIDES = ("length", "classify", "scrabble")
#: Source roles (config/schema/config.schema.yaml says what each does; pipeline.words does it).
ROLES = ("add", "trusted", "confirm", "exact", "deny", "names")
#: The roles whose sources the junk rules may clean (``clean``): their words count.
CLEANABLE_ROLES = ("add", "trusted", "confirm", "exact")


@dataclass(frozen=True)
class Source:
    format: str
    path: Path
    encoding: str | None
    case_sensitive: bool
    role: str = "add"
    name: str | None = None
    tags: tuple[str, ...] = ()
    #: the junk rules apply (capitals, the shape rules); else the list is taken whole, folded
    clean: bool = False
    refuse_flags: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """A short stable name for stats and manifests: its ``name``, else
        ``<format>:<file name>``."""
        return self.name or f"{self.format}:{self.path.name}"

    def files(self) -> list[Path]:
        """Every raw file this source reads (an aspell dictionary spans its directory, a hunspell
        one is its .dic and the .aff beside it)."""
        if self.format == "hunspell":
            return [self.path, self.path.with_suffix(".aff")]
        if self.format != "aspell":
            return [self.path]
        folder = self.path.parent
        return sorted(
            p
            for pattern in ("*.multi", "*.alias", "*.cwl.gz", "*.dat")
            for p in folder.glob(pattern)
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
    min_sources: int = 1
    min_name_sources: int = 1
    priority: int = 0
    refuse_affixes: tuple[str, ...] = ()
    refuse_in_lists: tuple[str, ...] = ()

    def affix_refusal(self, source: Source) -> AffixRefusal:
        """What `source` must not yield: the forms of the refused affix classes and flags (an
        aspell or hunspell source giving the lexicon words; nothing for the others)."""
        if source.format not in ("aspell", "hunspell") or source.role in ("deny", "names"):
            return AffixRefusal()
        return AffixRefusal.from_config(
            self.language_data.get("affix_classes", {}),
            self.refuse_affixes,
            source.refuse_flags,
            f"lexicons/{self.name}",
        )


@dataclass(frozen=True)
class BuildConfig:
    path: Path
    version: str
    lexicons: dict[str, LexiconSpec]
    default: tuple[str, ...]


def config_schema() -> dict[str, Any]:
    """config/schema/config.schema.yaml, the build configuration's JSON schema."""
    return trusted_yaml(SCHEMA_FILE.read_text(encoding="utf-8"))


def load_config(
    path: Path | str = "config/config.yaml",
    check_files: bool = True,
    only: Collection[str] | None = None,
) -> BuildConfig:
    """The build configuration of a file, validated, every lexicon resolved (``only``: just
    these, as a build step that makes one lexicon needs; the others' languages are not read).

    ``WORKFLOW_CONFIG``, which the workflow writes only once it has checked it and its
    languages against their schemas, is not checked against them again: each of a build's steps
    would import jsonschema and check the same documents (0.1 s a step). Should it fail to
    resolve (edited since), it is checked, so that the schema names the mistake."""
    path = Path(path)
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise UserError(f"{path}: (top level): not a mapping")
    if path == WORKFLOW_CONFIG:
        try:
            return resolve_config(data, path, check_files, only, schema_checked=True)
        except (KeyError, TypeError, AttributeError):  # a shape the schemas would refuse
            pass
    check_config_schema(data, path)
    return resolve_config(data, path, check_files, only)


def check_config_schema(data: dict[str, Any], path: Path) -> None:
    """UserError naming the file and key of the first place ``data`` breaks the schema."""
    import jsonschema

    errors = sorted(
        jsonschema.Draft202012Validator(config_schema()).iter_errors(data),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top level)"
        raise UserError(f"{path}: {where}: {schema_message(errors[0])}")


def schema_error_line(message: str) -> str:
    """``key/sub: reason`` from the many lines of ``snakemake.utils.validate``'s error."""
    lines = message.splitlines()
    reason = next(
        (
            line.removeprefix("ValidationError: ")
            for line in lines
            if line.startswith("ValidationError: ")
        ),
        lines[0] if lines else message,
    )
    instance = next((line for line in lines if line.startswith("On instance")), "")
    where = "/".join(re.findall(r"\[([^\]]*)\]", instance)).replace("'", "") or "(top level)"
    return f"{where}: {excerpt(reason, 120)}"


def resolve_config(
    data: dict[str, Any],
    path: Path,
    check_files: bool = True,
    only: Collection[str] | None = None,
    *,
    schema_checked: bool = False,
) -> BuildConfig:
    """Resolve an already schema-valid configuration (``path`` names it in messages and is where
    ``languages_dir`` is relative to): languages loaded (checked against their schema unless
    ``schema_checked``), overrides merged and checked, sources checked; of the lexicons named
    in ``only`` alone, if given."""
    languages_dir = path.parent / data.get("languages_dir", "languages")
    lexicons = {
        name: _lexicon(name, spec, languages_dir, path, check_files, schema_checked)
        for name, spec in data["lexicons"].items()
        if only is None or name in only
    }
    default = tuple(data.get("default", data["lexicons"]))
    for name in default:
        if name not in data["lexicons"]:
            raise UserError(f"{path}: default: '{name}' is not a lexicon of this file")
    return BuildConfig(path, data.get("version", "0.0.0"), lexicons, default)


def _lexicon(
    name: str,
    spec: dict,
    languages_dir: Path,
    config_path: Path,
    check_files: bool,
    schema_checked: bool,
) -> LexiconSpec:
    try:
        language_file = find_language_file(spec["language"], (languages_dir,))
    except UserError as error:
        raise UserError(f"{config_path}: lexicons/{name}: {error}") from None
    language_data = load_language_data(language_file, schema_checked=schema_checked)
    if language_data["code"] != spec["language"]:
        raise UserError(
            f"{language_file}: code '{language_data['code']}' is not '{spec['language']}'"
        )
    overridden = [key for key in LANGUAGE_OVERRIDES if key in spec]
    for key in overridden:
        if key in MERGED_OVERRIDES:
            language_data[key] = {**(language_data.get(key) or {}), **spec[key]}
        else:
            language_data[key] = spec[key]
    where = f"{config_path}: lexicons/{name}"
    if overridden and not schema_checked:  # the merged language, as its file would be checked
        validate(language_data, "language.schema.yaml", where)
    check_language_data(language_data, where)
    sources = tuple(source_of(s, where) for s in spec["sources"])
    _check_composition(name, sources, spec.get("min_sources", 1), config_path)
    _check_names(name, sources, spec.get("min_name_sources", 1), config_path)
    if check_files:
        for source in sources:
            if not source.path.is_file():
                raise UserError(
                    f"{config_path}: lexicons/{name}: source file {source.path} not found"
                )
    for source in sources:
        if source.refuse_flags and source.format not in ("aspell", "hunspell"):
            raise UserError(
                f"{config_path}: lexicons/{name}: source {source.id}: refuse_flags are for an "
                "aspell or hunspell source"
            )
    refuse_affixes = tuple(spec.get("refuse_affixes", ()))
    for listed in spec.get("refuse_in_lists", ()):
        if listed not in refuse_affixes:
            raise UserError(
                f"{config_path}: lexicons/{name}: refuse_in_lists: {listed!r} is not in "
                "refuse_affixes"
            )
    AffixRefusal.from_config(  # unknown classes and bad patterns are errors now
        language_data.get("affix_classes", {}),
        refuse_affixes,
        (),
        f"{config_path}: lexicons/{name}",
    )
    return LexiconSpec(
        name=name,
        language=Language.from_dict(language_data),
        language_data=language_data,
        language_file=language_file,
        sources=sources,
        reject={**DEFAULT_REJECT, **spec.get("reject", {})},
        reference_dir=Path(spec.get("reference", f"raw/{spec['language']}/reference")),
        min_sources=spec.get("min_sources", 1),
        min_name_sources=spec.get("min_name_sources", 1),
        priority=spec.get("priority", 0),
        refuse_affixes=refuse_affixes,
        refuse_in_lists=tuple(spec.get("refuse_in_lists", ())),
    )


def source_of(entry: dict[str, Any], where: str) -> Source:
    """A source of the configuration, its defaults resolved: a spell-checker list (``CLEANED``)
    of role add or confirm is cleaned, any other list taken whole (its capitals folded too)."""
    role = entry.get("role", "add")
    clean = entry.get("clean", entry["format"] in CLEANED and role in ("add", "confirm"))
    cased = CASE_SENSITIVE[entry["format"]] and (clean or role not in CLEANABLE_ROLES)
    source = Source(
        format=entry["format"],
        path=Path(entry["path"]),
        encoding=entry.get("encoding"),
        case_sensitive=entry.get("case_sensitive", cased),
        role=role,
        name=entry.get("name"),
        tags=tuple(entry.get("tags", ())),
        clean=clean,
        refuse_flags=tuple(entry.get("refuse_flags", ())),
    )
    if "clean" in entry and role not in CLEANABLE_ROLES:
        raise UserError(
            f"{where}: source {source.id}: clean is for sources whose words count "
            f"(roles {', '.join(CLEANABLE_ROLES)}), not {role}"
        )
    return source


def _check_composition(
    name: str, sources: tuple[Source, ...], min_sources: int, config_path: Path
) -> None:
    """What the schema cannot say: unique source names, a source that adds words, a reachable
    ``min_sources``."""
    where = f"{config_path}: lexicons/{name}"
    ids = [source.id for source in sources]
    for index, source_id in enumerate(ids):
        if source_id in ids[:index]:
            raise UserError(f"{where}: two sources are named '{source_id}'; give one a name")
    if not any(source.role in ("add", "trusted", "exact") for source in sources):
        raise UserError(f"{where}: no source adds words (roles add, trusted or exact)")
    counting = sum(source.role in ("add", "trusted", "confirm") for source in sources)
    if min_sources > counting:
        raise UserError(
            f"{where}: min_sources is {min_sources} but only {counting} sources can hold a word"
        )


def _check_names(
    name: str, sources: tuple[Source, ...], min_name_sources: int, config_path: Path
) -> None:
    """``tags`` only on a hunspell ``names`` source; a reachable ``min_name_sources``."""
    where = f"{config_path}: lexicons/{name}"
    for source in sources:
        if source.tags and (source.format != "hunspell" or source.role != "names"):
            raise UserError(
                f"{where}: source {source.id}: tags are for a hunspell source of role names"
            )
    naming = sum(source.role == "names" for source in sources)
    if naming and min_name_sources > naming:
        raise UserError(
            f"{where}: min_name_sources is {min_name_sources} but only {naming} sources name words"
        )


def language_json(spec: LexiconSpec) -> str:
    """The resolved language, as written to build/stage/<lexicon>/language.json (sorted, stable)."""
    return json.dumps(spec.language_data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
