"""The `lexforge` command as a user runs it: output formats, JSON, -d word lists, errors."""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from build_helpers import ROOT

from lexforge.lexicon import Lexicon

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
WORDDLE_DICT = ROOT / "raw/en/dict/american-english"
EMPTY_BOARD = ("." * 15 + "\n") * 15


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([LEXFORGE, *args], input=stdin, capture_output=True, text=True, cwd=cwd)


#: Every error line: ``lexforge COMMAND: message`` (``lexforge: `` when no command was named).
ERROR_LINE = re.compile(r"lexforge(?: (?:scrabble )?[a-z-]+)?: \S.*\n")
#: The end of a usage error's line (a command line argparse refuses), which exits 2.
USAGE_END = re.compile(r" \(see: lexforge(?: (?:scrabble )?[a-z-]+)? --help\)\n$")


def fails_in_one_line(done: subprocess.CompletedProcess, *fragments: str) -> None:
    """One error line, ``lexforge COMMAND: message``; exit status 2 for a usage error (its
    line points to the help), 1 for any other."""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert ERROR_LINE.fullmatch(done.stderr), done.stderr
    assert done.returncode == (2 if USAGE_END.search(done.stderr) else 1), done
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


# One consistent command line: errors, --format, option names, help, completion, -d, phrases.


@pytest.mark.parametrize(
    ("args", "line", "code"),
    [
        (["anagarm", "ABC"], "lexforge: 'anagarm' is not a command; did you mean anagram?", 2),
        (["boggle", "ABCD/EFGH", "--min-lenght", "3"], "lexforge boggle: unrecognized", 2),
        (["boggle", "ABCD/EFGH", "--min-lenght", "3"], "did you mean --min-length?", 2),
        (["anagram", "ABC", "--min", "0"], "lexforge anagram: argument --min: 0 is out", 2),
        (["anagram", "--lexicon", "fr"], "lexforge anagram: give LETTERS", 1),
        (["pattern", "", "--lexicon", "fr"], "lexforge pattern: empty pattern", 1),
        (["scrabble", "play", "--players", "cpu"], "lexforge scrabble play: ", 1),
        (["report", "--lexicon", "xx"], "lexforge report: ", 1),
        (["verify", "--format", "xml"], "lexforge verify: argument --format: invalid", 2),
    ],
)
def test_every_error_names_its_command(build_dir, tmp_path, args, line, code):
    done = run(*args, cwd=ROOT if "fr" in args else tmp_path)
    fails_in_one_line(done)
    assert done.returncode == code and line in done.stderr, done.stderr
    command = " ".join(args[:2]) if args[:2] == ["scrabble", "play"] else args[0]
    named = f"lexforge {command}: " if args[0] in commands() else "lexforge: "
    assert done.stderr.startswith(named)


def test_verify_problems_name_the_command(build_dir, tmp_path):
    copy = tmp_path / "fr"
    shutil.copytree(build_dir / "fr", copy)
    (copy / "language.json").write_text("{}")
    done = run("verify", "--lexicon", str(copy))
    assert done.returncode == 1 and "language.json" in done.stderr
    assert all(line.startswith("lexforge verify: ") for line in done.stderr.splitlines())


def test_bare_lexforge_prints_the_help():
    done = run()
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: lexforge") and done.stdout == run("--help").stdout
    assert "scrabble-play" not in done.stdout  # reached as "scrabble play"
    assert "SUPPRESS" not in done.stdout


