"""Whole games (lexforge.game, lexforge.players): seeded greedy games in every language with
Scrabble data, each turn checked against what the rules and an independent scorer say — tiles
conserved, every play the plain-Python generator's best score, the end rules, determinism —
plus the human and equity players, the Wilson interval, and the command line."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import SCRABBLE_LANGUAGES, small_lexicon
from test_cli import fails_in_one_line, run

from lexforge import gcg, reference, scrabble
from lexforge.errors import UserError
from lexforge.game import Game, Result, View, play_game, rack_value, wilson
from lexforge.leaves import LeaveTable, load_leaves
from lexforge.lexicon import Lexicon
from lexforge.players import Equity, Greedy, Human
from lexforge.plays import BLANK, Exchange, Pass, parse_tiles
from lexforge.tiles import left_out, tile_counts


def greedy_pair() -> list[Greedy]:
    return [Greedy("one"), Greedy("two")]


def in_play(game: Game) -> Counter[str]:
    """Every tile of the game, wherever it is: on the board (blanks as ?), racks, the bag."""
    tiles = Counter(
        BLANK if i in game.board.blanks else t for i, t in enumerate(game.board.tiles) if t
    )
    for rack in game.racks:
        tiles.update(rack)
    tiles.update(game.bag)
    return tiles


def distribution(lexicon: Lexicon) -> Counter[str]:
    """The set as the language file lists it, folded to the alphabet by hand-checkable rules
    (tests below pin the folds): every tile, plus the blanks."""
    counts = Counter(tile_counts(lexicon.language))
    counts[BLANK] = lexicon.language.blanks
    return counts


def checked_game(lexicon: Lexicon, seed: int) -> Result:
    """A greedy game where every turn is checked: tiles conserved, and each play the best score
    the plain-Python generator finds for that rack on that board (so also its score)."""
    boards = []

    def check(event: gcg.Event, game: Game) -> None:
        assert in_play(game) == distribution(lexicon)
        board, rack = boards[-1]
        if event.kind == gcg.PLAY:
            python = reference.scrabble_moves_python(lexicon, board, rack)
            assert python and event.score == python[0].score
        elif event.kind in (gcg.EXCHANGE, gcg.PASS):
            assert not scrabble.find_moves(lexicon, board, rack)  # greedy plays when it can

    class Watched(Greedy):
        def choose(self, view: View):
            boards.append((view.board, view.rack))
            return super().choose(view)

    return play_game(lexicon, [Watched("one"), Watched("two")], seed, on_turn=check)


@pytest.mark.parametrize("code", SCRABBLE_LANGUAGES)
def test_a_seeded_game_conserves_tiles_and_scores_as_the_python_generator(code):
    lexicon = small_lexicon(code)
    result = checked_game(lexicon, seed=7)
    assert result.moves >= 2  # sample lexicons: games may end in six scoreless turns
    assert_end_accounting(lexicon, result)


def assert_end_accounting(lexicon: Lexicon, result: Result) -> None:
    """The record's last lines are the end rules, and the totals add up."""
    record = result.record
    turns = [e for e in record.events if e.kind in gcg.TURNS]
    ends = record.events[len(turns) :]
    language = lexicon.language

    def tiles(text: str) -> str:  # as the record writes them: [CH] for a multi-letter tile
        return parse_tiles(text, language, "rack")

    racks = {e.player: tiles(e.tiles) for e in ends if e.kind == gcg.RACK_PENALTY}
    for e in ends:
        if e.kind == gcg.RACK_PENALTY:
            assert e.score == -rack_value(tiles(e.tiles), lexicon)
    going_out = [e for e in ends if e.kind == gcg.END_RACK]
    if going_out:  # the last turn emptied a rack: it gains what the others keep
        (out,) = going_out
        assert out.player == turns[-1].player and turns[-1].kind == gcg.PLAY
        assert out.score == sum(rack_value(r, lexicon) for r in racks.values())
        assert Counter(tiles(out.tiles)) == Counter("".join(racks.values()))
    else:  # six scoreless turns
        assert [t.score for t in turns[-6:]] == [0] * 6
    for player in range(len(record.players)):
        events = [e for e in record.events if e.player == player]
        assert sum(e.score for e in events) == events[-1].cumulative == result.scores[player]


