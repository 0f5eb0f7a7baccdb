"""The Scrabble game of the web page, served without state: the page holds the game (the bag,
both racks, the record) and sends the position with each request; the server answers what
only the lexicon knows — the tile set, a play's words checked and scored, the computer's turn
(lexforge.players.Equity), the moves of a rack grouped by play, a GCG record written or read.

Nothing is kept between requests, so nothing has to be bounded in time or memory on the
server's side; each request is bounded by its body (``LIMITS['body_bytes']``), a board of at
most the layout's squares and racks of at most the language's rack size, and runs as the
queries do: in a worker process (lexforge.serve.pool) within the client's share, stopped past
the time budget.

A tile is named as people write it: ``A``, ``CH`` (a multi-letter tile of es-scrabble), a
lowercase name for a blank played as that letter (``a``, ``ch``), ``?`` for a blank on a rack.
A board is a list of ``[row, col, tile]``; a play's tiles the same.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from lexforge import _scrabble
from lexforge.errors import UserError, excerpt
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.serve.params import BadRequest

if TYPE_CHECKING:
    from lexforge.scrabble import Board, Layout

MAX_TOP = 100  # moves listed for a rack
MAX_EVENTS = 400  # events of a game record sent to be written
MAX_GCG = 60_000  # characters of a record sent to be read
SCORE_BOUND = 10_000  # a score's absolute value
STRENGTHS = ("static", "simulation")  # the computer: the equity player, the simulation player
SIM_SECONDS = 1.0  # the simulation player's time a turn, unless the request asks for other
SIM_MIN_SECONDS, SIM_MAX_SECONDS = 0.1, 5.0  # what a request may ask for
SIM_SHARE = 0.4  # the most of the server's time budget a simulation takes (the rest: the
# candidates, the last deal, an endgame search, the answer)
TIME_BUDGET = 5.0  # the server's time budget a request, unless it says otherwise


def shown(text: str) -> str:
    """Text from the request, short and encodable (a lone surrogate escaped) for a message."""
    return excerpt(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def leaves_for(lexicon: Lexicon) -> Any:
    """The leave values the computer plays with: the lexicon's learned values
    (lexforge.leaves.default_leaves), else a neutral table (every leave worth 0)."""
    from lexforge.leaves import LeaveTable, default_leaves

    return default_leaves(lexicon) or LeaveTable({})


# --- reading the request ------------------------------------------------------------------


def _field(document: dict[str, Any], name: str, kind: type, default: Any = ...) -> Any:
    value = document.get(name, default)
    if value is ...:
        raise BadRequest(400, f"parameter '{name}' is required")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRequest(400, f"parameter '{name}': expected {kind.__name__}")
    return value


def _integer(document: dict[str, Any], name: str, low: int, high: int, default: Any = ...) -> int:
    value = _field(document, name, int, default)
    if not low <= value <= high:
        raise BadRequest(400, f"parameter '{name}': {value} is out of range ({low} to {high})")
    return value


def tile_symbol(language: Language, name: Any, what: str, *, rack: bool = False) -> str:
    """The letter (symbol) of a tile named ``A``, ``CH``, ``a`` (a blank), ``?`` on a rack."""
    if not isinstance(name, str) or not 1 <= len(name) <= 4:
        raise BadRequest(400, f"{what}: a tile is a string of 1 to 4 characters")
    if rack and name == "?":
        return "?"
    upper = name.upper()
    letter = language.tile_symbols.get(upper, "") if len(upper) > 1 else upper
    if len(letter) != 1 or letter not in language.alphabet:
        several = " ".join(language.tile_symbols) or "none"
        raise BadRequest(
            422,
            f"{what}: {shown(name)} is not a tile of the {language.name} set "
            f"(tiles of several letters: {several})",
        )
    blank = name != upper
    if blank and rack:
        raise BadRequest(422, f"{what}: a blank on a rack is '?', not {shown(name)}")
    return letter.lower() if blank else letter


def read_squares(
    language: Language, value: Any, what: str, rows: int, cols: int, limit: int
) -> tuple[tuple[int, int, str], ...]:
    """``[[row, col, tile], …]`` → ``((row, col, letter), …)``, each square once."""
    if not isinstance(value, list) or len(value) > limit:
        raise BadRequest(400, f"parameter '{what}': expected a list of at most {limit} squares")
    squares, seen = [], set()
    for item in value:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in item[:2])
        ):
            raise BadRequest(400, f"parameter '{what}': expected [row, col, tile] items")
        row, col, name = item
        if not (0 <= row < rows and 0 <= col < cols):
            raise BadRequest(422, f"{what}: square ({row}, {col}) is off the {rows}×{cols} board")
        if (row, col) in seen:
            raise BadRequest(422, f"{what}: square ({row}, {col}) given twice")
        seen.add((row, col))
        squares.append((row, col, tile_symbol(language, name, what)))
    return tuple(squares)


def read_rack(language: Language, value: Any) -> str:
    from lexforge.game import sort_rack

    size = language.rack_size
    if not isinstance(value, list) or len(value) > size:
        raise BadRequest(400, f"parameter 'rack': expected a list of at most {size} tiles")
    return sort_rack([tile_symbol(language, name, "rack", rack=True) for name in value])


def read_board(lexicon: Lexicon, document: dict[str, Any]) -> Board:
    from lexforge.scrabble import Board, load_layout, place

    layout = load_layout(None)
    squares = read_squares(
        lexicon.language,
        _field(document, "board", list, []),
        "board",
        layout.rows,
        layout.cols,
        layout.rows * layout.cols,
    )
    empty = Board(layout, ("",) * (layout.rows * layout.cols), frozenset())
    return place(empty, squares)


# --- answering ---------------------------------------------------------------------------


def spelled_tile(language: Language, letter: str) -> str:
    """A board letter as its tile's name: ``Ç`` → ``CH``, a blank's ``ç`` → ``ch``."""
    return language.spell(letter)


def move_json(language: Language, move: Any, rack: str = "") -> dict[str, Any]:
    from lexforge.game import gcg_word
    from lexforge.plays import placed_tiles, rack_after

    spell = partial(spelled_tile, language)
    document = {
        "kind": "play",
        "word": spell(move.word),
        "tiles": [spell(letter) for letter in move.word],
        "position": move.position,
        "row": move.row,
        "col": move.col,
        "across": move.across,
        "score": move.score,
        "placed": [[r, c, spell(letter)] for r, c, letter in move.placed],
        "gcg_word": language.spell(gcg_word(move), bracket=True),
    }
    if rack:
        leave = rack_after(rack, placed_tiles(move.placed))
        document["leave"] = [spell(t) for t in leave]
    return document


def tile_set(lexicon: Lexicon) -> dict[str, Any]:
    """The tile set: each tile's name, count and value; blanks, rack size, bingo bonus."""
    from lexforge.tiles import tile_counts

    language = lexicon.language
    values = language.tile_values
    counts = tile_counts(language)
    tiles = [
        {"tile": spelled_tile(language, letter), "count": count, "value": values.get(letter, 0)}
        for letter, count in sorted(
            counts.items(), key=lambda item: language.alphabet.index(item[0])
        )
    ]
    cells = sorted(
        {face for dice in language.dice.values() for die in dice for face in die if len(face) > 1}
    )
    return {
        "lexicon": lexicon.name,
        "language": language.code,
        "tiles": tiles,
        "blanks": language.blanks,
        "rack_size": language.rack_size,
        "bingo_bonus": language.bingo_bonus,
        "multi_letter_tiles": list(language.tile_symbols),
        "multi_letter_cells": cells,
    }


