"""A language as data: alphabet, normalization bounds and game tables.

The default languages ship inside the package (``lexforge/languages/<code>.yaml``, read through
importlib.resources); a build can add its own (``config/languages/<code>.yaml``), and a
built lexicon carries its resolved language as ``language.json``. YAML files are validated
against ``lexforge/schema/language.schema.yaml`` before use; a mistake is one line.
"""

from __future__ import annotations

import json
import re
from functools import cache, cached_property
from pathlib import Path

from lexforge.errors import UserError, excerpt
from lexforge.text import fold_word

TYPE_CHECKING = False  # typing's constant, without importing typing (a faster start)
if TYPE_CHECKING:
    from typing import Any

#: Where a repository checkout keeps languages it adds; looked in before the shipped ones.
LOCAL_LANGUAGES = Path("config/languages")
#: The anagram index writes KEY=WORD lines: these characters cannot be letters.
RESERVED_CHARACTERS = "=\n\t"


def shipped_languages_dir() -> Path:
    """The package's own language files."""
    from importlib import resources  # not imported at start: a built lexicon never needs it

    return Path(str(resources.files("lexforge") / "languages"))


def find_language_file(code: str, extra_dirs: tuple[Path, ...] = (LOCAL_LANGUAGES,)) -> Path:
    """``<code>.yaml`` from ``extra_dirs`` first, then the shipped languages; UserError
    listing the known codes when there is none."""
    folders = (*extra_dirs, shipped_languages_dir())
    for folder in folders:
        candidate = folder / f"{code}.yaml"
        if candidate.is_file():
            return candidate
    known = sorted({p.stem for folder in folders if folder.is_dir() for p in folder.glob("*.yaml")})
    raise UserError(f"unknown language '{excerpt(code)}' (known: {', '.join(known)})")


