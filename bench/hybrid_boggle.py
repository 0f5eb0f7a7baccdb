"""danvk/hybrid-boggle, the C++ Boggle solver, run on lexforge's boards for bench_solver.py.

Its code is not part of lexforge: give ``bench_solver.py --hybrid-boggle DIR`` a checkout of
https://github.com/danvk/hybrid-boggle. ``bench/peers/hybrid_boggle_bench.cc`` (ours) is
compiled against its ``cpp/boggler.h`` and ``cpp/trie.cc`` with the flags of its CMakeLists.txt
and times its ``Boggler`` on one thread: ``FindWords`` (every word with its path; the peer lists
words on 4×4 boards only) and ``Score`` (4×4 and 5×5).

The peer's alphabet is a–z with ``q`` standing for "qu" in both the board and the word list.
Where the boards have ``Qu`` cells, the word list given to it is made the way the peer's own
lists are: "qu" becomes "q" and words with another q are left out. Where a ``Q`` cell is a
plain Q (French dice), the words are given as they are: the word lists match, only the peer's
score counts Q as two letters.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from lexforge.grid import Grid
from lexforge.lexicon import Lexicon

DRIVER = Path(__file__).resolve().parent / "peers" / "hybrid_boggle_bench.cc"
ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class HybridBoggle:
    """The peer built in ``scratch``, with ``lexicon``'s words of 3 letters and more."""

    def __init__(self, checkout: Path, lexicon: Lexicon, scratch: Path, qu_cells: bool) -> None:
        source = checkout / "cpp"
        if not (source / "boggler.h").is_file():
            raise SystemExit(f"{checkout}: not a hybrid-boggle checkout (no cpp/boggler.h)")
        compiler = shutil.which("g++") or shutil.which("c++")
        if not compiler:
            raise SystemExit("hybrid-boggle: no C++ compiler (g++) found")
        self.binary = scratch / "hybrid_boggle_bench"
        subprocess.run(
            [
                compiler,
                "-std=c++20",
                "-O3",
                "-march=native",
                # Its boggler.h of some commits (00d2043) calls strlen without <cstring>.
                "-include",
                "cstring",
                "-I",
                str(source),
                str(DRIVER),
                str(source / "trie.cc"),
                "-o",
                str(self.binary),
            ],
            check=True,
        )
        self.qu_cells = qu_cells
        self.words_file = scratch / "hybrid-boggle-words.txt"
        words = (peer_word(word, qu_cells) for word in lexicon.words.iterkeys() if len(word) >= 3)
        self.words_file.write_text("".join(f"{w}\n" for w in sorted(filter(None, words))))
        self.scratch = scratch

    def board_file(self, grids: list[Grid], name: str) -> Path | None:
        """The boards as the peer reads them, or None if a cell is not one of its letters."""
        lines = []
        for grid in grids:
            cells = ["q" if self.qu_cells and cell == "QU" else cell.lower() for cell in grid.cells]
            if any(len(cell) != 1 or cell.upper() not in ALPHABET for cell in cells):
                return None
            lines.append("".join(cells))
        path = self.scratch / name
        path.write_text("\n".join(lines) + "\n")
        return path

    def rate(self, boards: Path, mode: str) -> tuple[float, int]:
        """Boards per second of one pass over ``boards`` (``words`` or ``score`` mode), and what
        the pass found: the number of words, or the total score."""
        out = subprocess.run(
            [str(self.binary), str(self.words_file), str(boards), mode, "1"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        seconds, count, found = float(out[1]), int(out[3]), int(out[5])
        return count / seconds, found


def peer_word(word: str, qu_cells: bool) -> str | None:
    """``word`` as the peer's list holds it, or None if it cannot (letters outside a–z; a q
    without u where q stands for qu)."""
    if not set(word) <= ALPHABET or len(word) > 20:  # the peer scores up to 20 letters
        return None
    word = word.lower()
    if qu_cells and "q" in word:
        if "q" in word.replace("qu", ""):
            return None
        word = word.replace("qu", "q")
    return word
