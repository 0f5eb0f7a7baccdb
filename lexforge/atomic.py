"""Atomic output files: write to a temporary name beside the target, rename when complete.

A killed or failed step therefore never leaves a half-written artifact under its real name; a
killed one (SIGKILL skips the clean-up) leaves its temporary file, which
``remove_stale_temporaries`` deletes once the process that wrote it is gone.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

TEMPORARY_SUFFIX = ".tmp"
_TEMPORARY = re.compile(rf"^\..+{re.escape(TEMPORARY_SUFFIX)}(\d+)$")


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Delete the temporary files and directories under ``folder`` whose writing process is no
    longer running; return them."""
    removed = []
    for path in sorted(folder.rglob(f".*{TEMPORARY_SUFFIX}*")) if folder.is_dir() else []:
        match = _TEMPORARY.match(path.name)
        if not match or _running(int(match.group(1))) or not os.path.lexists(path):
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        removed.append(path)
    return removed


@contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path to write; it replaces ``path`` only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}{TEMPORARY_SUFFIX}{os.getpid()}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def atomic_open(path: Path | str, mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """``open()`` for writing, atomically (text mode defaults to UTF-8 with ``\\n`` endings)."""
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
        kwargs.setdefault("newline", "\n")
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as handle:
        yield handle
