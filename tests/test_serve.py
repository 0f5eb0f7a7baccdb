"""The HTTP API of ``lexforge serve``: its answers are the command line's ``--json`` answers,
byte for byte (the CLI is run as a subprocess), a few are checked against the brute-force
oracles as well; errors are one line of JSON with the right status; hostile requests are
refused before any search runs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from build_helpers import ROOT

pytest.importorskip("starlette", reason="the serve extra (starlette, uvicorn) is not installed")
import httpx2 as httpx
from starlette.testclient import TestClient

from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon
from lexforge.reference import boggle_brute_force, rack_brute_force
from lexforge.serve import games
from lexforge.serve.app import LIMITS, create_app, endpoints

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
MIDGAME = (ROOT / "tests/fixtures/scrabble/fr-midgame.board").read_text(encoding="utf-8")
RUZZLE = (ROOT / "raw/en/reference/ruzzle-4x4.board").read_text(encoding="utf-8")
BOGGLE_5 = (ROOT / "raw/en/reference/boggle-5x5.grid").read_text(encoding="utf-8")
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def app(build_dir):
    os.chdir(ROOT)  # the lexicons by name, as the CLI finds them from the repository
    return create_app(["en", "fr"])


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as client:
        yield client


def cli(*args: str) -> subprocess.CompletedProcess:
    """A command's run; 120 s at most (a ``serve`` that should have failed serves forever)."""
    return subprocess.run([LEXFORGE, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def cli_json(*args: str) -> str:
    done = cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    return done.stdout


# (API path, parameters, the same query on the command line)
SAME_AS_CLI = [
    ("fr/anagram", {"letters": "CHAT*", "sort": "score"}, ["anagram", "CHAT*", "--sort", "score"]),
    ("fr/anagram", {"letters": "ELEPHANT", "exact": True}, ["anagram", "ELEPHANT", "--exact"]),
    (
        "fr/anagram",
        {"letters": "SCRABBLE*", "contains": "K", "min_length": 5, "max_length": 8},
        ["anagram", "SCRABBLE*", "--contains", "K", "--min", "5", "--max", "8"],
    ),
    ("fr/pattern", {"pattern": "C?A??", "rack": "HSE*"}, ["pattern", "C?A??", "--rack", "HSE*"]),
    ("en/pattern", {"pattern": "QU*Z", "sort": "length"}, ["pattern", "QU*Z", "--sort", "length"]),
    (
        "en/boggle",
        {"grid": "PERS/LATG/SINE/TERS", "paths": True},
        ["boggle", "PERS/LATG/SINE/TERS", "--paths"],
    ),
    (
        "en/boggle",
        {"grid": BOGGLE_5 + "\n\nQuIT/ABC/EFG", "min_length": 4, "adjacency": 4},
        ["boggle", "-", "--min-length", "4", "--adjacency", "4"],
    ),
    (
        "en/boggle",
        {"grid": "PERSLATGSINETERS" * 4, "shape": "4x4x4", "paths": True},
        ["boggle", "-", "--shape", "4x4x4", "--paths"],
    ),
    ("en/ruzzle", {"grid": RUZZLE, "sort": "length"}, ["ruzzle", "-", "--sort", "length"]),
    ("fr/scrabble", {"board": MIDGAME, "rack": "EIRSTA?", "top": 5}, ["scrabble", "-"]),
    (
        "en/generate",
        {"rows": 5, "cols": 5, "count": 3, "seed": 7, "dice": "", "multipliers": True},
        ["generate", "--rows", "5", "--cols", "5", "--count", "3", "--seed", "7", "--dice"],
    ),
    (
        "en/generate",
        {"shape": "3x3x3", "count": 2, "seed": 5},
        ["generate", "--shape", "3x3x3", "--count", "2", "--seed", "5"],
    ),
    (
        "fr/check",
        {"words": ["Éléphant", "aujourd'hui", "zythum", "qwxz"]},
        ["check", "Éléphant", "aujourd'hui", "zythum", "qwxz"],
    ),
]


def stdin_of(params: dict) -> str | None:
    return params.get("grid") or params.get("board")


@pytest.mark.parametrize(("path", "params", "args"), SAME_AS_CLI, ids=lambda v: str(v)[:30])
def test_answers_equal_the_cli_json(client, path, params, args):
    lexicon, command = path.split("/")
    args = [*args, "--lexicon", lexicon]
    if command == "scrabble":
        args += ["--rack", params["rack"], "--top", str(params["top"])]
    if params.get("multipliers"):
        args += ["--multipliers"]
    done = subprocess.run(
        [LEXFORGE, *args, "--json"],
        input=stdin_of(params),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    posted = client.post(f"/api/lexicons/{path}", json=params)
    assert posted.status_code == 200, posted.text
    assert posted.text == done.stdout  # byte for byte
    texts = {
        k: v if isinstance(v, list) else str(v).lower() if v is True else str(v)
        for k, v in params.items()
    }
    got = client.get(f"/api/lexicons/{path}", params=texts)
    assert got.status_code == 200 and got.text == done.stdout


def test_lexicons_list_the_served_ones_as_the_cli_does(client):
    listed = json.loads(cli_json("lexicons"))
    served = client.get("/api/lexicons").json()
    assert served["results"] == [row for row in listed["results"] if row["name"] in ("en", "fr")]
    assert {k: v for k, v in served.items() if k != "results"} == {
        k: v for k, v in listed.items() if k != "results"
    }


def test_answers_agree_with_the_brute_force_oracles(client):
    """Not only the CLI: the words of a rack and of a grid as the plain-Python oracles find
    them (every lexicon word tested against the rack or traced on the grid)."""
    fr = Lexicon.open("fr")
    answer = client.get("/api/lexicons/fr/anagram", params={"letters": "RATES*"}).json()
    expected = rack_brute_force(fr, "RATES*")
    assert sorted(r["word"] for r in answer["results"]) == sorted(m.word for m in expected)
    en = Lexicon.open("en")
    grid = parse_grids("PERS/LATG/SINE/TERS", en.language)[0]
    answer = client.post("/api/lexicons/en/boggle", json={"grid": "PERS/LATG/SINE/TERS"}).json()
    assert sorted(r["word"] for r in answer["results"]) == sorted(
        w.word for w in boggle_brute_force(en, grid)
    )


def test_layout_is_the_standard_board(client):
    squares = {
        (r["row"], r["col"]): r["square"] for r in client.get("/api/layout").json()["results"]
    }
    assert squares[(7, 7)] == "*" and squares[(0, 0)] == "W" and len(squares) == 61


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.text.count("\n") == 1 and "Traceback" not in response.text
    body = response.json()
    assert body["schema"] == "lexforge/1" and body["status"] == status
    return body["error"]


@pytest.mark.parametrize(
    ("path", "params", "args"),
    [
        ("fr/anagram", {"letters": "A****"}, ["anagram", "A****"]),
        (
            "fr/anagram",
            {"letters": "CHAT", "contains": "*"},
            ["anagram", "CHAT", "--contains", "*"],
        ),
        ("en/anagram", {"letters": "ÇA9"}, ["anagram", "ÇA9"]),
        ("en/boggle", {"grid": "AB/CDE"}, ["boggle", "-"]),
        ("en/boggle", {"grid": "ABC", "shape": "2x2"}, ["boggle", "-", "--shape", "2x2"]),
        ("en/ruzzle", {"grid": "A B/C Dxx"}, ["ruzzle", "-"]),
        (
            "fr/scrabble",
            {"board": MIDGAME, "rack": "ABCDEFGH"},
            ["scrabble", "-", "--rack", "ABCDEFGH"],
        ),
        ("en/generate", {"dice": "nosuch"}, ["generate", "--dice", "nosuch"]),
    ],
)
def test_query_errors_are_422_with_the_cli_message(client, path, params, args):
    lexicon, command = path.split("/")
    done = subprocess.run(
        [LEXFORGE, *args, "--lexicon", lexicon],
        input=stdin_of(params),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 1
    message = error_of(client.post(f"/api/lexicons/{path}", json=params), 422)
    # The CLI reads grids and boards from stdin; the API names them by their parameter.
    source = "board" if command == "scrabble" else "grid"
    prefix = f"lexforge {args[0]}: "
    assert message == done.stderr.strip().removeprefix(prefix).replace("<stdin>", source)


@pytest.mark.parametrize(
    "name",
    ["xx", "..", "...", "%2e%2e", "..%2fetc", "%2Fetc%2Fpasswd", "build%2Fen", "en%00", "EN"],
)
def test_lexicon_names_are_looked_up_among_the_served_only(client, name):
    response = client.get(f"/api/lexicons/{name}/anagram?letters=CHAT")
    assert response.status_code == 404, response.text
    assert response.json()["status"] == 404


def test_unknown_lexicon_is_named(client):
    assert error_of(client.get("/api/lexicons/xx/anagram?letters=A"), 404) == (
        "no lexicon 'xx' (served: en, fr)"
    )
    assert "no query 'nosuch'" in error_of(client.get("/api/lexicons/en/nosuch"), 404)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b"{bad json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"letters": 5}', "'letters': expected a string"),
        (b'{"letters": ["A"]}', "'letters': expected a string"),
        (b'{"letters": "AB", "exact": 1}', "'exact': expected true or false"),
        (b'{"letters": "AB", "min_length": true}', "'min_length': expected a whole number"),
        (b'{"letters": "AB", "min_length": 0}', "'min_length': 0 is out of range"),
        (b'{"letters": "AB", "min_length": 1e999}', "'min_length': expected a whole number"),
        (b'{"letters": "AB", "sort": "random"}', "'sort': expected one of length, alpha, score"),
        (b'{"letters": "AB", "path": "/etc"}', "unknown parameter 'path'"),
        (b"{}", "parameter 'letters' is required"),
        (json.dumps({"letters": "A" * 10_000}).encode(), "10000 characters, at most 20"),
    ],
)
def test_bad_parameters_are_400(client, body, fragment):
    response = client.post(
        "/api/lexicons/en/anagram", content=body, headers={"content-type": "application/json"}
    )
    assert fragment in error_of(response, 400)


def test_bad_query_strings_are_400(client):
    base = "/api/lexicons/en/anagram"
    assert "expected a whole number" in error_of(client.get(f"{base}?letters=A&min_length=x"), 400)
    assert "given 2 times" in error_of(client.get(f"{base}?letters=A&letters=B"), 400)
    assert "expected true or false" in error_of(client.get(f"{base}?letters=A&exact=maybe"), 400)
    words = "&".join(["words=A"] * (LIMITS["check_words"] + 1))
    assert "expected 1 to 100 strings" in error_of(
        client.get(f"/api/lexicons/en/check?{words}"), 400
    )


def test_large_bodies_are_413(client):
    huge = b'{"letters": "' + b"A" * 200_000 + b'"}'
    assert "over 65536 bytes" in error_of(
        client.post("/api/lexicons/en/anagram", content=huge, headers=JSON), 413
    )

    def chunks():  # no Content-Length: the limit holds while reading
        for _ in range(100):
            yield b" " * 4096

    response = client.post("/api/lexicons/en/anagram", content=chunks(), headers=JSON)
    assert "over 65536 bytes" in error_of(response, 413)


def test_grids_are_bounded(client):
    side = 21
    grid = "/".join(["A" * side] * side)
    assert "441 cells, at most 400" in error_of(
        client.post("/api/lexicons/en/boggle", json={"grid": grid}), 422
    )
    many = "\n".join(["ABCD/EFGH/IJKL/MNOP"] * (LIMITS["grids"] + 1))
    assert "65 grids, at most 64" in error_of(
        client.post("/api/lexicons/en/boggle", json={"grid": many}), 422
    )
    assert "at most 8192" in error_of(
        client.post("/api/lexicons/en/boggle", json={"grid": "A" * 9000}), 400
    )
    assert (
        error_of(client.post("/api/lexicons/en/boggle", json={"grid": "AB", "shape": "2y1"}), 422)
        == "shape '2y1': expected sides separated by 'x', e.g. 4x4x4 or 3x3x3x3"
    )
    assert "5 dimensions, at most 4" in error_of(
        client.post("/api/lexicons/en/generate", json={"shape": "2x2x2x2x2"}), 422
    )


def test_a_query_over_its_time_budget_is_503(build_dir, monkeypatch):
    """A query still running when its budget ends is answered 503. The real query is slowed
    by a fixed 0.5 s: the compiled search solves even a 16×16 board in a few milliseconds, so
    a budget below that raced the event loop's timer."""
    from lexforge.serve import app as served

    def slow_query(*args: object) -> str:
        time.sleep(0.5)
        return real_query(*args)

    real_query = served.run_query
    monkeypatch.setattr(served, "run_query", slow_query)
    os.chdir(ROOT)
    with TestClient(create_app(["en"], time_budget=0.05)) as slow:
        grid = "/".join(["SERATINL" * 2] * 16)
        response = slow.post("/api/lexicons/en/boggle", json={"grid": grid, "paths": True})
        assert "over the time budget of 0.05 s" in error_of(response, 503)


def test_wrong_methods_and_pages(client):
    assert "method not allowed" in error_of(client.delete("/api/lexicons/en/anagram"), 405)
    assert "no such page" in error_of(client.get("/etc/passwd"), 404)
    assert client.get("/static/../serve/app.py").status_code == 404
    page = client.get("/")
    assert page.status_code == 200 and "<title>lexforge</title>" in page.text
    for asset in ("/static/app.js", "/static/style.css"):
        assert client.get(asset).status_code == 200
    assert "http://" not in page.text.replace("http://www.w3.org", "")  # nothing from elsewhere


def test_cors_is_off_unless_configured(client, build_dir):
    origin = {"origin": "http://example.test"}
    response = client.get("/api/lexicons", headers=origin)
    assert "access-control-allow-origin" not in response.headers
    os.chdir(ROOT)
    with TestClient(create_app(["en"], cors=["http://example.test"])) as open_client:
        response = open_client.get("/api/lexicons", headers=origin)
        assert response.headers["access-control-allow-origin"] == "http://example.test"
        other = open_client.get("/api/lexicons", headers={"origin": "http://elsewhere.test"})
        assert "access-control-allow-origin" not in other.headers


def test_openapi_describes_every_route_and_parameter(client, app):
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    paths = document["paths"]
    for route in app.routes:
        if route.path == "/static":
            continue
        if "{command}" in route.path:
            for endpoint in endpoints():
                described = paths[route.path.replace("{command}", endpoint.command)]
                names = {p["name"] for p in described["get"]["parameters"]}
                assert names == {"lexicon", *(p.name for p in endpoint.params)}
                body = described["post"]["requestBody"]["content"]["application/json"]["schema"]
                assert set(body["properties"]) == {p.name for p in endpoint.params}
                assert set(described["get"]["responses"]) == {
                    "200",
                    "400",
                    "404",
                    "408",
                    "413",
                    "415",
                    "422",
                    "429",
                    "503",
                }
        elif "{action}" in route.path:
            for action in games.ACTIONS:
                assert route.path.replace("{action}", action) in paths
        else:
            assert route.path in paths, route.path
    assert len(paths) == 4 + len(endpoints()) + 1 + len(games.ACTIONS)


def test_concurrent_queries_share_the_lexicons_safely(app, client):
    """Many queries at once through the worker processes give each the answer it gets alone."""
    queries = [
        ("en/boggle", {"grid": "PERS/LATG/SINE/TERS", "paths": True}),
        ("en/ruzzle", {"grid": RUZZLE}),
        ("fr/scrabble", {"board": MIDGAME, "rack": "EIRSTA?"}),
        ("fr/anagram", {"letters": "ELEPHA**"}),
        ("en/boggle", {"grid": BOGGLE_5}),
    ] * 6
    alone = [client.post(f"/api/lexicons/{p}", json=q).text for p, q in queries]

    async def together() -> list[str]:
        # six client addresses, five queries each: within a client's limit of queries at once
        https = [
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app, client=(f"127.0.0.{i + 2}", 1000)),
                base_url="http://test",
            )
            for i in range(6)
        ]
        answers = await asyncio.gather(
            *(https[i % 6].post(f"/api/lexicons/{p}", json=q) for i, (p, q) in enumerate(queries))
        )
        for http in https:
            await http.aclose()
        return [a.text for a in answers]

    assert asyncio.run(together()) == alone


