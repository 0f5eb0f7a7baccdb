"""Language files: the shipped ones load; a broken one given by a person is one line; joiners
inside words; letters folding cannot make."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from lexforge.errors import UserError
from lexforge.language import Language, shipped_languages_dir, unreachable_letters
from lexforge.normalize import Normalizer
from lexforge.text import fold_word

SHIPPED = sorted(p.stem for p in shipped_languages_dir().glob("*.yaml"))


def test_the_seven_default_languages_ship_inside_the_package():
    assert set(SHIPPED) >= {"en", "fr", "de", "it", "es", "nl", "pt"}


@pytest.mark.parametrize("code", SHIPPED)
def test_every_shipped_language_is_valid(code):
    language = Language.load(code)
    assert language.code == code and language.alphabet


def test_a_language_is_found_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert Language.load("fr").name == "French"


GOOD = Path(shipped_languages_dir() / "fr.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{bad", "invalid YAML"),
        ("[1, 2]", "is not of type 'object'"),
        (GOOD.replace("code: fr\n", ""), "'code' is a required property"),
        (GOOD.replace("alphabet: ABCDEFGHIJKLMNOPQRSTUVWXYZ", "alphabet: 5"), "alphabet"),
        (GOOD.replace("alphabet: ABCDEFGHIJKLMNOPQRSTUVWXYZ", 'alphabet: ""'), "alphabet"),
        (GOOD.replace("alphabet: ABCDEFGHIJKLMNOPQRSTUVWXYZ", "alphabet: AABC"), "repeats"),
        (GOOD.replace("alphabet: ABCDEFGHIJKLMNOPQRSTUVWXYZ", "alphabet: AB=C"), "'='"),
        (GOOD.replace("length: {min: 2, max: 20}", "length: {min: 5, max: 2}"), "min is greater"),
        (GOOD + "name: Again\n", "duplicate key 'name'"),
    ],
)
def test_a_broken_language_file_is_one_line(tmp_path, text, fragment):
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as error:
        Language.load(path)
    message = str(error.value)
    assert str(path) in message and fragment in message and "\n" not in message


def test_a_binary_or_missing_language_file_is_one_line(tmp_path):
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\x00\xff\xfe garbage")
    for path, fragment in ((binary, "bin.yaml"), (tmp_path / "none.yaml", "not found")):
        with pytest.raises(UserError, match=fragment):
            Language.load(path)


def test_an_unknown_code_lists_the_known_ones():
    with pytest.raises(UserError, match=r"unknown language 'xx' \(known: .*fr"):
        Language.load("xx")


CATALAN = {
    "code": "ca",
    "name": "Catalan",
    "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZÇ",
    "keep": "Ç",
    "length": {"min": 2, "max": 20},
}
# Entries as aspell-ca and the Debian Catalan list write them: middle dot, and the ŀ letter
# (U+0140, which NFKD turns into l + middle dot).
ENTRIES = ["col·lecció", "coŀlecció", "paral·lel", "cel·la", "caça", "l·", "·la", "l··l"]


def write_language(tmp_path, data: dict) -> str:
    path = tmp_path / f"{data['code']}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return str(path)


def test_joiners_join_letters_inside_a_word(tmp_path):
    catalan = Language.load(write_language(tmp_path, {**CATALAN, "joiners": "·"}))
    normalizer = Normalizer(catalan)
    words = [normalizer(entry) for entry in ENTRIES]
    assert words == ["COLLECCIO", "COLLECCIO", "PARALLEL", "CELLA", "CAÇA", None, None, None]
    assert normalizer.rejected == {"alphabet": 3}  # a joiner not between two letters
    assert fold_word("L·L", catalan) == "LL"  # user input (racks, grids) folds the same way


def test_without_joiners_the_middle_dot_rejects_the_entry(tmp_path):
    catalan = Language.load(write_language(tmp_path, CATALAN))
    normalizer = Normalizer(catalan)
    assert [normalizer(entry) for entry in ENTRIES[:4]] == [None] * 4
    assert normalizer.rejected == {"alphabet": 4}


def test_a_letter_folding_cannot_produce_is_refused(tmp_path):
    polish = {
        "code": "pl",
        "name": "Polish",
        "alphabet": "AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ",
        "keep": "ĄĆĘŃÓŚŹŻ",  # Ł forgotten: NFKD leaves it whole, Unidecode makes it L
        "length": {"min": 2, "max": 15},
    }
    path = write_language(tmp_path, polish)
    with pytest.raises(UserError) as error:
        Language.load(path)
    assert str(error.value) == (
        f"{path}: alphabet: folding turns 'Ł' into 'L', so no word can hold it "
        "(list it in keep, or leave it out of the alphabet)"
    )
    assert "\n" not in str(error.value)
    fixed = Language.load(write_language(tmp_path, {**polish, "keep": polish["keep"] + "Ł"}))
    assert fold_word("łódź", fixed) == "ŁÓDŹ"


@pytest.mark.parametrize(
    ("change", "unreachable"),
    [
        ({"alphabet": "ABCÑ"}, [("Ñ", "N")]),  # NFKD decomposes it: keep it
        ({"alphabet": "ABCÑ", "keep": "Ñ"}, []),
        ({"alphabet": "ABCa"}, [("a", "A")]),  # words are uppercased
        ({"alphabet": "ABCŒ"}, [("Œ", "OE")]),
        ({"alphabet": "ABCÞ", "fold": {"Ø": "Þ"}}, []),  # a fold table entry makes it
        ({"alphabet": "ABC·"}, []),  # punctuation folds to itself
    ],
)
def test_unreachable_letters(change, unreachable):
    assert unreachable_letters({**CATALAN, "keep": "", **change}) == unreachable


def test_shipped_languages_have_no_unreachable_letter():
    from lexforge.language import load_language_data, shipped_languages_dir

    for path in sorted(shipped_languages_dir().glob("*.yaml")):
        assert unreachable_letters(load_language_data(path)) == [], path.name
