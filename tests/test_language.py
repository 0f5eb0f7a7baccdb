"""Language files: the shipped ones load; a broken one given by a person is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexforge.errors import UserError
from lexforge.language import Language, shipped_languages_dir

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
