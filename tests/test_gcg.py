"""GCG records (lexforge.gcg): real games replayed against their recorded scores, the position
of any turn, the compiled generator on recorded racks, round trips, and malformed files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from solver_fixtures import language
from test_cli import fails_in_one_line, run

from lexforge import gcg, scrabble
from lexforge.errors import UserError
from lexforge.lexicon import Lexicon
from lexforge.plays import read_play, words_formed
from lexforge.scrabble import place

FIXTURES = Path(__file__).parent / "fixtures" / "gcg"
REAL_GAMES = sorted(FIXTURES.glob("*.gcg"))  # see fixtures/gcg/SOURCES
EN = language("en")
LAYOUT = scrabble.load_layout(None)
# Final scores of the three games, as their last lines record them.
FINAL = {"boys1.gcg": (433, 443), "boys2.gcg": (423, 357), "capp.gcg": (481, 393)}


def read(path: Path) -> gcg.Record:
    return gcg.parse_record(gcg.decode(path.read_bytes(), path.name), path.name)


@pytest.mark.parametrize("path", REAL_GAMES, ids=lambda p: p.name)
def test_real_games_replay_with_every_recorded_score(path):
    """replay() rescores every play with lexforge.plays and refuses a difference, so reaching
    the end is every recorded score matched (80 plays over the three games), the cumulative
    totals included."""
    record = read(path)
    plays = [e for e in record.events if e.kind == gcg.PLAY]
    assert len(plays) >= 20
    final = gcg.replay(record, EN, LAYOUT)
    assert final.scores == FINAL[path.name]
    for turn in range(1, len(record.turns()) + 2):
        position = gcg.replay(record, EN, LAYOUT, turn)
        assert position.turn == turn
        if position.recorded is not None:
            assert position.recorded is record.events[record.turns()[turn - 1]]


def test_a_wrong_recorded_score_is_refused_with_its_line():
    text = (FIXTURES / "boys1.gcg").read_text().replace("JETON           +40   40", "JETON +41 41")
    with pytest.raises(UserError, match=r"line 6: 8d JETON scores 40 .* the record says 41"):
        gcg.replay(gcg.parse_record(text, "x.gcg"), EN, LAYOUT, source="x.gcg")


def test_the_compiled_generator_finds_each_recorded_play_with_its_score(build_dir):
    """On every recorded rack whose play makes words of our English lexicon, the move list
    holds that very placement at the recorded score: the generator against real games."""
    en = Lexicon.open("en")
    checked = 0
    for path in REAL_GAMES:
        record = read(path)
        for turn, index in enumerate(record.turns(), start=1):
            event = record.events[index]
            if event.kind != gcg.PLAY:
                continue
            board = gcg.replay(record, EN, LAYOUT, turn).board
            placed, across = read_play(board, event.position, event.word, EN)
            after = place(board, placed)
            words = [
                "".join(after.tiles[s] for s in w) for w in words_formed(board, placed, across)
            ]
            if not all(word in en for word in words):
                continue  # a word our lexicon lacks (another dictionary, or a phony)
            moves = scrabble.generate(en, board, event.rack)
            found = {tuple(sorted(m.placed)): m.score for m in moves}
            assert found[tuple(sorted(placed))] == event.score, (path.name, event)
            checked += 1
    assert checked >= 40


def test_old_quackle_lines_withdrawals_challenges_and_end_racks():
    record = read(FIXTURES / "capp.gcg")
    kinds = [e.kind for e in record.events]
    assert kinds.count(gcg.WITHDRAWN) == 1 and kinds.count(gcg.CHALLENGE) == 1
    assert kinds[-1] == gcg.END_RACK and record.events[-1].tiles == "ENOR"
    withdrawn = record.events[kinds.index(gcg.WITHDRAWN)]
    assert withdrawn.score == 0 and withdrawn.cumulative == 59  # +0, the total falls by 45
    position = gcg.replay(record, EN, LAYOUT, 7)  # Pakorn's KAW, after WERGEL came off
    assert not position.board.tiles[9 * 15 + 7]  # H10 empty again
    boys = read(FIXTURES / "boys1.gcg")
    assert (
        boys.events[2].word == "BEDIM" and boys.events[2].position == "7e"
    )  # words after: a comment
    assert boys.players == [("Quackle", "Quackle Computer"), ("David", "David Boys")]


def test_write_read_round_trip():
    record = read(FIXTURES / "capp.gcg")
    again = gcg.parse_record(gcg.format_record(record))
    strip = [{**e.__dict__, "line": 0} for e in record.events]
    assert [{**e.__dict__, "line": 0} for e in again.events] == strip
    assert again.players == record.players and again.title == record.title
    assert gcg.format_record(again) == gcg.format_record(record)


def test_position_notation_marks_played_through_tiles():
    record = read(FIXTURES / "boys1.gcg")
    position = gcg.replay(record, EN, LAYOUT, 3)  # BEDIM through the I of rEDYEING
    assert gcg.notation(position.recorded, position.board, EN) == "7E BED(I)M 26"
    position = gcg.replay(record, EN, LAYOUT, 19)  # CALLIER C13 EL, through the E of QUEY
    assert gcg.notation(position.recorded, position.board, EN) == "C13 (E)L 2"


def test_latin1_files_and_the_encoding_line():
    text = "#player1 Zoé Zoé\n#player2 b b\n>Zoé: AB 8H AB +8 8\n"
    record = gcg.parse_record(gcg.decode(text.encode("iso-8859-1"), "z.gcg"))
    assert record.players[0][0] == "Zoé"
    declared = ("#character-encoding UTF-8\n" + text).encode("utf-8")
    assert gcg.parse_record(gcg.decode(declared, "z.gcg")).players[0][0] == "Zoé"
    with pytest.raises(UserError, match="line 1: character encoding 'latin-9' not supported"):
        gcg.decode(b"#character-encoding latin-9\n" + text.encode(), "z.gcg")


BASE = "#player1 a A\n#player2 b B\n"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (">a: AB 8H AB +8 8\n", "line 1: an event before the #player lines"),
        (BASE + ">c: AB 8H AB +8 8\n", "line 3: unknown player 'c'"),
        (BASE + ">a: AB 8H AB eight 8\n", "line 3: expected the event, a signed score"),
        (BASE + ">a: AB 8H AB +8 9\n", "line 3: total 9, but the scores so far add up to 8"),
        (BASE + ">a: AB 8H AB +9 9\n", "line 3: 8H AB scores 8"),
        (BASE + ">a: AB 8A AB +8 8\n", "line 3: the first play covers the start square"),
        (BASE + ">a: AB 8H ABC +10 10\n", "line 3: rack AB: has no C"),
        (BASE + ">a: AB 20H AB +8 8\n", "line 3: position '20H' is off the 15×15 board"),
        (BASE + ">a: AB -- -8 -8\n", "line 3: a play withdrawn (--) but the player made none"),
        (BASE + ">a: AB ?? ?? +8 8\n", "line 3: cannot read the event"),
        (BASE + "hello\n", "line 3: neither a pragma"),
        (BASE + "#character-encoding UTF-8\n", "line 3: #character-encoding must be the first"),
        ("#player1 a A\n#player3 b B\n", "line 2: #player3 where #player2 was expected"),
        ("#player1 a A\n#player2 a B\n", "line 2: two players named 'a'"),
        ("#player1 a A\n", "1 #player lines, a game needs two or more"),
        (
            BASE + ">a: AB 8H AB +8 8\n>b: (AB) +9 9\n",
            "line 4: (AB) is worth 4, the record says 9",
        ),
    ],
)
def test_malformed_records_name_the_line(text, fragment):
    with pytest.raises(UserError, match=re.escape(fragment)):
        gcg.replay(gcg.parse_record(text, "g.gcg"), EN, LAYOUT, source="g.gcg")


def test_gcg_on_the_command_line(build_dir, tmp_path):
    game = str(FIXTURES / "boys1.gcg")
    done = run("scrabble", "--gcg", game, "--turn", "5", "--lexicon", "en", "--top", "0", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["gcg"] == {
        "turn": 5,
        "player": "Quackle",
        "rack": "DFGINPS",
        "scores": [66, 139],
        "played": "K3 DIF 29",
        "over": False,
    }
    assert data["moves"] == len(data["results"]) > 0
    text = run("scrabble", "--gcg", game, "--turn", "5", "--lexicon", "en", "--top", "1").stdout
    assert (
        text.splitlines()[0]
        == "# turn 5: Quackle to play DFGINPS (scores 66–139); played K3 DIF 29"
    )
    bad = tmp_path / "bad.gcg"
    bad.write_text(BASE + ">a: AB 8H AB +9 9\n")
    fails_in_one_line(run("scrabble", "--gcg", str(bad), "--lexicon", "en"), "bad.gcg: line 3:")
    fails_in_one_line(
        run("scrabble", "--gcg", game, "--turn", "99", "--lexicon", "en"), "turns 1 to 23"
    )
    over = run("scrabble", "--gcg", game, "--lexicon", "en", "--json")  # a finished game
    assert over.returncode == 0 and not over.stderr, over.stderr
    data = json.loads(over.stdout)
    assert data["results"] == [] and data["gcg"]["scores"] == list(FINAL["boys1.gcg"])
    assert data["gcg"]["over"] is True
    text = run("scrabble", "--gcg", game, "--lexicon", "en").stdout
    assert text == "# game over after turn 22 (scores 433–443)\n"
    unfinished = tmp_path / "unfinished.gcg"
    unfinished.write_text(BASE + ">a: AB 8H AB +8 8\n")
    fails_in_one_line(run("scrabble", "--gcg", str(unfinished), "--lexicon", "en"), "give --rack")
    fails_in_one_line(
        run("scrabble", "-", "--gcg", game, "--lexicon", "en"), "give no BOARD argument"
    )
    fails_in_one_line(run("scrabble", "--turn", "3", "--rack", "AB", "--lexicon", "en"), "--gcg")


def with_rack(path: Path, turn: int, rack: str) -> str:
    """The record at ``path`` with the rack of its ``turn``-th turn (from 1) replaced."""
    lines, seen = path.read_text().splitlines(keepends=True), 0
    for i, line in enumerate(lines):
        if line.startswith(">") and not re.match(r">\S+:\s+\(", line) and "(challenge)" not in line:
            seen += 1
            if seen == turn:
                nick, rest = line.split(":", 1)
                lines[i] = f"{nick}: {rack} {rest.split(maxsplit=1)[1]}"
                break
    return "".join(lines)


def test_a_rack_that_gains_a_tile_the_set_no_longer_holds_is_refused():
    """boys1: the Z (MEZE, turn 9) and the Q (QUEY, turn 18) are on the board; a rack that holds
    another one later cannot be dealt from the English set (one Z, one Q)."""
    record = read(FIXTURES / "boys1.gcg")
    turns = [record.events[i] for i in record.turns()]
    played = "".join(e.word for e in turns[:20] if e.kind == gcg.PLAY).upper()
    assert "Z" in played and "Q" in played  # the fixture holds what the test needs
    later = turns[20]
    forged = later.rack[:-1] + "Z"
    text = with_rack(FIXTURES / "boys1.gcg", 21, forged)
    with pytest.raises(
        UserError, match=r"line \d+: rack ACEILOZ and the board hold 2 Z, the English set has 1"
    ):
        gcg.replay(gcg.parse_record(text, "f.gcg"), EN, LAYOUT, source="f.gcg")
    eight = with_rack(FIXTURES / "boys1.gcg", 21, later.rack + "E")
    with pytest.raises(UserError, match="holds 8 tiles, a rack holds 7"):
        gcg.replay(gcg.parse_record(eight, "f.gcg"), EN, LAYOUT, source="f.gcg")


def test_a_rack_that_loses_a_kept_tile_is_a_warning():
    """Racks only gain tiles: capp.gcg, typed at the WSC, has two racks lacking a tile kept
    the turn before (lines 18 and 20); the computer-kept boys records have none."""
    capp = gcg.replay(read(FIXTURES / "capp.gcg"), EN, LAYOUT, source="capp.gcg")
    assert capp.warnings == (
        "capp.gcg: line 18: rack NOOPRRU lacks U, which the player kept after line 16",
        "capp.gcg: line 20: rack EEMORSU lacks R, which the player kept after line 18",
    )
    for name in ("boys1.gcg", "boys2.gcg"):
        assert gcg.replay(read(FIXTURES / name), EN, LAYOUT).warnings == ()
    done = run("scrabble", "--gcg", str(FIXTURES / "capp.gcg"), "--lexicon", "en")
    assert done.returncode == 0
    assert done.stderr.count("lexforge scrabble: warning: ") == 2