def ranked_moves(lexicon: Lexicon, leaves: Any, document: dict[str, Any]) -> dict[str, Any]:
    """The rack's moves by equity (score + the leave's value), once per distinct play: the
    same word on the same squares with the blanks elsewhere is one play (its best variant
    shown, the others counted)."""
    from lexforge import scrabble
    from lexforge.plays import rack_after

    language = lexicon.language
    board = read_board(lexicon, document)
    rack = read_rack(language, _field(document, "rack", list))
    top = _integer(document, "top", 1, MAX_TOP, 30)
    if not rack:
        raise BadRequest(422, "rack: no tiles")
    moves = scrabble.generate(lexicon, board, rack)
    value: dict[str, float] = {}
    groups: dict[tuple[int, ...], list[tuple[float, int, int]]] = defaultdict(list)
    header, flag = _scrabble.HEADER_INTS, _scrabble.BLANK_FLAG
    for i in range(len(moves)):
        leave = rack_after(rack, moves.tiles(i))
        if leave not in value:
            value[leave] = leaves.value(leave)
        base = i * moves.stride
        # one play: its square, direction, length and letters, whichever tiles are blanks
        key = tuple(moves.records[base + 1 : base + header])
        key += tuple(code % flag for code in moves.records[base + header : base + moves.stride])
        score = moves.score(i)
        groups[key].append((score + value[leave], score, i))
    best = sorted(
        (max(variants, key=lambda v: (v[0], v[1], -v[2])), len(variants))
        for variants in groups.values()
    )
    best.sort(key=lambda item: (-item[0][0], -item[0][1], item[0][2]))
    results = []
    for (equity, _score, i), variants in best[:top]:
        answer = move_json(language, moves[i], rack)
        answer["equity"] = round(equity, 2)
        answer["variants"] = variants
        results.append(answer)
    return {"moves": len(moves), "plays": len(groups), "results": results}


