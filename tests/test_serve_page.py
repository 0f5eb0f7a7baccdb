"""The page of ``lexforge serve`` in a real browser: Debian's Chromium driven by Playwright (no
browser download), over a ``lexforge serve`` process on a free local port. Each test reads what
the page shows (the DOM, computed styles) and checks it against the command line's answer to
the same query or the lexicon's word list; the screenshots of each tab on a phone (390×844)
and a desktop (1280×900) go to the test's temporary directory, and to
``$LEXFORGE_SCREENSHOTS`` when it is set (``docs/img`` for the documentation)."""

from __future__ import annotations

import json
import os
import re
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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
RUZZLE = "Qutw E Adl R/S Tdw O N/L A Ttl E/R S E D"
PAGE_SIZE = 100  # app.js: the words shown at once


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
    lexicons = ["-l", "en", "-l", "fr", "-l", "es", "-l", "es-scrabble"]
    process = subprocess.Popen(
        [LEXFORGE, "serve", "--port", str(port), *lexicons], cwd=ROOT, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
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


def watched(page) -> tuple[list[str], list[str]]:
    """The page's script errors and its requests to other hosts, as they come."""
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
            else outside.append(request.url)
        ),
    )
    return errors, outside


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()
    errors, outside = watched(page)
    yield page
    context.close()
    assert not errors, errors
    assert not outside, f"the page asked another host: {outside}"


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def shown_words(page, root: str) -> list[str]:
    return page.eval_on_selector_all(
        f"#{root} button.word", "buttons => buttons.map(b => b.dataset.word)"
    )


def status_of(page, root: str) -> str:
    return page.inner_text(f"#{root}-status")


def wait_done(page, root: str) -> None:
    """Until the status says something other than "Searching…" (locators, not
    wait_for_function: its polling evaluates a string, which the page's
    Content-Security-Policy, without 'unsafe-eval', refuses)."""
    sync_api.expect(page.locator(f"#{root}-status")).to_have_text(re.compile(r"^[^…]+$"))


def wait_log(page, count: int) -> None:
    """Until the game's log has ``count`` lines or more."""
    page.locator("#game-log li").nth(count - 1).wait_for()


def wait_over(page) -> None:
    sync_api.expect(page.locator("#scrabble-status")).to_contain_text("over")