def read_yaml(path: Path) -> Any:
    """A YAML document; UserError naming the file and line on any problem (duplicate keys too)."""
    import yaml  # only for YAML files, never for a built lexicon

    class StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when built in
        pass

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict:
        keys = [loader.construct_object(key) for key, _ in node.value]
        for index, key in enumerate(keys):
            if key in keys[:index]:
                line = node.value[index][0].start_mark.line + 1
                raise UserError(f"{path}: line {line}: duplicate key '{excerpt(str(key))}'")
        return loader.construct_mapping(node)

    StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except (OSError, ValueError) as error:  # ValueError: undecodable text or a NUL in the name
        raise UserError(f"{path}: cannot read ({excerpt(str(error))})") from None
    try:
        return yaml.load(text, Loader=StrictLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(error, "problem", None) or error
        raise UserError(f"{path}: invalid YAML{where}: {excerpt(str(problem))}") from None


def trusted_yaml(text: str) -> Any:
    """A YAML document the project ships (a schema), parsed by libyaml when PyYAML has it: ten
    times faster than ``yaml.safe_load``'s pure-Python parser, which cost every build step
    0.15 s for the two schemas."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@cache
def schema(name: str) -> dict[str, Any]:
    """One of the package's JSON schemas (``lexforge/schema/<name>``)."""
    from importlib import resources

    return trusted_yaml((resources.files("lexforge") / "schema" / name).read_text("utf-8"))


def validate(document: Any, schema_name: str, path: Path | str) -> None:
    """Check ``document`` against a schema; UserError naming the file and key of the first
    mistake."""
    import jsonschema  # only for YAML files given by a person, never for a built lexicon

    validator = jsonschema.Draft202012Validator(schema(schema_name))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise UserError(f"{path}: {where}: {schema_message(error)}")


def schema_message(error: Any) -> str:
    """A jsonschema error's message, short: the offending value it begins with (a long list,
    a whole mapping) elided, so the reason after it (``is too long``) still shows."""
    quoted = repr(error.instance)
    if error.message.startswith(quoted):
        return excerpt(quoted) + excerpt(error.message[len(quoted) :], 80)
    return excerpt(error.message)


def check_language_data(data: dict[str, Any], path: Path | str) -> None:
    """What the schema cannot say: no repeated or reserved letter, length bounds in order."""
    alphabet = data["alphabet"]
    if len(set(alphabet)) != len(alphabet):
        raise UserError(f"{path}: alphabet repeats a letter")
    reserved = sorted(set(alphabet) & set(RESERVED_CHARACTERS + " "))
    if reserved:
        raise UserError(f"{path}: alphabet: {reserved[0]!r} cannot be a letter")
    if data["length"]["min"] > data["length"]["max"]:
        raise UserError(f"{path}: length: min is greater than max")
    check_tile_symbols(data, path)
    for letter, folded in unreachable_letters(data):
        result = f"into {folded!r}" if folded else "into nothing"
        raise UserError(
            f"{path}: alphabet: folding turns {letter!r} {result}, so no word can hold it "
            "(list it in keep, or leave it out of the alphabet)"
        )


def check_tile_symbols(data: dict[str, Any], path: Path | str) -> None:
    """Each multi-letter tile a tile of the set as words spell it (folded: Catalan L·L is LL),
    each symbol a distinct uppercase letter with a lowercase form, outside the alphabet."""
    symbols = data.get("tile_symbols") or {}
    language = Language.from_dict({**data, "tile_symbols": {}})
    tiles = {fold_word(tile, language) for tile in language.tile_counts}
    alphabet = data["alphabet"]
    for tile, symbol in symbols.items():
        where = f"{path}: tile_symbols: {excerpt(tile)}"
        if tile not in tiles and tile not in language.tile_counts:
            raise UserError(f"{where}: not one of the Scrabble tiles (scrabble.tiles, folded)")
        if not set(tile) <= set(alphabet + language.joiners):
            raise UserError(f"{where}: spelled with letters outside the alphabet")
        if not (symbol.isupper() and symbol.lower().upper() == symbol != symbol.lower()):
            raise UserError(f"{where}: {symbol!r} is not an uppercase letter with a lowercase form")
        if symbol in alphabet or symbol in RESERVED_CHARACTERS:
            raise UserError(f"{where}: {symbol!r} is already a letter of the alphabet")
    if len(set(symbols.values())) != len(symbols):
        raise UserError(f"{path}: tile_symbols: two tiles share a symbol")


def unreachable_letters(data: dict[str, Any]) -> list[tuple[str, str]]:
    """Alphabet letters the language's own folding never produces, each with what it folds to:
    a letter that does not fold to itself (``Ł`` without ``keep`` folds to ``L``) and is no
    ``fold`` replacement cannot be in a word."""
    language = Language.from_dict(data)
    replacements = "".join(language.fold.values())
    return [
        (letter, folded)
        for letter in data["alphabet"]
        if (folded := fold_word(letter, language)) != letter and letter not in replacements
    ]


def load_language_data(path: Path, *, schema_checked: bool = False) -> dict[str, Any]:
    """A language YAML file, validated (schema, unless the caller knows it ``schema_checked``,
    and ``check_language_data``)."""
    data = read_yaml(path)
    if not schema_checked:
        validate(data, "language.schema.yaml", path)
    check_language_data(data, path)
    return data


class Language:
    """A language's alphabet, normalization bounds and game tables (read-only).

    A plain class rather than a frozen dataclass: importing ``dataclasses`` (and ``inspect``
    with it) took 7–9 ms of every one-shot query."""

    code: str
    name: str
    alphabet: str
    min_length: int
    max_length: int
    keep: str
    fold: dict[str, str]
    joiners: str
    proper_nouns_by_case: bool
    tile_counts: dict[str, int]
    tile_values: dict[str, int]  # tile symbols' values too
    blanks: int
    rack_size: int
    bingo_bonus: int
    ruzzle_values: dict[str, int]
    dice: dict[str, list[list[str]]]
    classify: dict[str, Any]
    #: multi-letter tile (``CH``) → the one letter standing for it in words (``Ç``); the
    #: symbols end the alphabet
    tile_symbols: dict[str, str]

    def __init__(
        self,
        code: str,
        name: str,
        alphabet: str,
        min_length: int = 2,
        max_length: int = 20,
        keep: str = "",
        fold: dict[str, str] | None = None,
        joiners: str = "",
        proper_nouns_by_case: bool = True,
        tile_counts: dict[str, int] | None = None,
        tile_values: dict[str, int] | None = None,
        blanks: int = 0,
        rack_size: int = 7,
        bingo_bonus: int = 50,
        ruzzle_values: dict[str, int] | None = None,
        dice: dict[str, list[list[str]]] | None = None,
        classify: dict[str, Any] | None = None,
        tile_symbols: dict[str, str] | None = None,
    ) -> None:
        self.__dict__.update(
            code=code,
            name=name,
            alphabet=alphabet,
            min_length=min_length,
            max_length=max_length,
            keep=keep,
            fold=fold or {},
            joiners=joiners,
            proper_nouns_by_case=proper_nouns_by_case,
            tile_counts=tile_counts or {},
            tile_values=tile_values or {},
            blanks=blanks,
            rack_size=rack_size,
            bingo_bonus=bingo_bonus,
            ruzzle_values=ruzzle_values or {},
            dice=dice or {},
            classify=classify or {},
            tile_symbols=tile_symbols or {},
        )

    def fields(self) -> dict[str, Any]:
        """The constructor's arguments that make this language."""
        return {name: self.__dict__[name] for name in Language.__annotations__}

    def replace(self, **changes: Any) -> Language:
        """A copy of this language with some fields changed (as ``dataclasses.replace``)."""
        return Language(**(self.fields() | changes))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Language is read-only: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Language) and self.fields() == other.fields()

    __hash__ = None  # type: ignore[assignment]  # equal languages may differ in identity

    def __repr__(self) -> str:
        return f"Language({', '.join(f'{k}={v!r}' for k, v in self.fields().items())})"

    @cached_property
    def symbols(self) -> str:
        """The multi-letter tiles' symbols (uppercase)."""
        return "".join(self.tile_symbols.values())

    @cached_property
    def joined_tiles(self) -> tuple[tuple[str, str], ...]:
        """The multi-letter tiles spelt with a joiner (Catalan ``L·L``), each with its symbol:
        folding turns them into the symbol, where it drops other joiners."""
        return tuple(
            (tile, symbol)
            for tile, symbol in self.tile_symbols.items()
            if any(joiner in tile for joiner in self.joiners)
        )

    def letter_count(self, word: str) -> int:
        """The letters of a folded word, a tile spelt with a joiner counting its letters (the
        symbol of Catalan L·L two): what the length bounds see."""
        count = len(word)
        for spelling, symbol in self.joined_tiles:
            if symbol in word:
                extra = sum(char not in self.joiners for char in spelling) - 1
                count += extra * word.count(symbol)
        return count

    @cached_property
    def untiled(self) -> frozenset[str]:
        """Letters no tile can play, where words are stored as tiles (``tile_symbols``): letters
        of the alphabet with no tile of their own (Catalan Y, only in the NY tile; Q, only in
        QU). Empty without tile symbols or tiles (a Boggle lexicon spells every letter)."""
        if not (self.tile_symbols and self.tile_counts):
            return frozenset()
        plain = self.replace(tile_symbols={})
        tiles = {fold_word(tile, plain) for tile in self.tile_counts}
        return frozenset(self.alphabet) - tiles - set(self.symbols)

    def tile_symbol(self, tile: str) -> str | None:
        """The symbol standing for ``tile`` of ``scrabble.tiles`` (as the set writes it, or
        folded: L·L or LL), None for a one-letter tile or one without a symbol."""
        symbols = self.tile_symbols
        return symbols.get(tile) or symbols.get(fold_word(tile, self.replace(tile_symbols={})))

    @cached_property
    def _spellings(self) -> dict[str, str]:
        """Symbol → spelling, both cases (``ç`` → ``ch``: a blank standing for CH)."""
        upper = {symbol: tile for tile, symbol in self.tile_symbols.items()}
        return upper | {symbol.lower(): tile.lower() for symbol, tile in upper.items()}

    @cached_property
    def _symbols(self) -> dict[str, str]:
        """Spelling → symbol, both cases (``ch`` → ``ç``)."""
        return {tile: symbol for symbol, tile in self._spellings.items()}

    @cached_property
    def _tile_pattern(self) -> re.Pattern[str]:
        """``[CH]``-style tiles, then the spellings longest first (so matching is greedy)."""
        spellings = sorted(self._spellings.values(), key=lambda t: (-len(t), t))
        return re.compile("|".join([r"\[[^\[\]]*\]", *map(re.escape, spellings)]))

    def tokenize(self, text: str, *, spelled: bool = True) -> str:
        """``text`` with each multi-letter tile as its symbol: a bracketed tile (``[CH]``, a
        blank ``[ch]``) and, when ``spelled``, every spelling of one (greedily, left to right,
        longest tile first: a word's CH is always the CH tile, as in Spanish Scrabble). Racks
        are read with ``spelled=False``: there C and H are two tiles. UserError on an unknown
        bracketed tile."""
        if "[" not in text and not (spelled and self.tile_symbols):
            return text
        symbols = self._symbols

        def symbol(found: re.Match[str]) -> str:
            token = found[0]
            if not token.startswith("["):
                return symbols[token] if spelled else token
            if token[1:-1] in symbols:
                return symbols[token[1:-1]]
            if token[1:-1] in self._spellings:  # folded already: [L·L] is [Ŀ]
                return token[1:-1]
            known = " ".join(f"[{tile}]" for tile in self.tile_symbols) or "none"
            article = "an" if self.name[:1] in "AEIOU" else "a"
            raise UserError(
                f"{excerpt(token)} is not {article} {self.name} tile "
                f"(tiles of several letters: {known})"
            )

        return self._tile_pattern.sub(symbol, text)

    def spell(self, text: str, *, bracket: bool = False) -> str:
        """``text`` with each tile symbol spelled (``Ç`` → ``CH``, a blank's ``ç`` → ``ch``);
        ``bracket`` for tiles not in a word (racks, exchanges, board squares): ``[CH]``."""
        if not self.tile_symbols:
            return text
        if bracket:
            spelled = self._spellings
            return "".join(f"[{spelled[c]}]" if c in spelled else c for c in text)
        for symbol, tile in self._spellings.items():  # a scan each: 10× str.translate's speed
            text = text.replace(symbol, tile)  # (no spelling holds a symbol)
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Language:
        """Build from the language YAML/JSON document (see config/schema/language.schema.yaml)."""
        scrabble = data.get("scrabble") or {}
        tiles = scrabble.get("tiles") or {}
        dice_sets = (data.get("boggle") or {}).get("dice") or {}
        symbols = dict(data.get("tile_symbols") or {})
        language = cls(
            code=data["code"],
            name=data.get("name", data["code"]),
            alphabet=data.get("alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "".join(symbols.values()),
            min_length=data.get("length", {}).get("min", 2),
            max_length=data.get("length", {}).get("max", 20),
            keep=data.get("keep", ""),
            fold=dict(data.get("fold") or {}),
            joiners=data.get("joiners", ""),
            proper_nouns_by_case=data.get("proper_nouns_by_case", True),
            tile_counts={letter: count for letter, (count, _) in tiles.items()},
            tile_values={letter: value for letter, (_, value) in tiles.items()},
            blanks=scrabble.get("blanks", 0),
            rack_size=scrabble.get("rack_size", 7),
            bingo_bonus=scrabble.get("bingo_bonus", 50),
            ruzzle_values=dict((data.get("ruzzle") or {}).get("values") or {}),
            dice={name: [die.split() for die in spec["dice"]] for name, spec in dice_sets.items()},
            classify=dict(data.get("classify") or {}),
            tile_symbols=symbols,
        )
        if not symbols:
            return language
        values = {language.tile_symbol(tile): v for tile, v in language.tile_values.items()}
        values.pop(None, None)  # the tiles without a symbol
        ruzzle = language.ruzzle_values  # a tile's cell scores its letters, as a Qu die does
        cells = {
            symbol: sum(ruzzle[letter] for letter in letters)
            for tile, symbol in symbols.items()
            if (letters := [c for c in tile if c not in language.joiners])
            and all(letter in ruzzle for letter in letters)
        }
        return language.replace(
            tile_values=language.tile_values | values, ruzzle_values=cells | ruzzle
        )

    @classmethod
    def load(cls, spec: str | Path) -> Language:
        """A language a person names: a code (``config/languages/<code>.yaml``, else the shipped
        one) or a YAML/JSON file, validated against the schema."""
        path = Path(spec)
        if not path.suffix:
            path = find_language_file(str(spec))
        elif not path.is_file():
            raise UserError(f"{path}: language file not found")
        return cls.from_dict(load_language_data(path))

    @classmethod
    def from_lexicon(cls, path: Path) -> Language:
        """A built lexicon's ``language.json`` (validated when the pipeline wrote it: no schema
        check, so a query imports no jsonschema); a damaged file is one line."""
        try:
            return cls.from_dict(json.loads(path.read_bytes()))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise UserError(
                f"{path}: damaged language file ({excerpt(str(error))}); "
                "check the lexicon with: lexforge verify"
            ) from None