def judge(lexicon: Lexicon, document: dict[str, Any]) -> dict[str, Any]:
    """A play on the board: checked by the placement rules, scored, each word it makes looked
    up (a phony is scored too: whether to challenge is the player's call)."""
    from lexforge.plays import check_play, make_move, words_formed
    from lexforge.scrabble import place

    language = lexicon.language
    board = read_board(lexicon, document)
    placed = read_squares(
        language,
        _field(document, "placed", list),
        "placed",
        board.rows,
        board.cols,
        language.rack_size,
    )
    if len(placed) > 1:
        across = len({r for r, _, _ in placed}) == 1
    elif placed:  # one tile: across unless its only word runs down
        r, c, _ = placed[0]
        across = _filled(board, r, c - 1) or _filled(board, r, c + 1)
        across = across or not (_filled(board, r - 1, c) or _filled(board, r + 1, c))
    else:
        raise BadRequest(422, "play: no tiles placed")
    try:
        check_play(board, placed, across)
        move = make_move(board, placed, across, language)
    except UserError as error:
        raise BadRequest(422, f"play: {error}") from None
    after = place(board, placed)
    words = []
    for squares in words_formed(board, placed, across):
        word = "".join(after.tiles[s] for s in squares)
        words.append({"word": language.spell(word), "valid": word in lexicon})
    return {"move": move_json(language, move), "words": words}


def _filled(board: Board, r: int, c: int) -> bool:
    return 0 <= r < board.rows and 0 <= c < board.cols and bool(board.tiles[r * board.cols + c])


def _seconds(document: dict[str, Any], name: str, low: float, high: float, default: float) -> float:
    value = document.get(name, default)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise BadRequest(400, f"parameter '{name}': expected a number")
    if not low <= value <= high:
        raise BadRequest(400, f"parameter '{name}': {value} is out of range ({low} to {high})")
    return float(value)


