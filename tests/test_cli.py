"""The `lexforge` command as a user runs it: output formats, JSON, -d word lists, errors."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from build_helpers import ROOT

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
WORDDLE_DICT = ROOT / "raw/en/dict/american-english"
EMPTY_BOARD = ("." * 15 + "\n") * 15


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([LEXFORGE, *args], input=stdin, capture_output=True, text=True, cwd=cwd)


def fails_in_one_line(done: subprocess.CompletedProcess, *fragments: str) -> None:
    assert done.returncode == 1, done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    for fragment in fragments:
        assert fragment in done.stderr


def test_anagram_plain_and_json(build_dir):
    done = run("anagram", "ELEPHANT", "--lexicon", "fr", "--exact")
    assert done.returncode == 0 and done.stdout.split() == ["ELEPHANT"]
    data = json.loads(run("anagram", "CHAT*", "--lexicon", "fr", "--json").stdout)
    assert {"word": "CHATS", "shown": "CHATs", "score": 9} in data["results"]


def test_anagram_score_sort_prints_scores(build_dir):
    lines = run("anagram", "ZEBRA", "--lexicon", "en", "--sort", "score").stdout.splitlines()
    scores = [int(line.split("\t")[1]) for line in lines]
    assert scores == sorted(scores, reverse=True) and "ZEBRA\t16" in lines
    top = [line.split("\t")[0] for line in lines if line.endswith(f"\t{scores[0]}")]
    assert top == sorted(top)  # ties alphabetical


def test_pattern(build_dir):
    words = run("pattern", "C?A??", "--lexicon", "fr").stdout.split()
    assert "CHAISE" not in words and "CHAIR" in words and all(len(w) == 5 for w in words)


def test_boggle_blocks_paths_scores(build_dir, tmp_path):
    grids = tmp_path / "grids.txt"
    grids.write_text("S E R S\nP A T G\nL I N E\nS E R S\n\nQu A I S\nT E R N\nE S A L\nR O T E\n")
    out = run("boggle", str(grids), "--lexicon", "en", "--paths", "--score").stdout
    assert out.startswith("# grid 1\n") and "\n\n# grid 2\n" in out
    first, second = (block.split("\n", 1)[1] for block in out.rstrip("\n").split("\n\n"))
    assert first.splitlines()[-1].startswith("total\t") and second.splitlines()[-1].startswith(
        "total"
    )
    words = [line.split("\t")[0] for line in second.splitlines()[:-1]]
    assert words == sorted(words, key=lambda w: (-len(w), w))
    assert any(w.startswith("QU") for w in words)
    data = json.loads(run("boggle", str(grids), "--lexicon", "en", "--json").stdout)
    assert [g["count"] for g in data["grids"]] == [len(first.splitlines()) - 1, len(words)]
    # Without paths the command takes the batch search: the same words and scores as solve's.
    plain = run("boggle", str(grids), "--lexicon", "en", "--score").stdout
    assert plain == "\n".join(
        f"# grid {grid['grid']}\n"
        + "".join(
            f"{r['word']}\t{r['score']}\n" for r in data["results"] if r["grid"] == grid["grid"]
        )
        + f"total\t{grid['total']}\n"
        for grid in data["grids"]
    )


def test_worddle_reproduces_the_brief(tmp_path):
    """Grid on stdin, words one per line, longest first then alphabetical, no duplicates."""
    done = run(
        "worddle", "-d", str(WORDDLE_DICT), "-s", "4", stdin="a b e l\nt n o s\nm e d a\nr i s e\n"
    )
    words = done.stdout.split()
    assert done.returncode == 0 and words == sorted(set(words), key=lambda w: (-len(w), w))
    assert "abelson" in words  # a proper noun: the brief's dictionary is read as a plain list
    assert all(len(w) >= 3 and w == w.lower() for w in words)


def test_ruzzle_elzzur_demo_board(build_dir, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("Ttl R   S   Ndl\nOdw Htw E   I\nCdw I   N   V\nEtl A   D   E\n")
    out = run("ruzzle", str(board), "--lexicon", "en").stdout
    rows = {line.split()[0]: line.split() for line in out.splitlines() if "(" in line}
    assert rows["COHESIVE"][1] == "224"
    assert " ".join(rows["COHESIVE"][2:]) == "(2,0) (1,0) (1,1) (1,2) (0,2) (1,3) (2,3) (3,3)"
    assert "Number of words:" in out and "Maximum total score:" in out
    values = run("ruzzle", str(board), "--lexicon", "en", "--values", "C=10", "--json").stdout
    rescored = {w["word"]: w["score"] for w in json.loads(values)["results"]}
    assert rescored["COHESIVE"] == (10 + 1 + 4 + 1 + 1 + 1 + 4 + 1) * 12 + 20  # C: 4 → 10


def test_generate_is_reproducible_and_readable(build_dir):
    first = run("generate", "--rows", "5", "--cols", "5", "--seed", "4", "--lexicon", "fr").stdout
    assert (
        first
        == run("generate", "--rows", "5", "--cols", "5", "--seed", "4", "--lexicon", "fr").stdout
    )
    assert run("boggle", "-", "--lexicon", "fr", stdin=first).returncode == 0
    board = run(
        "generate", "--multipliers", "--seed", "1", "--lexicon", "en", "--min-words", "30"
    ).stdout
    assert run("ruzzle", "-", "--lexicon", "en", stdin=board).returncode == 0


def test_scrabble_best_moves_plain_and_json(build_dir):
    # CHATONS down from H3: (3 + 4×2 + 1 + 1 + 1 + 1 + 1) × 2 (star) + 50 (bingo); across
    # from C8 the same letters fall on the same premiums. Equal scores: by row, then column.
    out = run(
        "scrabble", "-", "--lexicon", "fr", "--rack", "CHATONS", "--top", "2", stdin=EMPTY_BOARD
    ).stdout
    assert out == "H3 CHATONS 82\n8C CHATONS 82\n"  # standard notation, then the score
    data = json.loads(
        run(
            "scrabble", "-", "--lexicon", "fr", "--rack", "CHATON?", "--json", stdin=EMPTY_BOARD
        ).stdout
    )
    assert data["moves"] > len(data["results"]) == 20
    best = data["results"][0]
    assert best["score"] >= 50 + 2 * 7 and len(best["placed"]) == 7
    assert sum(letter.islower() for _, _, letter in best["placed"]) == 1  # the blank


def test_missing_lexicon_names_the_snakemake_command(tmp_path):
    fails_in_one_line(
        run("anagram", "ABC", "--lexicon", "xx", cwd=tmp_path),
        "snakemake",
        "build/work/xx/outputs/live.json",
    )


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (("boggle", "-", "--lexicon", "fr"), "A B C\nD E\n", "row"),
        (("boggle", "-", "--lexicon", "fr"), "", "grid"),
        (("boggle", "-", "--lexicon", "fr"), "A B\nC 9\n", "9"),
        (("ruzzle", "-", "--lexicon", "fr"), "Axx B\nC D\n", "xx"),
        (("anagram", "*****", "--lexicon", "fr"), None, "jokers"),
        (("anagram", "", "--lexicon", "fr"), None, "no letters"),
        (("boggle", "nowhere.txt", "--lexicon", "fr"), None, "nowhere.txt"),
        (("anagram", "ABC", "-d", str(WORDDLE_DICT), "--language", "klingon"), None, "klingon"),
        (("ruzzle", "-", "--lexicon", "fr", "--values", "A=x"), "A B\nC D\n", "--values"),
        (("scrabble", "-", "--lexicon", "fr", "--rack", "AB"), "." * 15 + "\n...\n", "row 2"),
        (("scrabble", "-", "--lexicon", "fr", "--rack", "AB"), "...\n...\n", "layout is 15×15"),
        (("scrabble", "-", "--lexicon", "fr", "--rack", "ABCDEFGH"), EMPTY_BOARD, "8 tiles"),
        (("scrabble", "-", "--lexicon", "fr", "--rack", "A", "--layout", "no.txt"), "", "no.txt"),
    ],
)
def test_bad_input_is_one_line(build_dir, args, stdin, fragment):
    fails_in_one_line(run(*args, stdin=stdin), fragment)


def test_verify_reports_a_corrupted_lexicon(build_dir, tmp_path):
    copy = tmp_path / "en"
    shutil.copytree(build_dir / "en", copy)
    done = run("verify", "--lexicon", str(copy))
    assert done.returncode == 0 and "matches" in done.stdout
    with open(copy / "anagrams.txt", "r+b") as handle:
        handle.seek(10)
        handle.write(b"Z")
    done = run("verify", "--lexicon", str(copy))
    assert done.returncode == 1 and "anagrams.txt" in done.stderr
    assert "rerun step compile" in done.stderr


@pytest.mark.parametrize(
    "manifest",
    [
        '{"artifacts": [{"name": "/etc/hostname", "bytes": 1, "sha256": "0"}]}',
        '{"artifacts": [{"name": "../en/words.txt", "bytes": 1, "sha256": "0"}]}',
        '{"artifacts": [1, 2]}',
        '{"artifacts": {"name": "words.txt"}}',
        "[1, 2]",
        "{bad",
    ],
)
def test_verify_refuses_a_manifest_of_the_wrong_shape(build_dir, tmp_path, manifest):
    copy = tmp_path / "en"
    shutil.copytree(build_dir / "en", copy)
    (copy / "manifest.json").write_text(manifest)
    done = run("verify", "--lexicon", str(copy))
    fails_in_one_line(done, "unreadable manifest")


@pytest.mark.parametrize(
    "args",
    [
        ["anagram", "ELEPHANT"],
        ["anagram", "ELEPHANT", "--format", "tsv"],
        ["pattern", "C?A??", "--json"],
        ["boggle", "raw/fr/reference/boggle-4x4.grid"],
        ["boggle", "perslatgsineters", "--format", "jsonl", "--paths"],
        ["boggle", "perslatgsineters", "--show"],
        ["ruzzle", "raw/fr/reference/ruzzle-4x4.board", "--json"],
        ["ruzzle", "raw/fr/reference/ruzzle-4x4.board", "--show"],
        ["scrabble", "tests/fixtures/scrabble/fr-midgame.board", "--rack", "EIRSTAN"],
        ["scrabble", "tests/fixtures/scrabble/fr-midgame.board", "--rack", "EIRSTA", "--show"],
        ["generate", "--count", "2", "--format", "tsv"],
        ["check", "chat", "aujourd'hui"],
        ["verify"],
    ],
)
def test_query_path_imports_no_pipeline_dependency(build_dir, args):
    """Neither the pipeline nor its heavy dependencies load for a query, in any format."""
    heavy = ("pipeline", "pandas", "pyarrow", "snakemake", "jsonschema")
    code = (
        f"import sys; from lexforge.cli import main; main({[*args, '--lexicon', 'fr']!r});"
        f" bad = [m for m in sys.modules if m.split('.')[0] in {heavy!r}];"
        " print('IMPORTED', bad)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip().endswith("IMPORTED []"), done.stdout[-300:] + done.stderr[-300:]


#: Modules a one-shot rack query does without, each of which took a few percent of its time.
NOT_ON_THE_RACK_PATH = (
    "dataclasses",  # with inspect: 7–9 ms of ~60 (plain classes and named tuples instead)
    "inspect",
    "typing",  # ~5 ms: collections' named tuples, typing's names for type checkers only
    "platformdirs",  # ~8 ms with tempfile: lexforge.paths reads the plain XDG case itself
    "tempfile",
    "shutil",  # ~3 ms, which argparse imports to size help: lexforge.cli.Formatter sizes it
    "ast",  # ~3 ms: .npy headers are read by a regular expression
    "marisa_trie",  # ~3 ms: a rack query reads the anagram index, not the words' trie
)


def test_rack_query_imports_only_what_it_needs(build_dir):
    """Once its files are certified (the first query on a file version hashes them and writes
    the cache, which may import more), a rack query imports none of NOT_ON_THE_RACK_PATH."""
    assert run("anagram", "CHIENS", "--lexicon", "fr").returncode == 0
    code = (
        "import sys; from lexforge.cli import main; main(['anagram', 'CHIENS', '--lexicon', 'fr']);"
        f" print('IMPORTED', [m for m in {NOT_ON_THE_RACK_PATH!r} if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip().endswith("IMPORTED []"), done.stdout[-300:] + done.stderr[-300:]


def test_parser_of_one_command_parses_as_the_full_one():
    """``build_parser(first argument)`` builds that command alone: the same parse, help and
    errors as the full parser; a first argument that is no command gets the full parser."""
    from lexforge.cli import build_parser

    full = build_parser()
    commands = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        narrow = build_parser(name)
        (only,) = (a for a in narrow._actions if isinstance(a, argparse._SubParsersAction))
        assert list(only.choices) == [name]
        assert only.choices[name].format_help() == sub.format_help()
    argv = ["anagram", "ORANGES", "--lexicon", "fr", "--sort", "score"]
    assert vars(build_parser("anagram").parse_args(argv)) == vars(full.parse_args(argv))
    assert build_parser("-h").format_help() == full.format_help()
    assert build_parser("anagrm").format_help() == full.format_help()


@pytest.mark.parametrize("columns", [None, "", "0", "-4", "wide", "52", "133"])
def test_help_is_as_wide_as_argparse_makes_it(monkeypatch, columns):
    """lexforge sizes its help without ``shutil``; argparse's own formatter is the oracle."""
    from lexforge.cli import build_parser, terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
    full = build_parser()
    commands = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    for parser in [full, *commands.choices.values()]:
        ours = parser.format_help()
        parser.formatter_class = argparse.HelpFormatter
        assert ours == parser.format_help()