def test_serve_without_the_extra_says_how_to_install_it():
    code = (
        "import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None; "
        "from lexforge.cli import main; sys.exit(main(['serve']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == "lexforge serve: needs the serve extra: pip install 'lexforge[serve]'\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("workers", [1, 2])
def test_lexforge_serve_binds_localhost_by_default(build_dir, workers):
    port = free_port()
    server = subprocess.Popen(
        [LEXFORGE, "serve", "--port", str(port), "--lexicon", "en", "--workers", str(workers)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()
        processes = f", {workers} processes" if workers > 1 else ""
        assert line == f"serving en on http://127.0.0.1:{port}/{processes} (Ctrl-C stops)\n"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lexicons") as answer:
                    assert json.load(answer)["results"][0]["name"] == "en"
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        if shutil.which("ss"):
            listening = subprocess.run(
                ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True
            )
            assert f"127.0.0.1:{port}" in listening.stdout
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        assert len(children) == (workers if workers > 1 else 0)
        for count in ("1", "2"):  # nor do a second server's workers share the port
            second = cli("serve", "--port", str(port), "--lexicon", "en", "--workers", count)
            assert second.returncode == 1
            assert (
                second.stderr
                == f"lexforge serve: cannot listen on 127.0.0.1:{port} (Address already in use)\n"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)
    for child in children:  # the workers stopped (and were reaped) before the server
        assert not Path(f"/proc/{child}").exists()


def test_a_bug_is_a_500_in_one_line_of_json(build_dir, monkeypatch):
    from lexforge import answers

    def broken(lexicon, words):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(answers, "check_answer", broken)
    os.chdir(ROOT)
    with TestClient(create_app(["en"]), raise_server_exceptions=False) as buggy:
        response = buggy.get("/api/lexicons/en/check?words=A")
        message = error_of(response, 500)
        assert message == "internal error (ZeroDivisionError); please report it"


def test_a_damaged_trie_is_refused_at_start(build_dir, tmp_path):
    """A lexicon maps its trie on first use; the server maps every served trie at start, so a
    damaged one is refused then (named), or skipped when serving the whole search path."""
    from lexforge.errors import UserError
    from lexforge.serve.app import open_lexicons

    copy = shutil.copytree((build_dir / "en").resolve(), tmp_path / "en")
    trie = bytearray((copy / "words.marisa").read_bytes())
    trie[len(trie) // 2] ^= 0x10
    (copy / "words.marisa").write_bytes(bytes(trie))
    with pytest.raises(UserError, match=r"words\.marisa: damaged trie"):
        open_lexicons([str(copy)])


# ---- hostile clients: no client can deny service ----

# A rack whose search takes seconds and half a gigabyte on the Italian lexicon (20 characters,
# 3 jokers: 3.0 s of CPU for the command line on an idle core).
LONG_RACK = "AEIOUAEIORSTNLCDM***"


def children_of_this_process() -> list[int]:
    return [
        int(pid)
        for task in Path("/proc/self/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]


def cpu_of_this_process() -> float:
    """CPU seconds of every thread of this process (a search left running in a thread counts;
    a worker process does not)."""
    times = os.times()
    return times.user + times.system


def test_work_past_its_budget_is_stopped(build_dir):
    """The query is answered 503 at its budget and its work stops then: the worker that ran it
    is killed, nothing goes on burning a core."""
    os.chdir(ROOT)
    app = create_app(["it"], time_budget=0.3)
    with TestClient(app) as short:
        others = children_of_this_process()  # workers of other tests' apps
        started = time.monotonic()
        response = short.get("/api/lexicons/it/anagram", params={"letters": LONG_RACK})
        assert "over the time budget of 0.3 s" in error_of(response, 503)
        assert time.monotonic() - started < 2
        assert response.headers["retry-after"] == "1"
        assert app.state.pool.pids() == []  # killed and reaped
        reaped = time.monotonic() + 1  # reaped by the loop once ended
        while children_of_this_process() != others and time.monotonic() < reaped:
            time.sleep(0.05)
        assert children_of_this_process() == others
        cpu = cpu_of_this_process()
        time.sleep(1)
        assert cpu_of_this_process() - cpu < 0.3  # nothing of it runs on here
        every_word = short.get("/api/lexicons/it/pattern", params={"pattern": "*"})
        assert "over the time budget" in error_of(every_word, 503)
        assert app.state.pool.pids() == []
        # the next query gets a fresh worker
        answer = short.get("/api/lexicons/it/pattern", params={"pattern": "CASA"})
        assert answer.status_code == 200 and '"CASA"' in answer.text


def test_one_client_cannot_stall_the_others(build_dir):
    """Four long queries of one client at once (every word of it, over the budget however
    fast the machine): another client's rack is answered at once all along, and so is its
    Boggle grid (a client has one worker at a time)."""
    os.chdir(ROOT)
    app = create_app(["it"], time_budget=0.3)

    async def attack() -> tuple[list[int], list[float]]:
        def http(address: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=app, client=(address, 1000))
            return httpx.AsyncClient(transport=transport, base_url="http://test", timeout=30)

        async with http("127.0.0.2") as bad, http("127.0.0.3") as good:
            endless = [
                asyncio.ensure_future(bad.get("/api/lexicons/it/pattern", params={"pattern": "*"}))
                for _ in range(4)
            ]
            waits = []
            await asyncio.sleep(0.2)
            for _ in range(6):
                started = time.monotonic()
                for params in ({"letters": "AB"}, {"letters": "CASERMA"}):
                    rack = await good.get("/api/lexicons/it/anagram", params=params)
                    assert rack.status_code == 200, rack.text
                grid = await good.get("/api/lexicons/it/boggle", params={"grid": "CASA/ROMA"})
                assert grid.status_code == 200, grid.text
                waits.append(time.monotonic() - started)
                await asyncio.sleep(0.3)
            statuses = [(await response).status_code for response in endless]
        return statuses, waits

    with TestClient(app):
        statuses, waits = asyncio.run(attack())
    assert statuses == [503] * 4
    assert max(waits) < 1.0, waits


def test_a_client_has_a_few_queries_under_way_at_most(build_dir, monkeypatch):
    from lexforge.serve import app as served

    def slow_query(*args: object) -> str:
        time.sleep(0.3)
        return real_query(*args)

    real_query = served.run_query
    monkeypatch.setattr(served, "run_query", slow_query)
    os.chdir(ROOT)
    app = create_app(["en"], time_budget=10)

    async def flood() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.2", 1000))
        async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=30) as bad:
            answers = await asyncio.gather(
                *(bad.get("/api/lexicons/en/boggle", params={"grid": "AB/CD"}) for _ in range(12))
            )
        return [answer.status_code for answer in answers]

    with TestClient(app):  # its lifespan stops the workers
        statuses = asyncio.run(flood())
    assert sorted(statuses) == [200] * LIMITS["client_queries"] + [429] * 4


def test_every_parameter_sizing_work_is_bounded(client):
    base = "/api/lexicons/en"
    for query, status, message in [
        ("generate?shape=8x8x8x8&min_words=1", 422, "4096 cells, at most 400"),
        ("generate?shape=64x64&count=100", 422, "4096 cells, at most 400"),
        ("generate?shape=20x21", 422, "420 cells, at most 400"),
        ("boggle?grid=AB&shape=21x20", 422, "420 cells, at most 400"),
        ("generate?rows=20&cols=20&min_words=10000", 400, "10000 is out of range"),
        ("generate?count=101", 400, "101 is out of range"),
        ("pattern?pattern=" + "*?" * 16, 400, "16 '*', at most 4"),
        ("anagram?letters=" + "A" * 21, 400, "21 characters, at most 20"),
        ("anagram?letters=AB****", 422, "jokers"),
    ]:
        assert message in error_of(client.get(f"{base}/{query}"), status), query
    assert client.get(f"{base}/generate?shape=20x20&seed=1").status_code == 200


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b'{"letters":' + b"[" * 1000 + b"]" * 1000 + b"}", "nested too deeply"),
        (b'{"letters":"\\ud800AB"}', "'letters': a lone surrogate is no character"),
        (b'{"words":["A","\\udfffB"]}', "'words': a lone surrogate is no character"),
        (b'{"\\ud800":"AB"}', "unknown parameter"),
        (b'{"letters":"AB","min_length":"3"}', "expected a whole number"),
    ],
)
def test_malformed_bodies_are_400_never_500(client, body, fragment):
    command = "check" if b"words" in body else "anagram"
    response = client.post(f"/api/lexicons/en/{command}", content=body, headers=JSON)
    assert fragment in error_of(response, 400)
    response.content.decode("utf-8")  # valid UTF-8, the surrogate written escaped


@pytest.mark.parametrize("number", ["3_0", "٣", " 3", "3 ", "+3", "0x1", "1" * 30])
def test_numbers_are_ascii_digits_only(client, number):
    response = client.get(
        "/api/lexicons/en/anagram", params={"letters": "AB", "min_length": number}
    )
    assert "expected a whole number" in error_of(response, 400)


def test_405_says_what_is_allowed(client):
    response = client.delete("/api/lexicons/en/anagram")
    error_of(response, 405)
    assert response.headers["allow"] == "GET, HEAD, POST"  # sorted: the same every run
    assert client.post("/api/lexicons").headers["allow"] == "GET, HEAD"


def test_post_bodies_must_be_declared_json(client):
    """A page of another site may POST text/plain without asking (no CORS preflight)."""
    for kind in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"content-type": kind} if kind else {}
        response = client.post(
            "/api/lexicons/en/anagram", content=b'{"letters":"AB"}', headers=headers
        )
        assert "Content-Type: application/json" in error_of(response, 415)
    for kind in ("application/json", "Application/JSON; charset=utf-8"):
        response = client.post(
            "/api/lexicons/en/anagram", content=b'{"letters":"AB"}', headers={"content-type": kind}
        )
        assert response.status_code == 200, response.text


def test_host_is_checked_when_bound_to_the_loopback(build_dir):
    from lexforge.serve.app import local_hosts

    assert local_hosts("0.0.0.0", 80) is None
    os.chdir(ROOT)
    app = create_app(["en"], hosts=local_hosts("127.0.0.1", 8000))
    with TestClient(app) as local:
        for host in ("evil.example", "evil.example:8000", "127.0.0.1:8001", "localhost.evil"):
            response = local.get("/api/lexicons", headers={"host": host})
            assert "is not this server" in error_of(response, 400), host
            assert response.headers["x-frame-options"] == "DENY"
        for host in (
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST:8000",
            "[::1]:8000",
            "localhost",
        ):
            assert local.get("/api/lexicons", headers={"host": host}).status_code == 200, host


def test_security_headers_on_every_answer(build_dir, monkeypatch):
    from lexforge import answers

    def broken(lexicon, words):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(answers, "check_answer", broken)
    os.chdir(ROOT)
    with TestClient(create_app(["en"]), raise_server_exceptions=False) as any_client:
        for method, path, status, cache in [
            ("GET", "/", 200, "no-cache"),
            ("GET", "/static/app.js", 200, "no-cache"),
            ("GET", "/api/lexicons/en/anagram?letters=AB", 200, "no-store"),
            ("GET", "/api/lexicons/en/boggle?grid=AB/CD", 200, "no-store"),
            ("GET", "/api/lexicons/en/anagram", 400, "no-store"),
            ("GET", "/nowhere", 404, "no-store"),
            ("DELETE", "/", 405, "no-store"),
            ("GET", "/api/lexicons/en/check?words=A", 500, "no-store"),
        ]:
            response = any_client.request(method, path)
            assert response.status_code == status, path
            headers = response.headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert "default-src 'self'" in headers["content-security-policy"], path
            assert headers["x-content-type-options"] == "nosniff", path
            assert headers["x-frame-options"] == "DENY", path
            assert headers["referrer-policy"] == "no-referrer", path
            assert headers["cache-control"] == cache, path


def test_a_tile_is_named_with_its_article(client):
    message = error_of(client.get("/api/lexicons/en/anagram", params={"letters": "[CH]AT"}), 422)
    assert "is not an English tile" in message
    message = error_of(client.get("/api/lexicons/fr/anagram", params={"letters": "[CH]AT"}), 422)
    assert "is not a French tile" in message


def start_server(*code: str) -> tuple[subprocess.Popen, int]:
    """``lexforge serve --lexicon en`` on 127.0.0.1 (a free port), after ``code`` (Python
    statements, e.g. shorter timeouts), answering."""
    port = free_port()
    program = "; ".join(
        [
            "import sys",
            *code,
            "from lexforge.cli import main",
            f"sys.exit(main(['serve', '--port', '{port}', '--lexicon', 'en']))",
        ]
    )
    server = subprocess.Popen([sys.executable, "-c", program], cwd=ROOT, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lexicons").close()
            return server, port
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "no server"
            time.sleep(0.1)


def exchange(port: int, data: bytes, wait: float = 0) -> bytes:
    """What the server says to ``data`` on a new connection (after ``wait`` s), until it
    closes the connection or 5 s pass."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(data)
        time.sleep(wait)
        sock.settimeout(5)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except TimeoutError:
            answer += b"<still open>"
        return answer


def test_slow_and_oversized_requests_are_cut_off(build_dir):
    server, port = start_server(
        "import lexforge.serve.server as s, lexforge.serve.app as a",
        "s.HEADER_SECONDS = 1",
        "a.BODY_SECONDS = 1",
    )
    try:
        host = f"Host: 127.0.0.1:{port}\r\n".encode()
        started = time.monotonic()
        assert exchange(port, b"") == b""  # silent: closed after HEADER_SECONDS
        assert exchange(port, b"GET /api/lexicons HTTP/1.1\r\n" + host) == b""
        assert time.monotonic() - started < 4
        head = b"GET /api/lexicons HTTP/1.1\r\n" + host + b"X-A: " + b"a" * 20_000 + b"\r\n\r\n"
        assert exchange(port, head).startswith(b"HTTP/1.1 400")
        body = (
            b"POST /api/lexicons/en/anagram HTTP/1.1\r\n"
            + host
            + b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"letters"'
        )
        answer = exchange(port, body)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b"not received within 1 s" in answer
        # Host checked: a page of evil.example resolving its name to 127.0.0.1
        close = b"Connection: close\r\n\r\n"
        evil = exchange(port, b"GET /api/lexicons HTTP/1.1\r\nHost: evil.example\r\n" + close)
        assert evil.startswith(b"HTTP/1.1 400") and b"is not this server" in evil
        good = exchange(port, b"GET /api/lexicons HTTP/1.1\r\n" + host + close)
        assert good.startswith(b"HTTP/1.1 200")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_client_flooding_cheap_queries_is_moved_off_the_loop(build_dir):
    """Racks are answered in the server's loop, but a client taking much of the loop has its
    next ones answered by a worker (one at a time); once it has been quiet, by the loop again."""
    os.chdir(ROOT)
    app = create_app(["en"])
    with TestClient(app) as flooding:
        rack = "/api/lexicons/en/anagram?letters=SEATRIN*"
        alone = flooding.get(rack).text
        assert app.state.pool.pids() == []  # answered inline
        until = time.monotonic() + 10
        while not app.state.pool.pids() and time.monotonic() < until:
            assert flooding.get(rack).text == alone
        assert app.state.pool.pids(), "a flood of racks never left the loop"
        assert flooding.get(rack).text == alone
        app.state.pool.close()
        time.sleep(3)
        assert flooding.get(rack).text == alone
        assert app.state.pool.pids() == []  # inline again


def test_a_client_address_has_a_few_connections_at_most(build_dir):
    from lexforge.serve.server import CLIENT_CONNECTIONS

    server, port = start_server()
    held = []
    try:
        for _ in range(CLIENT_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
            held.append(sock)
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0))
        extra.settimeout(5)
        with contextlib.suppress(ConnectionResetError):  # closed at once
            assert extra.recv(100) == b""
        extra.close()
        request = f"GET /api/lexicons HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        held[0].sendall(request)
        held[0].settimeout(5)
        assert held[0].recv(100).startswith(b"HTTP/1.1 200")
        other = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.3", 0))
        other.sendall(request)
        other.settimeout(5)
        assert other.recv(100).startswith(b"HTTP/1.1 200")
        other.close()
    finally:
        for sock in held:
            sock.close()
        server.terminate()
        server.wait(timeout=10)
