"""The players of lexforge.game: ``greedy``, ``equity`` (with leave values) and ``human``.

* ``greedy`` plays the best-scoring move (ties: lexforge.scrabble's order); with no move it
  exchanges its whole rack while the bag allows, else passes.
* ``equity`` plays the move or exchange of highest score + leave value, the value of the tiles
  kept (lexforge.leaves: a table, or a model ``snakemake leaves`` learns by self-play); ties go
  to moves, in the generator's order. With the bag empty nothing is drawn after the turn, so it
  plays the best score, as ``greedy``; it passes only when it can neither play nor exchange.
* ``human`` draws the board on a terminal and reads the turn in notation (``8H WORD``,
  ``-ABC``, ``-``; lexforge.plays); a play that is not legal gets one line and a new prompt.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations
from typing import TextIO

from lexforge import scrabble
from lexforge.errors import UserError, error_prefix, one_line
from lexforge.game import Player, View
from lexforge.leaves import Leaves
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
    """Score + the leave's value from ``leaves``."""

    def __init__(self, name: str, leaves: Leaves) -> None:
        self.name = name
        self.leaves = leaves

    def choose(self, view: View) -> Action:
        moves = scrabble.generate(view.lexicon, view.board, view.rack)
        if not view.bag:
            return moves.best(1)[0] if len(moves) else Pass()
        # Each multiset of kept tiles once (the rack is sorted, so each comes out sorted).
        kept_value = {
            "".join(kept): self.leaves.value("".join(kept))
            for size in range(len(view.rack))
            for kept in sorted(set(combinations(view.rack, size)))
        }
        best: tuple[float, int] = (-math.inf, 0)  # (equity, preference: moves first, in order)
        action: Action | int = Pass()
        if view.can_exchange:
            for kept, value in kept_value.items():
                option = (value, -(10**6) - len(kept))
                if option > best:
                    best, action = option, Exchange(rack_after(view.rack, kept))
        ceiling = max(kept_value.values())  # no leave is worth more: later moves cannot win
        for i in range(len(moves)):
            score = moves.score(i)
            if (score + ceiling, -i - 1) < best:
                break
            option = (score + kept_value[rack_after(view.rack, moves.tiles(i))], -i - 1)
            if option > best:
                best, action = option, i
        return moves[action] if isinstance(action, int) else action


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
                rack = language.spell(view.rack, bracket=True)
                text = self.read(f"{self.name}, rack {rack} (8H WORD, -TILES, -): ")
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
            except UserError as error:  # rack errors name tiles: [CH] as typed
                message = one_line(language.spell(str(error), bracket=True))
                self.out.write(f"{error_prefix('scrabble play')}{message}\n")

    def tile_play(self, view: View, placed: tuple, across: bool) -> Action:
        board, lexicon = view.board, view.lexicon
        check_play(board, placed, across)
        rack_after(view.rack, placed_tiles(placed))
        after = place(board, placed)
        for word in words_formed(board, placed, across):
            spelled = "".join(after.tiles[s] for s in word)
            if spelled not in lexicon:
                shown = lexicon.language.spell(spelled)
                raise UserError(f"{shown} is not in the {lexicon.name} lexicon")
        return make_move(board, placed, across, lexicon.language)


def make_player(
    kind: str,
    name: str,
    *,
    leaves: Leaves | None = None,
    human: Callable[[str], Human] | None = None,
) -> Player:
    """A player of ``kind`` (one of ``KINDS``); ``human`` makes the human one (it needs a
    terminal, which the caller has)."""
    if kind == "greedy":
        return Greedy(name)
    if kind == "equity":
        if leaves is None:
            raise UserError("an equity player needs leave values (--leaves FILE)")
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
