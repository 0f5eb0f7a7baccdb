"""The ASGI app of ``lexforge serve``: the web page and the JSON API over opened lexicons.

Lexicons are opened once at start (memory-mapped; each letter graph mapped and checked on its
first use) and shared by every request; the searches only read them. Each query runs in a small
thread pool under a time budget: past it the client gets 503 (the thread finishes its query in
the background; a query still queued is dropped). Inputs are bounded (``LIMITS``) before any
search starts, and a lexicon is looked up by name among those opened, never on the file system.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
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

STATIC = Path(__file__).parent / "static"
QUERY_THREADS = 4  # searches release the GIL (Boggle, Scrabble); racks hold it

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
    "generate_side": 20,
    "generate_count": 100,
    "check_words": 100,
    "word_letters": 64,
    "time_budget": 5.0,
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
                Param("rows", "integer", "rows", default=4, minimum=1, maximum=20),
                Param("cols", "integer", "columns", default=4, minimum=1, maximum=20),
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
                    maximum=10_000,
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


def json_response(document: Any, status: int = 200) -> Response:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    return Response(body, status, media_type="application/json")


def error_response(status: int, message: str) -> Response:
    return json_response({"schema": SCHEMA, "error": message, "status": status}, status)


def answer_json(answer: Answer) -> str:
    """The answer as the command line's ``--format json`` writes it, byte for byte."""
    out = io.StringIO()
    write(answer, "json", out, print)
    return out.getvalue()


def answer_response(text: str) -> Response:
    return Response(text, media_type="application/json")


def run_query(endpoint: Endpoint, lexicon: Lexicon, values: dict[str, Any]) -> str:
    """The query's answer, encoded (in the worker thread: a large answer never holds up the
    event loop, and its encoding counts in the time budget)."""
    return answer_json(endpoint.run(lexicon, **values))


async def read_body(request: Request) -> Any:
    """The request's JSON object, at most ``LIMITS['body_bytes']``; BadRequest otherwise."""
    limit = LIMITS["body_bytes"]
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(413, f"request body over {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(413, f"request body over {limit} bytes")
    try:
        document = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRequest(400, f"request body is not JSON ({excerpt(str(error), 60)})") from None
    if not isinstance(document, dict):
        raise BadRequest(400, "request body: expected a JSON object of parameters")
    return document


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
) -> Starlette:
    """The app over the lexicons ``specs`` (default: every one on the search path)."""
    served = open_lexicons(specs)
    table = {endpoint.command: endpoint for endpoint in endpoints()}
    executor = ThreadPoolExecutor(QUERY_THREADS, thread_name_prefix="lexforge-query")
    try:
        package_version = version("lexforge")
    except PackageNotFoundError:  # a source tree that is not installed
        package_version = "0"
    limits = {**LIMITS, "time_budget": time_budget}
    document = openapi_document(list(table.values()), limits, package_version)
    document["paths"].update(games.openapi_paths())
    listing = answer_json(answers.lexicons_answer([found for _, found in served.values()]))
    layout_answer = answer_json(standard_layout())

    async def query(request: Request) -> Response:
        name = request.path_params["lexicon"]
        command = request.path_params["command"]
        endpoint = table.get(command)
        try:
            if endpoint is None:
                raise BadRequest(404, f"no query '{excerpt(command)}' (known: {', '.join(table)})")
            if name not in served:
                raise BadRequest(
                    404, f"no lexicon '{excerpt(name)}' (served: {', '.join(sorted(served))})"
                )
            if request.method == "POST":
                values = endpoint.read(await read_body(request), from_text=False)
            else:
                texts: dict[str, list[str]] = {}
                for key, value in request.query_params.multi_items():
                    texts.setdefault(key, []).append(value)
                values = endpoint.read(texts, from_text=True)
            job = partial(run_query, endpoint, served[name][0], values)
            future = asyncio.get_running_loop().run_in_executor(executor, job)
            try:
                answer = await asyncio.wait_for(future, time_budget)
            except TimeoutError:
                raise BadRequest(
                    503, f"{command}: over the time budget of {time_budget:g} s; ask for less"
                ) from None
        except BadRequest as error:
            return error_response(error.status, str(error))
        except UserError as error:
            return error_response(422, str(error))
        return answer_response(answer)

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
        return error_response(status, f"{excerpt(request.url.path, 60)}: {message}")

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
        *games.routes(served, executor, time_budget, read_body, json_response, error_response),
        Route("/", page),
        Route("/openapi.json", openapi),
        Route("/api/lexicons", lexicons),
        Route("/api/layout", layout),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={404: http_error, 405: http_error, Exception: server_error},
    )
    app.state.served = served
    app.state.openapi = document
    return app