def computer(
    lexicon: Lexicon, leaves: Any, document: dict[str, Any], budget: float = TIME_BUDGET
) -> dict[str, Any]:
    """The computer's turn on the position sent: the equity player's (``strength``
    ``static``) or the simulation player's within ``seconds``, cut to SIM_SHARE of the
    server's time ``budget`` (lexforge.players)."""
    from lexforge.game import View
    from lexforge.players import Equity, Simulation
    from lexforge.plays import Exchange, Pass, rack_after

    language = lexicon.language
    board = read_board(lexicon, document)
    rack = read_rack(language, _field(document, "rack", list))
    bag = _integer(document, "bag", 0, 1000)
    scores = _field(document, "scores", list, [0, 0])
    if len(scores) != 2 or not all(
        isinstance(s, int) and not isinstance(s, bool) and abs(s) <= SCORE_BOUND for s in scores
    ):
        raise BadRequest(400, "parameter 'scores': expected two whole numbers")
    scoreless = _integer(document, "scoreless", 0, 5, 0)
    strength = _field(document, "strength", str, "static")
    if strength not in STRENGTHS:
        raise BadRequest(
            400, f"parameter 'strength': {shown(strength)} is not one of static, simulation"
        )
    seconds = _seconds(document, "seconds", SIM_MIN_SECONDS, SIM_MAX_SECONDS, SIM_SECONDS)
    seed = _integer(document, "seed", 0, 2**31 - 1, 0)
    view = View(lexicon, board, rack, bag, tuple(scores), 1, scoreless)
    player = Equity("computer", leaves)
    simulated = {}
    if bag and strength == "simulation":
        seconds = min(seconds, SIM_SHARE * budget)
        decision = Simulation("computer", leaves, seconds=seconds, seed=seed).decide(view)
        equity, action = decision.equity, decision.action
        if decision.simulated is not None:
            simulated = {"simulated": round(decision.simulated, 2)}
        simulated |= {"deals": decision.deals, "seconds": seconds}
    elif bag:
        equity, action = player.ranked(view, 1)[0]
    else:
        action, equity = player.endgame(view), None
    shown_equity = {"equity": None if equity is None else round(equity, 2), **simulated}
    if isinstance(action, Exchange):
        return {
            "kind": "exchange",
            "tiles": [spelled_tile(language, t) for t in action.tiles],
            "leave": [spelled_tile(language, t) for t in rack_after(rack, action.tiles)],
            **shown_equity,
        }
    if isinstance(action, Pass):
        return {"kind": "pass", **shown_equity}
    return move_json(language, action, rack) | shown_equity


EVENT_FIELDS = ("player", "kind", "rack", "score", "cumulative", "position", "word", "tiles")


def write_gcg(lexicon: Lexicon, document: dict[str, Any]) -> dict[str, Any]:
    """The game record as a GCG file (lexforge.gcg), with the first player's rack now."""
    from lexforge import gcg

    players = _field(document, "players", list)
    if len(players) != 2 or not all(
        isinstance(p, str) and p.isidentifier() and len(p) <= 20 for p in players
    ):
        raise BadRequest(400, "parameter 'players': expected two nicknames (letters, digits, _)")
    events = _field(document, "events", list)
    if len(events) > MAX_EVENTS:
        raise BadRequest(400, f"parameter 'events': at most {MAX_EVENTS} events")
    record = gcg.Record(
        players=[(p, p) for p in players],
        lexicon=lexicon.name,
        description="played on the lexforge page",
    )
    kinds = (gcg.PLAY, gcg.PASS, gcg.EXCHANGE, gcg.WITHDRAWN, gcg.CHALLENGE)
    kinds += (gcg.END_RACK, gcg.RACK_PENALTY)
    for number, item in enumerate(events, start=1):
        what = f"event {number}"
        if not isinstance(item, dict) or set(item) - set(EVENT_FIELDS):
            raise BadRequest(400, f"{what}: expected an object of {', '.join(EVENT_FIELDS)}")
        player = _integer(item, "player", 0, 1)
        kind = _field(item, "kind", str)
        if kind not in kinds:
            raise BadRequest(400, f"{what}: kind {shown(kind)} is not one of {', '.join(kinds)}")
        texts = {}
        for name in ("rack", "position", "word", "tiles"):
            text = _field(item, name, str, "")
            if len(text) > 60 or any(c.isspace() for c in text):
                raise BadRequest(400, f"{what}: {name} is not a GCG token")
            texts[name] = text
        score = _integer(item, "score", -SCORE_BOUND, SCORE_BOUND)
        cumulative = _integer(item, "cumulative", -SCORE_BOUND, SCORE_BOUND)
        record.events.append(gcg.Event(player, kind, score=score, cumulative=cumulative, **texts))
    rack = _field(document, "rack", str, "")
    if len(rack) > 60 or any(c.isspace() for c in rack):
        raise BadRequest(400, "parameter 'rack': not a GCG token")
    if rack:  # the first player's rack now: the record can be resumed
        record.racks[0] = rack
    text = gcg.format_record(record)
    gcg.replay(gcg.parse_record(text, "the game"), lexicon.language, _layout())  # as it reads
    return {"gcg": text}