def screenshot(page, tmp_path: Path, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=tmp_path / f"{name}.png")
    if folder := os.environ.get("LEXFORGE_SCREENSHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=Path(folder) / f"page-{name}.png")


# --- answers of any size -----------------------------------------------------------------


def test_rack_results_with_jokers_and_a_shareable_url(server, page, tmp_path):
    open_page(page, f"{server}/#tab=rack")
    page.select_option("#lexicon", "fr")
    page.fill("#rack-letters", "CHAT*")
    page.select_option("#rack-sort", "score")
    page.press("#rack-letters", "Enter")
    wait_done(page, "rack-results")
    expected = cli_json("anagram", "CHAT*", "--sort", "score", "--lexicon", "fr")["results"]
    assert shown_words(page, "rack-results") == [r["word"] for r in expected][:PAGE_SIZE]
    achat = page.locator('#rack-results button[data-word="ACHAT"]')
    assert achat.locator(".joker").all_inner_texts() == ["A"]  # ACHaT: the joker's A
    # its accessible name reads as words, not "ACHAT9"
    assert achat.get_attribute("aria-label") == "ACHAT, 9 points"
    assert status_of(page, "rack-results") == f"{len(expected)} words from CHAT*"

    shared = page.url  # the query is in the URL: opening it again gives the same page
    assert "letters=CHAT*" in shared.replace("%2A", "*") and "lexicon=fr" in shared
    again = page.context.new_page()
    open_page(again, shared)
    wait_done(again, "rack-results")
    assert shown_words(again, "rack-results") == [r["word"] for r in expected][:PAGE_SIZE]
    again.close()


def test_a_huge_answer_is_grouped_paged_filtered_and_exported(server, page, tmp_path):
    # nine letters and three jokers on es (172,085 words): answers this size once gave
    # "Maximum call stack size exceeded", or froze the page for 23–26 s; now a page at a time
    rack = "AEIORSTNL***"
    expected = cli_json("anagram", rack, "--lexicon", "es")["results"]
    assert len(expected) > 90_000
    started = time.monotonic()
    open_page(page, f"{server}/#tab=rack&lexicon=es&letters={quote(rack)}")
    wait_done(page, "rack-results")
    assert time.monotonic() - started < 15
    assert status_of(page, "rack-results") == f"{len(expected):,} words from {rack}"
    words = [r["word"] for r in expected]
    assert shown_words(page, "rack-results") == words[:PAGE_SIZE]
    # the page answers at once: a click on Next is drawn within a frame or two
    clicked = page.evaluate(
        "() => { const t = performance.now(); "
        "document.querySelector('#rack-results .pager button:last-child').click(); "
        "return performance.now() - t; }"
    )
    assert clicked < 200, f"Next took {clicked:.0f} ms"
    assert shown_words(page, "rack-results") == words[PAGE_SIZE : 2 * PAGE_SIZE]

    # a chip per length, with its count
    lengths: dict[int, int] = {}
    for word in words:
        lengths[len(word)] = lengths.get(len(word), 0) + 1
    chips = page.eval_on_selector_all(
        "#rack-results .chip",
        "cs => cs.map(c => [+c.dataset.length, c.getAttribute('aria-label')])",
    )
    assert chips[0] == [0, f"all lengths: {len(words):,} words"]
    assert {n: label for n, label in chips[1:]} == {
        n: f"{n} letters: {count:,} word{'s' if count > 1 else ''}" for n, count in lengths.items()
    }
    page.click('#rack-results .chip[data-length="5"]')
    page.fill("#rack-results-starts", "ca")
    page.fill("#rack-results-ends", "s")
    page.fill("#rack-results-has", "R")
    wanted = [
        w for w in words if len(w) == 5 and w.startswith("CA") and w.endswith("S") and "R" in w
    ]
    assert 0 < len(wanted) <= PAGE_SIZE
    assert shown_words(page, "rack-results") == wanted
    # headings group the page's words by length
    assert page.locator("#rack-results li.group").all_inner_texts() == ["5 LETTERS"]
    with page.expect_download() as download:
        page.click("#rack-results .list-tools button:has-text('Export')")
    assert Path(download.value.path()).read_text(encoding="utf-8").split() == wanted


# --- Boggle --------------------------------------------------------------------------------


def path_cells(page, board: str = "boggle") -> list[tuple[int, int]]:
    """The highlighted cells of the board, in step order."""
    cells = page.eval_on_selector_all(
        f"#{board}-board .cell.on-path",
        "cells => cells.map(c => [+c.dataset.step, +c.dataset.row, +c.dataset.col])",
    )
    return [(row, col) for _, row, col in sorted(cells)]


def cell(page, row: int, col: int, board: str = "boggle"):
    return page.locator(f"#{board}-board input[data-row='{row}'][data-col='{col}']")


def test_one_boggle_board_typed_into_draws_the_path(server, page, tmp_path):
    open_page(page, f"{server}/#tab=boggle&lexicon=en")
    cell(page, 0, 0).click()
    page.keyboard.type("PERSLATGSINETERS")  # each letter moves on to the next cell
    page.keyboard.press("Enter")
    wait_done(page, "boggle-results")
    expected = cli_json("boggle", "PERS/LATG/SINE/TERS", "--paths", "--lexicon", "en")
    words = [r["word"] for r in expected["results"]]
    assert shown_words(page, "boggle-results") == words[:PAGE_SIZE]
    paths = {r["word"]: [tuple(c) for c in r["path"]] for r in expected["results"]}
    assert path_cells(page) == paths[words[0]]  # the first word, drawn

    page.fill("#boggle-results-has", "SINE")
    page.click('#boggle-results button[data-word="SINE"]')
    assert path_cells(page) == paths["SINE"] == [(2, 0), (2, 1), (2, 2), (2, 3)]
    assert page.get_attribute("#boggle-board .cell.start", "data-step") == "1"
    assert len(page.get_attribute("#boggle-board polyline.path", "points").split()) == 4
    assert "word=SINE" in page.url
    # the board is shown once: the cells typed into are the board the path is drawn on
    assert page.locator("#boggle .letter-board").count() == 1
    assert page.locator("#boggle .cell").count() == 16
    assert page.locator("#boggle svg").count() == 1  # the path's overlay

    # typing into a full cell replaces its letter (it made "Pb", solved as a two-letter cell)
    cell(page, 0, 0).click()
    page.keyboard.type("B")
    assert cell(page, 0, 0).input_value() == "B"
    assert page.evaluate("document.activeElement.dataset.col") == "1"  # and moves on
    # a cell of several letters is typed letter by letter: Q, U
    cell(page, 3, 3).click()
    page.keyboard.type("QU")
    assert cell(page, 3, 3).input_value() == "Qu"
    assert cell(page, 3, 3).get_attribute("aria-label") == "row 4, column 4: Qu"
    page.keyboard.press("Enter")
    wait_done(page, "boggle-results")
    grid = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('grid')")
    assert grid == "B E R S/L A T G/S I N E/T E R Qu"
    again = cli_json("boggle", grid, "--paths", "--lexicon", "en")
    assert status_of(page, "boggle-results").startswith(f"{len(again['results']):,} words")


def test_a_big_board_keeps_its_letters_whole_and_the_word_in_view(server, browser, tmp_path):
    for viewport in (PHONE, DESKTOP):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        errors, _ = watched(page)
        board = cli_json(
            "generate", "--rows", "20", "--cols", "20", "--seed", "5", "--lexicon", "en"
        )
        grid = board["results"][0]["board"]
        words = [r["word"] for r in cli_json("boggle", grid, "--lexicon", "en")["results"]]
        late = words[len(words) * 2 // 3]  # far down the list: page 60 or so
        open_page(page, f"{server}/#tab=boggle&lexicon=en&grid={quote(grid)}&word={late}")
        wait_done(page, "boggle-results")
        chosen = page.locator("#boggle-results button.word.chosen")
        assert chosen.get_attribute("data-word") == late
        box = chosen.bounding_box()
        listed = page.locator("#boggle-results-list").bounding_box()
        bottom = box["y"] + box["height"]
        assert listed["y"] - 1 <= box["y"] and bottom <= listed["y"] + listed["height"] + 1
        assert box["y"] >= 0 and bottom <= viewport["height"] + 1, "not in view"
        # every letter whole: no cell's text wider or taller than its box, cells a finger wide
        clipped = page.eval_on_selector_all(
            "#boggle-board input",
            "cells => cells.filter(c => c.scrollWidth > c.clientWidth || "
            "c.scrollHeight > c.clientHeight).length",
        )
        assert clipped == 0
        size = page.locator("#boggle-board .cell").first.bounding_box()
        assert size["width"] >= 40 and size["height"] >= 40
        font = page.eval_on_selector(
            "#boggle-board input", "c => parseFloat(getComputedStyle(c).fontSize)"
        )
        assert font >= 18
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        name = "phone" if viewport is PHONE else "desktop"
        page.screenshot(path=tmp_path / f"boggle-20x20-{name}.png")
        assert not errors, errors
        context.close()


def test_a_timed_boggle_round(server, page, tmp_path):
    open_page(page, f"{server}/#tab=boggle&lexicon=en")
    page.select_option("#boggle-minutes", "1")
    page.click("#boggle-play")
    page.wait_for_selector("#boggle-game:not([hidden])")
    sync_api.expect(page.locator("#boggle-guess")).to_be_enabled()
    grid = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('grid')")
    solved = cli_json("boggle", grid, "--paths", "--lexicon", "en")["results"]
    assert solved, grid
    assert page.inner_text("#boggle-timer") in ("1:00", "0:59")
    first = solved[0]
    page.fill("#boggle-guess", first["word"].lower())
    # checked as it is typed: a word of the board lights up, and its path is drawn
    assert "valid" in page.get_attribute("#boggle-guess", "class")
    assert path_cells(page) == [tuple(c) for c in first["path"]]
    page.press("#boggle-guess", "Enter")
    assert page.inner_text("#boggle-found") == f"{first['word']} +{first['score']}"
    page.fill("#boggle-guess", first["word"])
    page.press("#boggle-guess", "Enter")
    assert "already found" in page.inner_text("#boggle-play-status")
    page.fill("#boggle-guess", "QXQ")
    assert "invalid" in page.get_attribute("#boggle-guess", "class")
    page.press("#boggle-guess", "Enter")
    assert "not a word of this board" in page.inner_text("#boggle-play-status")
    screenshot(page, tmp_path, "boggle-round-desktop")
    page.click("#boggle-stop")
    total = sum(w["score"] for w in solved)
    assert page.inner_text("#boggle-play-status") == (
        f"Time! You found 1 word of {len(solved)}: {first['score']} point"
        f"{'s' if first['score'] != 1 else ''} of {total}."
    )
    missed = [w["word"] for w in solved[1:]]
    assert shown_words(page, "boggle-results") == missed[:PAGE_SIZE]
    assert page.is_disabled("#boggle-guess")


# --- Ruzzle --------------------------------------------------------------------------------


def test_ruzzle_squares_are_coloured_and_tapped(server, browser, tmp_path):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors, _ = watched(page)
    open_page(page, f"{server}/#tab=ruzzle&lexicon=en&grid={quote(RUZZLE)}")
    wait_done(page, "ruzzle-results")
    expected = cli_json("ruzzle", RUZZLE, "--lexicon", "en")["results"]
    assert shown_words(page, "ruzzle-results") == [r["word"] for r in expected][:PAGE_SIZE]
    assert cell(page, 0, 0, "ruzzle").input_value() == "Qu"
    squares = page.eval_on_selector_all(
        "#ruzzle-board .cell", "cs => cs.map(c => c.dataset.multiplier)"
    )
    assert [s for s in squares if s] == ["TW", "DL", "DW", "TL"]
    # coloured as in the game: DL green, TL blue, DW orange, TW red (the letter's own square)
    colours = page.eval_on_selector_all(
        "#ruzzle-board .cell[data-multiplier]:not([data-multiplier='']) input",
        "cs => cs.map(c => getComputedStyle(c).backgroundColor)",
    )
    assert len(set(colours)) == 4
    assert path_cells(page, "ruzzle") == [tuple(c) for c in expected[0]["path"]]
    screenshot(page, tmp_path, "ruzzle-phone")

    # a tap cycles a square: plain → DL → TL → DW → TW → plain; a big target on a phone
    page.check("#ruzzle-mode-multipliers")
    target = cell(page, 3, 3, "ruzzle")
    box = target.bounding_box()
    assert box["width"] >= 40 and box["height"] >= 40
    seen = []
    for _ in range(5):
        target.tap()
        seen.append(page.get_attribute("#ruzzle-board .cell:last-of-type", "data-multiplier"))
    assert seen == ["DL", "TL", "DW", "TW", ""]
    assert cell(page, 3, 3, "ruzzle").input_value() == "D"  # the letter stays
    # sort choices: the CLI's orders
    for sort in ("length", "start", "end", "score"):
        page.select_option("#ruzzle-sort", sort)
        wait_done(page, "ruzzle-results")
        want = cli_json("ruzzle", RUZZLE, "--sort", sort, "--lexicon", "en")["results"]
        assert shown_words(page, "ruzzle-results") == [r["word"] for r in want][:PAGE_SIZE]
    assert not errors, errors
    context.close()


# --- Scrabble: a position's moves ------------------------------------------------------------


def board_url(server: str, rack: str) -> str:
    rows = "/".join(line.replace(" ", "") for line in MIDGAME.splitlines())
    return f"{server}/#tab=scrabble&lexicon=fr&rack={quote(rack)}&board={quote(rows)}"


def preview_tiles(page) -> list[list]:
    return page.eval_on_selector_all(
        "#scrabble-board input.preview",
        "squares => squares.map(s => [+s.dataset.row, +s.dataset.col, "
        "s.classList.contains('blank') ? s.value.toLowerCase() : s.value])",
    )


def test_scrabble_moves_once_per_play_with_leave_and_equity(server, page, tmp_path):
    open_page(page, board_url(server, "EIRSTA?"))
    wait_done(page, "scrabble-moves")
    everything = cli_json(
        "scrabble", "-", "--rack", "EIRSTA?", "--top", "0", "--lexicon", "fr", stdin=MIDGAME
    )
    plays: dict[tuple, list] = {}
    for move in everything["results"]:
        plays.setdefault((move["position"], move["word"].upper()), []).append(move)
    listed = page.eval_on_selector_all(
        "#scrabble-moves button.word", "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    assert len(listed) == 30
    keys = [(label.split(", ")[2], label.split(", ")[0].upper()) for label in listed]
    assert len(set(keys)) == len(keys), "a play listed twice"
    # the best plays by score (no leave values built: equity = score), each play once
    best = sorted(plays.values(), key=lambda ms: -max(m["score"] for m in ms))[:30]
    assert sorted(max(m["score"] for m in ms) for ms in best) == sorted(
        int(label.split(", ")[1].split()[0]) for label in listed
    )
    assert status_of(page, "scrabble-moves").startswith(
        f"{everything['moves']:,} legal moves, {len(plays):,} distinct plays"
    )
    first = listed[0]
    assert re.fullmatch(r"[A-Za-z]+, \d+ points, \w+(, keeps [A-Z?]+)?, equity \d+", first), first
    assert preview_tiles(page), "the first move is drawn on the board"
    screenshot(page, tmp_path, "scrabble-moves-desktop")


def test_digraph_tiles_typed_and_shown_as_one_tile(server, page, tmp_path):
    open_page(page, f"{server}/#tab=scrabble&lexicon=es-scrabble&board=%5B%5D")
    page.locator("#scrabble-board input[data-row='7'][data-col='7']").click()
    page.keyboard.type("CHICOTA")
    squares = page.eval_on_selector_all(
        "#scrabble-board input.tile", "ss => ss.map(s => [+s.dataset.col, s.value])"
    )
    assert squares == [[7, "CH"], [8, "I"], [9, "C"], [10, "O"], [11, "T"], [12, "A"]]
    assert "multi" in page.get_attribute(
        "#scrabble-board input[data-col='7'][data-row='7']", "class"
    )
    # the [LL] tile by its button, then the rack's moves on that board
    page.locator("#scrabble-board input[data-row='8'][data-col='10']").click()
    page.click("#digraphs button:has-text('LL')")
    page.fill("#scrabble-rack", "[RR]AEOS?")
    page.press("#scrabble-rack", "Enter")
    wait_done(page, "scrabble-moves")
    assert "error" not in page.get_attribute("#scrabble-moves-status", "class")
    board = json.loads(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('board')"))
    assert [7, 7, "CH"] in board and [8, 10, "LL"] in board
    # LL is drawn as capitals (never "Ll", which reads as "LI")
    assert page.input_value("#scrabble-board input[data-row='8'][data-col='10']") == "LL"
    screenshot(page, tmp_path, "scrabble-digraphs-desktop")


# --- Scrabble against the computer -------------------------------------------------------------


def rack_of(page) -> list[str]:
    return page.eval_on_selector_all(
        "#game-rack button", "bs => bs.map(b => b.querySelector('.face').textContent || '?')"
    )


def log_of(page) -> list[str]:
    return page.locator("#game-log li").all_inner_texts()


def test_a_game_against_the_computer(server, page, tmp_path, build_dir):
    open_page(page, f"{server}/#tab=scrabble&lexicon=en&game=1&seed=11")
    rack = rack_of(page)
    assert len(rack) == 7
    assert page.inner_text("#bag-count") == "86"
    assert page.inner_text("#unseen-count").startswith("93")  # 100 less my 7

    # a phony is challenged off: the tiles come back, the turn is lost
    words = set((build_dir / "en" / "words.txt").read_text(encoding="utf-8").split())
    letters = [t for t in rack if t != "?"]
    phony = next(
        a + b
        for a in letters
        for b in letters
        if a + b not in words and (a != b or letters.count(a) > 1)
    )
    page.locator("#scrabble-board input[data-row='7'][data-col='7']").click()
    page.keyboard.type(phony)
    assert len(rack_of(page)) == 5
    page.click("#game-play")
    wait_log(page, 3)
    sync_api.expect(page.locator("#game-play")).to_be_enabled()
    log = log_of(page)
    assert log[0].startswith(f"You: 8H {phony} +")
    assert log[1].startswith("You: play challenged off")
    assert log[2].startswith("Computer:")
    assert page.inner_text("#score-0") == "0"
    assert len(rack_of(page)) == 7

    # undo: back to before my turn
    page.click("#game-undo")
    assert log_of(page) == [] and page.inner_text("#score-1") == "0"
    assert sorted(rack_of(page)) == sorted(rack)

    # my best move (the list has each play once), played; the computer answers
    page.click("#game-hint")
    wait_done(page, "scrabble-moves")
    best = page.locator("#scrabble-moves button.word").first
    label = best.get_attribute("aria-label")
    best.click()
    page.click("#game-play")
    wait_log(page, 2)
    sync_api.expect(page.locator("#game-play")).to_be_enabled()
    score = int(label.split(", ")[1].split()[0])
    assert page.inner_text("#score-0") == str(score)
    computer = log_of(page)[1]
    assert computer.startswith("Computer:")

    # a challenge of the computer's (valid) play: it gets 5 points
    before = int(page.inner_text("#score-1"))
    page.click("#game-challenge")
    wait_log(page, 3)
    assert int(page.inner_text("#score-1")) == before + 5
    assert page.is_disabled("#game-challenge")

    # an exchange of two tiles, then a pass
    page.click("#game-exchange")
    page.click("#game-rack button >> nth=0")
    page.click("#game-rack button >> nth=1")
    page.click("#game-exchange")
    wait_log(page, 5)
    sync_api.expect(page.locator("#game-play")).to_be_enabled()
    assert log_of(page)[3] == f"You: exchanged 2 tiles ({score})"
    page.click("#game-pass")
    wait_log(page, 7)
    sync_api.expect(page.locator("#game-play")).to_be_enabled()
    # tile tracking: the tiles I have not seen are the bag and the computer's rack
    bag = int(page.inner_text("#bag-count"))
    unseen = page.inner_text("#unseen-count")
    assert unseen.startswith(f"{bag + 7}: the bag's {bag} and the computer's 7")
    screenshot(page, tmp_path, "scrabble-game-desktop")

    # the record as GCG, read back by lexforge (the CLI replays it, checking every score)
    with page.expect_download() as download:
        page.click("#game-export")
    gcg = Path(download.value.path())
    text = gcg.read_text(encoding="utf-8")
    assert text.startswith("#character-encoding UTF-8\n#player1 player player\n#player2 computer")
    scores = [int(page.inner_text("#score-0")), int(page.inner_text("#score-1"))]
    replayed = subprocess.run(
        [LEXFORGE, "scrabble", "--gcg", str(gcg), "--lexicon", "en", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert replayed.returncode == 0, replayed.stderr
    # and imported again: the same scores and log
    log = log_of(page)
    page.set_input_files("#game-import", str(gcg))
    sync_api.expect(page.locator("#game-log li")).to_have_count(len(log))
    assert log_of(page) == log
    assert [int(page.inner_text("#score-0")), int(page.inner_text("#score-1"))] == scores


def test_a_finished_game_is_imported_to_its_end(server, page):
    open_page(page, f"{server}/#tab=scrabble&lexicon=en&game=1&seed=3")
    page.set_input_files("#game-import", str(ROOT / "tests/fixtures/gcg/boys1.gcg"))
    wait_over(page)
    # David Boys 443, Quackle 433 (the record's last totals)
    assert page.inner_text("#scrabble-status") == "The game is over. The computer wins, 433 to 443."
    assert page.is_disabled("#game-play")


# --- the whole page: keyboard, phone, dark mode, contrast ----------------------------------------


def test_keyboard_alone(server, page, tmp_path):
    open_page(page, f"{server}/#tab=rack")
    for _ in range(12):  # Tab from the top of the page to the rack box
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "rack-letters":
            break
    assert page.evaluate("document.activeElement.id") == "rack-letters"
    page.keyboard.type("ZEBRA")
    page.keyboard.press("Enter")
    wait_done(page, "rack-results")
    assert "ZEBRA" in shown_words(page, "rack-results")

    page.focus("#tab-rack")
    page.keyboard.press("ArrowRight")  # tabs: arrows move between them
    assert page.evaluate("document.activeElement.id") == "tab-boggle"
    assert page.is_visible("#boggle") and not page.is_visible("#rack")
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('cell-letter')"):
            break
    page.keyboard.type("PERSLATGSINETERS")
    page.keyboard.press("Enter")
    wait_done(page, "boggle-results")
    page.focus("#boggle-results button.word")  # then Tab walks the words, each drawn on focus
    page.keyboard.press("Tab")
    second = page.evaluate("document.activeElement.dataset.word")
    expected = cli_json("boggle", "PERS/LATG/SINE/TERS", "--paths", "--lexicon", "en")
    path = next(r["path"] for r in expected["results"] if r["word"] == second)
    assert path_cells(page) == [tuple(c) for c in path]


def luminance(rgb: str) -> float:
    values = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    linear = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fore: str, back: str) -> float:
    a, b = sorted((luminance(fore), luminance(back)), reverse=True)
    return (a + 0.05) / (b + 0.05)


COLOURS = """(selector) => {
  const e = document.querySelector(selector);
  let b = e;
  let bg = getComputedStyle(b).backgroundColor;
  while (bg === 'rgba(0, 0, 0, 0)' && b.parentElement) {
    b = b.parentElement;
    bg = getComputedStyle(b).backgroundColor;
  }
  return [getComputedStyle(e).color, bg];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_dark_mode_and_readable_contrast(server, browser, scheme, tmp_path):
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    errors, _ = watched(page)
    open_page(page, f"{server}/#tab=rack&lexicon=en&letters=RATES**")
    wait_done(page, "rack-results")
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    assert page.get_attribute("#theme", "aria-pressed") == str(scheme == "dark").lower()
    page.fill("#rack-contains", "E")  # typed text: the ink, not the placeholder's grey
    for selector in (
        "body",
        "#rack-results-status",
        ".hint",
        "#rack-letters",
        "#rack-contains",
        "#rack-results button.word",
        "#rack-results .chip",
        "footer",
        "nav [aria-selected=true]",
    ):
        fore, back = page.evaluate(COLOURS, selector)
        assert contrast(fore, back) >= 4.5, (selector, fore, back)
    if scheme == "dark":
        screenshot(page, tmp_path, "rack-dark-desktop")
    typed = page.eval_on_selector("#rack-letters", "e => getComputedStyle(e).color")
    placeholder = page.eval_on_selector(
        "#rack-letters", "e => getComputedStyle(e, '::placeholder').color"
    )
    assert typed != placeholder
    page.click("#theme")  # the toggle: the other theme, remembered
    other = "light" if scheme == "dark" else "dark"
    assert page.evaluate("document.documentElement.dataset.theme") == other
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.dataset.theme") == other
    assert not errors, errors
    context.close()


TAB_URLS = {
    "start": "#tab=start&lexicon=en",
    "rack": "#tab=rack&lexicon=en&letters=RATES**",
    "boggle": "#tab=boggle&lexicon=en&grid=PERS/LATG/SINE/TERS&word=PLASTERING",
    "ruzzle": f"#tab=ruzzle&lexicon=en&grid={quote(RUZZLE)}",
    "scrabble": "#tab=scrabble&lexicon=en&game=1&seed=7",
}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_tab_on_a_phone_and_a_desktop(server, browser, viewport, tmp_path):
    name = "phone" if viewport is PHONE else "desktop"
    context = browser.new_context(viewport=viewport, is_mobile=viewport is PHONE)
    for tab, fragment in TAB_URLS.items():
        page = context.new_page()
        errors, outside = watched(page)
        open_page(page, f"{server}/{fragment}")
        if tab == "scrabble":
            page.click("#game-hint")
            wait_done(page, "scrabble-moves")
            page.locator("#scrabble-moves button.word").first.click()
            # on a phone the moves sit just above the board they are drawn on
            moves = page.locator("#scrabble-moves").bounding_box()
            board = page.locator("#scrabble-board").bounding_box()
            if viewport is PHONE:
                assert moves["y"] + moves["height"] <= board["y"] + 1
                assert board["width"] <= 390
                page.evaluate("document.getElementById('scrabble-moves').scrollIntoView()")
                if folder := os.environ.get("LEXFORGE_SCREENSHOTS"):
                    page.screenshot(path=Path(folder) / "page-scrabble-board-phone.png")
        elif tab != "start":
            wait_done(page, f"{tab}-results")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{tab}: the page is {width}px wide"
        screenshot(page, tmp_path, f"{tab}-{name}")
        assert not errors and not outside, (errors, outside)
        page.close()
    context.close()


def test_the_start_screen_opens_an_example_per_tab(server, page):
    open_page(page, server)
    assert page.is_visible("#start") and not page.is_visible("#rack")
    examples = page.eval_on_selector_all("button.example", "bs => bs.map(b => b.dataset.example)")
    assert {e.split("-")[0] for e in examples} == {"rack", "boggle", "ruzzle", "scrabble"}
    page.click("button[data-example=rack]")
    wait_done(page, "rack-results")
    assert page.is_visible("#rack") and shown_words(page, "rack-results")
    page.click("#tab-start")
    page.click("button[data-example=ruzzle]")
    wait_done(page, "ruzzle-results")
    assert shown_words(page, "ruzzle-results")
    page.click("#tab-start")
    page.click("button[data-example=scrabble]")
    page.wait_for_selector("#game-rack button")
    assert len(rack_of(page)) == 7
    page.click("#tab-start")
    page.click("button[data-example=scrabble-analyse]")
    wait_done(page, "scrabble-moves")
    board = "/".join("....JUMBO......" if r == 7 else "." * 15 for r in range(15))
    best = cli_json("scrabble", board, "--rack", "EIRSTA?", "--top", "1", "--lexicon", "en")
    label = page.get_attribute("#scrabble-moves button.word", "aria-label")
    assert int(label.split(", ")[1].split()[0]) == best["results"][0]["score"]


def test_playing_out_ends_the_game(server, page, tmp_path):
    # the bag empty, my rack A T, the computer's Q: AT on 8H (A1 T1, ×2 on the start square)
    # plays out; I gain the Q's 10 points, the computer loses them (lexforge.game's rule)
    open_page(page, f"{server}/#tab=scrabble&lexicon=en&game=1&seed=5")
    page.evaluate("game.bag = []; game.racks = [['A', 'T'], ['Q']]; refreshGame()")
    page.locator("#scrabble-board input[data-row='7'][data-col='7']").click()
    page.keyboard.type("AT")
    page.click("#game-play")
    wait_over(page)
    assert page.inner_text("#scrabble-status") == "The game is over. You win, 14 to -10."
    assert log_of(page) == [
        "You: 8H AT +4 (4)",
        "You: +10 for the tiles left (Q) (14)",
        "Computer: -10 for the tiles left (Q) (-10)",
    ]
    assert page.is_disabled("#game-play") and page.is_disabled("#game-pass")
    with page.expect_download() as download:
        page.click("#game-export")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert ">player: (Q) +10 14" in text and ">computer: Q (Q) -10 -10" in text


def test_six_scoreless_turns_end_the_game(server, page):
    open_page(page, f"{server}/#tab=scrabble&lexicon=en&game=1&seed=5")
    page.evaluate("game.racks = [['A', 'T'], ['Q', 'Z']]; game.scoreless = 5; refreshGame()")
    page.click("#game-pass")  # the sixth scoreless turn: each loses their rack's value
    wait_over(page)
    assert log_of(page) == [
        "You: passed (0)",
        "You: -2 for the tiles left (AT) (-2)",
        "Computer: -20 for the tiles left (QZ) (-20)",
    ]
    assert page.inner_text("#scrabble-status") == "The game is over. You win, -2 to -20."


def test_a_word_typed_through_a_tile_on_the_board(server, page):
    open_page(page, f"{server}/#tab=scrabble&lexicon=en&game=1&seed=5")
    page.evaluate("setTile(square(7, 7), 'C'); game.racks[0] = ['A', 'T', 'E']; refreshGame()")
    page.locator("#scrabble-board input[data-row='7'][data-col='7']").click()
    page.keyboard.type("CAT")  # the C is on the board: the typing goes through it
    assert rack_of(page) == ["E"]
    page.click("#game-play")
    wait_log(page, 1)
    # C3 (already there) A1 T1, no premium under the new tiles
    assert log_of(page)[0] == "You: 8H CAT +5 (5)"


def test_the_computer_strength_is_sent_with_its_turn(server, page, tmp_path):
    """The strength control: the computer's turn is asked of the simulation player, and it
    plays (a play, an exchange or a pass: the log grows by its turn)."""
    open_page(page, f"{server}/#tab=scrabble&lexicon=en&game=1&seed=3")
    asked: list[dict] = []
    page.on(
        "request",
        lambda request: (
            asked.append(json.loads(request.post_data)) if "game/computer" in request.url else None
        ),
    )
    assert page.eval_on_selector_all("#game-strength option", "os => os.map(o => o.value)") == [
        "static",
        "simulation",
    ]
    page.select_option("#game-strength", "simulation")
    page.click("#game-pass")
    wait_log(page, 2)
    assert [body["strength"] for body in asked] == ["simulation"]
    assert log_of(page)[1].startswith("Computer: ")
    screenshot(page, tmp_path, "scrabble-strength-desktop")
