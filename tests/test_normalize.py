"""Normalization edge cases: NFKD, ß, ligatures, combining sequences, rejections by reason."""

import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexforge.language import Language
from lexforge.normalize import Normalizer
from lexforge.reasons import CHARACTER_REASONS, DEFAULT_REJECT, LISTED_REASONS
from lexforge.text import fold_word

ROOT = Path(__file__).resolve().parent.parent
FR = Language.load("fr")
DE = Language.load("de")
ES = Language.load("es")


@pytest.mark.parametrize(
    ("entry", "word"),
    [
        ("cœur", "COEUR"),  # œ: NFKD leaves it whole, folded to OE
        ("Cæsar"[1:], "AESAR"),  # æ → AE
        ("smørrebrød", "SMORREBROD"),  # ø → O
        ("łódź", "LODZ"),  # ł → L
        ("þorn", "THORN"),  # þ → TH
        ("ﬁnal", "FINAL"),  # ﬁ ligature: NFKD compatibility decomposition
        ("éléphant", "ELEPHANT"),
        ("e\u0301le\u0300ve", "ELEVE"),  # combining sequences
        ("naïveté", "NAIVETE"),
        ("ñandú", "NANDU"),
        ("ça", "CA"),
    ],
)
def test_folding(entry, word):
    assert Normalizer(FR)(entry) == word


def test_sharp_s_uppercases_to_ss():
    assert Normalizer(DE)("straße") == "STRASSE"
    assert fold_word("Fuß", DE) == "FUSS"


def test_german_nouns_are_not_proper_nouns_by_case():
    normalizer = Normalizer(DE)
    assert normalizer("Haus") == "HAUS"
    assert normalizer("ARD") is None and normalizer.rejected["abbreviation"] == 1


def test_keep_leaves_a_letter_whole():
    spanish_scrabble = ES.replace(alphabet=ES.alphabet + "Ñ", keep="Ñ")
    assert Normalizer(spanish_scrabble)("ñandú") == "ÑANDU"
    assert Normalizer(spanish_scrabble)("niño") == "NIÑO"
    assert Normalizer(ES)("niño") == "NINO"


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("aujourd'hui", "apostrophe"),
        ("l’eau", "apostrophe"),
        ("aardvark's", "apostrophe"),
        ("porte-monnaie", "hyphen"),
        ("ice cream", "space"),
        ("etc.", "dot"),
        ("mp3", "digit"),
        ("Paris", "proper-noun"),
        ("NASA", "abbreviation"),
        ("a", "too-short"),
        ("anticonstitutionnellements", "too-long"),
        ("日本", "alphabet"),
        ("αβγ", "alphabet"),
    ],
)
def test_rejections_are_counted_by_reason(entry, reason):
    normalizer = Normalizer(FR)
    assert normalizer(entry) is None
    assert normalizer.rejected == {reason: 1}


def test_case_insensitive_source_keeps_capitalised_words():
    assert Normalizer(FR, case_sensitive=False)("Paris") == "PARIS"
    assert Normalizer(FR, case_sensitive=False)("ABACA") == "ABACA"


def test_rules_are_configurable():
    normalizer = Normalizer(FR, reject={**DEFAULT_REJECT, "hyphen": False, "proper_nouns": False})
    assert normalizer("porte-monnaie") == "PORTEMONNAIE"
    assert normalizer("Paris") == "PARIS"
    assert normalizer("aujourd'hui") is None


def test_reject_chars_feed_the_aspell_pruning():
    chars = Normalizer(FR).reject_chars()
    assert {"'", "-", " ", ".", "0"} <= chars
    relaxed = Normalizer(FR, reject={**DEFAULT_REJECT, "apostrophe": False}).reject_chars()
    assert "'" not in relaxed and "-" in relaxed


def test_pruned_forms_count_as_read_and_rejected_under_the_first_reason():
    normalizer = Normalizer(FR)
    normalizer.count_pruned(Counter({frozenset("'"): 5, frozenset("-"): 2, frozenset("'-"): 3}))
    assert normalizer.read == 10
    assert normalizer.rejected == {"apostrophe": 8, "hyphen": 2}
    assert Normalizer(FR)("l'arc-en-ciel") is None  # the same precedence as for read entries


def test_aspell_source_statistics_include_pruned_forms():
    from pipeline.config import load_config
    from pipeline.words import collect_words

    spec = load_config(ROOT / "config/config.yaml").lexicons["pt"]
    words, per_source, stats, _ = collect_words(
        dataclasses.replace(spec, sources=spec.sources[1:2])
    )
    (aspell,) = stats
    assert aspell["read"] == 439_461  # every form aspell expands, duplicates included
    assert aspell["read"] == aspell["kept"] + sum(aspell["rejected"].values())
    assert aspell["rejected"]["hyphen"] >= 20
    assert len(words) == len(per_source[0]) == aspell["words"]


