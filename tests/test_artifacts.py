"""Invariants of the real build: every default lexicon, every artifact of DESIGN.md's contract."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import duckdb
import marisa_trie
import pandas as pd
import pytest
from build_helpers import ROOT

from lexforge.anagram import anagram
from lexforge.graph import load_graph
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.verify import verify
from pipeline.config import load_config

CONFIG = load_config(ROOT / "config/config.yaml", check_files=False)
LEXICONS = list(CONFIG.default)
CONTRACT = (
    "words.txt",
    "words.marisa",
    "anagrams.txt",
    "letters.parquet",
    "stats.parquet",
    "report.html",
    "report.json",
    "manifest.json",
    "validation.json",
)


@pytest.fixture(scope="module", params=LEXICONS)
def lexicon_dir(request, build_dir: Path) -> Path:
    return build_dir / request.param


def read_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    assert data.endswith(b"\n") and b"\r" not in data
    return data.decode("utf-8").split("\n")[:-1]


def test_contract_files_exist(lexicon_dir):
    for name in CONTRACT:
        assert (lexicon_dir / name).is_file(), name


def test_words_sorted_unique_and_normalized(lexicon_dir):
    words = read_lines(lexicon_dir / "words.txt")
    language = Language.from_lexicon(lexicon_dir / "language.json")
    letters = set(language.alphabet)  # with the multi-letter tiles' symbols (es-scrabble)
    assert len(words) > 10_000
    assert words == sorted(set(words))
    bounds = range(language.min_length, language.max_length + 1)  # of the spelled words
    joiners = str.maketrans("", "", language.joiners)  # the dot of Catalan L·L is no letter
    assert all(
        len(language.spell(w).translate(joiners)) in bounds and set(w) <= letters for w in words
    )
    assert all(language.tokenize(language.spell(w)) == w for w in words)  # stored as tiles


def test_anagram_index_keys_are_sorted_letters(lexicon_dir):
    words = read_lines(lexicon_dir / "words.txt")
    lines = read_lines(lexicon_dir / "anagrams.txt")
    assert len(lines) == len(words)
    pairs = [line.split("=") for line in lines]
    assert all(key == "".join(sorted(word)) for key, word in pairs)
    assert sorted(word for _, word in pairs) == words
    encoded = [line.encode() for line in lines]
    assert encoded == sorted(encoded)  # bytewise, as the seed's egrep file


def test_the_trie_holds_exactly_the_words(lexicon_dir):
    words = read_lines(lexicon_dir / "words.txt")
    trie = marisa_trie.Trie()
    trie.mmap(str(lexicon_dir / "words.marisa"))
    assert len(trie) == len(words) and sorted(trie.keys()) == words


def test_anagram_classes_are_the_words_grouped_by_their_sorted_letters(lexicon_dir):
    """``Lexicon.anagram_words`` (a bisection over the index's keys) against the classes made
    here from words.txt, for a sample of keys and for keys no word has."""
    classes: dict[str, list[str]] = {}
    for word in read_lines(lexicon_dir / "words.txt"):
        classes.setdefault("".join(sorted(word)), []).append(word)
    lexicon = Lexicon.open(lexicon_dir)
    keys = sorted(classes)
    for key in keys[:: max(1, len(keys) // 3000)] + keys[-3:]:
        assert lexicon.anagram_words(key) == classes[key], key
    for absent in ("", keys[0][:-1] + "=", keys[-1] + keys[-1][-1], "A" * 40):
        if absent not in classes:
            assert lexicon.anagram_words(absent) == []


def test_letter_graph_spells_the_words(lexicon_dir):
    lexicon = Lexicon.open(lexicon_dir)
    graph = load_graph(lexicon_dir / "graph.npy")
    letters = "".join(sorted(set(lexicon.language.alphabet)))
    words = read_lines(lexicon_dir / "words.txt")
    for word in words[:: max(1, len(words) // 2000)]:
        node = 0
        for letter in word:
            i = letters.index(letter)
            mask = int(graph["mask"][node])
            assert mask >> i & 1, word
            node = int(graph["first"][node]) + (mask & ((1 << i) - 1)).bit_count()
        assert lexicon.words.restore_key(int(graph["word"][node])) == word


def test_manifest_hashes_match(lexicon_dir):
    assert verify(str(lexicon_dir)) == []
    manifest = json.loads((lexicon_dir / "manifest.json").read_text())
    names = {a["name"] for a in manifest["artifacts"]}
    assert set(CONTRACT) - {"manifest.json", "validation.json"} <= names
    assert manifest["words"] == len(read_lines(lexicon_dir / "words.txt"))
    assert "timestamp" not in json.dumps(manifest).lower()


def test_tables_agree_with_the_words(lexicon_dir):
    """letters.parquet and stats.parquet, read by pandas and by DuckDB, against counts made here
    from words.txt and the words step's words.tsv."""
    name = lexicon_dir.name
    words = read_lines(lexicon_dir / "words.txt")
    letters = pd.read_parquet(lexicon_dir / "letters.parquet")
    spell = Language.from_lexicon(lexicon_dir / "language.json").spell  # a tile's symbol: CH
    counts = Counter(map(spell, "".join(words)))
    initials = Counter(spell(w[0]) for w in words)
    assert set(letters["lexicon"]) == {name}
    assert dict(zip(letters["letter"], letters["occurrences"], strict=True)) == {
        letter: counts[letter] for letter in letters["letter"]
    }
    assert dict(zip(letters["letter"], letters["word_initial"], strict=True)) == {
        letter: initials[letter] for letter in letters["letter"]
    }
    stats = pd.read_parquet(lexicon_dir / "stats.parquet", dtype_backend="numpy_nullable")
    assert str(stats["length"].dtype) == "Int32" and str(stats["value"].dtype) == "Int64"
    assert set(stats["lexicon"]) == {name}
    by_length = stats[stats["metric"] == "word_length"]
    assert by_length["source"].isna().all() and by_length["reason"].isna().all()
    lengths = dict(Counter(map(len, words)))
    assert dict(zip(by_length["length"], by_length["value"], strict=True)) == lengths
    assert list(by_length["length"]) == sorted(lengths)  # numeric order: 2 before 10

    # Per source, from words.tsv (word, bitmask of sources) and sources.json, counted here.
    sources = json.loads((lexicon_dir.parent / "work" / name / "sources.json").read_text())
    held: list[Counter] = [Counter() for _ in sources]
    alone: list[Counter] = [Counter() for _ in sources]
    with open(lexicon_dir.parent / "work" / name / "words.tsv", encoding="utf-8") as tsv:
        for line in tsv:
            word, mask = line.rstrip("\n").split("\t")
            bits = [i for i in range(len(sources)) if int(mask) >> i & 1]
            for i in bits:
                held[i][len(word)] += 1
            if len(bits) == 1:
                alone[bits[0]][len(word)] += 1
    with duckdb.connect() as db:
        path = str(lexicon_dir / "stats.parquet")

        def query(sql: str, *params: object) -> list[tuple]:
            return db.execute(sql.replace("STATS", f"read_parquet('{path}')"), params).fetchall()

        columns = dict(query("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM STATS)"))
        assert columns["length"] == "INTEGER" and columns["value"] == "BIGINT"
        assert query("SELECT count(*) FROM STATS WHERE metric = 'word_length' AND length IS NULL")
        assert query("SELECT sum(value) FROM STATS WHERE metric = 'word_length'") == [(len(words),)]
        assert query("SELECT max(length) FROM STATS WHERE metric = 'word_length'") == [
            (max(lengths),)
        ]
        for i, source in enumerate(sources):
            rows = query(
                "SELECT metric, length, value FROM STATS WHERE source = ? AND length IS NOT NULL",
                source["id"],
            )
            assert {length: v for m, length, v in rows if m == "source_length"} == held[i]
            assert {length: v for m, length, v in rows if m == "only_source"} == alone[i]
            totals = dict(
                query(
                    "SELECT metric, sum(value) FROM STATS WHERE source = ? AND length IS NULL"
                    " AND metric IN ('read', 'kept', 'rejected') GROUP BY metric",
                    source["id"],
                )
            )
            assert totals["read"] == source["read"] == totals["kept"] + totals["rejected"]
        [(null_keys,)] = query(
            "SELECT count(*) FROM STATS WHERE source = '' OR reason = '' OR other_source = ''"
        )
        assert null_keys == 0


def test_validation_passed(lexicon_dir):
    """Every reference file was solved, except Ruzzle boards where the language file gives no
    Ruzzle values (skipped, and listed as such)."""
    report = json.loads((lexicon_dir / "validation.json").read_text())
    assert report["ok"] and report["cases"]
    folder = ROOT / CONFIG.lexicons[lexicon_dir.name].reference_dir
    solved = {case["case"].split("#")[0] for case in report["cases"]}
    boards = {p.name for p in folder.glob("*.board")}
    assert {p.name for p in folder.glob("*.grid")} <= solved
    if Lexicon.open(lexicon_dir).language.ruzzle_values:
        assert boards <= solved and report["skipped"] == []
    else:
        assert not boards & solved and len(report["skipped"]) == len(boards)
    racks = folder / "racks.txt"
    if racks.is_file():
        lines = [line for line in racks.read_text().splitlines() if line.strip()]
        assert sum(case["kind"] == "rack" for case in report["cases"]) == len(
            [line for line in lines if not line.startswith("#")]
        )


SEED_QUERY = r"""
addchar() {
    local string="$1" char="$2"
    for ((i=0; i<${#string}; i++)); do printf '%s' "${string:$i:1}$char"; done
}
answers=$(printf '%s' "$1" | tr 'a-z' 'A-Z' | tr -d --complement 'A-Z*' | sed 's/[*]/{A..Z}/g')
nl=$'\n'
patterns=$(for answer in $(eval echo $answers)
do
    pattern=$(sort <<< "$(addchar "$answer" $'\n')")
    pattern="$(addchar "${pattern//$nl}" '?')"
    printf '%s|' "$pattern"
done)
egrep "^(${patterns%|})=" "$2" | cut -d '=' -f 2
"""


@pytest.mark.parametrize("rack", ["ELEPHANT", "SCRABBLE", "RATES*"])
def test_seed_egrep_query_runs_unchanged(build_dir, rack):
    """The Bash seed's own query, run on our anagrams.txt, agrees with lexforge's rack search."""
    lexicon_dir = build_dir / "fr"
    done = subprocess.run(
        ["bash", "-c", SEED_QUERY, "seed", rack, str(lexicon_dir / "anagrams.txt")],
        capture_output=True,
        text=True,
        env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    seed = set(done.stdout.split())
    ours = {m.word for m in anagram(Lexicon.open(lexicon_dir), rack)}
    assert seed and seed == ours
