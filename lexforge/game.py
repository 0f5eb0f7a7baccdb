"""A whole game of Scrabble: the bag, turns, the end, the score sheet (a GCG record).

The bag holds the language's tiles (lexforge.tiles: as the board holds them) and blanks,
shuffled by ``random.Random(seed)``; each player draws ``rack_size`` tiles in turn order. A
turn is a play (tiles drawn back up to a full rack), an exchange (only while the bag holds at
least ``rack_size`` tiles: the new tiles are drawn before the old go back, then the bag is
shuffled) or a pass. The game ends when a player plays out their rack with the bag empty —
they gain the value of every other rack and each other player loses their own — or after six
scoreless turns in a row (passes, exchanges, plays scoring 0), when each player loses their
rack's value. Players are anything with a ``choose(view) -> Action`` method
(lexforge.players); the engine checks what they choose against the rack and the bag, not the
lexicon (a play's legality is the player's to check: the computer players take theirs from
the move generator). Same seed, same players: the same game, to the byte of its record.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from lexforge import gcg
from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.plays import BLANK, PLAYED_THROUGH, Action, Exchange, Pass, placed_tiles, rack_after
from lexforge.scrabble import Board, Layout, Move, load_layout, play
from lexforge.tiles import left_out, tile_counts

SCORELESS_TURNS = 6  # in a row, by any players: the game ends


@dataclass(frozen=True)
class View:
    """What a player knows on its turn."""

    lexicon: Lexicon
    board: Board
    rack: str  # letters and ? blanks, sorted
    bag: int  # tiles left in the bag
    scores: tuple[int, ...]
    player: int  # whose turn (index into scores)
    scoreless: int = 0  # scoreless turns in a row before this one

    @property
    def can_exchange(self) -> bool:
        return self.bag >= self.lexicon.language.rack_size


class Player(Protocol):
    """A seat at the table: a name (the GCG nickname) and a way to choose its turn."""

    name: str

    def choose(self, view: View) -> Action: ...


@dataclass
class Result:
    """A finished game: its record, final scores, bingos and turns per player."""

    record: gcg.Record
    scores: list[int]
    bingos: list[int]
    turns: int
    moves: int  # tile plays

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [i for i, score in enumerate(self.scores) if score == best]


def new_bag(lexicon: Lexicon, rng: random.Random) -> list[str]:
    """Every tile of the set (``?`` for blanks), shuffled."""
    language = lexicon.language
    if not language.tile_counts:
        raise UserError(f"{lexicon.name}: the {language.name} language has no Scrabble tiles")
    bag = sorted(tile_counts(language).elements()) + [BLANK] * language.blanks
    rng.shuffle(bag)
    return bag


def _left_out(language: Language) -> str:
    """A note for the record on the set's tiles the bag leaves out (lexforge.tiles)."""
    missing = left_out(language)
    return f"; tiles left out: {' '.join(missing)}" if missing else ""


def sort_rack(tiles: Sequence[str]) -> str:
    return "".join(sorted(tiles, key=lambda t: (t == BLANK, t)))


def rack_value(rack: str, lexicon: Lexicon) -> int:
    values = lexicon.language.tile_values
    return sum(values.get(t, 0) for t in rack if t != BLANK)