def test_a_lexicon_takes_at_most_64_sources(tmp_path):
    """A word's sources are the bits of a 64-bit mask: a 65th source is refused in one line
    that names the reason."""
    from lexforge.errors import UserError
    from pipeline.config import load_config

    sources = "".join(f"      - {{format: ods, path: list{i}.txt}}\n" for i in range(65))
    config = tmp_path / "config.yaml"
    config.write_text(f"lexicons:\n  en:\n    language: en\n    sources:\n{sources}")
    with pytest.raises(UserError, match=r"lexicons/en/sources: .* is too long$") as error:
        load_config(config, check_files=False)
    assert "\n" not in str(error.value) and len(str(error.value)) < 200


@pytest.mark.parametrize(
    ("entry", "folded"),
    [("äpfel", "ÄPFEL"), ("Über", "ÜBER"), ("café", "CAFE"), ("straße", "STRASSE"),
     ("a\u0308rger", "ÄRGER"), ("Œuvre", "OEUVRE"), ("ÅNGSTRÖM", "ANGSTRÖM")],
)  # fmt: skip
def test_kept_letters_stay_whole_and_the_rest_folds(entry, folded):
    """de-scrabble keeps Ä Ö Ü (composed or not); every other letter folds as in de."""
    language = Language.load("de").replace(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ", keep="ÄÖÜ")
    assert fold_word(entry, language) == folded


def _outcome(normalizer: Normalizer, words: set[str]) -> tuple:
    return words, normalizer.rejected, normalizer.examples, normalizer.read, normalizer.lowercase


def _reference(language: Language, entries: list[str], **options) -> tuple:
    """What ``__call__`` gives entry by entry: the definition the compiled plain path meets."""
    normalizer = Normalizer(language, track_case=True, **options)
    words = set()
    for entry in entries:
        normalizer.read += 1
        word = normalizer(entry)
        if word is not None:
            words.add(word)
            if entry[:1].islower():
                normalizer.lowercase.add(word)
    return _outcome(normalizer, words)


def _distinct(language: Language, entries: list[str], **options) -> tuple:
    normalizer = Normalizer(language, track_case=True, **options)
    return _outcome(normalizer, normalizer.normalize_distinct(entries))


def _lexicon_spec(name: str):
    from pipeline.config import load_config

    return load_config(ROOT / "config/config.yaml", only=(name,)).lexicons[name]


@pytest.mark.parametrize("lexicon", ["en", "fr", "it", "de-scrabble", "es-scrabble"])
def test_the_compiled_plain_path_equals_normalizing_entry_by_entry(lexicon):
    """On the first 30,000 entries of each source of a default lexicon (English units and
    vowelless words, French accents, German kept letters, capitalised nouns and names sources,
    Spanish tiles): the same words, rejection counts, examples, entries read and lowercase
    words."""
    from itertools import islice

    from lexforge.sources.hunspell import read_hunspell_forms
    from lexforge.sources.read import read_entries

    spec = _lexicon_spec(lexicon)
    for source in spec.sources:
        names = source.role == "names"
        options = {  # as the words step sets them
            "case_sensitive": source.case_sensitive or names,
            "reject": {**spec.reject, "proper_nouns": False} if names else spec.reject,
            "classify": source.clean,
        }
        if source.tags:
            forms = read_hunspell_forms(source.path, frozenset(source.tags))
            entries = [form for form, _ in islice(forms, 30_000)]
        else:
            chars = Normalizer(spec.language, **options).reject_chars()
            entries = list(
                islice(read_entries(source.format, source.path, source.encoding, chars), 30_000)
            )
        assert _distinct(spec.language, entries, **options) == _reference(
            spec.language, entries, **options
        ), source.path


_LANGUAGES = {name: _lexicon_spec(name).language for name in ("en", "de-scrabble", "es-scrabble")}
# Units (KM), Roman numerals (XIV), vowelless words, tiles (CH, LL, RR), letters kept (Ñ, Ä),
# folded (é, ß, Œ, ª) or outside the table (Ω), a titlecase letter (ǅ), rejected characters
# (ʼ, an apostrophe that str.isalpha counts as a letter, is left to the alphabet check).
ENTRY_CHARACTERS = "abcehilmnorstuvxyzCIKMLVXÇéñÑäÄßŒªǅΩ'’ʼ-. 1"


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.text(ENTRY_CHARACTERS, max_size=7), max_size=40),
    st.sampled_from(sorted(_LANGUAGES)),
    st.booleans(),
    st.booleans(),
    st.sets(st.sampled_from(sorted(CHARACTER_REASONS))),
    st.sampled_from([None, 4]),
)
def test_the_compiled_plain_path_on_random_entries(
    entries, lexicon, case_sensitive, names, kept, longest
):
    """Random entries, lowercase, capitalised or neither, with proper nouns rejected by their
    capital (English) or not (German, a names source), some character classes not rejecting
    (their characters removed instead), and words too long for a language of 4 letters at most."""
    language = _LANGUAGES[lexicon]
    if longest is not None:
        language = language.replace(max_length=longest)
    options = {
        "case_sensitive": case_sensitive,
        "reject": {**DEFAULT_REJECT, "proper_nouns": not names, **dict.fromkeys(kept, False)},
    }
    assert _distinct(language, entries, **options) == _reference(language, entries, **options)