def commands() -> dict[str, argparse.ArgumentParser]:
    from lexforge.cli import build_parser

    full = build_parser()
    (action,) = (a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


#: The commands that print no answer: a server, an installer, a shell script.
NOT_ANSWERS = ("serve", "install", "completion")


def test_every_command_that_prints_takes_format_and_json():
    for name, parser in commands().items():
        options = {o for a in parser._actions for o in a.option_strings}
        assert ({"--format", "--json"} <= options) == (name not in NOT_ANSWERS), name


@pytest.mark.parametrize("fmt", ["json", "jsonl", "tsv"])
def test_verify_takes_every_format(build_dir, fmt):
    done = run("verify", "--lexicon", "fr", "--format", fmt)
    assert done.returncode == 0, done.stderr
    if fmt == "json":
        data = json.loads(done.stdout)
        assert data["command"] == "verify" and data["ok"] and data["results"] == []
        assert data == json.loads(run("verify", "--lexicon", "fr", "--json").stdout)
    else:
        assert done.stdout in ("", "problem\n")


def test_report_takes_format_json(build_dir):
    done = run("report", "--lexicon", "fr", "--format", "json")
    assert done.returncode == 0
    report = json.loads(done.stdout)
    assert report == json.loads((build_dir / "fr" / "report.json").read_text())
    assert report == json.loads(run("report", "--lexicon", "fr", "--json").stdout)


def test_word_lengths_have_one_name_in_every_command():
    """--min-length/--max-length everywhere; the old spellings parse, hidden from the help."""
    for name, parser in commands().items():
        help_text = parser.format_help()
        for old in ("--min ", "--min-len ", "--max ", "--min=", "--max="):
            assert old not in help_text, (name, old)
    parser = commands()["anagram"]
    new = parser.parse_args(["ABC", "--min-length", "2", "--max-length", "3"])
    for old in (["--min", "2", "--max", "3"], ["--min-len", "2", "--max", "3"]):
        assert parser.parse_args(["ABC", *old]) == new
    for name in ("boggle", "worddle", "best-board", "anagram"):
        assert "--min-length" in commands()[name].format_help(), name


def test_every_option_says_its_default_and_every_command_what_it_does():
    for name, parser in commands().items():
        assert parser.description and len(parser.description) > 20, name
        assert "brief" not in parser.format_help(), name  # worddle is no brief's
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or not action.option_strings:
                continue
            if action.nargs == 0 or action.required:  # flags, --help, required options
                assert action.help, (name, action.option_strings)
                continue
            assert "default" in (action.help or ""), (name, action.option_strings)
        for action in parser._actions:
            if not action.option_strings:  # positional arguments say what they are
                assert action.help, (name, action.dest)


def test_selfplay_offers_only_the_players_it_takes():
    assert "human" not in commands()["scrabble-selfplay"].format_help()
    assert "human" in commands()["scrabble-play"].format_help()


def test_the_help_names_the_word_list_cache():
    help_text = run("anagram", "--help").stdout
    assert "cache" in help_text and "LEXFORGE_CACHE" in help_text and "rm -r" in help_text


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("/dev/null", "/dev/null: empty word list"),
        (".", ".: is a directory"),
        ("-", "-d -: a word list is not read from stdin"),
        ("nowhere.txt", "nowhere.txt: file not found"),
    ],
)
def test_wordlist_that_is_no_file_says_what_it_is(tmp_path, spec, message):
    done = run("anagram", "ABC", "-d", spec, cwd=tmp_path, stdin="")
    fails_in_one_line(done, f"lexforge anagram: {message}")


def test_wordlist_from_a_pipe_says_to_save_it(tmp_path):
    fifo = tmp_path / "words"
    os.mkfifo(fifo)
    done = run("anagram", "ABC", "-d", str(fifo), cwd=tmp_path)  # never opened: no hang
    fails_in_one_line(done, "not a regular file", "save it to a file")


