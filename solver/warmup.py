"""Compile the solver's numba kernels into their on-disk cache, once, before parallel users.

    python -m solver.warmup [STAMP]

Numba compiles a kernel the first time a process calls it (seconds) and caches the machine code
beside the module; later processes load it in a fraction of a second. The pipeline runs this once
before its validation jobs so that they do not all compile the same kernels side by side. With
STAMP, writes that file when done (the Snakemake rule's output).
"""

from __future__ import annotations

import sys
from pathlib import Path

from solver import boggle, ruzzle
from solver.grid import Grid
from solver.language import Language
from solver.lexicon import Lexicon

LANGUAGE = Language(
    code="warmup",
    name="warm-up",
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ruzzle_values=dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1),
)


def warm_up() -> None:
    """Run every compiled search once on a tiny lexicon and grid."""
    lexicon = Lexicon.from_words(["CAT", "CATS", "ACT", "QUA", "TACT"], LANGUAGE)
    grid = Grid.from_rows([["C", "A"], ["T", "S"]])
    boggle.solve(lexicon, grid)
    boggle.solve_batch(lexicon, [grid, Grid.from_rows([["QU", "A"], ["T", "C"]])])
    ruzzle.solve(lexicon, Grid(2, 2, grid.cells, (2, 1, 1, 3), (1, 3, 2, 1)))


def main() -> int:
    warm_up()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).parent.mkdir(parents=True, exist_ok=True)
        Path(sys.argv[1]).write_text("numba kernels compiled and cached\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
