"""The page's Scrabble game API (lexforge.serve.games), stateless: the tile set, a play judged
(placement, score, words looked up), the moves of a rack once per distinct play, the computer's
turn, GCG written and read. Checked against the language files, hand-counted scores, the
lexicon's word list as text, real GCG records (Quackle) and the move generator's CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from build_helpers import ROOT

pytest.importorskip("starlette", reason="the serve extra (starlette, uvicorn) is not installed")
from starlette.testclient import TestClient

from lexforge.serve.app import create_app

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
EMPTY = "/".join(["." * 15] * 15)


def cli_best(rack: str, lexicon: str) -> dict:
    """The CLI's answer for ``rack`` on the empty board: the best move and the legal moves."""
    done = subprocess.run(
        [LEXFORGE, "scrabble", EMPTY, "--rack", rack, "--top", "1", "--lexicon", lexicon, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def client(build_dir):
    with TestClient(create_app(["en", "es-scrabble", "fr"])) as client:
        yield client


def word_list(build_dir: Path, name: str) -> set[str]:
    return set((build_dir / name / "words.txt").read_text(encoding="utf-8").split())


def post(client, lexicon: str, action: str, body: dict):
    return client.post(  # json.dumps escapes a lone surrogate (httpx would not encode it)
        f"/api/lexicons/{lexicon}/game/{action}",
        content=json.dumps(body),
        headers={"Content-Type": "application/json"},
    )


def across(row: int, col: int, tiles: list[str]) -> list[list]:
    return [[row, col + k, tile] for k, tile in enumerate(tiles)]


def test_tile_sets_are_the_language_files(client):
    for name, size in (("en", 100), ("es-scrabble", 100)):
        tiles = client.get(f"/api/lexicons/{name}/game/tiles").json()
        assert sum(t["count"] for t in tiles["tiles"]) + tiles["blanks"] == size
    es = client.get("/api/lexicons/es-scrabble/game/tiles").json()
    by_name = {t["tile"]: t for t in es["tiles"]}
    assert es["multi_letter_tiles"] == ["CH", "LL", "RR"]
    # the published Spanish set (shared/game-data.md): CH 1×5, LL 1×8, RR 1×8, Ñ 1×8
    assert [(by_name[t]["count"], by_name[t]["value"]) for t in ("CH", "LL", "RR", "Ñ")] == [
        (1, 5),
        (1, 8),
        (1, 8),
        (1, 8),
    ]
    en = client.get("/api/lexicons/en/game/tiles").json()
    assert en["multi_letter_cells"] == ["Qu"]  # the Boggle dice's two-letter face


def test_a_digraph_tile_is_one_tile_played_and_scored(client, build_dir):
    # CHICOTA with the [CH] tile on 8H: CH5 I1 C3 O1 T1(DL at L8) A1 = 13, ×2 (the start) = 26
    placed = across(7, 7, ["CH", "I", "C", "O", "T", "A"])
    judged = post(client, "es-scrabble", "judge", {"board": [], "placed": placed}).json()
    assert judged["move"]["score"] == 26
    assert judged["move"]["tiles"] == ["CH", "I", "C", "O", "T", "A"]
    assert judged["move"]["gcg_word"] == "[CH]ICOTA"
    assert judged["words"] == [
        {"word": "CHICOTA", "valid": "ÇICOTA" in word_list(build_dir, "es-scrabble")}
    ]
    assert judged["words"][0]["valid"]
    # the computer answers on that board, with its rack of [LL] and [RR] tiles
    board = placed
    reply = post(
        client,
        "es-scrabble",
        "computer",
        {"board": board, "rack": ["LL", "RR", "A", "E", "O", "S", "?"], "bag": 50},
    ).json()
    assert reply["kind"] in ("play", "exchange", "pass")
    if reply["kind"] == "play":
        again = post(client, "es-scrabble", "judge", {"board": board, "placed": reply["placed"]})
        assert again.json()["move"]["score"] == reply["score"]
        assert all(w["valid"] for w in again.json()["words"])


def test_a_phony_is_scored_and_named(client):
    judged = post(client, "en", "judge", {"board": [], "placed": across(7, 6, list("QZX"))}).json()
    assert judged["words"] == [{"word": "QZX", "valid": False}]
    # Q10 Z10 X8 = 28, ×2 for the start square
    assert judged["move"]["score"] == 56


def test_moves_are_listed_once_per_play(client):
    rack = [*list("AEINST"), "?"]
    answer = post(client, "en", "moves", {"board": [], "rack": rack, "top": 100}).json()
    seen = [(m["position"], m["word"].upper()) for m in answer["results"]]
    assert len(seen) == len(set(seen)), "a play listed twice"
    assert sum(1 for m in answer["results"] if m["variants"] > 1) > 0
    # every move is in exactly one play: the CLI counts the same legal moves
    cli = cli_best("AEINST?", "en")
    assert answer["moves"] == cli["moves"]
    assert answer["results"][0]["score"] == cli["results"][0]["score"]
    first = answer["results"][0]
    assert first["equity"] == first["score"]  # no leave values built: every leave is worth 0
    assert len(first["leave"]) == 7 - len(first["placed"])


def test_the_computer_plays_the_best_equity_move(client):
    # neutral leaves: the best-scoring move of the generator (the CLI's first), as a play
    rack = list("RETAINS")
    reply = post(client, "en", "computer", {"board": [], "rack": rack, "bag": 86}).json()
    best = cli_best("RETAINS", "en")["results"][0]
    assert (
        reply["kind"] == "play" and reply["score"] == best["score"] == 66
    )  # (7 + 1 on a DL) × 2 + 50
    assert reply["leave"] == []


def test_the_computer_simulates_within_the_servers_budget(build_dir):
    """``strength: simulation``: one of the simulation player's candidates (neutral leaves:
    the eight best-scoring moves or the best exchange), within the seconds asked, cut to 0.4
    of the server's time budget."""
    from lexforge import scrabble
    from lexforge.lexicon import Lexicon

    lexicon = Lexicon.open(build_dir / "stage" / "en")
    empty = scrabble.parse_board(
        EMPTY.replace("/", "\n"), lexicon.language, scrabble.load_layout(None)
    )
    top = {(m.position, m.word) for m in scrabble.find_moves(lexicon, empty, "AEINRST", top=8)}
    body = {"board": [], "rack": list("RETAINS"), "bag": 86, "strength": "simulation"}
    with TestClient(create_app(["en"], time_budget=4.0)) as client:
        reply = post(client, "en", "computer", body | {"seconds": 0.3}).json()
        assert reply["kind"] == "play" and (reply["position"], reply["word"]) in top
        assert reply["seconds"] == 0.3 and reply["deals"] >= 1
        assert isinstance(reply["simulated"], float) and reply["equity"] == reply["score"]
        capped = post(client, "en", "computer", body | {"seconds": 5}).json()
        assert capped["seconds"] == 1.6  # 0.4 × the 4 s budget
        static = post(client, "en", "computer", body | {"strength": "static"}).json()
        assert "deals" not in static and static["score"] == 66


def test_the_simulating_computer_plays_the_equity_move_below_a_rack_in_the_bag(client):
    """With fewer tiles in the bag than a rack, the simulation strength plays as the
    simulation player does: the equity move, not simulated (the pre-endgame's values chose
    passes over big plays)."""
    body = {"board": [], "rack": list("RETAINS"), "bag": 3}
    static = post(client, "en", "computer", body).json()
    simulated = post(client, "en", "computer", body | {"strength": "simulation"}).json()
    assert simulated["deals"] == 0 and "simulated" not in simulated
    assert {k: simulated[k] for k in static} == static


def test_gcg_written_and_read_back(client):
    events = [
        {
            "player": 0,
            "kind": "play",
            "rack": "ACEHIOT",
            "score": 26,
            "cumulative": 26,
            "position": "8H",
            "word": "[CH]ICOTA",
            "tiles": "",
        },
        {"player": 1, "kind": "pass", "rack": "AEIOSS?", "score": 0, "cumulative": 0},
    ]
    events[0]["rack"] = "[CH]ACIOT"
    written = post(
        client, "es-scrabble", "gcg", {"players": ["player", "computer"], "events": events}
    )
    assert written.status_code == 200, written.text
    text = written.json()["gcg"]
    assert ">player: [CH]ACIOT 8H [CH]ICOTA +26 26" in text
    read = post(client, "es-scrabble", "replay", {"gcg": text}).json()
    assert read["scores"] == [26, 0]
    assert sorted(read["board"]) == sorted(across(7, 7, ["CH", "I", "C", "O", "T", "A"]))
    assert [e["kind"] for e in read["events"]] == ["play", "pass"]
    assert read["events"][0]["shown"] == "CHICOTA"


def test_a_real_game_record_is_read(client):
    text = (ROOT / "tests/fixtures/gcg/boys1.gcg").read_text(encoding="utf-8")
    read = post(client, "en", "replay", {"gcg": text}).json()
    # the record's last totals (Quackle's file): David 443, Quackle 433
    assert read["scores"] == [433, 443]
    assert read["over"] is True
    assert len(read["board"]) > 60
    # each play's whole word, the tiles played through filled in from the board
    shown = [e["shown"] for e in read["events"] if e["kind"] == "play"]
    assert shown[-2:] == ["CALORIE", "TRAdING"]  # d: a blank
    assert all("." not in word for word in shown)


@pytest.mark.parametrize(
    ("action", "body", "status", "words"),
    [
        (
            "judge",
            {"board": [], "placed": [[7, 7, "XYZW"]]},
            422,
            "is not a tile of the English set",
        ),
        ("judge", {"board": [], "placed": [[15, 7, "A"]]}, 422, "off the 15×15 board"),
        ("judge", {"board": [], "placed": [[7, 7, "\ud800"]]}, 422, "\\ud800 is not a tile"),
        ("judge", {"board": [[[[[[]]]]]]}, 400, "[row, col, tile]"),
        ("judge", {"board": [], "placed": [[7, 7, "A"], [7, 7, "B"]]}, 422, "given twice"),
        (
            "judge",
            {"board": [], "placed": [[7, 7, "A"], [8, 8, "B"]]},
            422,
            "one row or one column",
        ),
        ("judge", {"board": "ABC", "placed": []}, 400, "'board'"),
        ("moves", {"rack": list("ABCDEFGH")}, 400, "at most 7 tiles"),
        ("moves", {"rack": ["a"]}, 422, "a blank on a rack is '?'"),
        ("moves", {"rack": ["A"], "top": 1000}, 400, "out of range"),
        ("computer", {"rack": ["A"], "bag": -1}, 400, "'bag'"),
        ("computer", {"rack": ["A"], "bag": 9, "strength": "hard"}, 400, "'strength'"),
        ("computer", {"rack": ["A"], "bag": 9, "seconds": 60}, 400, "out of range"),
        ("computer", {"rack": ["A"], "bag": 9, "seconds": "1"}, 400, "expected a number"),
        ("gcg", {"players": ["a b", "c"], "events": []}, 400, "nicknames"),
        ("replay", {"gcg": "#player1 A A\n>A: XYZ 8H QQQQ +1 1\n"}, 422, "the record"),
        ("nothing", {}, 404, "no game action"),
    ],
)
def test_bad_requests_get_one_clear_line(client, action, body, status, words):
    response = post(client, "en", action, body)
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in message


def test_a_lexicon_without_tiles_says_so(build_dir):
    with TestClient(create_app(["en"])) as client:
        assert client.get("/api/lexicons/xx/game/tiles").status_code == 404
