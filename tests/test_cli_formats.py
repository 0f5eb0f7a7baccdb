"""The command's answers: one JSON schema, four formats, inputs mapped back, the issue-7 defects.

Oracles: the Python API's own results for the same query (the CLI must only reshape them), the
words.tsv the pipeline read from the raw sources (for `check`), importlib.metadata (version),
and the letters of the query itself (joker marks).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from importlib.metadata import version
from pathlib import Path

import pytest
from build_helpers import ROOT
from test_cli import EMPTY_BOARD, LEXFORGE, fails_in_one_line, run

from lexforge import boggle, ruzzle
from lexforge.anagram import anagram
from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon

GRIDS = "S E R S\nP A T G\nL I N E\nS E R S\n\nZ Z\nZ Z\n\nQu A I S\nT E R N\nE S A L\nR O T E\n"
MULTI = {
    "anagram": (["anagram", "CHAT*"], None),
    "pattern": (["pattern", "C?A??"], None),
    "boggle": (["boggle", "-", "--paths"], GRIDS),
    "ruzzle": (["ruzzle", "raw/fr/reference/ruzzle-4x4.board"], None),
    "scrabble": (["scrabble", "-", "--rack", "CHATON?", "--top", "0"], EMPTY_BOARD),
    "generate": (["generate", "--count", "3", "--seed", "2"], None),
    "worddle": (["worddle", "-s", "2"], "a b c d\ne f g h"),
    "check": (["check", "chat", "Éléphant", "aujourd'hui", "zzzq"], None),
}


@cache
def lexicon(name: str) -> Lexicon:
    return Lexicon.open(ROOT / "build" / name)


@pytest.mark.parametrize("command", MULTI)
def test_one_schema_and_four_formats(build_dir, command):
    args, stdin = MULTI[command]
    args = [*args, "--lexicon", "fr"]
    data = json.loads(run(*args, "--json", stdin=stdin).stdout)
    assert data == json.loads(run(*args, "--format", "json", stdin=stdin).stdout)
    assert data["schema"] == "lexforge/1" and data["command"] == command
    assert data["lexicon"] == "fr" and isinstance(data["query"], dict)
    assert data["results"], data
    lines = run(*args, "--format", "jsonl", stdin=stdin).stdout.splitlines()
    assert [json.loads(line) for line in lines] == data["results"]
    header, *rows = run(*args, "--format", "tsv", stdin=stdin).stdout.splitlines()
    assert header.split("\t") == list(data["results"][0])
    assert len(rows) == len(data["results"])
    for row, result in zip(rows, data["results"], strict=True):
        cells = row.split("\t")
        assert len(cells) == len(result)
        for cell, value in zip(cells, result.values(), strict=True):
            if isinstance(value, (int, str)) and not isinstance(value, bool):
                assert cell == str(value)


def test_many_grids_map_back_to_their_grids(build_dir):
    """A grid without words (Z Z / Z Z) keeps its place: text headers, a grid column."""
    grids = parse_grids(GRIDS, lexicon("en").language)
    expected = [[w.word for w in boggle.solve(lexicon("en"), grid)] for grid in grids]
    assert expected[1] == [] and expected[0] and expected[2]
    text = run("boggle", "-", "--lexicon", "en", stdin=GRIDS).stdout
    blocks = re.split(r"\n?# grid (\d+)\n", text)[1:]
    assert [int(n) for n in blocks[::2]] == [1, 2, 3]
    assert [block.split() for block in blocks[1::2]] == expected
    header, *rows = run(
        "boggle", "-", "--lexicon", "en", "--format", "tsv", stdin=GRIDS
    ).stdout.splitlines()
    assert header == "grid\tword\tscore"
    by_grid = [[r.split("\t")[1] for r in rows if r.split("\t")[0] == str(n)] for n in (1, 2, 3)]
    assert by_grid == expected
    # The JSON lists every grid, the empty one included.
    data = json.loads(run("boggle", "-", "--lexicon", "en", "--json", stdin=GRIDS).stdout)
    assert [(g["grid"], g["count"]) for g in data["grids"]] == [
        (n, len(words)) for n, words in enumerate(expected, start=1)
    ]


def test_boggle_json_has_the_batch_words_and_scores(build_dir):
    grids = parse_grids(GRIDS, lexicon("fr").language)
    data = json.loads(run("boggle", "-", "--lexicon", "fr", "--json", stdin=GRIDS).stdout)
    assert [(r["grid"], r["word"], r["score"]) for r in data["results"]] == [
        (n, w.word, w.score)
        for n, grid in enumerate(grids, start=1)
        for w in boggle.solve(lexicon("fr"), grid)
    ]


def test_worddle_json_is_json(build_dir):
    done = run(
        "worddle", "-s", "4", "--lexicon", "en", "--json", stdin="a b e l t n o s m e d a r i s e"
    )
    data = json.loads(done.stdout)
    words = [r["word"] for r in data["results"]]
    assert data["command"] == "worddle" and "redolent" in words
    assert (
        words
        == run(
            "worddle", "-s", "4", "--lexicon", "en", stdin="a b e l t n o s m e d a r i s e"
        ).stdout.split()
    )


def test_pattern_marks_the_joker_on_a_wildcard():
    """'?ES' with a lone joker: SES is S(joker)+E+S, so the first S is the joker, not the last."""
    done = run("pattern", "?ES", "--rack", "*", "--lexicon", "fr")
    shown = done.stdout.split()
    assert "sES" in shown and "SEs" not in shown
    for word in shown:  # exactly the wildcard is lowercase, the literal letters never
        assert word[0].islower() and word[1:] == "ES"


def test_pattern_joker_marks_only_wildcards_against_the_rack(build_dir):
    data = json.loads(run("pattern", "S??S", "--rack", "OU*", "--lexicon", "fr", "--json").stdout)
    assert data["results"]
    for match in data["results"]:
        shown = match["shown"]
        assert shown[0] == "S" and shown[-1] == "S"  # the pattern's letters
        wild = shown[1:3]
        jokers = [c for c in wild if c.islower()]
        rack = list("OU")
        for c in wild:
            if c.isupper():
                rack.remove(c)  # every uppercase wildcard letter comes from the rack
        assert len(jokers) <= 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("scrabble", "-", "--rack", "AB", "--top", "-3"), "--top: -3"),
        (("anagram", "ABC", "--max", "-1"), "--max: -1"),
        (("anagram", "ABC", "--min", "0"), "--min: 0"),
        (("boggle", "ABCD/EFGH", "--min-length", "99999999999999999999"), "--min-length"),
        (("boggle", "ABCD/EFGH", "--threads", "0"), "--threads: 0"),
        (("generate", "--count", "0"), "--count: 0"),
        (("generate", "--rows", "-2"), "--rows: -2"),
        (("generate", "--rows", "x"), "'x' is not a whole number"),
        (("worddle", "-s", "0"), "--size: 0"),
        (("anagram", "SCRABBLE", "--contains", "Q?"), "--contains 'Q?': jokers"),
        (("boggle", "perslatgsinete"), "one line of 14 cells is not a square grid"),
        (("boggle", "perslatgsineters", "--size", "5"), "grid 1 is 4×4, --size says 5×5"),
        (("boggle", "nowhere.txt"), "nowhere.txt"),
        (("boggle", "ABCD/EFGH", "--show", "--json"), "--show draws a picture in text"),
        (("scrabble", "-", "--rack", "AB", "--show", "--format", "tsv"), "no --format tsv"),
        (("boggle", "ABCD/EFGH", "--svg", "/nonexistent/dir/x.svg"), "x.svg: cannot write"),
    ],
)
def test_bad_options_are_one_line(build_dir, args, fragment):
    fails_in_one_line(run(*args, "--lexicon", "fr", stdin=EMPTY_BOARD), fragment)


def test_scrabble_top_zero_is_every_move(build_dir):
    every = run(
        "scrabble", "-", "--rack", "CHAT", "--top", "0", "--lexicon", "fr", stdin=EMPTY_BOARD
    )
    data = json.loads(
        run(
            "scrabble",
            "-",
            "--rack",
            "CHAT",
            "--json",
            "--lexicon",
            "fr",
            "--top",
            "0",
            stdin=EMPTY_BOARD,
        ).stdout
    )
    assert len(every.stdout.splitlines()) == data["moves"] == len(data["results"]) > 20


def test_one_line_grid_is_square_and_board_on_the_command_line(build_dir):
    en = lexicon("en")
    (grid,) = parse_grids("P E R S\nL A T G\nS I N E\nT E R S", en.language)
    expected = [w.word for w in boggle.solve(en, grid)]
    for args in (
        ["perslatgsineters"],
        ["PERS/LATG/SINE/TERS"],
        ["P E R S/L A T G/S I N E/T E R S"],
        ["perslatgsineters", "--size", "4"],
    ):
        done = run("boggle", *args, "--lexicon", "en")
        assert done.returncode == 0 and done.stdout.split() == expected, args
    piped = run("boggle", "--lexicon", "en", stdin="perslatgsineters\n")
    assert piped.stdout.split() == expected


def test_generate_tsv_boards_feed_boggle_one_per_line(build_dir):
    tsv = run(
        "generate",
        "--count",
        "5",
        "--seed",
        "3",
        "--rows",
        "3",
        "--cols",
        "5",
        "--format",
        "tsv",
        "--lexicon",
        "en",
    ).stdout
    boards = [line.split("\t")[1] for line in tsv.splitlines()[1:]]
    assert len(boards) == 5 and all(board.count("/") == 2 for board in boards)
    text = run(
        "generate", "--count", "5", "--seed", "3", "--rows", "3", "--cols", "5", "--lexicon", "en"
    ).stdout
    grids = parse_grids(text, lexicon("en").language)
    data = json.loads(run("boggle", "--lexicon", "en", "--json", stdin="\n".join(boards)).stdout)
    assert [g["board"] for g in data["grids"]] == boards
    assert [g["count"] for g in data["grids"]] == [
        len(boggle.solve(lexicon("en"), g)) for g in grids
    ]


def test_batch_racks_from_stdin(build_dir):
    racks = ["ELEPHANT", "zzz", "chat*"]
    data = json.loads(
        run("anagram", "-", "--lexicon", "fr", "--json", stdin="\n".join(racks) + "\n\n").stdout
    )
    for number, rack in enumerate(racks, start=1):
        got = [(r["word"], r["shown"]) for r in data["results"] if r["rack"] == number]
        assert got == [(m.word, m.shown) for m in anagram(lexicon("fr"), rack)]
    text = run("anagram", "-", "--lexicon", "fr", stdin="\n".join(racks)).stdout
    assert "# rack 2: zzz\n\n# rack 3: chat*\n" in text


def test_threads_give_the_same_words(build_dir):
    boards = run("generate", "--count", "40", "--seed", "5", "--lexicon", "en").stdout
    one = run("boggle", "-", "--lexicon", "en", "--threads", "1", "--format", "tsv", stdin=boards)
    two = run("boggle", "-", "--lexicon", "en", "--threads", "2", "--format", "tsv", stdin=boards)
    assert one.returncode == 0 and one.stdout == two.stdout


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout == f"lexforge {version('lexforge')}\n"


def test_verify_takes_the_lexicon_from_the_environment(build_dir):
    done = subprocess.run(
        [LEXFORGE, "verify"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"LEXFORGE_LEXICON": "en", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0 and done.stdout.startswith("en: every artifact matches")


def words_tsv_sources(name: str) -> tuple[dict[str, int], list[str]]:
    """What the words step read from the raw sources: word → bitmask, and the source ids."""
    work = ROOT / "build" / "work" / name
    names = [s["id"] for s in json.loads((work / "sources.json").read_text())]
    masks = {}
    for line in (work / "words.tsv").read_text(encoding="utf-8").splitlines():
        word, mask = line.split("\t")
        masks[word] = int(mask)
    return masks, names


def test_check_normalizes_and_names_the_sources(build_dir):
    masks, names = words_tsv_sources("fr")
    only = {mask: word for word, mask in masks.items()}  # a word for each combination
    assert len(only) >= 3
    entries = ["Éléphant", "aujourd'hui", "chat-huant", "x", *only.values()]
    data = json.loads(run("check", *entries, "--lexicon", "fr", "--json").stdout)
    rows = {r["entry"]: r for r in data["results"]}
    assert rows["Éléphant"]["word"] == "ELEPHANT" and rows["Éléphant"]["found"]
    assert rows["aujourd'hui"]["rejected"] == "apostrophe" and not rows["aujourd'hui"]["found"]
    assert rows["chat-huant"]["rejected"] == "hyphen"
    assert rows["x"]["rejected"] == "too-short"
    for mask, word in only.items():
        assert rows[word]["sources"] == [n for bit, n in enumerate(names) if mask >> bit & 1]
    text = run("check", "zzzzzz", "blorpax", "chat", "--lexicon", "fr").stdout.splitlines()
    assert text[0] == "zzzzzz\trejected: no-vowel"  # the language's shape rules
    assert text[1] == "blorpax\tBLORPAX\tnot in fr"
    assert text[2].startswith("chat\tCHAT\tin fr (")


def test_check_every_word_of_the_lexicon_has_a_source(build_dir):
    fr = lexicon("fr")
    masks, names = words_tsv_sources("fr")
    sample = list(masks.items())[:: max(1, len(masks) // 500)]
    for word, mask in sample:
        assert fr.sources_of(word) == [n for bit, n in enumerate(names) if mask >> bit & 1]


#: The shells run completion as in a terminal: lexforge on the PATH, in the repository (so
#: ``lexforge lexicons`` lists ./build's lexicons).
SHELL_ENV = {"PATH": f"{Path(LEXFORGE).parent}:/usr/bin:/bin", "HOME": "/nonexistent"}
LEXICONS = {"de", "en", "es", "fr", "it", "nl", "pt"}


def bash_complete(*words: str, shell: str = "bash") -> list[str]:
    """What the completion function offers for ``lexforge WORDS…`` (the last being completed),
    run by the real bash, or by zsh through bashcompinit (its own compgen, which leaves the
    matching of the word being completed to zsh: done here as zsh does, by prefix)."""
    script = run("completion", shell).stdout
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    call = f"COMP_WORDS=(lexforge {quoted}); COMP_CWORD={len(words)}; _lexforge; "
    if shell == "bash":
        command = ["bash", "--norc", "-c", f"{script}\n{call}printf '%s\\n' \"${{COMPREPLY[@]}}\""]
    else:
        setup = "autoload -U compinit && compinit -u; setopt ksharrays; "
        command = ["zsh", "-f", "-c", f'{setup}{script}\n{call}print -l -- "${{COMPREPLY[@]}}"']
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=SHELL_ENV)
    assert done.returncode == 0, done.stderr
    return [word for word in done.stdout.split() if word.startswith(words[-1])]


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_bash_and_zsh_complete_commands_options_values_and_lexicons(build_dir, shell):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")

    def complete(*words: str) -> list[str]:
        return bash_complete(*words, shell=shell)

    assert {"anagram", "boggle", "check", "completion"} <= set(complete(""))
    assert "scrabble-play" not in complete("")
    assert complete("bo") == ["boggle"]
    offered = complete("scrabble", "p")  # the game, or a board file
    assert "play" in offered and "pyproject.toml" in offered and "selfplay" not in offered
    assert complete("scrabble", "play", "--pl") == ["--players"]
    assert {"--format", "--lexicon", "--show", "--svg", "--threads"} <= set(
        complete("boggle", "--")
    )
    assert "--min" not in complete("anagram", "--m")  # hidden aliases are not offered
    assert "--min-length" in complete("anagram", "--m")
    assert complete("boggle", "--format", "") == ["text", "json", "jsonl", "tsv"]
    assert complete("ruzzle", "--sort", "s") == ["score", "start"]
    assert complete("completion", "") == ["bash", "zsh", "fish"]
    assert complete("report", "--format", "") == ["text", "json"]
    assert set(complete("anagram", "--lexicon", "")) >= LEXICONS
    assert complete("pattern", "-l", "f") == ["fr"]
    assert "README.md" in complete("boggle", "README")


def test_zsh_completion_loads_in_zsh():
    zsh = shutil.which("zsh")
    if zsh is None:
        pytest.skip("zsh is not installed")
    script = run("completion", "zsh").stdout
    assert script.startswith("#compdef lexforge\n")
    done = subprocess.run(
        [zsh, "-f", "-c", f"autoload -U compinit && compinit -u; {script}\nwhence -w _lexforge"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "_lexforge: function" in done.stdout, done.stderr


def test_fish_completes_commands_options_values_and_lexicons(build_dir, tmp_path):
    """fish's own completion engine (``complete -C``) on the script, as fish loads it."""
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    script = tmp_path / "lexforge.fish"
    script.write_text(run("completion", "fish").stdout)

    def complete(line: str) -> list[str]:
        done = subprocess.run(
            ["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**SHELL_ENV, "HOME": str(tmp_path)},
        )
        assert done.returncode == 0 and not done.stderr, done.stderr
        return [entry.split("\t")[0] for entry in done.stdout.splitlines()]

    assert {"anagram", "boggle", "check", "completion", "scrabble"} <= set(complete("lexforge "))
    assert "scrabble-play" not in complete("lexforge ")
    offered = complete("lexforge scrabble p")  # the game, or a board file
    assert "play" in offered and "pyproject.toml" in offered and "selfplay" not in offered
    assert "--players" in complete("lexforge scrabble play --pl")
    assert "--min-length" in complete("lexforge anagram --m")
    assert "--min" not in complete("lexforge anagram --m")
    assert complete("lexforge boggle --format ") == ["json", "jsonl", "text", "tsv"]
    assert complete("lexforge completion ") == ["bash", "fish", "zsh"]
    assert set(complete("lexforge anagram --lexicon ")) >= LEXICONS
    assert "fr" in complete("lexforge pattern -l f")
    assert "README.md" in complete("lexforge boggle README")


def test_ruzzle_rows_are_the_solver_s(build_dir):
    en = lexicon("en")
    (board,) = parse_grids(
        (ROOT / "raw/en/reference/ruzzle-4x4.board").read_text(), en.language, multipliers=True
    )
    data = json.loads(
        run("ruzzle", "raw/en/reference/ruzzle-4x4.board", "--lexicon", "en", "--json").stdout
    )
    assert [(r["word"], r["score"], [tuple(c) for c in r["path"]]) for r in data["results"]] == [
        (w.word, w.score, list(w.path)) for w in ruzzle.solve(en, board)
    ]
