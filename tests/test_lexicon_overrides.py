"""A lexicon of the build configuration overrides its language's settings (joiners, fold,
classify, scrabble, tile symbols) without a second language file; the result is checked as a
language file would be and is what language.json records."""

from __future__ import annotations

import json

import pytest
import yaml
from build_helpers import ROOT

from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.normalize import Normalizer
from pipeline.config import language_json, load_config


def config_with(tmp_path, **lexicon) -> dict:
    """A configuration of one Catalan lexicon (the repository's language file) with
    ``lexicon``'s settings, resolved."""
    (tmp_path / "languages").mkdir(parents=True)
    (tmp_path / "languages/ca.yaml").write_text(
        (ROOT / "config/languages/ca.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    spec = {"language": "ca", "sources": [{"format": "dict", "path": "x"}], **lexicon}
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({"lexicons": {"x": spec}}, allow_unicode=True), "utf-8")
    return load_config(path, check_files=False).lexicons["x"]


def test_overrides_merge_into_the_language_and_reach_language_json(tmp_path):
    spec = config_with(
        tmp_path,
        joiners="",
        classify={"roman_numerals": False},
        scrabble={"bingo_bonus": 40},
    )
    recorded = json.loads(language_json(spec))
    assert recorded["joiners"] == "" and spec.language.joiners == ""
    assert recorded["classify"]["roman_numerals"] is False
    assert recorded["classify"]["vowels"] == "AEIOU"  # merged key by key
    assert spec.language.bingo_bonus == 40 and spec.language.tile_counts["NY"] == 1
    normalizer = Normalizer(spec.language, case_sensitive=False)
    assert list(normalizer.normalize_all(["col·legi", "xiv"])) == ["XIV"]  # no joiner, no rule
    assert normalizer.rejected == {"alphabet": 1}


def test_a_bad_override_is_one_line_naming_the_lexicon(tmp_path):
    with pytest.raises(UserError, match=r"lexicons/x: classify/max_run: 0 is less than"):
        config_with(tmp_path, classify={"max_run": 0})
    with pytest.raises(UserError, match=r"lexicons/x: tile_symbols: XY: not one of the Scrabble"):
        config_with(tmp_path / "b", tile_symbols={"XY": "Ł"})


def test_letter_rules_and_no_roman_numerals_as_polish_sets_them():
    """Polish (the repository's language file) turns Roman numerals off and the letter rules
    on; the compiled path and the Python one reject the same entries."""
    polish = Language.load(ROOT / "config/languages/pl.yaml")
    entries = ["aa", "uu", "yy", "dłuuuugi", "zzz", "ci", "mi", "li", "mdli", "hm", "kg", "mama",
               "żółw", "szczęście", "aaa"]  # fmt: skip
    fast, slow = (Normalizer(polish, case_sensitive=False) for _ in range(2))
    words = fast.normalize_distinct(entries)
    assert words == set(slow.normalize_all(entries))
    assert fast.rejected == slow.rejected
    assert words == {"CI", "MI", "LI", "MDLI", "HM", "MAMA", "ŻÓŁW", "SZCZĘŚCIE"}
    assert fast.rejected == {"one-letter": 4, "letter-run": 1, "no-vowel": 1, "unit": 1}