@pytest.mark.parametrize("lexicon", sorted(_LANGUAGES))
def test_no_two_letters_of_the_fold_table_compose(lexicon):
    """The compiled path folds a word character by character: right only if no two of the
    letters it folds combine into one under NFC (as a letter and a combining mark would)."""
    import unicodedata

    from lexforge.normalize import latin_tables

    _, folds = latin_tables(_LANGUAGES[lexicon])
    letters = [chr(code) for code in range(len(folds) // 4) if folds[4 * code]]
    assert len(letters) > 200  # ASCII and Latin-1 letters, Latin Extended-A and -B
    for first in letters:
        for second in letters:
            assert unicodedata.normalize("NFC", first + second) == first + second


def test_a_word_of_uncased_letters_is_neither_lowercase_nor_capitalised():
    """ǀ (a click letter) has no case: ǀa is lowercase, ǀ is not, and Aǀ is all capitals (an
    abbreviation), as ``str.islower`` and ``str.isupper`` say; a language folding ǀ to T
    lets the compiled path meet such words."""
    language = Language.load("en").replace(fold={"ǀ": "T"})
    entries = ["ǀ", "ǀa", "aǀ", "Aǀ", "Aǀa", "ǀǀǀ", "Aǀǀ"]
    for case_sensitive in (True, False):
        options = {"case_sensitive": case_sensitive}
        assert _distinct(language, entries, **options) == _reference(language, entries, **options)


def test_the_words_step_lists_every_entry_a_rule_took_away(tmp_path):
    """removed.tsv's lines: each entry normalization refused by a listed reason (its raw form),
    each word the composition removed; the character classes only counted."""
    from pipeline.config import load_config
    from pipeline.words import collect_words

    (tmp_path / "list.txt").write_text("chat\nchien\nxiv\nkm\nParis\nl'arc\nbrr\n")
    (tmp_path / "two.txt").write_text("# Source: test\nOK\n")
    (tmp_path / "deny.txt").write_text("# Source: test\nCHIEN\tdenied for the test\n")
    config = tmp_path / "config.yaml"
    config.write_text(
        f"languages_dir: {ROOT / 'lexforge/languages'}\nlexicons:\n  xx:\n    language: en\n"
        "    sources:\n"
        f"      - {{format: dict, path: {tmp_path / 'list.txt'}}}\n"
        f"      - {{format: curation, path: {tmp_path / 'two.txt'}, name: two, role: exact}}\n"
        f"      - {{format: curation, path: {tmp_path / 'deny.txt'}, name: deny, role: deny}}\n"
    )
    words, _, stats, listing = collect_words(load_config(config).lexicons["xx"])
    assert words == ["BRR", "CHAT", "OK"]  # BRR: an English interjection (en.yaml)
    rejected = {
        (source, reason, entry) for source, kind, reason, entry in listing if kind == "rejected"
    }
    assert ("dict:list.txt", "roman-numeral", "xiv") in rejected
    assert ("dict:list.txt", "unit", "km") in rejected
    assert ("dict:list.txt", "proper-noun", "Paris") in rejected
    assert not any(entry == "l'arc" for _, _, entry in rejected)  # a character class
    assert stats[0]["rejected"]["apostrophe"] == 1
    removed = [line for line in listing if line[1] == "removed"]
    assert ("dict:list.txt", "removed", "denied", "CHIEN") in removed
    assert ("deny", "removed", "denied", "CHIEN") in removed
    counted = sum(n for s in stats for r, n in s["rejected"].items() if r in LISTED_REASONS)
    assert counted == len(rejected)
