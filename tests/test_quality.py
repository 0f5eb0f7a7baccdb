"""Shape rules, curated lists and the composition of sources (roles, min_sources)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexforge.classify import Classifier
from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.normalize import Normalizer
from lexforge.sources.curation import read_curation
from pipeline.config import Source, load_config
from pipeline.words import NameRule, compose, find_names

EN = Language.load("en")
FR = Language.load("fr")


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("kg", "unit"),  # lower case: only all-capital entries were caught before
        ("KM", "abbreviation"),  # all capitals in a case-sensitive source: caught by case first
        ("khz", "unit"),
        ("kWh", "unit"),
        ("mbar", "unit"),
        ("xiv", "roman-numeral"),
        ("mcmxcix", "roman-numeral"),
        ("bldg", "no-vowel"),
        ("pkt", "no-vowel"),
    ],
)
def test_shape_rules_reject_with_their_reason(entry, reason):
    normalizer = Normalizer(EN)
    assert normalizer(entry) is None
    assert normalizer.rejected == {reason: 1}


@pytest.mark.parametrize(
    "entry", ["hmm", "cwm", "crwths", "nth", "tsktsks", "mix", "xi", "mm", "kbar", "bar", "civil"]
)
def test_words_the_language_file_allows_pass(entry):
    assert Normalizer(EN)(entry) == entry.upper()


def test_the_fast_path_applies_the_rules_too():
    normalizer = Normalizer(EN)
    words = list(normalizer.normalize_all(["cat", "km", "xxiv", "psst", "tsp"]))
    assert words == ["CAT", "PSST"]
    assert normalizer.rejected == {"unit": 1, "roman-numeral": 1, "no-vowel": 1}


@pytest.mark.parametrize("entry", ["AGs", "eBay", "iPhone", "AfD", "KiB", "LaTeX", "CeBIT"])
def test_capitals_after_the_first_letter_make_an_abbreviation(entry):
    # German keeps capitalised entries (its nouns), so these once passed as words: AGS, AFD.
    for language in (Language.load("de"), EN):
        normalizer = Normalizer(language)
        assert list(normalizer.normalize_all([entry])) == []
        assert normalizer.rejected == {"abbreviation": 1}
    assert Normalizer(Language.load("de"), case_sensitive=False)(entry) == entry.upper()


def test_exceptions_are_per_language():
    # DIX is French ("ten") and a Roman numeral (509) in English.
    assert Normalizer(FR)("dix") == "DIX"
    assert Normalizer(EN)("dix") is None


def test_a_language_without_rules_rejects_nothing_by_shape():
    bare = Language(code="xx", name="test", alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert Classifier.for_language(bare) is None
    assert Normalizer(bare)("kg") == "KG"


def test_roman_numerals_are_exactly_the_well_formed_ones():
    """The rule against an independent generator: every numeral of 1..3999 written by
    arithmetic is rejected; letter strings that are no numeral (IIII, VX, IC) are not."""
    rules = Classifier(frozenset(), None, True, False, frozenset())
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
             (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]  # fmt: skip
    for number in range(1, 4000):
        numeral, rest = "", number
        for value, letters in table:
            while rest >= value:
                numeral, rest = numeral + letters, rest - value
        assert rules.reason(numeral) == "roman-numeral", numeral
    for shape in ("IIII", "VX", "IC", "XM", "VV", "LL", "DD", "MMMMM"):
        assert rules.reason(shape) is None, shape


def test_examples_are_the_first_rejected_entries_in_sorted_order():
    normalizer = Normalizer(EN)
    list(normalizer.normalize_all(["xx", "kg", "xiv", "cm", "ii", "vii", "iii", "mmx", "iv", "cl"]))
    assert normalizer.rejected == {"roman-numeral": 7, "unit": 3}  # CL is a unit (centilitre)
    assert normalizer.examples["roman-numeral"] == ["ii", "iii", "iv", "mmx", "vii"]
    assert normalizer.examples["unit"] == ["cl", "cm", "kg"]


def test_a_deny_list_is_not_classified():
    """A deny list names units and abbreviations: they must reach the composition."""
    assert Normalizer(EN, case_sensitive=False, classify=False)("KG") == "KG"


def source(role: str, name: str) -> Source:
    return Source("ods", Path(f"{name}.txt"), None, False, role, name)


def test_compose_by_role():
    sources = (
        source("trusted", "game"),
        source("add", "dict"),
        source("add", "aspell"),
        source("confirm", "hunspell"),
        source("exact", "two"),
        source("deny", "deny"),
    )
    words = [
        {"CAT", "DOG", "QI"},  # trusted: kept whatever the others say
        {"CAT", "EMAIL", "BLOG", "ADJ", "KA"},
        {"EMAIL", "BLOG", "WIKI", "ADJ", "XU"},
        {"EMAIL", "ADJ", "WIKI"},  # BLOG is in two sources but not confirmed
        {"QI", "XU", "ZA"},  # the two-letter words, exactly
        {"ADJ"},
    ]
    kept, removed = compose(sources, words, min_sources=2)
    # WIKI: two sources (aspell, hunspell), confirmed; KA: one source; XU: one source, but the
    # exact two-letter list adds it, as it adds ZA that no other source has.
    assert kept == {"CAT", "DOG", "QI", "EMAIL", "WIKI", "XU", "ZA"}
    assert removed[2]["too-few-sources"] == set()  # XU was removed, then put back: not counted
    assert removed[1] == {
        "too-few-sources": {"KA"},
        "unconfirmed": {"BLOG"},
        "not-in-list": set(),
        "denied": {"ADJ"},
    }
    assert removed[5] == {"denied": {"ADJ"}}


def test_min_sources_counts_confirm_sources():
    sources = (source("add", "a"), source("add", "b"), source("confirm", "c"))
    kept, removed = compose(sources, [{"ONE", "TWO"}, {"TWO"}, {"ONE"}], min_sources=2)
    assert kept == {"ONE"} and removed[0]["unconfirmed"] == {"TWO"}  # two sources, unconfirmed
    kept, removed = compose(sources, [{"ONE", "TWO"}, set(), {"ONE"}], min_sources=2)
    assert kept == {"ONE"} and removed[0]["too-few-sources"] == {"TWO"}


def test_union_is_the_default():
    sources = (source("add", "a"), source("add", "b"))
    kept, removed = compose(sources, [{"ONE"}, {"TWO"}], min_sources=1)
    assert kept == {"ONE", "TWO"} and not any(any(r.values()) for r in removed)


def test_normalizer_tracks_the_words_written_in_lowercase():
    german = Language.load("de")
    normalizer = Normalizer(german, track_case=True)
    words = list(normalizer.normalize_all(["Haus", "haus", "Goethe", "laufen", "Übel", "übel"]))
    assert words == ["HAUS", "HAUS", "GOETHE", "LAUFEN", "UBEL", "UBEL"]
    assert normalizer.lowercase == {"HAUS", "LAUFEN", "UBEL"}  # fast and slow paths alike
    assert Normalizer(german).lowercase == set()  # not tracked unless asked


GERMAN_NAMES = NameRule(2, common_endings=("E", "EN", "ES", "N", "NEN"), name_endings=("S",))


def test_names_need_enough_evidence_and_no_common_noun_form():
    sources = (
        source("add", "dict"),
        source("trusted", "allow"),
        source("names", "en"),
        source("names", "nl"),
    )
    own = {
        "GOETHE", "GOETHES", "MANN", "MANNES", "WELT", "WELTEN", "APRIL", "ODER", "OBAMA",
        "NOVEMBER",
    }  # fmt: skip
    words = [
        own,
        {"APRIL"},  # the allow list: a common noun other languages write as a name
        {"GOETHE", "MANN", "WELTEN", "APRIL", "ODER", "OBAMA", "NOVEMBER"},
        {"GOETHE", "MANN", "WELTEN", "APRIL", "ODER", "OBAMA"},
    ]
    lowercase = {"ODER"}  # the conjunction: a German source writes it in lowercase
    named = find_names(sources, words, set(own), lowercase, GERMAN_NAMES)
    # MANN has MANNES, WELTEN is WELT + EN: nouns. NOVEMBER: one list only. APRIL: trusted.
    # GOETHES goes with GOETHE.
    assert named == {"GOETHE", "GOETHES", "OBAMA"}
    # a name a deny list already removed still takes its genitive with it
    assert find_names(sources, words, own - {"GOETHE"}, lowercase, GERMAN_NAMES) == {
        "GOETHES",
        "OBAMA",
    }
    one_list = NameRule(1, GERMAN_NAMES.common_endings, GERMAN_NAMES.name_endings)
    assert "NOVEMBER" in find_names(sources, words, set(own), lowercase, one_list)


def test_curated_list_reader(tmp_path):
    good = tmp_path / "deny.txt"
    good.write_text("# Source: test\nKG\tunit symbol\n\n# more\nABBR\tabbreviation\n")
    assert list(read_curation(good)) == ["KG", "ABBR"]
    headless = tmp_path / "headless.txt"
    headless.write_text("KG\tunit symbol\n")
    with pytest.raises(UserError, match="line 1: a curated list starts with a comment"):
        list(read_curation(headless))
    spaced = tmp_path / "spaced.txt"
    spaced.write_text("# Source: test\nKG unit symbol\n")
    with pytest.raises(UserError, match="line 2: expected WORD or WORD<TAB>reason"):
        list(read_curation(spaced))


@pytest.mark.parametrize(
    ("lexicon", "message"),
    [
        (
            "sources: [{format: ods, path: a.txt}, {format: ods, path: a.txt}]",
            "two sources are named 'ods:a.txt'; give one a name",
        ),
        (
            "min_sources: 3\n    sources: [{format: ods, path: a.txt}, "
            "{format: ods, path: b.txt, role: deny}]",
            "min_sources is 3 but only 1 sources can hold a word",
        ),
        (
            "sources: [{format: ods, path: a.txt, role: confirm}]",
            "no source adds words (roles add, trusted or exact)",
        ),
        ("sources: [{format: ods, path: a.txt, role: union}]", "sources/0/role: 'union' is not"),
        ("min_sources: 0\n    sources: [{format: ods, path: a.txt}]", "min_sources: 0 is less"),
        (
            "sources: [{format: ods, path: a.txt}, "
            "{format: dict, path: b.txt, role: names, tags: ['po:npr']}]",
            "source dict:b.txt: tags are for a hunspell source of role names",
        ),
        (
            "min_name_sources: 2\n    sources: [{format: ods, path: a.txt}, "
            "{format: dict, path: b.txt, role: names}]",
            "min_name_sources is 2 but only 1 sources name words",
        ),
    ],
)
def test_composition_mistakes_are_one_line(tmp_path, lexicon, message):
    config = tmp_path / "config.yaml"
    config.write_text(f"lexicons:\n  x:\n    language: en\n    {lexicon}\n")
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_config(config, check_files=False)
