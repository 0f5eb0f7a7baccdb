"""The one exception type for expected failures (bad input, missing files)."""

import re
import sys
from collections.abc import Callable


class UserError(Exception):
    """An expected failure, reported to the user as one line: what, which file, what to do."""


class EncodingError(UserError):
    """A text file that is not in the encoding it was read with: ``advice`` says what to do,
    in words the reader's user has (a pipeline source's setting, a command's option)."""

    def __init__(self, problem: str, advice: str) -> None:
        super().__init__(f"{problem}; {advice}")
        self.problem = problem


def report_user_errors(main: Callable[[], int | None], command: str = "") -> int:
    """Run ``main``; turn a UserError into one line on stderr (``lexforge COMMAND: message``)
    and exit status 1; Ctrl-C into exit status 130."""
    try:
        return main() or 0
    except UserError as error:
        print(f"{error_prefix(command)}{one_line(str(error))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def error_prefix(command: str = "") -> str:
    """The start of every error line: ``lexforge COMMAND: `` (``lexforge: `` without one)."""
    return f"lexforge {command}: " if command else "lexforge: "


#: A run of characters without a space longer than this in an error message is input quoted
#: whole (a 10,000-letter rack): ``one_line`` shortens it to an excerpt.
LONGEST_RUN = 160


def one_line(message: str) -> str:
    """An error message as printed: ``printable``, and no run longer than ``LONGEST_RUN``."""
    return _LONG_RUN.sub(lambda run: excerpt(run.group(), 60), printable(message))


def printable(text: str) -> str:
    """``text`` with every character that is not printable (line breaks, controls, direction
    marks) written as its Python escape, so a message stays one visible line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


_LONG_RUN = re.compile(rf"\S{{{LONGEST_RUN + 1},}}")


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` as quoted in an error line: at most ``limit`` characters, the rest elided."""
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
