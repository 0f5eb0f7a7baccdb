"""Hand-made inputs of the pipeline's steps, written as the steps before them write them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lexforge.lexicon import anagram_class_offsets
from pipeline.outputs import record


def compiled_args(folder: Path, words: list[str]) -> list[str]:
    """anagrams.txt (its lines by their definition), anagram-classes.npy (by the plain loop of
    lexforge.lexicon) and words.txt of sorted ``words``, as the compile step writes and records
    them (``compile.json``), and the words step's ``removed.tsv`` (its header only); the tables
    step's arguments for them, for the report's history folder and for the manifest."""
    (folder / "work-removed.tsv").write_text("source\tkind\treason\tentry\n")
    lines = sorted("".join(sorted(w)) + "=" + w for w in words)
    (folder / "anagrams.txt").write_text("\n".join(lines) + "\n")
    classes = folder / "anagram-classes.npy"
    np.save(classes, np.asarray(anagram_class_offsets(lines), dtype="<u8"))
    (folder / "words.txt").write_text("".join(word + "\n" for word in words))
    artifacts = [folder / "words.txt", folder / "anagrams.txt", classes]
    record(folder / "compile.json", artifacts)
    return [
        "--removed", str(folder / "work-removed.tsv"),
        "--anagrams", str(folder / "anagrams.txt"),
        "--classes", str(classes),
        "--words-txt", str(folder / "words.txt"),
        "--history", str(folder / "history"),
        "--records", str(folder / "compile.json"),
        "--artifacts", *map(str, artifacts),
    ]  # fmt: skip
