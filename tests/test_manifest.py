"""The manifest's certification (pipeline.manifest.certified) against the records the build steps
write (pipeline.outputs.record), and its word count against iterating the file."""

from __future__ import annotations

import hashlib
import os

import pytest

from lexforge.errors import UserError
from pipeline.manifest import certified, count_lines
from pipeline.outputs import record, recorded_entries


@pytest.fixture
def recorded(tmp_path):
    """Two artifacts as a step records them, and the record read back."""
    files = [tmp_path / "words.txt", tmp_path / "graph.npy"]
    files[0].write_bytes(b"AB\nABC\n")
    files[1].write_bytes(b"\x93NUMPY graph")
    record(tmp_path / "compile.json", files)
    return files, recorded_entries([tmp_path / "compile.json"])


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_untouched_artifacts_are_certified_with_their_hashes(recorded):
    files, entries = recorded
    assert certified(files, entries) == [
        {"name": "graph.npy", "bytes": 12, "sha256": sha256(b"\x93NUMPY graph")},
        {"name": "words.txt", "bytes": 7, "sha256": sha256(b"AB\nABC\n")},
    ]


def test_a_file_touched_but_unchanged_is_hashed_and_certified(recorded):
    files, entries = recorded
    stat = files[0].stat()
    os.utime(files[0], ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert certified(files, entries)[1]["sha256"] == sha256(b"AB\nABC\n")


@pytest.mark.parametrize("content", [b"AB\nABCD\n", b"AB\nABD\n"])  # another size; the same
def test_a_changed_file_is_refused(recorded, content):
    files, entries = recorded
    stat = files[0].stat()
    files[0].write_bytes(content)
    os.utime(files[0], ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    with pytest.raises(UserError, match=r"words\.txt: not as its build step wrote it"):
        certified(files, entries)


def test_a_file_no_step_recorded_is_refused(recorded, tmp_path):
    files, entries = recorded
    stray = tmp_path / "stray.npy"
    stray.write_bytes(b"x")
    with pytest.raises(UserError, match=r"stray\.npy: not as its build step wrote it"):
        certified([*files, stray], entries)


@pytest.mark.parametrize("text", [b"", b"\n", b"A\nB\n", b"A\nB", b"A" * (1 << 21) + b"\nB\n"])
def test_count_lines_counts_as_iterating_does(tmp_path, text):
    path = tmp_path / "words.txt"
    path.write_bytes(text)
    with open(path, "rb") as handle:
        assert count_lines(path) == sum(1 for _ in handle)


def test_a_missing_artifact_is_one_line(recorded):
    files, entries = recorded
    files[1].unlink()
    with pytest.raises(UserError, match=r"graph\.npy: cannot read \(No such file"):
        certified(files, entries)