@dataclass
class Game:
    """The state of a game in progress; ``run`` plays it to the end."""

    lexicon: Lexicon
    players: Sequence[Player]
    seed: int
    layout: Layout = field(default_factory=lambda: load_layout(None))
    on_turn: Callable[[gcg.Event, Game], None] | None = None  # called after each turn

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise UserError(f"a game needs two or more players, not {len(self.players)}")
        language = self.lexicon.language
        self.rng = random.Random(self.seed)
        self.bag = new_bag(self.lexicon, self.rng)
        if len(self.bag) < language.rack_size * len(self.players):
            raise UserError(f"{len(self.players)} players: the bag holds {len(self.bag)} tiles")
        self.board = Board(self.layout, ("",) * (self.layout.rows * self.layout.cols), frozenset())
        self.racks = [self.draw("", language.rack_size) for _ in self.players]
        self.scores = [0] * len(self.players)
        self.bingos = [0] * len(self.players)
        names = [p.name for p in self.players]
        if len(set(names)) != len(names):
            raise UserError(f"players need distinct names: {', '.join(names)}")
        self.record = gcg.Record(
            players=[(p.name, p.name) for p in self.players],
            lexicon=self.lexicon.name,
            description=f"lexforge scrabble play, seed {self.seed}" + _left_out(language),
        )
        self.turns = self.moves = self.scoreless = 0

    def draw(self, rack: str, count: int) -> str:
        """``rack`` with up to ``count`` tiles from the bag."""
        count = min(count, len(self.bag))
        drawn = self.bag[len(self.bag) - count :]
        del self.bag[len(self.bag) - count :]
        return sort_rack(rack + "".join(drawn))

    def view(self, player: int) -> View:
        return View(
            self.lexicon,
            self.board,
            self.racks[player],
            len(self.bag),
            tuple(self.scores),
            player,
            self.scoreless,
        )

    def run(self) -> Result:
        """Play turns until the game ends, then count the racks left."""
        player = 0
        while True:
            action = self.players[player].choose(self.view(player))
            event = self.apply(player, action)
            if self.on_turn:
                self.on_turn(event, self)
            if not self.racks[player]:
                self.go_out(player)
                break
            self.scoreless = 0 if event.score else self.scoreless + 1
            if self.scoreless >= SCORELESS_TURNS:
                self.six_scoreless()
                break
            player = (player + 1) % len(self.players)
        return Result(self.record, self.scores, self.bingos, self.turns, self.moves)

    def apply(self, player: int, action: Action) -> gcg.Event:
        """Carry out one turn; UserError if the rack or the bag does not allow it."""
        rack, language = self.racks[player], self.lexicon.language
        if isinstance(action, Move):
            left = rack_after(rack, placed_tiles(action.placed))
            self.board = play(self.board, action)
            self.racks[player] = self.draw(left, language.rack_size - len(left))
            self.moves += 1
            self.bingos[player] += len(action.placed) == language.rack_size
            return self.record_event(player, gcg.PLAY, rack, action.score, move=action)
        if isinstance(action, Exchange):
            if len(self.bag) < language.rack_size:
                raise UserError(
                    f"no exchange with {len(self.bag)} tiles in the bag (it takes "
                    f"{language.rack_size})"
                )
            if not action.tiles:
                raise UserError("an exchange puts back at least one tile")
            left = rack_after(rack, action.tiles)
            self.racks[player] = self.draw(left, len(action.tiles))
            self.bag.extend(action.tiles)
            self.rng.shuffle(self.bag)
            return self.record_event(player, gcg.EXCHANGE, rack, 0, tiles=action.tiles)
        if isinstance(action, Pass):
            return self.record_event(player, gcg.PASS, rack, 0)
        raise TypeError(f"not a turn: {action!r}")

    def record_event(
        self,
        player: int,
        kind: str,
        rack: str,
        score: int,
        *,
        move: Move | None = None,
        tiles: str = "",
    ) -> gcg.Event:
        self.scores[player] += score
        self.turns += kind in gcg.TURNS
        spell = self.lexicon.language.spell
        fields = {"tiles": spell(tiles, bracket=True)}
        if move is not None:
            fields = {"position": move.position, "word": spell(gcg_word(move), bracket=True)}
        rack = spell(rack, bracket=True)
        event = gcg.Event(player, kind, rack, score, self.scores[player], **fields)
        self.record.events.append(event)
        return event

    def go_out(self, player: int) -> None:
        """``player`` played out: they gain the others' racks, each other loses their own."""
        others = [(i, rack) for i, rack in enumerate(self.racks) if i != player and rack]
        if not others:
            return
        gain = sum(rack_value(rack, self.lexicon) for _, rack in others)
        left = "".join(rack for _, rack in others)
        self.record_event(player, gcg.END_RACK, "", gain, tiles=left)
        for i, rack in others:
            self.record_event(
                i, gcg.RACK_PENALTY, rack, -rack_value(rack, self.lexicon), tiles=rack
            )

    def six_scoreless(self) -> None:
        """Six scoreless turns: each player loses the value of their rack."""
        for i, rack in enumerate(self.racks):
            if rack:
                self.record_event(
                    i, gcg.RACK_PENALTY, rack, -rack_value(rack, self.lexicon), tiles=rack
                )


def gcg_word(move: Move) -> str:
    """The move's word as GCG writes it: ``.`` for each tile already on the board."""
    new = {(r, c) for r, c, _ in move.placed}
    return "".join(
        letter
        if ((move.row, move.col + k) if move.across else (move.row + k, move.col)) in new
        else PLAYED_THROUGH
        for k, letter in enumerate(move.word)
    )


def play_game(
    lexicon: Lexicon,
    players: Sequence[Player],
    seed: int,
    *,
    layout: Layout | None = None,
    on_turn: Callable[[gcg.Event, Game], None] | None = None,
) -> Result:
    """Play one game to the end (see the module docstring)."""
    game = Game(lexicon, players, seed, layout or load_layout(None), on_turn)
    return game.run()


@dataclass(frozen=True)
class Standing:
    """One seat's results over many games."""

    player: str
    games: int
    wins: float  # a tie counts half
    low: float  # the win rate's 95 % Wilson interval
    high: float
    mean_score: float
    bingos_per_game: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def selfplay(
    lexicon: Lexicon,
    make_players: Callable[[], list[Player]],
    games: int,
    seed: int,
    *,
    on_game: Callable[[int, Result], None] | None = None,
) -> list[Standing]:
    """Play ``games`` games, game i with seed ``seed + i`` and the seats rotated by i (so each
    seat moves first as often as the others); per seat: wins (ties half), the Wilson interval,
    mean score, bingos per game."""
    seats = make_players()
    n = len(seats)
    wins, totals, bingos = [0.0] * n, [0] * n, [0] * n
    for i in range(games):
        players = make_players()
        order = [(i + k) % n for k in range(n)]  # seat order[k] moves k-th
        result = play_game(lexicon, [players[s] for s in order], seed + i)
        winners = result.winners()
        for k, seat in enumerate(order):
            totals[seat] += result.scores[k]
            bingos[seat] += result.bingos[k]
            if k in winners:
                wins[seat] += 1 / len(winners)
        if on_game:
            on_game(i, result)
    return [
        Standing(
            seats[s].name,
            games,
            wins[s],
            *wilson(wins[s], games),
            totals[s] / games,
            bingos[s] / games,
        )
        for s in range(n)
    ]