def test_latin1_wordlist_is_read_with_encoding(tmp_path):
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café\nchat\nthé\n".encode("latin-1"))
    done = run("anagram", "EFAC", "-d", "latin1.txt", "--language", "fr", cwd=tmp_path)
    fails_in_one_line(done, "latin1.txt: not valid utf-8 at line 1", "--encoding latin-1", "iconv")
    assert "config" not in done.stderr  # a wheel user has no config/config.yaml
    done = run(
        "anagram", "EFAC", "-d", "latin1.txt", "--encoding", "latin-1", "--language", "fr",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.split() == ["CAFE"]
    assert "--encoding" in run("anagram", "--help").stdout


@pytest.mark.parametrize("big", [True, False])
def test_long_wordlist_compile_says_what_and_where(tmp_path, monkeypatch, big):
    """A large list is announced before it compiles; a small one whose compile takes longer
    than ANNOUNCE_AFTER, once that time has passed; either way the cache and its size after."""
    import time

    from lexforge import wordlist

    monkeypatch.setenv("LEXFORGE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(wordlist, "ANNOUNCE_BYTES", 1 if big else 10**9)
    monkeypatch.setattr(wordlist, "ANNOUNCE_AFTER", 0.05)
    slow = wordlist.write_artifacts

    def write_artifacts(*args, **kwargs):
        time.sleep(0.5)
        slow(*args, **kwargs)

    monkeypatch.setattr(wordlist, "write_artifacts", write_artifacts)
    words = tmp_path / "words.txt"
    words.write_text("CHAT\nCHIEN\n")
    said: list[str] = []
    lexicon = wordlist.lexicon_from_wordlist(words, "ods", "fr", say=said.append, progress=True)
    assert "CHAT" in lexicon and len(said) == 2, said
    (folder,) = (tmp_path / "cache").glob("wordlist-*")
    assert said[0].startswith("compiling words.txt (0.0 MB)") and str(folder) in said[0]
    assert said[1].startswith("compiled words.txt in ") and "MB cached in" in said[1]
    assert "rm -r" in said[1]
    said.clear()
    wordlist.lexicon_from_wordlist(words, "ods", "fr", say=said.append, progress=True)
    assert said == []  # read from the cache: nothing to say


def test_long_wordlist_compile_is_told_on_a_terminal(build_dir, tmp_path):
    """A list over ANNOUNCE_BYTES, from the command: the notes go to a terminal's stderr (a
    pseudo-terminal here), not to a pipe (scripts and logs get the answer alone)."""
    import pty

    from lexforge.wordlist import ANNOUNCE_BYTES

    big = tmp_path / "big.txt"
    with open(build_dir / "it" / "words.txt", "rb") as words:
        big.write_bytes(words.read(ANNOUNCE_BYTES + 1000).rsplit(b"\n", 1)[0] + b"\n")
    word = big.read_text().split("\n", 1)[0]
    command = [LEXFORGE, "anagram", word, "-d", str(big), "--language", "it"]
    environment = {**os.environ, "LEXFORGE_CACHE": str(tmp_path / "piped")}
    piped = subprocess.run(command, capture_output=True, text=True, env=environment)
    assert piped.returncode == 0 and piped.stderr == "" and word in piped.stdout.split()
    main, terminal = pty.openpty()
    environment["LEXFORGE_CACHE"] = str(tmp_path / "seen")
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=terminal, env=environment)
    os.close(terminal)
    told = b""
    while select.select([main], [], [], 0.5)[0]:
        try:
            told += os.read(main, 4096)
        except OSError:
            break
    os.close(main)
    lines = told.decode().splitlines()
    assert done.returncode == 0 and len(lines) == 2, told
    assert lines[0].startswith("lexforge anagram: compiling big.txt (1.0 MB) into the word-list")
    assert str(tmp_path / "seen") in lines[0] and "MB cached in" in lines[1]


def test_quick_wordlist_compile_says_nothing(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("CHAT\nCHIEN\n")
    done = run("anagram", "CHAT", "-d", str(words), cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "" and done.stdout.split() == ["CHAT"]


PANGRAM = "the quick brown fox jumps over the lazy dog"


def test_phrase_search_streams_from_its_first_phrase(build_dir):
    """The longest-first search finds its first phrases in a second; each is written at once
    (the search used to hold them until 2,048 had been found)."""
    command = [LEXFORGE, "anagram", "--phrase", PANGRAM, "--lexicon", "en"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT) as search:
        try:
            assert select.select([search.stdout], [], [], 20)[0], "no phrase in 20 s"
            first = search.stdout.readline()
        finally:
            search.kill()
    assert sorted(first.replace(" ", "").strip()) == sorted(PANGRAM.upper().replace(" ", ""))


def test_phrase_search_stops_at_its_time_limit(build_dir):
    """Fewest words first on the pangram finds nothing for minutes: --seconds ends it, saying
    so in one line, after a valid (empty) answer."""
    start = time.monotonic()
    done = run("anagram", "--phrase", PANGRAM, "--sort", "words", "--lexicon", "en",
               "--seconds", "1", "--json")  # fmt: skip
    assert time.monotonic() - start < 15
    fails_in_one_line(done, "not over after 1 s", "no phrase found yet", "--seconds")
    assert json.loads(done.stdout)["results"] == []


def test_ctrl_c_stops_a_phrase_search_at_once(build_dir):
    """SIGINT during a long compiled search: exit status 130 within a second."""
    command = [LEXFORGE, "anagram", "--phrase", PANGRAM, "--sort", "words", "--lexicon", "en"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    ) as search:
        time.sleep(3)  # in the compiled search by now
        assert search.poll() is None
        sent = time.monotonic()
        search.send_signal(signal.SIGINT)
        try:
            search.wait(timeout=10)
        finally:
            search.kill()
        assert time.monotonic() - sent < 1.0 and search.returncode == 130


def test_pattern_scan_agrees_with_a_regex_over_words_txt(build_dir):
    """The compiled scan against Python's re over the whole file, letters of several bytes
    included (de-scrabble's Ä Ö Ü, es-scrabble's Ñ and tile symbols), and with a rack."""
    for name, patterns in [
        ("de-scrabble", ["*Ä*", "?Ü??", "*ÖS*", "Ä*"]),
        ("es-scrabble", ["*Ñ?", "*A*E*", "??"]),
        ("fr", ["C?A??", "*TION", "A*B*C", "*"]),
    ]:
        lines = (build_dir / name / "words.txt").read_text(encoding="utf-8").splitlines()
        spell = Lexicon.open(build_dir / name).language.spell  # the command spells Ř as RR
        for pattern in patterns:
            regex = re.escape(pattern).replace(r"\?", ".").replace(r"\*", ".*")
            expected = [spell(word) for word in lines if re.fullmatch(regex, word)]
            done = run("pattern", pattern, "--lexicon", name, "--format", "tsv")
            rows = [line.split("\t") for line in done.stdout.splitlines()[1:]]
            assert [row[0] for row in rows] == expected, (name, pattern)
    data = json.loads(run("pattern", "S??S", "--rack", "OU*", "--lexicon", "fr", "--json").stdout)
    four = re.findall("^S..S$", (build_dir / "fr/words.txt").read_text(), re.M)
    jokers = {word: sum((Counter(word[1:3]) - Counter("OU")).values()) for word in four}
    assert [r["word"] for r in data["results"]] == [w for w in four if jokers[w] <= 1]


def test_pattern_on_a_wordlist(tmp_path):
    """-d lists have no words.txt: the same scan over the trie's words."""
    words = tmp_path / "words.txt"
    words.write_text("CHAT\nCHATS\nACHAT\nCHOC\n")
    done = run("pattern", "*CH?*", "-d", str(words), "--sort", "alpha", "--json", cwd=tmp_path)
    assert [(r["word"], r["score"]) for r in json.loads(done.stdout)["results"]] == [
        ("ACHAT", 1 + 3 + 4 + 1 + 1), ("CHAT", 9), ("CHATS", 10), ("CHOC", 3 + 4 + 1 + 3)
    ]  # fmt: skip


def test_pattern_answers_within_a_second_on_the_largest_lexicon(build_dir):
    """'*A*E*I*' on the largest default lexicon: the process's CPU time, start included, under
    a second (3.8 s on it's 3 million words when each line was read and matched in Python), and
    the words grep's regular expression finds in words.txt."""
    import resource

    largest = max(build_dir.glob("*/words.txt"), key=lambda path: path.stat().st_size).parent
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = run("pattern", "*A*E*I*", "--lexicon", largest.name)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    lines = (largest / "words.txt").read_text(encoding="utf-8").splitlines()
    spell = Lexicon.open(largest).language.spell
    expected = [spell(word) for word in lines if re.fullmatch(".*A.*E.*I.*", word)]
    assert done.returncode == 0 and done.stdout.split() == expected and len(expected) > 10_000
    assert cpu < 1.0, cpu


def test_phrase_search_in_small_steps_finds_the_same_phrases(build_dir):
    """The compiled search paused every few steps (to let Ctrl-C and the clock in) and resumed
    gives the same phrases in the same order as in one go, with fewer than asked (even none)
    per call."""
    from lexforge.phrase import _candidate_keys, _search, phrase_letters

    en = Lexicon.open(build_dir / "en")
    letters = phrase_letters("william shakespeare", en)
    keys = _candidate_keys(en, letters, 2, len(letters))
    for count, exact in ((3, False), (2, True), (3, True)):
        whole, search = [], _search(letters, keys, count, exact=exact)
        while not search.done:
            whole += search.next_batch(10**6)
        stepped, empty, search = [], 0, _search(letters, keys, count, exact=exact)
        while not search.done:
            batch = search.next_batch(7, steps=3)
            stepped += batch
            empty += not batch
        assert stepped == whole and whole and empty > 0, (count, exact)
