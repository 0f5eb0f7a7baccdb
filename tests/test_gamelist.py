"""A game list is taken whole: ``-d LIST`` of a plain format and a pipeline source of role
trusted or exact keep every entry, only folded; the junk rules of spell-checker lists (capitals,
the language's shape rules) apply to dict, aspell and hunspell sources and on request
(``--clean``, ``clean: true``).

Real lists: ENABLE2K (raw/en/enable2k, public domain) holds the vowel-less and Roman-numeral
shaped words BRR, CRWTH, CWM, HM, HMM, MIX, MM, NTH, PFFT, PHPHT, PHT, PSST, SH, SHH, TSK,
TSKTSK. The words of NWL2023, Collins Scrabble Words and L'Officiel du Scrabble that no list
shipped here holds (the official lists are not redistributable) are in two small STAND-IN
lists, tests/fixtures/gamelists/en-stand-in.txt and fr-stand-in.txt: they stand in for those
lists, each entry a word of the list named beside it below.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from build_helpers import ROOT

from lexforge.errors import UserError
from lexforge.language import find_language_file
from lexforge.wordlist import cache_key
from pipeline.config import load_config
from pipeline.words import collect_words

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
ENABLE2K = ROOT / "raw/en/enable2k/enable2k.txt"
LISTS = ROOT / "tests/fixtures/gamelists"
#: Stand-in for NWL2023 (GRR … ZZZ) and Collins Scrabble Words 2019 (CH … ZZZS) words that no
#: shipped list holds, with three ordinary words (AA, CAT, QI, ZA).
EN_STAND_IN = LISTS / "en-stand-in.txt"
NWL = {"GRR", "GRRRL", "HMMM", "MMM", "PST", "PWN", "PWNS", "SHHH", "ZZZ"}
COLLINS = {"CH", "CWTCH", "DI", "DIV", "ST", "TWP", "ZZZS"}
#: Stand-in for L'Officiel du Scrabble words (GRRR, MIX, MMM, VS), with accented words written
#: as a French list may write them (CŒUR, ÉTÉ, ZÈBRE: folded to COEUR, ETE, ZEBRE).
FR_STAND_IN = LISTS / "fr-stand-in.txt"
ODS = {"COEUR", "ETE", "GRRR", "MIX", "MMM", "VS", "ZEBRE"}


def lexforge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LEXFORGE, *args], capture_output=True, text=True, check=True)


def every_word(path: Path, *options: str) -> tuple[set[str], str]:
    """The words ``lexforge pattern '*'`` finds in list ``path``, and what it says on stderr."""
    done = lexforge("pattern", "*", "-d", str(path), *options)
    words = done.stdout.split()
    assert len(words) == len(set(words))
    return set(words), done.stderr


def test_the_stand_in_lists_are_what_this_file_says():
    entries = EN_STAND_IN.read_text(encoding="utf-8").split()
    assert sorted(entries) == sorted(NWL | COLLINS | {"AA", "CAT", "QI", "ZA"})
    assert {w.upper() for w in FR_STAND_IN.read_text(encoding="utf-8").split()} == {
        "CŒUR", "ÉTÉ", "GRRR", "MIX", "MMM", "VS", "ZÈBRE"
    }  # fmt: skip


@pytest.mark.parametrize("language", ["en", "fr"])
def test_enable2k_is_taken_whole(language, tmp_path, monkeypatch):
    """Every ENABLE2K word of 2 to 20 letters (the languages' bounds), vowel-less ones included;
    the 118 longer ones are counted, with the reason, in one line (when the list is compiled:
    a cache of its own, so no other test compiled it before)."""
    monkeypatch.setenv("LEXFORGE_CACHE", str(tmp_path / "cache"))
    entries = ENABLE2K.read_text(encoding="ascii").split()
    words, stderr = every_word(ENABLE2K, "--language", language)
    assert words == {entry.upper() for entry in entries if len(entry) <= 20}
    assert {"BRR", "CRWTH", "CWM", "HM", "MIX", "MM", "NTH", "PHPHT", "SH", "TSKTSK"} <= words
    assert stderr == (
        f"lexforge pattern: {ENABLE2K}: 118 of {len(entries)} entries left out: 118 too-long "
        "(acetylcholinesterases, adrenocorticosteroids, adrenocorticotrophins)\n"
    )


def test_enable2k_cleaned_by_the_french_rules():
    """With --clean, French's shape rules refuse ENABLE2K's words with no vowel that French does
    not write (BRR, PFFT, PSST, HMM are French too) and its units (DEV, HM, KBAR, MM); MIX, an
    ODS word, is an exception of the French rules."""
    whole, _ = every_word(ENABLE2K, "--language", "fr")
    cleaned, stderr = every_word(ENABLE2K, "--language", "fr", "--clean")
    assert whole - cleaned == {
        "CRWTH", "CRWTHS", "CWM", "CWMS", "NTH", "PHPHT", "PHT", "SH", "SHH", "TSK", "TSKS",
        "TSKTSK", "TSKTSKS",  # no vowel
        "DEV", "HM", "KBAR", "MM",  # units: deci-electronvolt, hectometre, kilobar, millimetre
    }  # fmt: skip
    assert cleaned < whole
    assert "13 no-vowel (crwth, crwths, cwm), 4 unit (dev, hm, kbar)" in stderr
    assert "roman-numeral" not in stderr


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_players_list_loses_nothing(language):
    words, stderr = every_word(EN_STAND_IN, "--language", language)
    assert words == NWL | COLLINS | {"AA", "CAT", "QI", "ZA"} and stderr == ""
    words, stderr = every_word(FR_STAND_IN, "--language", language)
    assert words == ODS and stderr == ""


def test_clean_applies_the_junk_rules(tmp_path, monkeypatch):
    """``--clean``: the language's shape rules, as for a spell-checker list. English's own
    exceptions (ZZZ is one of its vowel-less words) stay."""
    monkeypatch.setenv("LEXFORGE_CACHE", str(tmp_path / "cache"))  # compiled here: its line
    words, stderr = every_word(EN_STAND_IN, "--language", "en", "--clean")
    assert words == {"AA", "CAT", "QI", "ZA", "ZZZ"}
    assert stderr == (
        f"lexforge pattern: {EN_STAND_IN}: 15 of 20 entries left out: 11 no-vowel (CWTCH, GRR, "
        "GRRRL), 3 roman-numeral (DI, DIV, MMM), 1 unit (CH)\n"
    )
    words, _ = every_word(FR_STAND_IN, "--language", "fr", "--clean")
    # GRRR: no vowel; MMM: a Roman numeral; MIX and VS too, but exceptions of the French rules
    assert words == {"COEUR", "ETE", "MIX", "VS", "ZEBRE"}
    words, _ = every_word(FR_STAND_IN, "--language", "fr", "--no-clean")
    assert words == ODS


def test_a_spell_checker_list_is_cleaned_unless_asked(tmp_path):
    """A dict list (/usr/share/dict's format) is cleaned: capitals mark names and abbreviations,
    shape rules apply. ``--no-clean`` takes it whole, its capitals folded."""
    path = tmp_path / "words"
    path.write_text("cat\nParis\nNASA\nkg\nhmmm\n", encoding="utf-8")
    words, stderr = every_word(path, "--list-format", "dict")
    assert words == {"CAT"}
    assert "4 of 5 entries left out: 1 abbreviation (NASA), 1 no-vowel (hmmm), " in stderr
    words, _ = every_word(path, "--list-format", "dict", "--no-clean")
    assert words == {"CAT", "PARIS", "NASA", "KG", "HMMM"}


def test_a_freelang_list_is_taken_whole(tmp_path):
    """A FREELANG list is a plain list: its capitals are folded, not read as names."""
    path = tmp_path / "liste.txt"
    path.write_bytes(
        "Mix\r\nVS\r\ngrrr\r\n\u00c9t\u00e9\r\n\u00e9t\u00e9\r\nc\u0153ur".encode("cp1252")
    )
    words, stderr = every_word(path, "--list-format", "freelang", "--language", "fr")
    assert words == {"MIX", "VS", "GRRR", "ETE", "COEUR"} and stderr == ""
    words, _ = every_word(path, "--list-format", "freelang", "--language", "fr", "--clean")
    assert words == {"ETE", "COEUR"}  # Mix, Été names, VS an abbreviation, GRRR no vowel


def test_what_no_tile_spells_is_counted_by_reason(tmp_path, monkeypatch):
    """Taken whole, an entry is still refused when the language cannot spell it: a character
    outside its alphabet (apostrophe, hyphen, digit, space, a letter that does not fold into
    it) or a length outside its bounds. Each refusal is counted by reason on stderr."""
    monkeypatch.setenv("LEXFORGE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "list.txt"
    path.write_text("HMMM\nE-MAIL\nL'EAU\nB2B\nAD HOC\nΛΑΜΔΑ\nX\n", encoding="utf-8")
    words, stderr = every_word(path)
    assert words == {"HMMM"}
    assert stderr == (
        f"lexforge pattern: {path}: 6 of 7 entries left out: 1 alphabet (ΛΑΜΔΑ), 1 apostrophe "
        "(L'EAU), 1 digit (B2B), 1 hyphen (E-MAIL), 1 space (AD HOC), 1 too-short (X)\n"
    )
    (manifest,) = (tmp_path / "cache").glob("wordlist-*/manifest.json")
    (source,) = json.loads(manifest.read_text(encoding="utf-8"))["sources"]
    assert source["clean"] is False and source["read"] == 7
    assert source["rejected"] == dict.fromkeys(
        ["alphabet", "apostrophe", "digit", "hyphen", "space", "too-short"], 1
    )


def test_the_cache_keeps_whole_and_cleaned_apart(tmp_path, monkeypatch):
    """The cleaning is part of the cache key: a list compiled under one rule is never served
    for the other (nor an entry of an older cache format)."""
    monkeypatch.setenv("LEXFORGE_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "list.txt"
    path.write_text("cat\nhmmm\n", encoding="utf-8")
    assert every_word(path)[0] == {"CAT", "HMMM"}
    assert every_word(path, "--clean")[0] == {"CAT"}
    assert every_word(path)[0] == {"CAT", "HMMM"}
    assert len(list((tmp_path / "cache").glob("wordlist-*"))) == 2
    language = find_language_file("en")
    assert cache_key(path, "ods", language, True) != cache_key(path, "ods", language, False)


# --- the pipeline -----------------------------------------------------------------------------


def write_config(tmp_path: Path, sources: str) -> Path:
    config = tmp_path / "config.yaml"
    config.write_text(f"lexicons:\n  x:\n    language: en\n    sources:\n{sources}")
    return config


def test_the_default_configuration_takes_its_game_lists_whole():
    config = load_config(ROOT / "config/config.yaml", check_files=False)
    for name, spec in config.lexicons.items():
        for source in spec.sources:
            spell_checker = source.format in ("dict", "aspell", "hunspell")
            assert source.clean == (spell_checker and source.role in ("add", "confirm")), (
                name,
                source.id,
            )
    en = {source.id: source for source in config.lexicons["en"].sources}
    assert not en["enable2k"].clean and not en["two-letter"].clean
    assert not en["enable2k"].case_sensitive


def test_trusted_and_exact_sources_keep_every_entry(tmp_path):
    """A trusted list (the stand-in NWL and Collins words) and an exact one keep their words;
    a dict source of role add is cleaned (kg a unit, hmm no vowel in its own shape); with
    ``clean: true`` the trusted list is cleaned as well."""
    (tmp_path / "two.txt").write_text("CH\nDI\nST\nQI\n", encoding="utf-8")
    (tmp_path / "dict.txt").write_text("cat\nkg\ngrrr\nNASA\n", encoding="utf-8")
    sources = (
        f"      - {{format: ods, path: {EN_STAND_IN}, name: game, role: trusted}}\n"
        f"      - {{format: ods, path: {tmp_path / 'two.txt'}, name: two, role: exact}}\n"
        f"      - {{format: dict, path: {tmp_path / 'dict.txt'}, name: dict}}\n"
    )
    spec = load_config(write_config(tmp_path, sources)).lexicons["x"]
    words, _, stats, _ = collect_words(spec)
    two_letters = {"CH", "DI", "ST", "QI"}
    expected = {w for w in NWL | COLLINS if len(w) != 2} | two_letters | {"CAT"}
    assert set(words) == expected
    game, two, plain = stats
    assert (game["clean"], two["clean"], plain["clean"]) == (False, False, True)
    assert game["kept"] == game["read"] == 20 and two["kept"] == 4
    assert plain["rejected"]["unit"] == 1 and plain["rejected"]["no-vowel"] == 1
    assert plain["rejected"]["abbreviation"] == 1

    cleaned = sources.replace("role: trusted}", "role: trusted, clean: true}")
    spec = load_config(write_config(tmp_path, cleaned)).lexicons["x"]
    words, _, stats, _ = collect_words(spec)
    assert set(words) == {"CAT", "ZZZ"} | two_letters  # AA, ZA: not in the exact list
    assert stats[0]["clean"] and sum(stats[0]["rejected"].values()) == 15


def test_clean_is_only_for_sources_whose_words_count(tmp_path):
    sources = (
        "      - {format: ods, path: a.txt}\n"
        "      - {format: ods, path: deny.txt, role: deny, clean: true}\n"
    )
    with pytest.raises(UserError, match=r"source ods:deny.txt: clean is for sources whose"):
        load_config(write_config(tmp_path, sources), check_files=False)


def test_check_finds_a_whole_lists_words(tmp_path):
    """``lexforge check`` looks a word up before the shape rules: a taken-whole list's HMMM is
    found; a word the list lacks that a rule refuses is rejected for that rule."""
    done = lexforge("check", "hmmm", "Cwtch", "zzzzzz", "-d", str(EN_STAND_IN))
    lines = done.stdout.splitlines()
    assert lines[0].startswith("hmmm\tHMMM\tin ") and lines[1].startswith("Cwtch\tCWTCH\tin ")
    assert lines[2] == "zzzzzz\trejected: no-vowel"
