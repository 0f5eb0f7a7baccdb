"""The page of ``lexforge serve`` in a real browser: Debian's Chromium driven by Playwright (no
browser download), over a ``lexforge serve`` process on a free local port. Each test reads what
the page shows (the DOM, the SVG's classes) and checks it against the command line's answer to
the same query, and saves a screenshot in its temporary directory."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from build_helpers import ROOT

CHROMIUM = Path(os.environ.get("LEXFORGE_CHROMIUM") or "/usr/bin/chromium")
if not CHROMIUM.exists():
    message = f"no Chromium at {CHROMIUM} (apt-get install chromium, or set LEXFORGE_CHROMIUM)"
    if os.environ.get("LEXFORGE_REQUIRE_CHROMIUM") == "1":
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)
pytest.importorskip("starlette", reason="the serve extra (starlette, uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MIDGAME = (ROOT / "tests/fixtures/scrabble/fr-midgame.board").read_text(encoding="utf-8")


def cli_json(*args: str, stdin: str | None = None) -> dict:
    done = subprocess.run(
        [LEXFORGE, *args, "--json"], input=stdin, capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def server(build_dir):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [LEXFORGE, "serve", "--port", str(port), "-l", "en", "-l", "fr"],
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/lexicons").close()
            break
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.1)
    yield base
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(("http://127.0.0.1", "data:"))
            else outside.append(request.url)
        ),
    )
    yield page
    context.close()
    assert not errors, errors
    assert not outside, f"the page asked another host: {outside}"


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def shown_words(page, list_id: str) -> list[str]:
    return page.eval_on_selector_all(
        f"#{list_id} button.word", "buttons => buttons.map(b => b.dataset.word)"
    )


def test_rack_results_with_jokers_and_a_shareable_url(server, page, tmp_path):
    open_page(page, server)
    page.select_option("#lexicon", "fr")
    page.fill("#rack-letters", "CHAT*")
    page.select_option("#rack-sort", "score")
    page.press("#rack-letters", "Enter")
    page.wait_for_selector("#rack-results button.word")
    expected = cli_json("anagram", "CHAT*", "--sort", "score", "--lexicon", "fr")["results"]
    assert shown_words(page, "rack-results") == [r["word"] for r in expected]
    achat = page.locator('#rack-results button[data-word="ACHAT"]')
    assert achat.locator(".joker").all_inner_texts() == ["A"]  # ACHaT: the joker's A
    assert achat.locator(".score").inner_text() == "9"
    assert page.inner_text("#rack-status") == f"{len(expected)} words from CHAT*"
    page.screenshot(path=tmp_path / "rack.png")

    shared = page.url  # the query is in the URL: opening it again gives the same page
    assert "letters=CHAT*" in shared.replace("%2A", "*") and "lexicon=fr" in shared
    again = page.context.new_page()
    open_page(again, shared)
    assert shown_words(again, "rack-results") == [r["word"] for r in expected]
    again.close()


def path_cells(page) -> list[tuple[int, int]]:
    """The highlighted cells of the drawn grid, in step order."""
    cells = page.eval_on_selector_all(
        "#grid-board g.cell.on-path",
        "cells => cells.map(c => [+c.dataset.step, +c.dataset.row, +c.dataset.col])",
    )
    return [(row, col) for _, row, col in sorted(cells)]


def test_grid_words_highlight_their_path(server, page, tmp_path):
    open_page(page, f"{server}/#tab=grid&lexicon=en")
    page.click("#grid-editor input[data-row='0'][data-col='0']")
    page.keyboard.type("PERSLATGSINETERS")  # each letter moves on to the next cell
    page.keyboard.press("Enter")
    page.wait_for_selector("#grid-results button.word")
    expected = cli_json("boggle", "PERS/LATG/SINE/TERS", "--paths", "--lexicon", "en")
    assert shown_words(page, "grid-results") == [r["word"] for r in expected["results"]]
    paths = {r["word"]: [tuple(cell) for cell in r["path"]] for r in expected["results"]}

    page.click('#grid-results button[data-word="SINE"]')
    assert path_cells(page) == paths["SINE"] == [(2, 0), (2, 1), (2, 2), (2, 3)]
    assert page.locator("#grid-board g.cell").count() == 16
    assert page.get_attribute("#grid-board g.cell.start", "data-step") == "1"
    points = page.get_attribute("#grid-board polyline.path", "points").split()
    assert len(points) == 4
    page.hover('#grid-results button[data-word="PLASTERING"]')
    assert path_cells(page) == paths["PLASTERING"]
    assert "word=PLASTERING" in page.url
    page.screenshot(path=tmp_path / "grid.png")


def test_ruzzle_board_with_qu_and_multipliers(server, page, tmp_path):
    board = "Qutw E Adl R/S Tdw O N/L A Ttl E/R S E D"
    open_page(page, f"{server}/#tab=grid&lexicon=en&game=ruzzle&grid={quote(board)}")
    page.wait_for_selector("#grid-results button.word")
    expected = cli_json("ruzzle", board, "--lexicon", "en")["results"]
    assert shown_words(page, "grid-results") == [r["word"] for r in expected]
    assert page.input_value("#grid-editor input[data-row='0'][data-col='0']") == "Qu"
    assert page.input_value("#grid-editor .grid-cell:first-child select") == "tw"
    labels = page.locator("#grid-board text.multiplier").all_text_contents()
    assert sorted(labels) == ["DL", "DW", "TL", "TW"]
    first = expected[0]
    assert path_cells(page) == [tuple(cell) for cell in first["path"]]
    page.screenshot(path=tmp_path / "ruzzle.png")

    page.fill("#grid-rows", "5")  # a random 5×5 board with multipliers, from the API
    page.dispatch_event("#grid-rows", "change")
    page.click("#grid-random")
    # locators, not wait_for_function: its polling evaluates a string, which the page's
    # Content-Security-Policy (no 'unsafe-eval') refuses
    sync_api.expect(page.locator("#grid-board g.cell")).to_have_count(20)
    sync_api.expect(page.locator("#grid-status")).not_to_contain_text("…")
    grid = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('grid')")
    assert grid != board and len(grid.split("/")) == 5
    drawn = cli_json("ruzzle", grid, "--lexicon", "en")["results"]
    assert shown_words(page, "grid-results") == [r["word"] for r in drawn]


def board_url(server: str, rack: str) -> str:
    rows = "/".join(line.replace(" ", "") for line in MIDGAME.splitlines())
    return f"{server}/#tab=scrabble&lexicon=fr&rack={quote(rack)}&board={quote(rows)}"


def new_tiles(page) -> list[list]:
    return page.eval_on_selector_all(
        "#scrabble-board input.new",
        "squares => squares.map(s => [+s.dataset.row, +s.dataset.col, "
        "s.classList.contains('blank') ? s.value.toLowerCase() : s.value])",
    )


def test_scrabble_moves_are_drawn_and_played(server, page, tmp_path):
    open_page(page, board_url(server, "EIRSTAN"))
    page.wait_for_selector("#scrabble-results button.word")
    expected = cli_json(
        "scrabble", "-", "--rack", "EIRSTAN", "--top", "30", "--lexicon", "fr", stdin=MIDGAME
    )["results"]
    assert shown_words(page, "scrabble-results") == [m["word"] for m in expected]
    assert sorted(new_tiles(page)) == sorted(expected[0]["placed"])  # the best move, drawn

    page.click('#scrabble-results button[data-index="3"]')
    chosen = expected[3]
    assert sorted(new_tiles(page)) == sorted(chosen["placed"])
    page.screenshot(path=tmp_path / "scrabble-chosen.png")
    page.click("#scrabble-play")
    assert new_tiles(page) == []
    for row, col, letter in chosen["placed"]:
        square = page.locator(f"#scrabble-board input[data-row='{row}'][data-col='{col}']")
        assert square.input_value() == letter.upper()
        assert "tile" in square.get_attribute("class")
    left = page.input_value("#scrabble-rack")
    assert sorted(left) == sorted(_rack_after("EIRSTAN", chosen["placed"]))
    assert f"Played {chosen['word']}" in page.inner_text("#scrabble-status")
    page.screenshot(path=tmp_path / "scrabble-played.png")

    # The board in the URL is the board after the move: the CLI answers the same on it.
    page.fill("#scrabble-rack", "EAU")
    page.press("#scrabble-rack", "Enter")
    page.wait_for_selector("#scrabble-results button.word")
    board = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('board')")
    after = cli_json("scrabble", board, "--rack", "EAU", "--top", "30", "--lexicon", "fr")
    assert shown_words(page, "scrabble-results") == [m["word"] for m in after["results"]]


def _rack_after(rack: str, placed: list) -> str:
    for _, _, letter in placed:
        rack = rack.replace(letter, "", 1) if letter.isupper() else rack.replace("?", "", 1)
    return rack


def test_keyboard_alone(server, page, tmp_path):
    open_page(page, server)
    for _ in range(10):  # Tab from the top of the page to the rack box
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "rack-letters":
            break
    assert page.evaluate("document.activeElement.id") == "rack-letters"
    page.keyboard.type("ZEBRA")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rack-results button.word")
    assert "ZEBRA" in shown_words(page, "rack-results")

    page.focus("#tab-rack")
    page.keyboard.press("ArrowRight")  # tabs: arrows move between them
    assert page.evaluate("document.activeElement.id") == "tab-grid"
    assert page.is_visible("#grid") and not page.is_visible("#rack")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('grid-letter')"):
            break
    page.keyboard.type("PERSLATGSINETERS")
    page.keyboard.press("Enter")
    page.wait_for_selector("#grid-results button.word")
    page.focus("#grid-results button.word")  # then Tab walks the words, each drawn on focus
    page.keyboard.press("Tab")
    second = page.evaluate("document.activeElement.dataset.word")
    expected = cli_json("boggle", "PERS/LATG/SINE/TERS", "--paths", "--lexicon", "en")
    path = next(r["path"] for r in expected["results"] if r["word"] == second)
    assert path_cells(page) == [tuple(cell) for cell in path]
    page.screenshot(path=tmp_path / "keyboard.png")


def test_phone_sized_screen(server, browser, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    open_page(page, board_url(server, "EIRSTA?"))
    page.wait_for_selector("#scrabble-results button.word")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    board = page.locator("#scrabble-board").bounding_box()
    assert board["width"] <= 390 and board["width"] >= 300
    page.screenshot(path=tmp_path / "phone-scrabble.png")
    page = context.new_page()  # a new page: a new fragment alone would not reload it
    open_page(page, f"{server}/#tab=grid&lexicon=en&grid=PERS/LATG/SINE/TERS")
    page.wait_for_selector("#grid-results button.word")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=tmp_path / "phone-grid.png", full_page=False)
    context.close()
