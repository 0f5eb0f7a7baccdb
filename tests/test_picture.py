"""Pictures: the path or move drawn (text and SVG) is the one the solver found.

The SVG is read back with xml.etree: the polyline's points are mapped to cells and compared with
the solver's path, the numbered steps with its order; the Scrabble move's highlighted tiles with
its placed tiles. The text picture is read back from its plain marks.
"""

from __future__ import annotations

import os
import pty
import subprocess
import xml.etree.ElementTree as ET
from functools import cache

from build_helpers import ROOT
from test_cli import LEXFORGE, run

from lexforge import boggle, ruzzle, scrabble
from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon
from lexforge.picture import GRID_CELL, GRID_MARGIN

SVG = "{http://www.w3.org/2000/svg}"
RUZZLE_BOARD = "raw/en/reference/ruzzle-4x4.board"
MIDGAME = "tests/fixtures/scrabble/fr-midgame.board"


@cache
def lexicon(name: str) -> Lexicon:
    return Lexicon.open(ROOT / "build" / name)


def svg_path(svg: str) -> list[tuple[int, int]]:
    """The cells under the polyline's points, in order, checked against the numbered steps."""
    root = ET.fromstring(svg)
    (line,) = root.iter(f"{SVG}polyline")
    assert line.get("class") == "path" and line.get("marker-end") == "url(#arrow)"
    cells = []
    for point in line.get("points").split():
        x, y = map(float, point.split(","))
        col, dx = divmod(x - GRID_MARGIN, GRID_CELL)
        row, dy = divmod(y - GRID_MARGIN, GRID_CELL)
        assert dx == dy == GRID_CELL / 2  # the centre of a cell
        cells.append((int(row), int(col)))
    steps = [int(t.text) for t in root.iter(f"{SVG}text") if t.get("class") == "step"]
    assert steps == list(range(1, len(cells) + 1))
    return cells


def text_path(picture: str, rows: int) -> list[tuple[int, int]]:
    """The path of a plain text picture: the step numbers right of the grid."""
    steps = {}
    for row, line in enumerate(picture.splitlines()[:rows]):
        numbers = line.split("    ")[-1].split()
        for col, number in enumerate(numbers):
            if number != ".":
                steps[int(number)] = (row, col)
    return [steps[n] for n in sorted(steps)]


def test_boggle_svg_and_text_draw_the_solver_path(build_dir, tmp_path):
    en = lexicon("en")
    (grid,) = parse_grids("PERS/LATG/SINE/TERS", en.language)
    words = boggle.solve(en, grid)
    out = tmp_path / "g.svg"
    for chosen, args in ((words[0], []), (next(w for w in words if w.word == "SINE"), ["SINE"])):
        done = run(
            "boggle", "PERS/LATG/SINE/TERS", "--lexicon", "en", "--svg", str(out), "--show", *args
        )
        assert done.returncode == 0, done.stderr
        assert svg_path(out.read_text()) == list(chosen.path)
        assert text_path(done.stdout, 4) == list(chosen.path)
        assert f"{chosen.word}  score {chosen.score}" in done.stdout
        for r, c in chosen.path:  # plain marks around exactly the path's cells
            line = done.stdout.splitlines()[r]
            assert f"[{grid.cells[r * 4 + c]}]" in line
        assert done.stdout.count("[") == len(chosen.path)
        assert "\x1b[" not in done.stdout  # not a terminal: no colour


def test_ruzzle_svg_shows_the_best_path_and_multipliers(build_dir, tmp_path):
    en = lexicon("en")
    (board,) = parse_grids((ROOT / RUZZLE_BOARD).read_text(), en.language, multipliers=True)
    best = ruzzle.solve(en, board)[0]
    out = tmp_path / "r.svg"
    done = run("ruzzle", RUZZLE_BOARD, "--lexicon", "en", "--svg", str(out))
    assert done.returncode == 0 and "Number of words" in done.stdout  # the listing stays
    assert svg_path(out.read_text()) == list(best.path)
    labels = [
        t.text
        for t in ET.fromstring(out.read_text()).iter(f"{SVG}text")
        if t.get("class") == "multiplier"
    ]
    boosted = sum(
        1 for a, b in zip(board.letter_mult, board.word_mult, strict=True) if a > 1 or b > 1
    )
    assert len(labels) == boosted and set(labels) <= {
        "DL",
        "TL",
        "DW",
        "TW",
        "DLDW",
        "DLTW",
        "TLDW",
        "TLTW",
    }


def test_show_a_word_not_on_the_grid_fails_in_one_line(build_dir):
    done = run("boggle", "PERS/LATG/SINE/TERS", "--lexicon", "en", "--show", "QUIXOTIC")
    assert (
        done.returncode == 1
        and done.stderr == "lexforge boggle: nothing to draw: 'QUIXOTIC' is on no grid\n"
    )


def test_scrabble_svg_and_text_highlight_the_move(build_dir, tmp_path):
    fr = lexicon("fr")
    text = (ROOT / MIDGAME).read_text()
    board = scrabble.parse_board(text, fr.language, scrabble.load_layout(None))
    best = scrabble.find_moves(fr, board, "EIRSTAN")[0]
    out = tmp_path / "s.svg"
    done = run(
        "scrabble", MIDGAME, "--rack", "EIRSTAN", "--lexicon", "fr", "--show", "--svg", str(out)
    )
    assert done.returncode == 0, done.stderr
    root = ET.fromstring(out.read_text())
    new = {
        (int(r.get("data-row")), int(r.get("data-col")))
        for r in root.iter(f"{SVG}rect")
        if r.get("class") == "tile new"
    }
    assert new == {(row, col) for row, col, _ in best.placed}
    old = {
        (int(r.get("data-row")), int(r.get("data-col")))
        for r in root.iter(f"{SVG}rect")
        if r.get("class") == "tile"
    }
    assert old == {divmod(i, 15) for i, tile in enumerate(board.tiles) if tile}
    squares = {
        (int(r.get("data-row")), int(r.get("data-col"))): r.get("fill")
        for r in root.iter(f"{SVG}rect")
        if r.get("class") == "square"
    }
    assert squares[(0, 0)] == squares[(14, 14)] != squares[(1, 1)]  # TW vs DW
    # Text: [X] exactly on the placed tiles, rows numbered from 1 and columns from A.
    lines = done.stdout.splitlines()
    marked = set()
    for row, line in enumerate(lines[1:16]):
        for col in range(15):
            square = line[4 + 3 * col : 7 + 3 * col]
            if square.startswith("["):
                marked.add((row, col))
                assert square[1] == {(r, c): tile for r, c, tile in best.placed}[(row, col)]
    assert marked == {(row, col) for row, col, _ in best.placed}
    assert lines[-1] == f"{best.score}  {best.position}  {best.word}"
    chosen = run("scrabble", MIDGAME, "--rack", "EIRSTAN", "--lexicon", "fr", "--show", "ARISENT")
    assert chosen.returncode == 0 and chosen.stdout.splitlines()[-1].endswith("ARISENT"), (
        chosen.stderr
    )


def test_colour_only_on_a_terminal(build_dir):
    """Under a pseudo-terminal the picture is coloured (ANSI), without one it is plain."""
    main, secondary = pty.openpty()
    done = subprocess.run(
        [LEXFORGE, "boggle", "PERS/LATG/SINE/TERS", "--lexicon", "en", "--show"],
        stdout=secondary,
        stderr=secondary,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "TERM": "xterm"},
    )
    os.close(secondary)
    output = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(main)
    assert done.returncode == 0
    assert b"\x1b[1;30;42m" in output and b"[P]" not in output
