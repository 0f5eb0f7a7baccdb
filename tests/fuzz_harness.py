"""The fuzz suite's harness: hostile command lines for every command, run in-process, each
outcome classified.

An outcome is an *answer* (exit 0), an *error* (exit 1 and exactly one line on stderr,
``lexforge…``, at most ``MAX_ERROR`` characters, quoting no more than ``MAX_QUOTE`` characters
of any argument or of the input) or a *defect* (anything else: a traceback, another exit
status, a multi-line or runaway message). Standard output is capped at
``OUTPUT_CAP`` bytes, as ``| head`` would: past it a write fails with a broken pipe, which the
command must take as the end of its reader (exit 0), so a query with a huge answer (``generate
--count 1000000``) is cut, not run to its end.

Used by tests/test_fuzz.py (bounded for CI) and scripts/fuzz.py (a longer run, with counts).
"""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from dataclasses import dataclass

from hypothesis import strategies as st

from lexforge.cli import main

OUTPUT_CAP = 256 * 1024
MAX_ERROR = 600
MAX_QUOTE = 160  # lexforge.errors.LONGEST_RUN

#: Text no command should choke on: empty, jokers only, a very long run, control and
#: bidirectional characters, ligatures, digits, format strings, path-like and shell-like text.
HOSTILE_TEXT = (
    "",
    " ",
    "*",
    "?",
    "**********",
    "?" * 40,
    "A" * 10_000,
    "\x00",
    "\x1b[31mA",
    "\u202eABC",
    "ﬁ",
    "ÉTÉ",
    "straße",
    "Q?U*",
    "%s%n%x",
    "{0}",
    "../../etc/passwd",
    "/etc/hostname",
    "A=1,B=99999999999999999999",
    "A=99999999999999999999",
    "🙂",
    "١٢٣",
    "-",
    "--",
    "-h",
    "A/B/C",
    "AB/C",
    "A B\nC D",
    "AB/CD|EF/GH",
    "AB/CD||EF",
    "A\n---\n\n===\nB",
    "|",
)
HOSTILE_NUMBERS = (
    "0",
    "1",
    "2",
    "3",
    "15",
    "-1",
    "64",
    "65",
    "999",
    "1000",
    "1000000",
    "99999999999999999999",
    "1e3",
    "nan",
    "",
    "0x10",
    " 5",
    "٣",
)
LEXICONS = ("en", "en", "en", "build/en", "xx", "", "/etc", "../..", "a" * 300, "-")
FORMATS = ("text", "json", "jsonl", "tsv", "xml")

text = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.text(max_size=30),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZÉÈÇ*?/ \n", max_size=30),
)
number = st.sampled_from(HOSTILE_NUMBERS)
#: ``--shape`` values: good and bad shapes (zero, negative, too many cells or dimensions).
shape = st.one_of(
    st.sampled_from(("2x2x2", "4", "1x3x3", "0x2", "2x-2", "3x3x3x3x3", "64x64x2", "9" * 20, "x")),
    st.text(alphabet="0123x×-", max_size=10),
)
grid_rows = st.lists(
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ QuÉ?*.123xX", min_size=0, max_size=12),
    min_size=0,
    max_size=8,
)
grid_text = st.one_of(st.sampled_from(HOSTILE_TEXT), grid_rows.map("\n".join))


def _options(pairs: dict[str, st.SearchStrategy]) -> st.SearchStrategy[list[str]]:
    """Any subset of the options, each with a value drawn from its strategy (flags: None)."""
    chosen = st.lists(st.sampled_from(sorted(pairs)), unique=True, max_size=len(pairs))

    def expand(names: list[str]) -> st.SearchStrategy[list[str]]:
        parts = [
            st.just([name]) if pairs[name] is None else pairs[name].map(lambda v, n=name: [n, v])
            for name in names
        ]
        return st.tuples(*parts).map(lambda groups: [item for group in groups for item in group])

    return chosen.flatmap(expand)


COMMON = {"--format": st.sampled_from(FORMATS), "--json": None}
SORT = st.sampled_from(("length", "alpha", "score", "start", "end", "bogus"))

