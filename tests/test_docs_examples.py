"""Every ```console example of README.md and docs/*.md runs, and prints what the page shows.

A ```console block holds commands (`$ command`; a line ending in `\\` goes on on the next) each
followed by its output, standard output and standard error together. A line `...` in the shown
output stands for any number of lines (none included); trailing spaces and blank lines at the
end do not count. Commands run in bash from the repository's root with the venv's `bin` first
on PATH, on the built default lexicons, in the tests' private data and cache directories, with
`NO_COLOR=1` and `COLUMNS=100`, in the order the page gives them (a block may use a file an
earlier command of the same page wrote).

A ```pycon block is a Python session (`>>>` prompts), run as a doctest from the repository's
root, all the blocks of a page in one namespace, `...` eliding output.

Blocks fenced ```sh are procedures (installing, building), not examples: other suites run them
(tests/test_workflow.py, tests/test_distribution.py). A command that calls the HTTP API at
`http://127.0.0.1:8000` is run against a `lexforge serve` this test starts on a free port of
127.0.0.1 (the port is the only text changed); a page whose examples run curl is skipped where
curl is missing, unless LEXFORGE_REQUIRE_CURL=1 (as .ci/run sets). A block right after a line
`<!-- slow -->` is run only with `-m slow`.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from build_helpers import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ELIDED = "..."
SHOWN_PORT = "127.0.0.1:8000"
TIMEOUT = 120
LEXICONS = ["--lexicon", "en", "--lexicon", "fr"]  # what the served examples query


@dataclass(frozen=True)
class Example:
    """One command of a page and the output the page shows for it."""

    page: str
    line: int
    command: str
    shown: tuple[str, ...]
    slow: bool


def parse_examples(text: str, page: str) -> list[Example]:
    """The examples of a page's ```console blocks, in order."""
    examples: list[Example] = []
    lines = text.splitlines()
    fence = None
    slow = False
    command: list[str] = []
    start = 0
    shown: list[str] = []

    def flush() -> None:
        if command:
            examples.append(Example(page, start, "\n".join(command), tuple(shown), slow))
        command.clear()
        shown.clear()

    continued = False
    for number, line in enumerate(lines, 1):
        if fence is None:
            if line.startswith("```"):
                fence = line[3:].strip()
                slow = number > 1 and lines[number - 2].strip() == "<!-- slow -->"
            continue
        if line.startswith("```"):
            if fence == "console":
                flush()
            fence = None
            continue
        if fence != "console":
            continue
        if continued:
            command.append(line)
        elif line.startswith("$ "):
            flush()
            start = number
            command.append(line[2:])
        elif command:
            shown.append(line)
        else:
            raise ValueError(f"{page}:{number}: output before any command in a console block")
        continued = line.endswith("\\")
    if fence is not None:
        raise ValueError(f"{page}: a code block is not closed")
    return examples