def _layout() -> Layout:
    from lexforge.scrabble import load_layout

    return load_layout(None)


def read_gcg(lexicon: Lexicon, document: dict[str, Any]) -> dict[str, Any]:
    """A GCG record replayed (every play checked and scored, lexforge.gcg): its events and the
    position after them."""
    from lexforge import gcg

    text = _field(document, "gcg", str)
    if len(text) > MAX_GCG:
        raise BadRequest(413, f"parameter 'gcg': over {MAX_GCG} characters")
    record = gcg.parse_record(text, "the record")
    if len(record.players) != 2:
        raise BadRequest(422, f"the record: {len(record.players)} players; the page plays two")
    language = lexicon.language
    position = gcg.replay(record, language, _layout(), source="the record")
    board = position.board
    squares = [
        [
            i // board.cols,
            i % board.cols,
            spelled_tile(language, t.lower() if i in board.blanks else t),
        ]
        for i, t in enumerate(board.tiles)
        if t
    ]
    shown = played_words(record, language)
    events = [
        {name: getattr(event, name) for name in EVENT_FIELDS} | shown.get(index, {})
        for index, event in enumerate(record.events)
        if event.kind != gcg.TIME
    ]
    rack = language.tokenize(position.rack, spelled=False) if position.rack else ""
    return {
        "players": [nick for nick, _ in record.players],
        "events": events,
        "board": squares,
        "scores": list(position.scores),
        "player": position.player,
        "rack": [spelled_tile(language, t) for t in rack],
        "over": position.over,
    }


def played_words(record: Any, language: Language) -> dict[int, dict[str, str]]:
    """Each play's whole word (``{"shown": …}`` by event index): the record writes the tiles
    played through as ``.``, the board before the play has them."""
    from lexforge import gcg
    from lexforge.plays import PLAYED_THROUGH, parse_position

    shown = {}
    for number, index in enumerate(record.turns(), start=1):
        event = record.events[index]
        if event.kind != gcg.PLAY:
            continue
        board = gcg.replay(record, language, _layout(), turn=number, source="the record").board
        row, col, across = parse_position(event.position, board)
        letters = []
        for char in language.tokenize(event.word):
            if char in "()":
                continue
            square = row * board.cols + col
            if char == PLAYED_THROUGH:  # a blank on the board in lowercase, as the record writes it
                tile = board.tiles[square]
                char = tile.lower() if square in board.blanks else tile
            letters.append(char)
            row, col = (row, col + 1) if across else (row + 1, col)
        shown[index] = {"shown": language.spell("".join(letters))}
    return shown


SUMMARIES = {
    "moves": (
        "the moves of a rack once per distinct play, best equity first",
        "board: [[row, col, tile]…]; rack: [tile…] (? a blank); top: 1 to 100",
    ),
    "judge": (
        "a play checked by the placement rules and scored; each word it makes looked up",
        "board, placed: [[row, col, tile]…] (lowercase tile: a blank)",
    ),
    "computer": (
        "the computer's turn on the position sent: the equity player (strength static) or "
        "the simulation player (strength simulation, within seconds)",
        "board, rack, bag (tiles left), scores (two), scoreless (turns in a row); strength: "
        "static (default) or simulation; seconds: 0.1 to 5 (default 1; at most 0.4 × the "
        "server's time budget); seed",
    ),
    "gcg": (
        "the game record as a GCG file",
        "players: two nicknames; events: as replay answers them; rack: the first player's",
    ),
    "replay": (
        "a GCG record replayed: its events and the position after them",
        "gcg: the record's text",
    ),
}


def openapi_paths() -> dict[str, Any]:
    """The game's routes in the OpenAPI document."""
    lexicon = {"name": "lexicon", "in": "path", "required": True, "schema": {"type": "string"}}
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    answer = {"description": "the answer (JSON)"}
    refused = {
        "400": {**error, "description": "a parameter missing, of the wrong type or too large"},
        "404": {**error, "description": "no such lexicon or action"},
        "422": {**error, "description": "a tile or play the game does not allow"},
        "503": {**error, "description": "over the time budget"},
    }
    paths = {
        "/api/lexicons/{lexicon}/game/tiles": {
            "get": {
                "operationId": "game_tiles",
                "summary": "the tile set: names, counts, values; blanks, rack size, bingo bonus",
                "parameters": [lexicon],
                "responses": {"200": answer, "404": refused["404"], "422": refused["422"]},
            }
        }
    }
    for action, (summary, body) in SUMMARIES.items():
        paths[f"/api/lexicons/{{lexicon}}/game/{action}"] = {
            "post": {
                "operationId": f"game_{action}",
                "summary": summary,
                "parameters": [lexicon],
                "requestBody": {
                    "required": True,
                    "description": body,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                },
                "responses": {"200": answer, **refused},
            }
        }
    return paths