def test_spanish_bag_holds_the_digraph_tiles_where_the_lexicon_does_and_folds_accents():
    """Published sets (shared/game-data.md §4.1): es 100 tiles with 2 blanks; es-scrabble holds
    all of them, CH, LL and RR as one tile each; the default es lexicon (Boggle, Ruzzle) leaves
    the three out and folds Ñ to N; de Ä/Ö/Ü fold to A/O/U."""
    es = small_lexicon("es").language
    assert left_out(es) == {"CH": 1, "LL": 1, "RR": 1}
    assert sum(tile_counts(es).values()) + es.blanks == 100 - 3
    assert tile_counts(es)["N"] == 5 + 1  # N and Ñ
    scrabble_es = small_lexicon("es-scrabble").language
    counts = tile_counts(scrabble_es)
    assert not left_out(scrabble_es) and sum(counts.values()) + scrabble_es.blanks == 100
    assert {scrabble_es.spell(t): counts[t] for t in scrabble_es.symbols} == {
        "CH": 1,
        "LL": 1,
        "RR": 1,
    }
    assert counts["N"] == 5 and counts["Ñ"] == 1 and counts["C"] == 4 and counts["L"] == 4
    de = small_lexicon("de").language
    assert tile_counts(de)["A"] == 5 + 1 and sum(tile_counts(de).values()) + de.blanks == 102
    en = small_lexicon("en").language
    assert sum(tile_counts(en).values()) + en.blanks == 100 and not left_out(en)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(SCRABBLE_LANGUAGES), st.integers(0, 10**6))
def test_same_seed_same_record_bytes_and_the_record_replays(code, seed):
    lexicon = small_lexicon(code)
    first = gcg.format_record(play_game(lexicon, greedy_pair(), seed).record)
    again = gcg.format_record(play_game(lexicon, greedy_pair(), seed).record)
    assert first == again
    record = gcg.parse_record(first)
    position = gcg.replay(record, lexicon.language, scrabble.load_layout(None))
    assert gcg.format_record(record) == first  # write → read → write: the same file
    assert list(position.scores) == [e.cumulative for e in last_per_player(record)]
    assert position.over and not position.warnings  # each rack holds the tiles kept before


def test_spanish_records_bracket_multi_letter_tiles_in_words_too():
    """One convention, wolges's: [CH] [LL] [RR] (a blank: [ch]) in racks and words alike."""
    lexicon = small_lexicon("es-scrabble")
    language = lexicon.language
    words = []
    for seed in range(6):
        record = play_game(lexicon, greedy_pair(), seed).record
        words += [e.word for e in record.events if e.kind == gcg.PLAY]
        text = gcg.format_record(record)
        position = gcg.replay(gcg.parse_record(text), language, scrabble.load_layout(None))
        assert position.over and not position.warnings
    bracketed = [w for w in words if "[" in w]
    assert bracketed, "no game placed a multi-letter tile"
    for word in words:
        plain = re.sub(r"\[(CH|LL|RR|ch|ll|rr)\]", "", word)
        assert "[" not in plain and not re.search("CH|LL|RR", plain, re.IGNORECASE), word


def last_per_player(record: gcg.Record) -> list[gcg.Event]:
    return [[e for e in record.events if e.player == p][-1] for p in range(len(record.players))]


def test_different_seeds_different_games():
    lexicon = small_lexicon("en")
    records = {gcg.format_record(play_game(lexicon, greedy_pair(), s).record) for s in range(3)}
    assert len(records) == 3


