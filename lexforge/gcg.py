"""GCG game records (Quackle, macondo and the online play sites): read, write, replay.

The format (poslfit.com/scrabble/gcg, as Quackle and macondo read it): pragmata lines start
with ``#`` — ``#player1 NICK Full Name`` (``#player2``…), ``#lexicon``, ``#title``,
``#description``, ``#rack1 TILES`` (a player's last known rack), ``#note`` (about the event
before it; lines that follow without a ``#`` or ``>`` continue it), and
``#character-encoding UTF-8``, only as the first line (without it a file is read as UTF-8 when
it decodes, else as ISO 8859-1, the format's default). Events start with ``>NICK:``:

    >NICK: RACK 8D WORD +32 32        a tile play (. for a tile played through)
    >NICK: RACK -ABC +0 32            an exchange (or -3: three tiles, unnamed)
    >NICK: RACK - +0 32               a pass
    >NICK: RACK -- -32 0              the previous play withdrawn (a phony challenged off)
    >NICK: RACK (challenge) +5 37     a bonus for a play challenged in vain
    >NICK: (OPPRACK) +14 400          end of game: the racks left by the others
    >NICK: RACK (RACK) -7 393         end of game: the player's own rack counted against
    >NICK: RACK (time) -10 383        a time penalty

Multi-letter tiles (Spanish CH) are written bracketed everywhere, as wolges writes them: in
racks and exchanges (``A[CH]EIO?``) and in words (``[CH]ICO``, ``[ch]ICO`` with a blank CH).
Words are also read spelled out (``CHICO``: a word's CH is the CH tile), as lexforge.plays
reads them.

``replay`` sets up the position before any turn (a play, exchange or pass), checking on the
way that every play is placed legally, scores what the record says (by lexforge.plays, not
the move generator) and that every cumulative score adds up; words are not looked up, as a
record may hold phonies and another lexicon's words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from lexforge.errors import UserError, excerpt
from lexforge.language import Language
from lexforge.plays import (
    BLANK,
    check_play,
    make_move,
    parse_tiles,
    placed_tiles,
    rack_after,
    read_play,
    score_play,
)
from lexforge.scrabble import Board, Layout, place
from lexforge.tiles import check_tiles, tile_counts

PLAY, PASS, EXCHANGE, WITHDRAWN = "play", "pass", "exchange", "withdrawn"
CHALLENGE, END_RACK, RACK_PENALTY, TIME = "challenge", "end-rack", "rack-penalty", "time"
TURNS = (PLAY, PASS, EXCHANGE)  # the events that are a player's turn

_EVENT = re.compile(r">(\S+?):\s*(.*)")
_PLAYER = re.compile(r"#player(\d+)\s+(\S+)(?:\s+(.*))?")
_RACK = re.compile(r"[\w?\[\]]+")  # [CH]: a multi-letter tile
_POSITION = re.compile(r"\d+[A-Za-z]|[A-Za-z]\d+")
_SIGNED = re.compile(r"[+-]\d+")
_NUMBER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class Event:
    """One event line: who, what, the rack as recorded ("" if not given), the points it adds
    (negative for a loss) and the player's total after it."""

    player: int  # index into Record.players
    kind: str
    rack: str
    score: int
    cumulative: int
    position: str = ""  # PLAY: 8D or D8
    word: str = ""  # PLAY: as recorded, "." over tiles already there
    tiles: str = ""  # EXCHANGE: the tiles (or their count); END_RACK, RACK_PENALTY: the rack
    note: str = ""
    line: int = 0  # in the file read (0: built in memory)

    def text(self, nick: str) -> str:
        """The event's line in a GCG file."""
        points = f"{self.score:+d}"
        body = {
            PLAY: f"{self.rack} {self.position} {self.word}",
            PASS: f"{self.rack} -",
            EXCHANGE: f"{self.rack} -{self.tiles}",
            WITHDRAWN: f"{self.rack} --",
            CHALLENGE: f"{self.rack} (challenge)",
            END_RACK: f"({self.tiles})",
            RACK_PENALTY: f"{self.rack} ({self.tiles})",
            TIME: f"{self.rack} (time)",
        }[self.kind]
        return f">{nick}: {body} {points} {self.cumulative}"