# --- the routes ----------------------------------------------------------------------------

ACTIONS = {
    "moves": lambda lexicon, leaves, body: ranked_moves(lexicon, leaves, body),
    "judge": lambda lexicon, leaves, body: judge(lexicon, body),
    "computer": computer,
    "gcg": lambda lexicon, leaves, body: write_gcg(lexicon, body),
    "replay": lambda lexicon, leaves, body: read_gcg(lexicon, body),
}
_leaves: dict[str, Any] = {}  # lexicon name: its leave values (in each worker process)


def work(
    served: dict[str, tuple[Lexicon, Any]],
    action: str,
    name: str,
    body: dict[str, Any],
    budget: float = TIME_BUDGET,
) -> tuple[int, str]:
    """A game action's status and answer (its JSON, or its error's line), in a query worker
    (lexforge.serve.pool: stopped past the time ``budget``)."""
    lexicon, _ = served[name]
    try:
        if name not in _leaves:
            _leaves[name] = leaves_for(lexicon)
        if action == "computer":
            answer = computer(lexicon, _leaves[name], body, budget)
        else:
            answer = ACTIONS[action](lexicon, _leaves[name], body)
    except BadRequest as error:
        return error.status, str(error)
    except UserError as error:
        return 422, str(error)
    return 200, json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n"


def routes(
    served: dict[str, tuple[Lexicon, Any]],
    in_pool: Callable[[str, tuple[str, str, dict[str, Any]], float], Awaitable[str]],
    refused: Callable[[BadRequest], Awaitable[Response]],
    read_body: Callable[[Request], Awaitable[Any]],
) -> list[Route]:
    """The game's routes: ``GET …/game/tiles`` (answered at once) and ``POST …/game/{moves,
    judge,computer,gcg,replay}`` under ``/api/lexicons/{lexicon}``, run as the queries are
    (``in_pool``: a worker, the client's share, the time budget; ``refused``: the answer to a
    BadRequest)."""

    def lexicon_of(request: Request) -> Lexicon:
        name = request.path_params["lexicon"]
        if name not in served:
            raise BadRequest(404, f"no lexicon '{shown(name)}' (served: {', '.join(served)})")
        lexicon = served[name][0]
        if not lexicon.language.tile_counts:
            raise BadRequest(422, f"{name}: the {lexicon.language.name} language has no tiles")
        return lexicon

    def answer(text: str) -> Response:
        return Response(text, media_type="application/json")

    async def tiles(request: Request) -> Response:
        try:
            lexicon = lexicon_of(request)
        except BadRequest as error:
            return await refused(error)
        return answer(json.dumps(tile_set(lexicon), ensure_ascii=False) + "\n")

    async def action(request: Request) -> Response:
        from lexforge.serve.pool import WorkerDied

        name = request.path_params["action"]
        client = request.client.host if request.client else ""
        try:
            if name not in ACTIONS:
                known = ", ".join(ACTIONS)
                raise BadRequest(404, f"no game action '{shown(name)}' (known: {known})")
            lexicon = lexicon_of(request)
            body = await read_body(request)
            text = await in_pool(client, (f"game/{name}", lexicon.name, body), time.monotonic())
        except BadRequest as error:
            return await refused(error)
        except WorkerDied:
            return await refused(BadRequest(500, f"game/{name}: the query's process died"))
        return answer(text)

    return [
        Route("/api/lexicons/{lexicon}/game/tiles", tiles, methods=["GET"]),
        Route("/api/lexicons/{lexicon}/game/{action}", action, methods=["POST"]),
    ]
