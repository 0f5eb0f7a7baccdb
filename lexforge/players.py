"""The players of lexforge.game: ``greedy``, ``equity`` (with a leave table) and ``human``.

* ``greedy`` plays the best-scoring move (ties: lexforge.scrabble's order); with no move it
  exchanges its whole rack while the bag allows, else passes.
* ``equity`` plays the move, exchange or pass of highest score + leave value, where the leave
  value of the tiles kept comes from a table (a file of ``TILES<TAB>VALUE`` lines, tiles sorted
  with ``?`` for blanks; a leave the table lacks is worth 0). The table is an input: lexforge
  ships none yet (issue 11, point 5 learns it by self-play).
* ``human`` draws the board on a terminal and reads the turn in notation (``8H WORD``,
  ``-ABC``, ``-``; lexforge.plays); a play that is not legal gets one line and a new prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import TextIO

from lexforge import scrabble
from lexforge.errors import UserError, one_line
from lexforge.game import Player, View, sort_rack
from lexforge.plays import (
    Action,
    Exchange,
    Pass,
    check_play,
    make_move,
    parse_action,
    placed_tiles,
    rack_after,
    words_formed,
)
from lexforge.scrabble import Board, place

KINDS = ("greedy", "equity", "human")


class Greedy:
    """The best score now; an exchange of the whole rack (or a pass) when nothing plays."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: View) -> Action:
        best = scrabble.find_moves(view.lexicon, view.board, view.rack, top=1)
        if best:
            return best[0]
        return Exchange(view.rack) if view.can_exchange else Pass()


class Equity:
    """Score + the leave's value from ``leaves`` (sorted tiles → points)."""

    def __init__(self, name: str, leaves: dict[str, float]) -> None:
        self.name = name
        self.leaves = leaves

    def leave(self, tiles: str) -> float:
        return self.leaves.get(sort_rack(tiles), 0.0)

    def choose(self, view: View) -> Action:
        best: tuple[float, int, Action] = (self.leave(view.rack), 0, Pass())
        for i, move in enumerate(scrabble.generate(view.lexicon, view.board, view.rack)):
            kept = rack_after(view.rack, placed_tiles(move.placed))
            best = max(best, (move.score + self.leave(kept), -i - 1, move), key=_first_two)
        if view.can_exchange:
            for size in range(len(view.rack)):  # tiles kept
                for kept in sorted(set(combinations(view.rack, size))):
                    given = rack_after(view.rack, "".join(kept))
                    option = (self.leave("".join(kept)), -(10**6) - size, Exchange(given))
                    best = max(best, option, key=_first_two)
        return best[2]


def _first_two(option: tuple[float, int, Action]) -> tuple[float, int]:
    return option[0], option[1]


def read_leaves(path: str) -> dict[str, float]:
    """A leave table file (see the module docstring); UserError naming the line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: cannot read the leave table ({error})") from None
    leaves = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError
            leaves[sort_rack(parts[0].upper())] = float(parts[1])
        except ValueError:
            raise UserError(f"{path}: line {number}: expected TILES VALUE (e.g. ?S 25.5)") from None
    return leaves


class Human:
    """A person at the terminal: the board, the scores and the rack, then a prompt."""

    def __init__(
        self, name: str, read: Callable[[str], str], out: TextIO, draw: Callable[[Board], str]
    ) -> None:
        self.name = name
        self.read = read  # input(): raises EOFError at the end of input
        self.out = out
        self.draw = draw  # the board as text (the CLI passes lexforge.picture's)

    def choose(self, view: View) -> Action:
        language = view.lexicon.language
        self.out.write(self.draw(view.board))
        scores = "  ".join(f"player {i + 1}: {s}" for i, s in enumerate(view.scores))
        self.out.write(f"{scores}   bag: {view.bag}\n")
        while True:
            try:
                text = self.read(f"{self.name}, rack {view.rack} (8H WORD, -TILES, -): ")
            except EOFError:
                raise UserError(f"{self.name}: no more input, the game is abandoned") from None
            try:
                action = parse_action(text, view.board, language)
                if isinstance(action, tuple):
                    return self.tile_play(view, *action)
                if isinstance(action, Exchange):
                    if not view.can_exchange:
                        raise UserError(f"no exchange with {view.bag} tiles in the bag")
                    rack_after(view.rack, action.tiles)
                return action
            except UserError as error:
                self.out.write(f"lexforge: {one_line(str(error))}\n")

    def tile_play(self, view: View, placed: tuple, across: bool) -> Action:
        board, lexicon = view.board, view.lexicon
        check_play(board, placed, across)
        rack_after(view.rack, placed_tiles(placed))
        after = place(board, placed)
        for word in words_formed(board, placed, across):
            spelled = "".join(after.tiles[s] for s in word)
            if spelled not in lexicon:
                raise UserError(f"{spelled} is not in the {lexicon.name} lexicon")
        return make_move(board, placed, across, lexicon.language)


def make_player(
    kind: str,
    name: str,
    *,
    leaves: dict[str, float] | None = None,
    human: Callable[[str], Human] | None = None,
) -> Player:
    """A player of ``kind`` (one of ``KINDS``); ``human`` makes the human one (it needs a
    terminal, which the caller has)."""
    if kind == "greedy":
        return Greedy(name)
    if kind == "equity":
        if leaves is None:
            raise UserError("an equity player needs a leave table (--leaves FILE)")
        return Equity(name, leaves)
    if kind == "human" and human is not None:
        return human(name)
    raise UserError(f"player {kind!r}: expected one of {', '.join(KINDS)}")


def player_kinds(spec: str) -> list[str]:
    """``--players greedy,human``: two or more kinds."""
    kinds = [k.strip() for k in spec.split(",")]
    for kind in kinds:
        if kind not in KINDS:
            raise UserError(f"--players {spec!r}: {kind!r} is not one of {', '.join(KINDS)}")
    if len(kinds) < 2:
        raise UserError(f"--players {spec!r}: a game needs two or more players")
    return kinds