#: Per command: its positional arguments and its options (None: a flag).
COMMANDS: dict[str, tuple[st.SearchStrategy[list[str]], dict]] = {
    "anagram": (
        text.map(lambda t: [t]),
        {
            "--exact": None,
            "--min": number,
            "--max": number,
            "--contains": text,
            "--sort": SORT,
        },
    ),
    "phrase": (  # anagram --phrase: its own options, and the rack ones it must refuse
        st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=16)).map(
            lambda t: ["--phrase", t]
        ),
        {
            "--words": number,
            "--limit": number,
            "--min-len": number,
            "--contains": text,
            "--sort": st.sampled_from(("longest", "words", "length", "bogus")),
            "--exact": None,
        },
    ),
    "pattern": (text.map(lambda t: [t]), {"--rack": text, "--sort": SORT}),
    "boggle": (
        grid_text.map(lambda t: [t.replace("\n", "/")]),
        {
            "--size": number,
            "--shape": shape,
            "--min-length": number,
            "--adjacency": number,
            "--paths": None,
            "--score": None,
            "--threads": number,
            "--show": text,
        },
    ),
    "ruzzle": (
        grid_text.map(lambda t: [t.replace("\n", "/")]),
        {"--sort": SORT, "--values": text, "--show": text},
    ),
    "scrabble": (
        st.one_of(st.just([]), grid_text.map(lambda t: [t.replace("\n", "/")])),
        {"--rack": text, "--top": number, "--layout": text, "--gcg": text, "--turn": number},
    ),
    "generate": (
        st.just([]),
        {
            "--rows": number,
            "--cols": number,
            "--shape": shape,
            "--count": number,
            "--seed": number,
            "--dice": text,
            "--multipliers": None,
            "--threads": number,
        },
    ),
    "check": (st.lists(text, min_size=0, max_size=3), {}),
    "worddle": (st.just([]), {"--size": number, "--min-length": number}),
}


@st.composite
def command_lines(draw: st.DrawFn, command: str | None = None) -> tuple[list[str], str]:
    """A hostile command line and the text on its standard input."""
    name = command or draw(st.sampled_from(sorted(COMMANDS)))
    positional, options = COMMANDS[name]
    lexicon = ["--lexicon", draw(st.sampled_from(LEXICONS))]
    argv = [name, *draw(positional), *draw(_options({**options, **COMMON})), *lexicon]
    if name == "phrase":  # `anagram --phrase TEXT …`
        argv[0] = "anagram"
    grid_input = name in ("scrabble", "worddle", "boggle", "ruzzle")
    return argv, draw(grid_text if grid_input else text)


class _CappedOutput(io.RawIOBase):
    """A byte sink that keeps what it is given and breaks like a closed pipe once ``cap``
    bytes were written."""

    def __init__(self, cap: int) -> None:
        self.data = bytearray()
        self.cap = cap

    def writable(self) -> bool:
        return True

    def write(self, data: bytes | bytearray | memoryview) -> int:
        if len(self.data) + len(data) > self.cap:
            raise BrokenPipeError("output cap reached")
        self.data += data
        return len(data)


@dataclass(frozen=True)
class Outcome:
    kind: str  # "answer", "error" or "defect"
    code: int | None
    stderr: str
    stdout: bytes  # at most OUTPUT_CAP bytes


def run(argv: list[str], stdin: str = "", cap: int = OUTPUT_CAP) -> Outcome:
    """Run ``lexforge ARGV`` in this process with ``stdin``; its outcome (stdout past ``cap``
    bytes breaks like a closed pipe)."""
    saved = sys.stdin, sys.stdout, sys.stderr
    errors = io.StringIO()
    output = _CappedOutput(cap)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8", "surrogatepass")))
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(output), encoding="utf-8")
    sys.stderr = errors
    code: int | None
    try:
        try:
            code = main(argv)
            sys.stdout.flush()
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BrokenPipeError:
            code = 0  # past the cap, the reader is gone: what `| head` does
    except BaseException:  # a crash is the finding
        code = None
        errors.write(traceback.format_exc())
    finally:
        with contextlib.suppress(BrokenPipeError):
            sys.stdout.close()
        sys.stdin, sys.stdout, sys.stderr = saved
    message = errors.getvalue()
    return Outcome(classify(code, message, [*argv, stdin]), code, message, bytes(output.data))


def classify(code: int | None, stderr: str, inputs: list[str]) -> str:
    """``answer``, ``error`` or ``defect`` (see the module's docstring)."""
    lines = stderr.splitlines()
    if code == 0 and "Traceback" not in stderr:
        return "answer"
    if len(lines) != 1 or not lines[0].startswith("lexforge"):
        return "defect"
    usage = lines[0].endswith("--help)")  # a command line refused: exit 2, "(see: … --help)"
    if code != (2 if usage else 1):
        return "defect"
    quotes_too_much = any(
        len(text) > MAX_QUOTE and text[: MAX_QUOTE + 1] in lines[0] for text in inputs
    )
    return "defect" if len(lines[0]) > MAX_ERROR or quotes_too_much else "error"