def matches(shown: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the shown ones, each `...` line standing for any run."""
    if not shown:
        return not actual
    if shown[0] == ELIDED:
        return any(matches(shown[1:], actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and shown[0] == actual[0] and matches(shown[1:], actual[1:])


def tidy(lines: list[str] | tuple[str, ...]) -> list[str]:
    """The lines without trailing spaces or trailing blank lines."""
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def all_examples() -> list[Example]:
    """Every example of every page."""
    found: list[Example] = []
    for page in PAGES:
        if page.name.endswith("-notes.md"):
            continue  # a helper's notes, to be folded into the pages
        found.extend(parse_examples(page.read_text(encoding="utf-8"), page.name))
    return found


def by_page(slow: bool) -> list[pytest.param]:
    """One test per page (its examples run in order), slow ones apart."""
    pages: dict[str, list[Example]] = {}
    for example in all_examples():
        if example.slow == slow:
            pages.setdefault(example.page, []).append(example)
    marks = [pytest.mark.slow] if slow else []
    return [pytest.param(name, runs, id=name, marks=marks) for name, runs in pages.items()]


def pycon_text(text: str) -> str:
    """The ```pycon blocks of a page, one after the other."""
    blocks = re.findall(r"^```pycon\n(.*?)^```", text, flags=re.M | re.S)
    return "\n".join(blocks)


def sessions() -> list[pytest.param]:
    """The pages holding Python sessions."""
    return [
        pytest.param(page, id=page.name)
        for page in PAGES
        if not page.name.endswith("-notes.md") and pycon_text(page.read_text(encoding="utf-8"))
    ]


NO_SLOW = [pytest.param("", [], id="none", marks=pytest.mark.slow)]  # no page has slow examples


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(build_dir: Path) -> Iterator[str]:
    """`lexforge serve` on the built en and fr lexicons; yields its host:port."""
    port = free_port()
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "lexforge"), "serve", "--port", str(port), *LEXICONS],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://{address}/api/lexicons", timeout=5):
                    break
            except OSError as error:
                if process.poll() is not None or time.monotonic() > deadline:
                    message = f"lexforge serve did not start: {process.stderr.read()!r}"
                    raise RuntimeError(message) from error
                time.sleep(0.2)
        yield address
    finally:
        process.terminate()
        process.wait(timeout=30)


def run(example: Example, request: pytest.FixtureRequest) -> list[str]:
    """The example's output lines, run as the page says."""
    command = example.command
    if SHOWN_PORT in command:
        command = command.replace(SHOWN_PORT, request.getfixturevalue("server"))
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100", PYTHONIOENCODING="utf-8")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=TIMEOUT,
    )
    return tidy(result.stdout.splitlines())


def check_page(runs: list[Example], request: pytest.FixtureRequest) -> None:
    """Run a page's examples in order; fail on the first whose output differs."""
    if not runs:
        return
    if any(example.command.startswith("curl ") for example in runs) and not shutil.which("curl"):
        if os.environ.get("LEXFORGE_REQUIRE_CURL") == "1":
            pytest.fail("curl is not installed (LEXFORGE_REQUIRE_CURL=1)")
        pytest.skip("curl is not installed")
    request.getfixturevalue("build_dir")
    for example in runs:
        actual = run(example, request)
        shown = tidy(example.shown)
        if not matches(shown, actual):
            pytest.fail(
                f"{example.page}:{example.line}: $ {example.command}\n"
                f"--- shown\n" + "\n".join(shown) + "\n--- printed\n" + "\n".join(actual),
                pytrace=False,
            )


@pytest.mark.parametrize(("page", "runs"), by_page(slow=False))
def test_examples(page: str, runs: list[Example], request: pytest.FixtureRequest) -> None:
    """The quick examples of a page print what it shows."""
    check_page(runs, request)


@pytest.mark.parametrize(("page", "runs"), by_page(slow=True) or NO_SLOW)
def test_slow_examples(page: str, runs: list[Example], request: pytest.FixtureRequest) -> None:
    """The slow examples of a page print what it shows."""
    check_page(runs, request)


@pytest.mark.parametrize("page", sessions())
def test_python_sessions(
    page: Path, build_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A page's Python sessions print what it shows."""
    monkeypatch.chdir(ROOT)
    text = pycon_text(page.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)


PICTURES = {
    "boggle-replastering.svg": "lexforge boggle 'PERS/LATG/SINE/TERS' --lexicon en"
    " --show REPLASTERING --svg {out}",
    "scrabble-tsarine.svg": "lexforge scrabble tests/fixtures/scrabble/fr-midgame.board"
    " --rack EIRSTAN --lexicon fr --show --svg {out}",
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_pictures_are_current(
    name: str, build_dir: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The SVG pictures of docs/img/ are what lexforge draws today."""
    out = tmp_path / name
    run(Example("docs/img", 0, PICTURES[name].format(out=out), (), False), request)
    assert out.read_bytes() == (ROOT / "docs" / "img" / name).read_bytes(), (
        f"docs/img/{name} is out of date: {PICTURES[name].format(out='docs/img/' + name)}"
    )


def test_matches_elisions() -> None:
    """`...` stands for any run of lines, the empty one included; other lines must be equal."""
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["...", "c"], ["a", "b", "c"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"])
    assert not matches(["a"], ["b"])


def test_parse_examples() -> None:
    """Commands, their continuation lines and outputs; other fences are not examples."""
    text = "\n".join(
        [
            "```sh",
            "$ not an example",
            "```",
            "<!-- slow -->",
            "```console",
            "$ echo a \\",
            "  b",
            "a b",
            "$ true",
            "```",
        ]
    )
    first, second = parse_examples(text, "page.md")
    assert first == Example("page.md", 6, "echo a \\\n  b", ("a b",), True)
    assert second == Example("page.md", 9, "true", (), True)
    with pytest.raises(ValueError, match="not closed"):
        parse_examples("```console\n$ true\n", "page.md")


def test_a_wrong_output_fails(request: pytest.FixtureRequest) -> None:
    """The check can fail: an example whose shown output is not what the command prints."""
    wrong = Example("page.md", 1, "echo printed", ("shown",), False)
    with pytest.raises(pytest.fail.Exception, match="--- printed\nprinted"):
        check_page([wrong], request)
