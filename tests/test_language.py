"""Language files as a new user writes them: joiners inside words, letters folding cannot make."""

from __future__ import annotations

import pytest
import yaml

from lexforge.errors import UserError
from lexforge.language import Language, unreachable_letters
from lexforge.normalize import Normalizer
from lexforge.text import fold_word

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
