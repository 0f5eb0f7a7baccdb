"""The one exception type for expected failures (bad input, missing files)."""

import sys
from collections.abc import Callable


class UserError(Exception):
    """An expected failure, reported to the user as one line: what, which file, what to do."""


def report_user_errors(main: Callable[[], int | None]) -> int:
    """Run ``main``; turn a UserError into one line on stderr and exit status 1."""
    try:
        return main() or 0
    except UserError as error:
        print(f"lexforge: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` as quoted in an error line: at most ``limit`` characters, the rest elided."""
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
