"""Hand-made inputs of the pipeline's steps, written as the steps before them write them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lexforge.lexicon import anagram_class_offsets


def compiled_args(folder: Path, words: list[str]) -> list[str]:
    """anagrams.txt (its lines by their definition), anagram-classes.npy (by the plain loop of
    lexforge.lexicon) and words.txt of sorted ``words``, as the compile step writes
    them; the tables step's arguments for them and for the report's history folder."""
    lines = sorted("".join(sorted(w)) + "=" + w for w in words)
    (folder / "anagrams.txt").write_text("\n".join(lines) + "\n")
    classes = folder / "anagram-classes.npy"
    np.save(classes, np.asarray(anagram_class_offsets(lines), dtype="<u8"))
    (folder / "words.txt").write_text("".join(word + "\n" for word in words))
    return [
        "--anagrams", str(folder / "anagrams.txt"),
        "--classes", str(classes),
        "--words-txt", str(folder / "words.txt"),
        "--history", str(folder / "history"),
    ]  # fmt: skip