@dataclass
class Record:
    """A game: the players (nickname, full name), pragmata and events in order."""

    players: list[tuple[str, str]]
    events: list[Event] = field(default_factory=list)
    lexicon: str = ""
    title: str = ""
    description: str = ""
    racks: dict[int, str] = field(default_factory=dict)  # #rackN: player index → tiles

    def turns(self) -> list[int]:
        """Indices in ``events`` of the turns (plays, exchanges, passes)."""
        return [i for i, event in enumerate(self.events) if event.kind in TURNS]


def format_record(record: Record) -> str:
    """The record as a GCG file (UTF-8, declared on the first line)."""
    lines = ["#character-encoding UTF-8"]
    for number, (nick, name) in enumerate(record.players, start=1):
        lines.append(f"#player{number} {nick} {name}".rstrip())
    for key in ("title", "description", "lexicon"):
        if value := getattr(record, key):
            lines.append(f"#{key} {value}")
    for event in record.events:
        lines.append(event.text(record.players[event.player][0]))
        if event.note:
            lines.append(f"#note {event.note}")
    for player, tiles in sorted(record.racks.items()):
        lines.append(f"#rack{player + 1} {tiles}")
    return "\n".join(lines) + "\n"


def decode(data: bytes, source: str) -> str:
    """A GCG file's text: UTF-8 if declared or if it decodes, else ISO 8859-1."""
    first = data.split(b"\n", 1)[0].strip()
    if first.lower().startswith(b"#character-encoding"):
        encoding = first.split(maxsplit=1)[1].decode("ascii", "replace") if b" " in first else ""
        if encoding.lower() not in ("utf-8", "utf8"):
            raise UserError(
                f"{source}: line 1: character encoding {encoding!r} not supported (UTF-8 is)"
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UserError(f"{source}: not UTF-8 as it declares ({error.reason})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def parse_record(text: str, source: str = "<gcg>") -> Record:
    """A GCG file's text as a Record; UserError naming the line on anything malformed."""
    record = Record(players=[])
    nicks: dict[str, int] = {}
    events: list[Event] = []
    in_note = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{source}: line {number}"
        if not line:
            continue
        if line.startswith("#"):
            in_note = _pragma(record, nicks, events, line, number, where)
        elif line.startswith(">"):
            if not record.players:
                raise UserError(f"{where}: an event before the #player lines")
            events.append(_event(line, number, nicks, where))
            in_note = False
        elif in_note:
            last = events[-1]
            events[-1] = _with_note(last, f"{last.note}\n{line}")
        else:
            raise UserError(f"{where}: neither a pragma (#…) nor an event (>…): {excerpt(line)!r}")
    if len(record.players) < 2:
        raise UserError(f"{source}: {len(record.players)} #player lines, a game needs two or more")
    record.events = events
    return record


def _with_note(event: Event, note: str) -> Event:
    return Event(**{**event.__dict__, "note": note})


def _pragma(
    record: Record, nicks: dict[str, int], events: list[Event], line: str, number: int, where: str
) -> bool:
    """Apply one pragma line; True if it opens a note (continued by plain lines)."""
    name, _, value = line[1:].partition(" ")
    value = value.strip()
    if name == "character-encoding":
        if number != 1:
            raise UserError(f"{where}: #character-encoding must be the first line")
        return False
    if name == "note":
        if events:
            last = events[-1]
            events[-1] = _with_note(last, f"{last.note}\n{value}" if last.note else value)
            return True
        return False
    if found := _PLAYER.fullmatch(line):
        if events:
            raise UserError(f"{where}: #player after the first event")
        index, nick = int(found[1]) - 1, found[2]
        if index != len(record.players):
            raise UserError(
                f"{where}: #player{index + 1} where #player{len(record.players) + 1} was expected"
            )
        if nick in nicks:
            raise UserError(f"{where}: two players named {nick!r}")
        nicks[nick] = index
        record.players.append((nick, (found[3] or nick).strip()))
        return False
    if name.startswith("player"):
        raise UserError(f"{where}: expected #playerN NICKNAME FULL NAME")
    if re.fullmatch(r"rack\d+", name):
        index = int(name[4:]) - 1
        if not _RACK.fullmatch(value):
            raise UserError(f"{where}: #{name} expects the rack's tiles")
        record.racks[index] = value
        return False
    if name in ("lexicon", "title", "description"):
        setattr(record, name, value)
    return False  # other pragmata (#id, #incomplete, #tile-set…) carry nothing we use


def _event(line: str, number: int, nicks: dict[str, int], where: str) -> Event:
    found = _EVENT.fullmatch(line)
    if not found:
        raise UserError(f"{where}: expected >NICKNAME: followed by the event")
    nick, tokens = found[1], found[2].split()
    if nick not in nicks:
        known = ", ".join(nicks)
        raise UserError(
            f"{where}: unknown player {excerpt(nick)!r} (the #player lines name {known})"
        )
    # The score and the total; words after them (older Quackle files list the words formed)
    # are a comment.
    at = next(
        (
            i
            for i in range(len(tokens) - 1)
            if _SIGNED.fullmatch(tokens[i]) and _NUMBER.fullmatch(tokens[i + 1])
        ),
        None,
    )
    if at is None:
        raise UserError(
            f"{where}: expected the event, a signed score and the total, e.g. "
            f">{nick}: RACK 8H WORD +24 24"
        )
    score, cumulative, body = int(tokens[at]), int(tokens[at + 1]), tokens[:at]
    base = {"player": nicks[nick], "score": score, "cumulative": cumulative, "line": number}
    kind, fields = _classify(body, score)
    if kind is None:
        raise UserError(f"{where}: cannot read the event {excerpt(' '.join(body))!r}")
    return Event(kind=kind, **fields, **base)


def _classify(body: list[str], score: int) -> tuple[str | None, dict[str, str]]:
    """The kind of an event from the tokens before its score, and its fields."""
    rack = body[0] if body and _RACK.fullmatch(body[0]) else ""
    rest = body[1:] if rack else body
    if len(rest) == 1 and rest[0] in ("(challenge)", "(time)"):
        return (CHALLENGE if rest[0] == "(challenge)" else TIME), {"rack": rack}
    if not rack and len(body) == 1 and (inner := _parenthesized(body[0])) and score >= 0:
        return END_RACK, {"rack": "", "tiles": inner}
    if not rack or len(rest) not in (1, 2):
        return None, {}
    if len(rest) == 2:
        if _POSITION.fullmatch(rest[0]) and re.fullmatch(r"[\w.()\[\]]+", rest[0] + rest[1]):
            return PLAY, {"rack": rack, "position": rest[0], "word": rest[1]}
        return None, {}
    token = rest[0]
    if token == "-" and score == 0:
        return PASS, {"rack": rack}
    if token == "--" and score <= 0:
        return WITHDRAWN, {"rack": rack}
    if token.startswith("-") and _RACK.fullmatch(token[1:]) and score == 0:
        return EXCHANGE, {"rack": rack, "tiles": token[1:]}
    if (inner := _parenthesized(token)) and score <= 0:
        return RACK_PENALTY, {"rack": rack, "tiles": inner}
    return None, {}


def _parenthesized(token: str) -> str:
    return (
        token[1:-1]
        if len(token) > 2 and token[0] == "(" and token[-1] == ")" and _RACK.fullmatch(token[1:-1])
        else ""
    )


@dataclass(frozen=True)
class Position:
    """The game before turn ``turn`` (from 1): the board, whose turn, their rack ("" if the
    record does not say), every player's score, and the turn's recorded event if there is one."""

    board: Board
    turn: int
    player: int
    rack: str
    scores: tuple[int, ...]
    recorded: Event | None
    over: bool = False  # the record ends the game (its last racks counted)
    warnings: tuple[str, ...] = ()  # racks that lack tiles kept from the turn before


def replay(
    record: Record,
    language: Language,
    layout: Layout,
    turn: int | None = None,
    source: str = "<gcg>",
) -> Position:
    """The position before turn ``turn`` (default: after the last event), every event before
    it checked (see the module docstring)."""
    turns = record.turns()
    if turn is not None and not 1 <= turn <= len(turns) + 1:
        raise UserError(f"{source}: turn {turn}: the record has turns 1 to {len(turns) + 1}")
    stop = len(record.events) if turn is None or turn > len(turns) else turns[turn - 1]
    board = Board(layout, ("",) * (layout.rows * layout.cols), frozenset())
    scores = [0] * len(record.players)
    previous: tuple[Board, Event] | None = None  # the board before the last play, and it
    kept: dict[int, tuple[str, int]] = {}  # player → the tiles their last turn left, its line
    warnings: list[str] = []
    for event in record.events[:stop]:
        where = f"{source}: line {event.line}"
        leave = ""
        if event.kind in TURNS and event.rack:
            warning = _check_rack(board, event, kept.get(event.player), language, where)
            if warning:
                warnings.append(warning)
        if event.kind == PLAY:
            before = board
            board, leave = _play(board, event, language, where)
            previous = (before, event)
        elif event.kind == WITHDRAWN:
            if previous is None or previous[1].player != event.player:
                raise UserError(
                    f"{where}: a play withdrawn (--) but the player made none just before"
                )
            if event.score not in (0, -previous[1].score):  # older Quackle files: +0
                raise UserError(
                    f"{where}: withdraws {-event.score} points, the play scored {previous[1].score}"
                )
            lost = previous[1].score
            board, previous = previous[0], None
        elif event.kind == EXCHANGE and event.rack and not event.tiles.isdigit():
            _tiles_of(event.rack, event.tiles, language, where)
        elif event.kind in (END_RACK, RACK_PENALTY):
            _check_rack_points(event, language, where)
        if event.kind in TURNS and event.kind != PLAY:
            previous = None
        _keep(kept, event, leave, language)
        scores[event.player] += -lost if event.kind == WITHDRAWN else event.score
        if scores[event.player] != event.cumulative:
            raise UserError(
                f"{where}: total {event.cumulative}, but the scores so far add up to "
                f"{scores[event.player]}"
            )
    check_tiles(board, "", language, source)
    over = False
    if stop < len(record.events):
        recorded: Event | None = record.events[stop]
        player, rack = recorded.player, recorded.rack
    else:
        recorded = None
        last = [record.events[i].player for i in turns]
        player = (last[-1] + 1) % len(record.players) if last else 0
        rack = record.racks.get(player, "")
        over = any(event.kind in (END_RACK, RACK_PENALTY) for event in record.events)
    number = turn or len(turns) + 1
    return Position(board, number, player, rack, tuple(scores), recorded, over, tuple(warnings))


def _check_rack(
    board: Board, event: Event, kept: tuple[str, int] | None, language: Language, where: str
) -> str | None:
    """UserError unless a turn's recorded rack is one a game can deal: at most a rack's
    tiles, which with the board's fit in the tile set, tile by tile. A warning if it lacks a
    tile the player kept from their last turn (racks only gain tiles, by drawing; records
    typed by hand at tournaments slip there, so it is not an error)."""
    try:
        rack = parse_tiles(event.rack, language, "rack")
    except UserError as error:
        raise UserError(f"{where}: {language.spell(str(error), bracket=True)}") from None
    if len(rack) > language.rack_size:
        raise UserError(
            f"{where}: rack {event.rack} holds {len(rack)} tiles, a rack holds {language.rack_size}"
        )
    _check_in_set(board, rack, event.rack, language, where)
    if kept is None:
        return None
    tiles, line = kept
    lacking = Counter(tiles) - Counter(rack)
    if not lacking:
        return None
    shown = language.spell("".join(sorted(lacking.elements())), bracket=True)
    return f"{where}: rack {event.rack} lacks {shown}, which the player kept after line {line}"


def _check_in_set(board: Board, rack: str, shown: str, language: Language, where: str) -> None:
    """UserError if the rack and the board hold more of a tile than the set has. Unlike a
    board typed by hand (``check_tiles``), a record says which board tiles are blanks."""
    if not language.tile_counts:
        return
    counts = {**tile_counts(language), BLANK: language.blanks}
    held = Counter(t for i, t in enumerate(board.tiles) if t and i not in board.blanks)
    held[BLANK] = len(board.blanks)
    held.update(rack)
    for tile, n in sorted(held.items()):
        if n > counts.get(tile, 0):
            name = "blanks" if tile == BLANK else language.spell(tile, bracket=True)
            raise UserError(
                f"{where}: rack {shown} and the board hold {n} {name}, the {language.name} set "
                f"has {counts.get(tile, 0)}"
            )


def _keep(kept: dict[int, tuple[str, int]], event: Event, leave: str, language: Language) -> None:
    """Remember the tiles ``event`` leaves on its player's rack, where the record says
    (``leave``: what a play left)."""
    if event.kind not in (*TURNS, WITHDRAWN):
        return
    if not event.rack or (event.kind == EXCHANGE and event.tiles.isdigit()):
        kept.pop(event.player, None)  # unknown: nothing to check the next rack against
        return
    rack = parse_tiles(event.rack, language, "rack")  # a pass, or a withdrawn play's tiles back
    if event.kind == PLAY:
        rack = leave
    elif event.kind == EXCHANGE:
        rack = rack_after(rack, parse_tiles(event.tiles, language, "tiles"))
    kept[event.player] = (rack, event.line)


def _tiles_of(rack: str, tiles: str, language: Language, where: str) -> None:
    try:
        rack_after(parse_tiles(rack, language, "rack"), parse_tiles(tiles, language, "tiles"))
    except UserError as error:  # a multi-letter tile bracketed, as the record writes it
        raise UserError(f"{where}: {language.spell(str(error), bracket=True)}") from None


def _play(board: Board, event: Event, language: Language, where: str) -> tuple[Board, str]:
    """The board after a recorded play and the tiles it left on the rack ("" when the record
    gives no rack), checked: legal placement, tiles from the recorded rack, the recorded
    score."""
    leave = ""
    try:
        placed, across = read_play(board, event.position, event.word, language)
        check_play(board, placed, across)
        if event.rack:
            leave = rack_after(parse_tiles(event.rack, language, "rack"), placed_tiles(placed))
        score = score_play(board, placed, across, language)
    except UserError as error:
        raise UserError(f"{where}: {language.spell(str(error), bracket=True)}") from None
    if score != event.score:
        raise UserError(
            f"{where}: {event.position} {event.word} scores {score} with the {language.name} "
            f"tiles, the record says {event.score} (another tile set or board?)"
        )
    return place(board, placed), leave


def _check_rack_points(event: Event, language: Language, where: str) -> None:
    """End-of-game points are the rack's value (or twice it, as North American rules give
    the player who goes out)."""
    try:
        tiles = parse_tiles(event.tiles, language, "rack")
    except UserError as error:
        raise UserError(f"{where}: {error}") from None
    value = sum(language.tile_values.get(t, 0) for t in tiles if t != BLANK)
    if abs(event.score) not in (value, 2 * value):
        raise UserError(
            f"{where}: ({event.tiles}) is worth {value}, the record says {abs(event.score)}"
        )


def notation(event: Event, board: Board, language: Language) -> str:
    """A recorded turn in standard notation, on the board it was played on: ``8H WO(R)D 24``,
    ``-ABC``, ``-``."""
    if event.kind == EXCHANGE:
        return f"-{event.tiles}"
    if event.kind == PASS:
        return "-"
    placed, across = read_play(board, event.position, event.word, language)
    shown = language.spell(make_move(board, placed, across, language).notation)
    return f"{shown} {event.score}"
