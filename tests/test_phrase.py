"""Phrase anagrams (``lexforge anagram --phrase``) against Debian's ``an`` and a brute force.

The ``an`` tests run the real binary (Debian package ``an``) and lexforge on the same word list
and compare the sets of phrases, word order normalized. They skip when ``an`` is not installed,
unless LEXFORGE_REQUIRE_AN=1 (as in CI), which makes them fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from itertools import islice, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import ROOT, language

from lexforge.errors import UserError
from lexforge.lexicon import Lexicon
from lexforge.phrase import phrases

ENABLE = ROOT / "raw" / "en" / "enable2k" / "enable2k.txt"
LEXFORGE = str(Path(sys.executable).with_name("lexforge"))

# (phrase, an's options, the same for lexforge.phrase.phrases); the -c case is an's man page's.
AN_CASES = [
    ("elephant", [], {}),
    ("dormitory", [], {}),
    ("the eyes", [], {}),
    ("astronomer", ["-l", "3"], {"max_words": 3}),
    ("paul martin", ["-c", "imp"], {"contains": "imp"}),
    ("anagram solver", ["-m", "3", "-l", "3"], {"min_length": 3, "max_words": 3}),
    ("Éléphant-rose!", ["-l", "2"], {"max_words": 2}),
]


def an_binary() -> str:
    """The ``an`` binary (Debian puts it in /usr/games); skip, or fail under
    LEXFORGE_REQUIRE_AN=1, when it is missing."""
    found = shutil.which("an") or shutil.which("an", path="/usr/games")
    if found is None:
        message = "Debian's `an` is not installed (apt-get install an)"
        if os.environ.get("LEXFORGE_REQUIRE_AN") == "1":
            pytest.fail(f"{message} (LEXFORGE_REQUIRE_AN=1)")
        pytest.skip(message)
    return found


def fits(word: str, letters: Counter[str]) -> bool:
    return not Counter(word) - letters


@pytest.fixture(scope="module")
def word_list(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Lexicon]:
    """A few thousand ENABLE2K words, written lowercase for ``an`` and opened for lexforge:
    every word that fits in one of the phrases (so the answers are the full list's) plus an
    evenly spaced sample of the others (which must never appear)."""
    every = ENABLE.read_text(encoding="ascii").split()
    pools = [Counter(c for c in phrase.lower() if c.isalpha()) for phrase, _, _ in AN_CASES]
    pools[-1] = Counter("elephantrose")  # an folds É as lexforge does; counted unaccented
    letter_sets = [set(pool) for pool in pools]
    fitting = {
        w
        for w in every
        if any(set(w) <= s and fits(w, p) for s, p in zip(letter_sets, pools, strict=True))
    }
    chosen = sorted(fitting | set(every[::100]))
    path = tmp_path_factory.mktemp("an") / "words.txt"
    path.write_text("".join(f"{w}\n" for w in chosen), encoding="ascii")
    return path, Lexicon.from_words([w.upper() for w in chosen], language("en"))


@pytest.mark.parametrize(("phrase", "an_options", "options"), AN_CASES)
def test_same_phrases_as_an(word_list, phrase, an_options, options):
    path, lexicon = word_list
    run = subprocess.run(
        [an_binary(), "-d", str(path), *an_options, phrase],
        capture_output=True,
        text=True,
        check=True,
    )
    theirs = Counter(tuple(sorted(line.upper().split())) for line in run.stdout.splitlines())
    ours = Counter(tuple(sorted(p)) for p in phrases(lexicon, phrase, **options))
    assert ours, phrase  # every case has answers
    assert set(ours) == set(theirs)
    assert max(ours.values()) == 1  # each multiset once


def test_the_command_agrees_with_an_on_a_file(word_list):
    """End to end: ``lexforge anagram --phrase -d FILE`` and ``an -d FILE`` on one list."""
    path, _ = word_list
    theirs = subprocess.run(
        [an_binary(), "-d", str(path), "-l", "3", "dormitory"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    ours = subprocess.run(
        [LEXFORGE, "anagram", "--phrase", "dormitory", "--words", "3", "-d", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(ours) == len(set(ours)) == len(theirs) > 50
    assert {tuple(sorted(line.split())) for line in ours} == {
        tuple(sorted(line.upper().split())) for line in theirs
    }


# --- brute force on small lexicons ------------------------------------------------------------


def brute_force(
    words: list[str], phrase: str, max_words: int, min_length: int, contains: str
) -> set[tuple[str, ...]]:
    """Every sequence of up to ``max_words`` lexicon words whose letters are the phrase's,
    as sorted tuples: no pruning, no anagram keys, no shared code."""
    target = sorted(phrase)
    usable = [w for w in words if len(w) >= min_length]
    found = set()
    for count in range(1, max_words + 1):
        for sequence in product(usable, repeat=count):
            if sorted("".join(sequence)) == target and (not contains or contains in sequence):
                found.add(tuple(sorted(sequence)))
    return found


SMALL_WORDS = st.lists(
    st.text("ABCDE", min_size=1, max_size=4), min_size=1, max_size=7, unique=True
)


@settings(max_examples=300, deadline=None)
@given(
    words=SMALL_WORDS,
    max_words=st.integers(1, 4),
    min_length=st.integers(1, 3),
    sort=st.sampled_from(("longest", "words")),
    data=st.data(),
)
def test_brute_force(words, max_words, min_length, sort, data):
    lexicon = Lexicon.from_words(words, language("en"))
    planted = data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=3))
    noise = data.draw(st.text("ABCDE", max_size=2))
    phrase = "".join(data.draw(st.permutations("".join(planted) + noise)))
    contains = data.draw(st.sampled_from(["", *words]))
    if contains and not fits(contains, Counter(phrase)):
        with pytest.raises(UserError, match="does not hold its letters"):
            list(phrases(lexicon, phrase, contains=contains))
        return
    found = list(
        phrases(
            lexicon,
            phrase,
            max_words=max_words,
            min_length=min_length,
            contains=contains,
            sort=sort,
        )
    )
    expected = brute_force(words, phrase, max_words, min_length, contains)
    assert {tuple(sorted(p)) for p in found} == expected
    assert len(found) == len(expected)  # each multiset once
    for p in found:  # canonical order: longest first, then alphabetical
        assert list(p) == sorted(p, key=lambda w: (-len(w), w))
    if sort == "words":
        assert [len(p) for p in found] == sorted(len(p) for p in found)
    else:
        longest = [len(p[0]) for p in found]
        assert longest == sorted(longest, reverse=True)


def test_repeated_words_and_shared_keys():
    """A key used twice and keys with several words: every word multiset once."""
    lexicon = Lexicon.from_words(["HE", "EH", "HEH", "E"], language("en"))
    assert sorted(phrases(lexicon, "he-he")) == [
        ("EH", "EH"),
        ("EH", "HE"),
        ("HE", "HE"),
        ("HEH", "E"),
    ]


# --- the command ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def toy_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("toy") / "toy.txt"
    path.write_text("elephant\nplate\npleat\nhen\nhe\neh\nplanet\nplaten\n", encoding="ascii")
    return path


def lexforge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LEXFORGE, *args], capture_output=True, text=True)


def test_command_text_and_json(toy_list):
    done = lexforge("anagram", "--phrase", "Eleph ant!", "-d", str(toy_list))
    assert done.stdout.splitlines() == [
        "ELEPHANT",
        "PLANET EH",
        "PLANET HE",
        "PLATEN EH",
        "PLATEN HE",
        "PLATE HEN",
        "PLEAT HEN",
    ]
    done = lexforge(
        "anagram", "--phrase", "elephant", "--sort", "words", "--limit", "2", "--json",
        "-d", str(toy_list),
    )  # fmt: skip
    answer = json.loads(done.stdout)
    assert answer["schema"] == "lexforge/1" and answer["command"] == "anagram"
    assert answer["query"]["phrase"] == "elephant" and answer["query"]["limit"] == 2
    assert answer["results"] == [
        {"phrase": "ELEPHANT", "words": ["ELEPHANT"]},
        {"phrase": "PLANET EH", "words": ["PLANET", "EH"]},
    ]
    rows = lexforge(
        "anagram", "--phrase", "elephant", "--contains", "hen", "--format", "tsv",
        "-d", str(toy_list),
    ).stdout.splitlines()  # fmt: skip
    assert rows == ["phrase\twords", "PLATE HEN\tPLATE,HEN", "PLEAT HEN\tPLEAT,HEN"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--phrase", "eleph4nt"], "phrase 'eleph4nt': 4 not in the English alphabet"),
        (["--phrase", "!!"], "phrase '!!': no letters"),
        (["--phrase", "elephant", "--contains", "zebra"], "not a word of lexicon"),
        (["--phrase", "he", "--contains", "plate"], "does not hold its letters"),
        (["--phrase", "he", "--sort", "score"], "--sort score: use longest or words"),
        (["--phrase", "he", "--exact"], "--exact is implied"),
        (["--phrase", "he", "HE"], "not both"),
        (["HE", "--words", "2"], "--words applies to --phrase only"),
        (["HE", "--sort", "words"], "--sort words applies to --phrase only"),
        (["--phrase", "he", "--limit", "0"], "out of range"),
    ],
)
def test_command_errors_in_one_line(toy_list, args, message):
    done = lexforge("anagram", *args, "-d", str(toy_list))
    usage = message == "out of range"  # refused by argparse
    assert done.returncode == (2 if usage else 1) and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_phrases_stream(word_list):
    """The first phrases of a phrase with astronomically many come at once: the search is
    resumable, nothing waits for the end."""
    _, lexicon = word_list
    phrase = "paul martin and the eyes of an astronomer in a dormitory"
    first = list(islice(phrases(lexicon, phrase), 5))
    letters = sorted(c for c in phrase.upper() if c.isalpha())
    assert len(first) == 5 and all(sorted("".join(p)) == letters for p in first)


def test_command_json_without_phrases(toy_list):
    done = lexforge("anagram", "--phrase", "hhh", "--json", "-d", str(toy_list))
    assert done.returncode == 0 and json.loads(done.stdout)["results"] == []
    assert lexforge("anagram", "--phrase", "hhh", "-d", str(toy_list)).stdout == ""
