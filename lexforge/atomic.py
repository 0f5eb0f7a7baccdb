"""Atomic output files: write to a temporary name beside the target, rename when complete.

A killed or failed step therefore never leaves a half-written artifact under its real name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


@contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path to write; it replaces ``path`` only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
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