class Passer:
    """Always passes."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: View):
        return Pass()


def test_six_scoreless_turns_end_the_game_and_each_rack_counts_against_its_player():
    lexicon = small_lexicon("fr")
    result = play_game(lexicon, [Passer("a"), Passer("b"), Passer("c")], seed=3)
    events = result.record.events
    assert [e.kind for e in events] == [gcg.PASS] * 6 + [gcg.RACK_PENALTY] * 3
    for event, rack in zip(events[6:], [e.rack for e in events[:3]], strict=True):
        assert event.tiles == rack and event.score == -rack_value(rack, lexicon) < 0
    assert result.scores == [e.score for e in events[6:]]


def test_exchanges_need_a_full_rack_of_tiles_in_the_bag():
    lexicon = small_lexicon("en")
    game = Game(lexicon, greedy_pair(), seed=1, layout=scrabble.load_layout(None))
    rack = game.racks[0]
    event = game.apply(0, Exchange(rack[:3]))
    assert event.kind == gcg.EXCHANGE and event.tiles == rack[:3] and len(game.racks[0]) == 7
    assert in_play(game) == distribution(lexicon)
    with pytest.raises(UserError, match="has no"):
        game.apply(0, Exchange("ZZZZ"))
    game.bag[:] = game.bag[:6]
    with pytest.raises(UserError, match="no exchange with 6 tiles in the bag"):
        game.apply(1, Exchange(game.racks[1][:1]))
    assert game.turns == 1 and in_play(game) != distribution(lexicon)  # the bag was cut


def test_the_player_who_goes_out_gains_the_others_racks():
    """An endgame set up by hand: the bag empty, one player's last tile plays out."""
    lexicon = Lexicon.from_words(["CHAT", "CHATS"], small_lexicon("fr").language)
    game = Game(lexicon, greedy_pair(), seed=0, layout=scrabble.load_layout(None))
    game.board = scrabble.parse_board(
        "\n".join("." * 15 if r != 7 else "....CHAT......." for r in range(15)),
        lexicon.language,
        game.layout,
    )
    game.bag.clear()
    game.racks = ["S", "KQ"]
    result = game.run()
    end = result.record.events
    assert [e.kind for e in end] == [gcg.PLAY, gcg.END_RACK, gcg.RACK_PENALTY]
    assert end[0].position == "8E" and end[0].word == "....S" and end[0].score == 3 + 4 + 1 + 1 + 1
    assert end[1].score == 10 + 8 and end[2].score == -18  # K 10 + Q 8 in French
    assert result.scores == [10 + 18, -18]


def scripted(lines: list[str]) -> Iterator[str]:
    yield from lines


def test_a_human_gets_one_line_per_bad_move_then_plays():
    lexicon = Lexicon.from_words(["CHAT", "CHATS", "TA"], small_lexicon("fr").language)
    answers = scripted(["8H XYZ", "H9 CHAT", "8A CHAT", "8H CHAZ", "-ABC", "8H CHAT"])
    out = io.StringIO()
    human = Human("me", lambda prompt: next(answers), out, lambda board: "(the board)\n")
    game = Game(lexicon, [human, Passer("cpu")], seed=0, layout=scrabble.load_layout(None))
    game.racks[0] = "ACHSTZ?"
    action = human.choose(game.view(0))
    assert action.notation == "8H CHAT" and action.score == (3 + 4 + 1 + 1) * 2
    errors = [
        line for line in out.getvalue().splitlines() if line.startswith("lexforge scrabble play: ")
    ]
    assert len(errors) == 5
    assert "has no XY" in errors[0]
    assert "start square (8H)" in errors[1] and "start square" in errors[2]
    assert "CHAZ is not in" in errors[3]
    assert "has no B" in errors[4]


def test_equity_player_weighs_the_leave():
    lexicon = Lexicon.from_words(["CHAT", "CHATS", "AS"], small_lexicon("fr").language)
    board = scrabble.parse_board(
        ("." * 15 + "\n") * 15, lexicon.language, scrabble.load_layout(None)
    )
    view = View(lexicon, board, "ACHSTX?", 80, (0, 0), 0)
    greedy = Greedy("g").choose(view)
    assert greedy.word in ("CHATS", "CHATs")
    plain = Equity("e", LeaveTable({})).choose(view)
    assert plain.score == greedy.score  # no leave values: the best score
    keeps_s = Equity("e", LeaveTable({"SX?": 100.0})).choose(view)
    assert keeps_s.word == "CHAT" or isinstance(keeps_s, Exchange)


