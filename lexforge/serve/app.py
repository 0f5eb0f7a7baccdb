"""The ASGI app of ``lexforge serve``: the web page and the JSON API over opened lexicons.

Lexicons are opened once at start (memory-mapped, their letter graphs checked once per file
version) and shared by every request; the searches only read them. A cheap query (a rack of
a few letters, a check of words) is answered by the server's loop itself, in well under a
millisecond; any other runs in a worker process (``lexforge.serve.pool``) under a time budget:
past it the client gets 503 and the worker is killed, so no work outlives its budget. Inputs
are bounded (``LIMITS``) before any search starts, each client address may have only a few
queries under way, and a lexicon is looked up by name among those opened, never on the file
system. Every answer carries the security headers of ``Guard``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import math
import sys
import time
from collections.abc import AsyncIterator, Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from lexforge import answers
from lexforge.errors import UserError, excerpt
from lexforge.grid import Grid, parse_grids, parse_shape
from lexforge.lexicon import Lexicon
from lexforge.output import SCHEMA, Answer, write
from lexforge.paths import FoundLexicon, describe_lexicon, find_lexicon_dir, list_lexicons
from lexforge.serve import games
from lexforge.serve.params import BadRequest, Endpoint, Param, openapi_document
from lexforge.serve.pool import Pool, WorkerDied

STATIC = Path(__file__).parent / "static"
# A client whose inline queries took more than LOOP_SHARE seconds of the loop (decaying by
# half every LOOP_HALF_LIFE s: over a quarter of it, kept up) has its next ones run in the
# workers, where it has one at a time: a flood of cheap queries cannot take the loop either.
LOOP_SHARE = 0.15
LOOP_HALF_LIFE = 0.5
BODY_SECONDS = 10.0  # a POST body not received by then is refused (408)
QUERY_PROCESSES = 2  # worker processes of one server process (lexforge.serve.pool)

LIMITS = {
    "body_bytes": 65_536,
    "rack_letters": 20,  # characters of an anagram rack or a pattern's rack
    "jokers": 3,  # lexforge.anagram.MAX_JOKERS; the Scrabble rack: the language's rack size
    "pattern_letters": 32,
    "grid_text": 8_192,  # characters of the grid parameter
    "grid_cells": 400,  # cells of one grid (20×20)
    "grids": 64,  # grids in one Boggle/Ruzzle request
    "board_text": 2_048,
    "scrabble_rack": 16,  # characters; the tiles are bounded by the language's rack size
    "top": 500,
    "pattern_stars": 4,  # '*' of a pattern (each lets the search try every run of letters)
    "generate_side": 20,
    "generate_count": 100,
    "min_words": 1_000,
    "check_words": 100,
    "word_letters": 64,
    "time_budget": 5.0,
    "client_queries": 8,  # queries of one client address under way or waiting, beyond: 429
    "client_workers": 1,  # of those, running in a worker process at once (the rest wait)
    # a rack this short is answered inline (about a millisecond of CPU at most, measured on
    # the largest lexicons, the answer encoded): without a joker, and with one
    "inline_letters": 10,
    "inline_letters_joker": 8,
}


def grids_of(
    lexicon: Lexicon, text: str, *, multipliers: bool, shape: str | None = None
) -> list[Grid]:
    """The grids of a ``grid`` parameter (with ``shape``, a stream of cells, as ``--shape``
    reads it), each within the cell limit."""
    grids = parse_grids(
        text,
        lexicon.language,
        source="grid",
        multipliers=multipliers,
        shape=None if shape is None else parse_shape(shape, "shape"),
    )
    if len(grids) > LIMITS["grids"]:
        raise BadRequest(422, f"grid: {len(grids)} grids, at most {LIMITS['grids']} a request")
    for number, grid in enumerate(grids, start=1):
        if len(grid.cells) > LIMITS["grid_cells"]:
            raise BadRequest(
                422,
                f"grid: grid {number} has {len(grid.cells)} cells, at most {LIMITS['grid_cells']}",
            )
    return grids


def run_boggle(lexicon: Lexicon, *, grid: str, shape: str | None, **options: Any) -> Answer:
    return answers.boggle_answer(
        lexicon, grids_of(lexicon, grid, multipliers=False, shape=shape), threads=1, **options
    )


def run_ruzzle(lexicon: Lexicon, *, grid: str, sort: str) -> Answer:
    boards = grids_of(lexicon, grid, multipliers=True)
    results = answers.ruzzle_results(lexicon, boards, sort=sort)
    return answers.ruzzle_answer(lexicon, boards, results, sort=sort)


def run_scrabble(lexicon: Lexicon, *, board: str, rack: str, top: int) -> Answer:
    from lexforge import scrabble

    text = board.replace("/", "\n")
    position = scrabble.parse_board(text, lexicon.language, scrabble.load_layout(None), "board")
    return answers.scrabble_answer(lexicon, position, rack, top=top)[0]


def run_generate(lexicon: Lexicon, *, shape: str | None, **options: Any) -> Answer:
    sides = None if shape is None else parse_shape(shape, "shape")
    return answers.generate_answer(lexicon, threads=1, shape=sides, **options)[0]


def endpoints() -> list[Endpoint]:
    """Every query over a lexicon, with its parameters (named like the answers' ``query``)."""
    sort = ("length", "alpha", "score")
    length = {"minimum": 1, "maximum": 64}
    grid_help = (
        "rows separated by '/' or new lines, cells by spaces or one letter each (Qu is one "
        "cell); several grids separated by blank lines"
    )
    shape_help = "n-D board: its sides, e.g. 4x4x4"
    return [
        Endpoint(
            "anagram",
            "words made from a subset of the rack's letters (jokers: * or ?)",
            (
                Param(
                    "letters",
                    "string",
                    "the rack",
                    required=True,
                    max_length=LIMITS["rack_letters"],
                ),
                Param("exact", "boolean", "use every letter", default=False),
                Param("min_length", "integer", "minimum length", nullable=True, **length),
                Param("max_length", "integer", "maximum length", nullable=True, **length),
                Param(
                    "contains",
                    "string",
                    "letters the word must contain",
                    default="",
                    max_length=LIMITS["rack_letters"],
                ),
                Param("sort", "string", "order of the words", default="length", choices=sort),
            ),
            answers.anagram_answer,
        ),
        Endpoint(
            "pattern",
            "words matching a crossword pattern (? one letter, * any run)",
            (
                Param(
                    "pattern",
                    "string",
                    "the pattern",
                    required=True,
                    max_length=LIMITS["pattern_letters"],
                ),
                Param(
                    "rack",
                    "string",
                    "fill the wildcards from these letters (jokers: * or ?)",
                    nullable=True,
                    max_length=LIMITS["rack_letters"],
                ),
                Param("sort", "string", "order of the words", default="alpha", choices=sort),
            ),
            lambda lexicon, pattern, **options: answers.pattern_answer(lexicon, pattern, **options),
        ),
        Endpoint(
            "boggle",
            "every word of one or more Boggle grids",
            (
                Param("grid", "string", grid_help, required=True, max_length=LIMITS["grid_text"]),
                Param("min_length", "integer", "shortest word", default=3, **length),
                Param("adjacency", "integer", "neighbours of a cell", default=8, choices=(4, 8)),
                Param("paths", "boolean", "one path per word", default=False),
                Param(
                    "shape",
                    "string",
                    shape_help + " (the grid is then its cells in order, layer by layer; a "
                    "3-D grid can also be written with its layers separated by '|')",
                    nullable=True,
                    max_length=40,
                ),
            ),
            run_boggle,
        ),
        Endpoint(
            "ruzzle",
            "every word of Ruzzle boards with its score and best path",
            (
                Param(
                    "grid",
                    "string",
                    grid_help + "; a spaced cell may end in dl, tl, dw or tw",
                    required=True,
                    max_length=LIMITS["grid_text"],
                ),
                Param(
                    "sort",
                    "string",
                    "order of the words",
                    default="score",
                    choices=("score", "length", "start", "end"),
                ),
            ),
            run_ruzzle,
        ),
        Endpoint(
            "scrabble",
            "the best Scrabble moves of a rack on a board (standard 15×15 layout)",
            (
                Param(
                    "board",
                    "string",
                    "one row per line or rows separated by '/': '.' empty, an uppercase "
                    "letter a tile, a lowercase letter a blank",
                    required=True,
                    max_length=LIMITS["board_text"],
                ),
                Param(
                    "rack",
                    "string",
                    "the rack's tiles (blanks: * or ?)",
                    required=True,
                    max_length=LIMITS["scrabble_rack"],
                ),
                Param(
                    "top",
                    "integer",
                    "moves shown, best first (0: all)",
                    default=20,
                    minimum=0,
                    maximum=LIMITS["top"],
                ),
            ),
            run_scrabble,
        ),
        Endpoint(
            "generate",
            "random boards, readable by the other queries",
            (
                Param(
                    "rows", "integer", "rows", default=4, minimum=1, maximum=LIMITS["generate_side"]
                ),
                Param(
                    "cols",
                    "integer",
                    "columns",
                    default=4,
                    minimum=1,
                    maximum=LIMITS["generate_side"],
                ),
                Param(
                    "count",
                    "integer",
                    "boards",
                    default=1,
                    minimum=1,
                    maximum=LIMITS["generate_count"],
                ),
                Param(
                    "seed",
                    "integer",
                    "random seed",
                    nullable=True,
                    minimum=-(2**63),
                    maximum=2**63 - 1,
                ),
                Param(
                    "dice",
                    "string",
                    "the language's dice set ('' its first)",
                    nullable=True,
                    max_length=40,
                ),
                Param("multipliers", "boolean", "Ruzzle multipliers", default=False),
                Param(
                    "min_words",
                    "integer",
                    "redraw until a board has this many words",
                    default=0,
                    minimum=0,
                    maximum=LIMITS["min_words"],
                ),
                Param(
                    "shape",
                    "string",
                    shape_help + " (replaces rows and cols)",
                    nullable=True,
                    max_length=40,
                ),
            ),
            run_generate,
        ),
        Endpoint(
            "check",
            "how words normalize, whether the lexicon has them, which sources",
            (
                Param(
                    "words",
                    "strings",
                    "the words (in a query string: words=A&words=B)",
                    required=True,
                    max_length=LIMITS["word_letters"],
                    max_items=LIMITS["check_words"],
                ),
            ),
            answers.check_answer,
        ),
    ]


def open_lexicons(specs: Iterable[str] | None) -> dict[str, tuple[Lexicon, FoundLexicon]]:
    """Each lexicon named (a name on the search path or a directory), else every lexicon on the
    search path that no earlier one shadows (one that cannot be opened is skipped, said on
    stderr). Their tries are mapped now, their letter graphs on first use (mapped, and checked
    once per file version, as ``Lexicon``'s cached properties: a lexicon nobody asks for costs
    no memory)."""
    served: dict[str, tuple[Lexicon, FoundLexicon]] = {}
    for spec in specs or [f.path for f in list_lexicons() if not f.shadowed]:
        try:
            lexicon = Lexicon.open(spec)
            lexicon.words  # noqa: B018 (mapped now, so a damaged trie is refused at start)
        except UserError as error:
            if specs:
                raise
            print(f"lexforge serve: skipped: {error}", file=sys.stderr)
            continue
        if lexicon.name in served:
            raise UserError(f"two lexicons named '{lexicon.name}': serve only one of them")
        # described where it was found (build/fr), not in the version it links to
        served[lexicon.name] = (lexicon, describe_lexicon(find_lexicon_dir(spec)))
    if not served:
        raise UserError("no lexicon to serve: build or install one, or give --lexicon")
    return served


def map_graphs(lexicon: Lexicon) -> None:
    """Map (and check, once per file version) the lexicon's letter graphs now, in the server:
    each worker forked later has them mapped already, and a damaged one is refused at start."""
    lexicon.graph  # noqa: B018 (cached properties, read for their effect)
    lexicon.word_nodes  # noqa: B018
    lexicon.anagram_nodes  # noqa: B018
    lexicon.anagram_classes  # noqa: B018


def json_response(document: Any, status: int = 200, headers: dict | None = None) -> Response:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    # a lone surrogate (from a JSON body's \ud800) cannot be encoded: it is written escaped
    data = body.encode("utf-8", "backslashreplace")
    return Response(data, status, headers, media_type="application/json")


def error_response(status: int, message: str, headers: dict | None = None) -> Response:
    return json_response({"schema": SCHEMA, "error": message, "status": status}, status, headers)


def answer_json(answer: Answer) -> str:
    """The answer as the command line's ``--format json`` writes it, byte for byte."""
    out = io.StringIO()
    write(answer, "json", out, print)
    return out.getvalue()


def answer_response(text: str) -> Response:
    return Response(text, media_type="application/json")


def run_query(endpoint: Endpoint, lexicon: Lexicon, values: dict[str, Any]) -> str:
    """The query's answer, encoded (where the query runs: a large answer never holds up the
    event loop, and its encoding counts in the time budget)."""
    return answer_json(endpoint.run(lexicon, **values))


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type header says JSON (``application/json``, parameters allowed)."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json"


async def read_body(request: Request) -> Any:
    """The request's JSON object, at most ``LIMITS['body_bytes']`` read within
    ``BODY_SECONDS``; BadRequest otherwise."""
    if not is_json(request.headers.get("content-type")):
        raise BadRequest(415, "a POST body must be JSON, sent as Content-Type: application/json")
    limit = LIMITS["body_bytes"]
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(413, f"request body over {limit} bytes")
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise BadRequest(413, f"request body over {limit} bytes")
    except TimeoutError:
        raise BadRequest(408, f"request body not received within {BODY_SECONDS:g} s") from None
    try:
        document = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRequest(400, f"request body is not JSON ({excerpt(str(error), 60)})") from None
    except RecursionError:
        raise BadRequest(400, "request body is nested too deeply") from None
    if not isinstance(document, dict):
        raise BadRequest(400, "request body: expected a JSON object of parameters")
    return document


def bound(command: str, values: dict[str, Any]) -> None:
    """Refuse what would size the work beyond the limits, before any work starts (the
    parameters' own bounds are checked as they are read)."""
    if command == "pattern" and values["pattern"].count("*") > LIMITS["pattern_stars"]:
        stars = values["pattern"].count("*")
        raise BadRequest(
            400, f"parameter 'pattern': {stars} '*', at most {LIMITS['pattern_stars']}"
        )
    if values.get("shape") is not None:
        cells = math.prod(parse_shape(values["shape"], "shape"))  # its own bounds: UserError
        if cells > LIMITS["grid_cells"]:
            raise BadRequest(
                422,
                f"shape {excerpt(values['shape'])!r}: {cells} cells, at most "
                f"{LIMITS['grid_cells']}",
            )
    if command == "generate" and values["shape"] is None:
        cells = values["rows"] * values["cols"]
        if cells > LIMITS["grid_cells"]:  # rows and cols are bounded each: the same bound
            raise BadRequest(422, f"board {cells} cells, at most {LIMITS['grid_cells']}")


def is_cheap(command: str, values: dict[str, Any]) -> bool:
    """Whether the query is answered inline: a check of words, or a rack short enough that
    its search and answer take about a millisecond (docs/server-notes.md)."""
    if command == "check":
        return True
    if command != "anagram":
        return False
    letters = values["letters"]
    jokers = letters.count("*") + letters.count("?")
    if jokers == 0:
        return len(letters) <= LIMITS["inline_letters"]
    return jokers == 1 and len(letters) <= LIMITS["inline_letters_joker"]


def spent(before: tuple[float, float] | None, began: float, ended: float) -> tuple[float, float]:
    """A client's time in the server's loop, as (seconds, when): the seconds of its queries
    answered inline, decaying by half every ``LOOP_HALF_LIFE`` seconds, after one more query
    from ``began`` to ``ended``."""
    seconds, when = before or (0.0, ended)
    return seconds * 0.5 ** ((ended - when) / LOOP_HALF_LIFE) + (ended - began), ended


def local_hosts(host: str, port: int) -> frozenset[str] | None:
    """The Host headers a server bound to ``host:port`` answers, when it is bound to the loopback
    (a page of another site resolving its own name to 127.0.0.1 sends its own name: DNS
    rebinding); None (any Host) when bound elsewhere."""
    loopback = host in ("localhost", "::1", "[::1]") or host.startswith("127.")
    if not loopback:
        return None
    names = {"localhost", "127.0.0.1", "[::1]", host if ":" not in host else f"[{host}]"}
    # with this port, or none (a client may leave it out; a page's origin is named in full)
    return frozenset(names | {f"{name}:{port}" for name in names})


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class Guard:
    """The outermost layer of the app: refuses a request whose Host is not this server's when
    it is bound to the loopback (``app.state.hosts``), and adds the security headers and a
    Cache-Control to every answer (the page and its files are revalidated, the rest never
    stored)."""

    def __init__(self, inner: Any, app: Starlette) -> None:
        self.inner = inner
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        static = scope["path"] == "/" or scope["path"].startswith("/static/")

        async def secured(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    page = static and message["status"] in (200, 304)
                    headers.append((b"cache-control", b"no-cache" if page else b"no-store"))
                message = {**message, "headers": headers + SECURITY_HEADERS}
            await send(message)

        hosts = self.app.state.hosts
        if hosts is not None:
            given = [value for name, value in scope["headers"] if name == b"host"]
            host = given[0].decode("latin-1").lower() if len(given) == 1 else None
            if host not in hosts:
                known = ", ".join(sorted(hosts))
                response = error_response(
                    400, f"Host {excerpt(str(host), 60)!r} is not this server (known: {known})"
                )
                await response(scope, receive, secured)
                return
        await self.inner(scope, receive, secured)


class App(Starlette):
    """Starlette with ``Guard`` outside everything, its error pages included."""

    def build_middleware_stack(self) -> Any:
        return Guard(super().build_middleware_stack(), self)


def standard_layout() -> Answer:
    """The standard Scrabble board's premium squares, as rows of (row, col, square)."""
    from lexforge.scrabble import load_layout

    board = load_layout(None)
    rows = [
        (index // board.cols, index % board.cols, square)
        for index, square in enumerate(board.squares)
        if square != "."
    ]
    return Answer("layout", None, {}, ("row", "col", "square"), rows)


def create_app(
    specs: Iterable[str] | None = None,
    *,
    cors: list[str] | None = None,
    time_budget: float = LIMITS["time_budget"],
    hosts: frozenset[str] | None = None,
) -> Starlette:
    """The app over the lexicons ``specs`` (default: every one on the search path); ``hosts``:
    the Host headers it answers (``local_hosts``; None: any; also ``app.state.hosts``)."""
    served = open_lexicons(specs)
    for lexicon, _ in served.values():
        map_graphs(lexicon)
    table = {endpoint.command: endpoint for endpoint in endpoints()}
    try:
        package_version = version("lexforge")
    except PackageNotFoundError:  # a source tree that is not installed
        package_version = "0"
    limits = {**LIMITS, "time_budget": time_budget}
    document = openapi_document(list(table.values()), limits, package_version)
    document["paths"].update(games.openapi_paths())
    listing = answer_json(answers.lexicons_answer([found for _, found in served.values()]))
    layout_answer = answer_json(standard_layout())

    def work(request: tuple[str, str, dict[str, Any]]) -> tuple[int, str]:
        """A query's status and answer (its JSON, or its error's line), in a worker."""
        command, name, values = request
        if command.startswith("game/"):  # lexforge.serve.games
            return games.work(served, command.removeprefix("game/"), name, values, time_budget)
        try:
            return 200, run_query(table[command], served[name][0], values)
        except BadRequest as error:
            return error.status, str(error)
        except UserError as error:
            return 422, str(error)

    pool = Pool(QUERY_PROCESSES, work)
    under_way: dict[str, int] = {}  # client address: its queries under way or waiting
    loop_time: dict[str, tuple[float, float]] = {}  # client address: its share of the loop
    in_workers: dict[str, asyncio.Semaphore] = {}

    async def in_worker(client: str, request: tuple, deadline: float) -> tuple[int, str]:
        """The query's status and text from a worker, at most ``client_workers`` of the
        client's at once; TimeoutError past the deadline."""
        slots = in_workers.setdefault(client, asyncio.Semaphore(LIMITS["client_workers"]))
        await asyncio.wait_for(slots.acquire(), max(0.0, deadline - time.monotonic()))
        try:
            return await pool.run(request, deadline)
        finally:
            slots.release()

    async def in_pool(client: str, job: tuple[str, str, dict[str, Any]], start: float) -> str:
        """The job's answer (its JSON) from a worker, within the client's share of the workers
        and the time budget from ``start``; BadRequest (429, 503 or the job's own) else."""
        if under_way.get(client, 0) >= LIMITS["client_queries"]:
            raise BadRequest(
                429,
                f"{LIMITS['client_queries']} queries of this client under way already; "
                "wait for their answers",
            )
        under_way[client] = under_way.get(client, 0) + 1
        try:
            status, text = await in_worker(client, job, start + time_budget)
        except TimeoutError:
            raise BadRequest(
                503, f"{job[0]}: over the time budget of {time_budget:g} s; ask for less"
            ) from None
        finally:
            under_way[client] -= 1
            if not under_way[client]:
                del under_way[client]
                in_workers.pop(client, None)
        if status != 200:
            raise BadRequest(status, text)
        return text

    async def refused(error: BadRequest) -> Response:
        headers = {"Retry-After": "1"} if error.status in (429, 503) else None
        if error.status == 429:  # answered after the second it asks for: a client that
            await asyncio.sleep(1)  # would not wait, waits (on at most 16 connections)
        return error_response(error.status, str(error), headers)

    async def query(request: Request) -> Response:
        start = time.monotonic()
        name = request.path_params["lexicon"]
        command = request.path_params["command"]
        endpoint = table.get(command)
        client = request.client.host if request.client else ""
        try:
            if endpoint is None:
                raise BadRequest(404, f"no query '{excerpt(command)}' (known: {', '.join(table)})")
            if name not in served:
                raise BadRequest(
                    404, f"no lexicon '{excerpt(name)}' (served: {', '.join(sorted(served))})"
                )
            if request.method == "POST":
                values = endpoint.read(await read_body(request), from_text=False)
                start = time.monotonic()  # the budget is the query's, not the upload's
            else:
                texts: dict[str, list[str]] = {}
                for key, value in request.query_params.multi_items():
                    texts.setdefault(key, []).append(value)
                values = endpoint.read(texts, from_text=True)
            bound(command, values)
            now = time.monotonic()
            share = spent(loop_time.get(client), now, now)
            if is_cheap(command, values) and share[0] < LOOP_SHARE:
                text = run_query(endpoint, served[name][0], values)
                loop_time[client] = spent(share, now, time.monotonic())
                if len(loop_time) > 10_000:  # the clients gone quiet forgotten
                    for address, used in list(loop_time.items()):
                        if spent(used, now, now)[0] < 0.001:
                            del loop_time[address]
                return answer_response(text)
            text = await in_pool(client, (command, name, values), start)
        except BadRequest as error:
            return await refused(error)
        except UserError as error:
            return error_response(422, str(error))
        except WorkerDied:
            return error_response(
                500, "internal error (the query's process died); please report it"
            )
        return answer_response(text)

    async def lexicons(request: Request) -> Response:
        return answer_response(listing)

    async def layout(request: Request) -> Response:
        return answer_response(layout_answer)

    async def openapi(request: Request) -> Response:
        return json_response(document)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        message = {404: "no such page", 405: "method not allowed"}.get(status, "refused")
        headers = getattr(exc, "headers", None)
        if headers and "Allow" in headers:  # Starlette lists a route's methods from a set
            headers = {**headers, "Allow": ", ".join(sorted(headers["Allow"].split(", ")))}
        return error_response(status, f"{excerpt(request.url.path, 60)}: {message}", headers)

    async def server_error(request: Request, exc: Exception) -> Response:
        return error_response(500, f"internal error ({type(exc).__name__}); please report it")

    middleware = []
    if cors:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=cors,
                allow_methods=["GET", "POST"],
                allow_headers=["Content-Type"],
            )
        )
    routes = [  # the queries first: most requests are queries, and routes are tried in order
        Route("/api/lexicons/{lexicon}/{command}", query, methods=["GET", "POST"]),
        *games.routes(served, in_pool, refused, read_body),
        Route("/", page),
        Route("/openapi.json", openapi),
        Route("/api/lexicons", lexicons),
        Route("/api/layout", layout),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            pool.close()

    app = App(
        routes=routes,
        middleware=middleware,
        exception_handlers={404: http_error, 405: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.served = served
    app.state.openapi = document
    app.state.hosts = hosts
    app.state.pool = pool
    return app