def test_wilson_interval_matches_published_values():
    # Wilson (1927) via Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605.
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    low, high = wilson(15, 148)
    assert (round(low, 4), round(high, 4)) == (0.0624, 0.1605)
    assert wilson(0, 0) == (0.0, 1.0)


def test_play_and_selfplay_on_the_command_line(build_dir, tmp_path):
    first, second = tmp_path / "a.gcg", tmp_path / "b.gcg"
    for path in (first, second):
        done = run("scrabble", "play", "--lexicon", "en", "--seed", "5", "--gcg-out", str(path))
        assert done.returncode == 0, done.stderr
    assert first.read_bytes() == second.read_bytes()
    assert first.read_text().startswith("#character-encoding UTF-8\n#player1 greedy1")
    data = json.loads(
        run(
            "scrabble", "selfplay", "--lexicon", "en", "--games", "4", "--seed", "2", "--json"
        ).stdout
    )
    rows = data["results"]
    assert [r["player"] for r in rows] == ["greedy1", "greedy2"]
    assert sum(r["wins"] for r in rows) == 4
    assert all(r["low"] <= r["win_rate"] <= r["high"] for r in rows)
    # The record sets up a position the moves query answers.
    done = run("scrabble", "--gcg", str(first), "--turn", "3", "--lexicon", "en", "--json")
    assert json.loads(done.stdout)["gcg"]["turn"] == 3


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["scrabble", "play", "--players", "greedy"], "two or more players"),
        (["scrabble", "play", "--players", "greedy,wizard"], "'wizard' is not one of"),
        (
            ["scrabble", "play", "--players", "equity,greedy", "--leaves", "no-such-file.json"],
            "no-such-file.json: cannot read the leave values",
        ),
        (["scrabble", "selfplay", "--players", "human,greedy"], "computer players"),
        (["scrabble", "play", "--players", "human,greedy", "--json"], "played in text"),
    ],
)
def test_game_options_errors_are_one_line(build_dir, args, fragment):
    fails_in_one_line(run(*args, "--lexicon", "en"), fragment)


def test_rack_tiles_parse_like_the_board():
    language = small_lexicon("fr").language
    assert parse_tiles("éa*?", language, "rack") == "AE??"
    with pytest.raises(UserError, match="'7' is not a letter"):
        parse_tiles("A7", language, "rack")


def test_leave_tables_are_read_and_checked(tmp_path):
    table = tmp_path / "leaves.tsv"
    table.write_text("# tiles value\n?S\t25.5\nQ -7\n", encoding="utf-8")
    assert load_leaves(str(table)) == LeaveTable({"S?": 25.5, "Q": -7.0})
    table.write_text("?S 25.5\nQ\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"leaves\.tsv: line 2: expected TILES VALUE"):
        load_leaves(str(table))


def test_an_equity_game_on_the_command_line(build_dir, tmp_path):
    table = tmp_path / "leaves.tsv"
    table.write_text("? 20\nS 8\nQ -7\n", encoding="utf-8")
    done = run(
        "scrabble", "play", "--players", "equity,greedy", "--leaves", str(table), "--lexicon", "en"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(">equity1: ")


def test_three_players_conserve_tiles_and_settle_the_end():
    lexicon = small_lexicon("en")

    def conserved(event: gcg.Event, game: Game) -> None:
        assert in_play(game) == distribution(lexicon)

    seats = [Greedy("a"), Greedy("b"), Greedy("c")]
    result = play_game(lexicon, seats, seed=11, on_turn=conserved)
    assert [e.player for e in result.record.events[:3]] == [0, 1, 2]
    assert_end_accounting(lexicon, result)
