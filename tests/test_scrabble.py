"""Scrabble moves: hand-scored plays, the board and layout formats, and the compiled Appel–Jacobson
generator against the plain-Python one and the brute-force oracle on random games in every
language, all moves and the best N."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import SCRABBLE_LANGUAGES, language, small_lexicon
from test_cli import fails_in_one_line, run

from lexforge import plays, reference, scrabble, tiles
from lexforge.errors import UserError
from lexforge.lexicon import Lexicon

FR = language("fr")
FIXTURES = Path(__file__).parent / "fixtures" / "scrabble"
EMPTY_15 = "\n".join(["." * 15] * 15)

SMALL_LAYOUT = """\
. . . . W
. . . . .
. . . . l
. . . . .
. . . . .
"""
CHAT_BOARD = """\
. . . . .
C H A T .
. . . . .
. . . . .
. . . . .
"""


def moves_of(lexicon: Lexicon, board_text: str, rack: str, layout: str | None = None) -> dict:
    layout_ = scrabble.parse_layout(layout) if layout else scrabble.load_layout(None)
    board = scrabble.parse_board(board_text, lexicon.language, layout_)
    moves = scrabble.find_moves(lexicon, board, rack)
    assert moves == reference.scrabble_brute_force(lexicon, board, rack)
    assert moves == reference.scrabble_moves_python(lexicon, board, rack)
    return {(m.position, m.word): m.score for m in moves}


def test_first_move_covers_the_start_square_and_a_bingo_scores_50():
    lex = Lexicon.from_words(["CHATONS", "CHAT"], FR)
    found = moves_of(lex, EMPTY_15, "CHATONS")
    # Down from H3: C3 + H4×2 (double letter on H4) + A1 + T1 + O1 + N1 + S1 = 16, ×2 for the
    # star on H8, + 50 for the whole rack.
    assert found[("H3", "CHATONS")] == 82
    # Across on row 8 from C: H on the double letter D8, N on the star.
    assert found[("8C", "CHATONS")] == (3 + 4 * 2 + 1 + 1 + 1 + 1 + 1) * 2 + 50
    assert found[("8B", "CHATONS")] == (3 + 4 + 1 * 2 + 1 + 1 + 1 + 1) * 2 + 50
    assert all(position[0] == "H" or position.startswith("8") for position, _ in found)
    assert found[("8E", "CHAT")] == 2 * (3 + 4 + 1 + 1)  # no bingo for 4 tiles
    assert ("8I", "CHAT") not in found  # does not cover H8


def test_cross_words_premiums_and_blanks_score_as_the_rules_say():
    lex = Lexicon.from_words(["CHAT", "CHATS", "ES", "SE"], FR)
    found = moves_of(lex, CHAT_BOARD, "SE", SMALL_LAYOUT)
    assert found[("2A", "CHATS")] == 3 + 4 + 1 + 1 + 1  # old tiles count, no premium
    # E on the triple word square E1, S on E2 also makes CHATS: (1 + 1) × 3 + 10.
    assert found[("E1", "ES")] == 16
    assert ("E1", "SE") not in found  # E under T would make CHATE, not a word
    with_blank = moves_of(lex, CHAT_BOARD, "?E", SMALL_LAYOUT)
    assert with_blank[("2A", "CHATs")] == 9  # a blank scores 0
    assert with_blank[("E1", "Es")] == (1 + 0) * 3 + 9
    assert ("E1", "eS") not in with_blank  # that S would need a tile the rack lacks
    assert moves_of(lex, CHAT_BOARD, "?S", SMALL_LAYOUT)[("E1", "eS")] == (0 + 1) * 3 + 10


def test_a_single_tile_making_two_words_is_one_move():
    lex = Lexicon.from_words(["CHATS", "ES"], FR)
    board = ". . . . E\nC H A T .\n. . . . .\n. . . . .\n. . . . .\n"
    found = moves_of(lex, board, "S", SMALL_LAYOUT)
    assert found == {("2A", "CHATS"): 10 + 2}  # CHATS across and ES down, one tile


def test_board_and_layout_errors_are_one_line():
    layout = scrabble.load_layout(None)
    with pytest.raises(UserError, match="row 2 has 14 squares"):
        scrabble.parse_board("." * 15 + "\n" + "." * 14, FR, layout, "b.txt")
    with pytest.raises(UserError, match="board of 2×15 squares, but the layout is 15×15"):
        scrabble.parse_board("." * 15 + "\n" + "." * 15, FR, layout, "b.txt")
    with pytest.raises(UserError, match=r"'7' is not a letter"):
        scrabble.parse_board(EMPTY_15.replace(".", "7", 1), FR, layout, "b.txt")
    with pytest.raises(UserError, match="unknown square 'x'"):
        scrabble.parse_layout("x .\n. .", "l.txt")
    with pytest.raises(UserError, match="2 start squares"):
        scrabble.parse_layout("* .\n. *", "l.txt")
    lex = Lexicon.from_words(["CHAT"], FR)
    board = scrabble.parse_board(EMPTY_15, FR, layout)
    with pytest.raises(UserError, match="8 tiles"):
        scrabble.find_moves(lex, board, "ABCDEFGH")
    with pytest.raises(UserError, match="3 jokers"):
        scrabble.find_moves(lex, board, "A???")
    with pytest.raises(UserError, match="top 0: ask for at least one move"):
        scrabble.find_moves(lex, board, "CHAT", top=0)


def test_board_text_round_trips_with_blanks():
    layout = scrabble.load_layout(None)
    text = EMPTY_15.replace("." * 15, ".......ChAt....", 1)
    board = scrabble.parse_board(text, FR, layout)
    assert board.tiles[7:11] == ("C", "H", "A", "T") and board.blanks == {8, 10}
    assert scrabble.parse_board(scrabble.format_board(board, FR), FR, layout) == board


def test_a_board_of_rows_read_before_reads_the_same_and_fails_the_same():
    """Rows read once are kept: the same text reads to the same board (blanks included), and
    known rows on a board of the wrong size still fail in one line."""
    layout = scrabble.load_layout(None)
    text = EMPTY_15.replace("." * 15, "..éTé..ChAt....", 1).replace("." * 15, "zoo" + "." * 12, 1)
    first = scrabble.parse_board(text, FR, layout)
    assert first.tiles[2:11] == ("E", "T", "E", "", "", "C", "H", "A", "T")
    assert first.blanks == {2, 4, 8, 10, 15, 16, 17}
    assert scrabble._board_of_known_rows(text, FR, layout) == first
    assert scrabble.parse_board(text, FR, layout) == first
    small = scrabble.parse_layout(SMALL_LAYOUT)
    with pytest.raises(UserError, match="board of 15×15 squares, but the layout is 5×5"):
        scrabble.parse_board(text, FR, small)
    with pytest.raises(UserError, match="row 16 has 14 squares"):
        scrabble.parse_board(text + "\n" + "." * 14, FR, layout)
    assert scrabble._board_of_known_rows("\n".join(text.splitlines()[:14]), FR, layout) is None


RANDOM_LAYOUT = scrabble.parse_layout(
    "W . l . . l W\n. w . . . w .\nl . L . L . l\n. . . * . . .\nl . L . L . l\n"
    ". w . . . w .\nW . l . . l W\n"
)


def random_rack(lex: Lexicon, rng: random.Random, blanks: int) -> str:
    """Seven tiles drawn by the set's counts (CH one tile where the lexicon has it), up to
    ``blanks`` of them blanks."""
    counts = tiles.tile_counts(lex.language)
    blanks = min(blanks, lex.language.blanks)
    letters = rng.choices(list(counts), weights=list(counts.values()), k=7 - blanks)
    return "".join(letters) + "?" * blanks


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(SCRABBLE_LANGUAGES),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_generator_matches_the_brute_force_on_random_games(code, picks, blanks, rng):
    """A few turns of a random game (each a move of the generator's), then the compiled
    generator, the Python one and the brute force on a random rack: the same moves, words,
    positions and scores; the best N are the first N of them."""
    lex = small_lexicon(code)
    board = scrabble.parse_board("\n".join(["." * 7] * 7), lex.language, RANDOM_LAYOUT)
    for pick in picks:
        rack = random_rack(lex, rng, blanks)
        moves = scrabble.find_moves(lex, board, rack)
        assert moves == reference.scrabble_brute_force(lex, board, rack)
        assert moves == reference.scrabble_moves_python(lex, board, rack)
        assert_best_n(lex, board, rack, moves)
        if not moves:
            break
        board = scrabble.play(board, moves[pick % len(moves)])


def test_generator_matches_the_brute_force_on_a_standard_midgame_board():
    """(Blanks are left to the random games: with one, the oracle tries nearly every word.)"""
    lex = small_lexicon("fr")
    text = (FIXTURES / "fr-midgame.board").read_text(encoding="utf-8")
    board = scrabble.parse_board(text, lex.language, scrabble.load_layout(None))
    rack = "EIRSTAN"
    moves = scrabble.find_moves(lex, board, rack)
    assert len(moves) > 100
    assert moves == reference.scrabble_brute_force(lex, board, rack)
    assert moves == reference.scrabble_moves_python(lex, board, rack)
    for top in range(1, 30):  # anagrams on one square tie: the word breaks the tie
        assert scrabble.find_moves(lex, board, rack, top=top) == moves[:top]


def assert_best_n(lex: Lexicon, board: scrabble.Board, rack: str, moves: list) -> None:
    """The best N (1, 2, 5, 20) are the first N of all the moves, and the compact array holds
    all of them, by score."""
    for top in (1, 2, 5, 20):
        assert scrabble.find_moves(lex, board, rack, top=top) == moves[:top]
    compact = scrabble.generate(lex, board, rack)
    assert len(compact) == len(moves)
    assert [compact.score(i) for i in range(len(compact))] == [m.score for m in moves]
    assert sorted(compact, key=lambda m: m.placed) == sorted(moves, key=lambda m: m.placed)


STANDARD = scrabble.load_layout(None)


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(SCRABBLE_LANGUAGES),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=8),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_top_n_arrays_hold_every_move_reaching_the_nth_score(code, picks, blanks, rng):
    """The compact array of ``top=N`` (the bound per anchor and per left part on) holds exactly
    the moves of the full array that score at least its Nth score, ties included, with blanks;
    the board prepared once serves every rack and top."""
    lex = small_lexicon(code)
    board = scrabble.parse_board(EMPTY_15, lex.language, STANDARD)
    for pick in picks:
        rack = random_rack(lex, rng, blanks)
        full = scrabble.generate(lex, board, rack)
        for top in (1, 2, 3, 10):
            kept = scrabble.generate(lex, board, rack, top=top)
            cutoff = full.score(min(top, len(full)) - 1) if len(full) else 0
            expected = [move for move in full if move.score >= cutoff]
            assert sorted(kept, key=lambda m: m.placed) == sorted(expected, key=lambda m: m.placed)
            assert [kept.score(i) for i in range(len(kept))] == [m.score for m in expected]
        if not len(full):
            break
        board = scrabble.play(board, full[pick % len(full)])


@pytest.mark.parametrize(
    "rack", ["EIRSTAN", "eirs tan", "ÉTÉ?", "AB*", "Q??", "", "?", "EEEEEEEE", "AB???", "A1"]
)
def test_racks_read_directly_match_the_parsed_ones(rack):
    """The direct reading of plain racks gives the tiles (or the error) of the full parse."""
    lex = small_lexicon("fr")
    letters, index = scrabble._letter_index(lex)
    try:
        parsed = scrabble.parse_scrabble_rack(lex, rack)
    except UserError as error:
        with pytest.raises(UserError, match=re.escape(str(error))):
            scrabble._rack_counts(lex, rack, letters, index)
        return
    counts = [parsed.letters.get(letter, 0) for letter in letters]
    assert scrabble._rack_counts(lex, rack, letters, index) == (counts, parsed.jokers)


def test_one_board_prepared_for_two_lexicons_keeps_their_moves_apart():
    """The prepared board is per lexicon: the same board object, alternately with two lexicons
    of different words and a different board of the same tiles, gives each its own moves (with
    C2 (A)S, a one-tile down move whose letter starts no word: once read outside the graph)."""
    small = Lexicon.from_words(["CHAT", "CHATS"], FR)
    large = Lexicon.from_words(["CHAT", "CHATS", "ACHAT", "AS", "TAS"], FR)
    layout = scrabble.parse_layout(SMALL_LAYOUT)
    board = scrabble.parse_board(CHAT_BOARD, FR, layout)
    same = scrabble.parse_board(CHAT_BOARD, FR, layout)
    for lexicon in (small, large, small, large):
        for b in (board, same):
            assert scrabble.find_moves(lexicon, b, "AS") == reference.scrabble_brute_force(
                lexicon, b, "AS"
            )
    assert len(scrabble.find_moves(large, board, "AS")) > len(
        scrabble.find_moves(small, board, "AS")
    )


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(SCRABBLE_LANGUAGES),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_generator_matches_the_python_generator_on_long_random_games(code, picks, blanks, rng):
    """Longer random games on the standard board (up to 12 turns, so crowded mid-game lines),
    the compiled generator against the plain-Python one (the brute force is too slow here),
    all moves and the best N."""
    lex = small_lexicon(code)
    counts = tiles.tile_counts(lex.language)  # CH one tile where the lexicon has it
    blanks = min(blanks, lex.language.blanks)
    board = scrabble.parse_board(EMPTY_15, lex.language, STANDARD)
    for pick in picks:
        rack = "".join(rng.choices(list(counts), weights=list(counts.values()), k=7 - blanks))
        rack += "?" * blanks
        moves = scrabble.find_moves(lex, board, rack)
        assert moves == reference.scrabble_moves_python(lex, board, rack)
        assert_best_n(lex, board, rack, moves)
        if not moves:
            break
        board = scrabble.play(board, moves[pick % len(moves)])


def test_moves_print_in_standard_notation():
    lex = Lexicon.from_words(["CHAT", "CHATS", "ACHAT"], FR)
    board = scrabble.parse_board(CHAT_BOARD, FR, scrabble.parse_layout(SMALL_LAYOUT))
    found = {m.notation: m.score for m in scrabble.find_moves(lex, board, "AS?")}
    assert found["2A (CHAT)S"] == 10 and found["2A (CHAT)s"] == 9
    assert "E1 A(T)S" not in found  # ATS is not a word here
    move = scrabble.Move("ACHATs", 1, 0, True, 0, ((1, 0, "A"), (1, 5, "s")))
    assert move.shown == "A(CHAT)s" and move.notation == "2A A(CHAT)s"
    down = scrabble.Move("ACHAT", 0, 7, False, 0, ((0, 7, "A"), (2, 7, "H")))
    assert down.notation == "H1 A(C)H(AT)"


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(SCRABBLE_LANGUAGES),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=8),
    st.integers(0, 1),
    st.randoms(use_true_random=False),
)
def test_every_generated_move_reads_back_from_its_notation_with_the_same_score(
    code, picks, blanks, rng
):
    """lexforge.plays (what replays records and judges human plays) against the compiled
    generator: each move's notation reads back to the same tiles, passes the placement rules
    and scores the same."""
    lex = small_lexicon(code)
    counts = tiles.tile_counts(lex.language)  # CH one tile where the lexicon has it
    board = scrabble.parse_board(EMPTY_15, lex.language, STANDARD)
    for pick in picks:
        rack = "".join(rng.choices(list(counts), weights=list(counts.values()), k=7 - blanks))
        moves = scrabble.find_moves(lex, board, rack + "?" * blanks)
        for move in moves[:40]:
            position, word = lex.language.spell(move.notation).split()  # CH spelled
            placed, across = plays.read_play(board, position, word, lex.language)
            assert sorted(placed) == sorted(move.placed)
            plays.check_play(board, placed, across)
            assert plays.score_play(board, placed, across, lex.language) == move.score
        if not moves:
            break
        board = scrabble.play(board, moves[pick % len(moves)])


def test_positions_no_game_reaches_are_refused_in_one_line():
    en = language("en")
    layout = scrabble.load_layout(None)
    off_centre = scrabble.parse_board(EMPTY_15.replace("." * 15, "CAT" + "." * 12, 1), en, layout)
    with pytest.raises(UserError, match=r"start square \(8H\) is empty"):
        tiles.check_connected(off_centre, "b.txt")
    rows = ["." * 15] * 15
    rows[7] = ".......CAT....."
    rows[2] = "..DOG.........."
    apart = scrabble.parse_board("\n".join(rows), en, layout)
    with pytest.raises(UserError, match="tile at 3C is not connected to the start square"):
        tiles.check_connected(apart, "b.txt")
    rows[2] = "." * 15
    rows[7] = "...ZZZZ........"  # one Z and two blanks in the set: a fourth Z cannot be
    crowded = scrabble.parse_board("\n".join(rows), en, layout)
    with pytest.raises(UserError, match=r"4 Z \(the set has 1\)"):
        tiles.check_tiles(crowded, "", en, "b.txt")
    rows[7] = "....ZZZ........"  # the extra two can be blanks written uppercase
    tiles.check_tiles(scrabble.parse_board("\n".join(rows), en, layout), "", en, "b.txt")
    with pytest.raises(UserError, match="the board and rack hold more tiles"):
        tiles.check_tiles(scrabble.parse_board("\n".join(rows), en, layout), "?", en, "b.txt")
    rows[7] = "....QaT........"
    board = scrabble.parse_board("\n".join(rows), en, layout)
    with pytest.raises(UserError, match="3 blanks"):
        tiles.check_tiles(board, "??", en, "b.txt")


@pytest.mark.parametrize(
    ("board", "rack", "fragment"),
    [
        ("\n".join(["." * 15] * 14 + ["." * 14]), "AB", "row 15 has 14 squares"),  # ragged
        ("\n".join(["." * 15] * 7 + [".....ZZZZ......"] + ["." * 15] * 7), "AB", "4 Z"),
        ("\n".join(["CAT" + "." * 12] + ["." * 15] * 14), "AB", "start square (8H) is empty"),
        ("\n".join(["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7), "QQ", "2 Q"),
        ("\n".join(["." * 15] * 15), "EEEEEEE?", "8 tiles"),
    ],
)
def test_bad_boards_and_racks_on_the_command_line(build_dir, board, rack, fragment):
    fails_in_one_line(
        run("scrabble", "-", "--rack", rack, "--lexicon", "en", stdin=board), fragment
    )


class _Reached(Exception):
    pass


def midgame(lexicon: Lexicon, seed: int, turn: int) -> tuple[scrabble.Board, str]:
    """The board after ``turn`` turns of seeded greedy self-play, and the mover's rack."""
    from lexforge.game import play_game
    from lexforge.players import Greedy

    found: list[tuple[scrabble.Board, str]] = []

    def on_turn(event, game) -> None:
        if game.turns == turn:
            found.append((game.board, game.racks[(event.player + 1) % 2]))
            raise _Reached

    with pytest.raises(_Reached):
        play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
    return found[0]


@pytest.mark.parametrize(("name", "seed"), [("es-scrabble", 3), ("en", 1)])
def test_the_move_list_is_every_move_best_first_read_lazily(build_dir, name, seed):
    """On a real lexicon's self-play board (es-scrabble: with CH, LL or RR tiles), the
    ``MoveList`` of ``find_moves`` holds the plain-Python generator's moves in its order (score,
    square, across first, word: blanks and digraph symbols included), and reads them by index,
    slice, iteration and column without building the others."""
    lexicon = Lexicon.open(build_dir / "stage" / name)
    board, rack = midgame(lexicon, seed, 8)
    rack = rack.replace("?", "")[:6] + "?"
    moves = scrabble.find_moves(lexicon, board, rack)
    expected = reference.scrabble_moves_python(lexicon, board, rack)
    assert isinstance(moves, scrabble.MoveList) and len(moves) == len(expected) > 500
    assert moves == expected and list(moves) == expected and moves[5:9] == expected[5:9]
    assert moves[-1] == expected[-1] and moves[len(moves) // 2] == expected[len(expected) // 2]
    with pytest.raises(IndexError):
        moves[len(moves)]
    assert list(moves.scores()) == [m.score for m in expected]
    assert moves.whole_rack() == [len(m.placed) == len(rack) for m in expected]
    assert [moves.tiles(i) for i in range(len(moves))] == [
        plays.placed_tiles(m.placed) for m in expected
    ]
    if name == "es-scrabble":
        symbols = set(lexicon.language.tile_symbols.values())
        assert any(symbols & set(tile.upper() for tile in board.tiles))
    for top in (1, 7):
        best = scrabble.find_moves(lexicon, board, rack, top=top)
        assert len(best) == top and best == expected[:top] and best.best() == expected[:top]
    assert moves != expected[:-1] and moves != "not moves"


def selfplay_positions(
    lexicon: Lexicon, seeds: range, turns: range
) -> list[tuple[scrabble.Board, str]]:
    """The boards of seeded greedy self-play games at each of ``turns``, each with the mover's
    tiles then the bag's next ones (blanks left out), as bench/bench_scrabble.py draws racks."""
    from lexforge.game import play_game
    from lexforge.players import Greedy

    positions: list[tuple[scrabble.Board, str]] = []

    def on_turn(event, game) -> None:
        if game.turns in turns:
            mover = game.racks[(event.player + 1) % len(game.racks)]
            tiles = (mover + "".join(reversed(game.bag))).replace(plays.BLANK, "")
            positions.append((game.board, tiles))

    for seed in seeds:
        play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
    return positions


@pytest.mark.parametrize("name", ["en", "fr", "es-scrabble"])
def test_the_best_move_is_the_first_of_all_on_self_play_positions(build_dir, name):
    """On a real lexicon's self-play positions (es-scrabble: with CH, LL and RR tiles), with no,
    one and two blanks, ``find_moves(top=1)`` (and ``top=3``) is exactly the first move (three)
    of the full list, tie-breaking included, and the full list that of the plain-Python
    generator on a few. Some best moves are bingos of racks with at most one blank: the bound
    keeps the bingo of the spans whose tiles and rack make an anagram key, and only those."""
    lexicon = Lexicon.open(build_dir / "stage" / name)
    size = lexicon.language.rack_size
    positions = selfplay_positions(lexicon, range(8), range(4, 16))
    assert len(positions) > 80
    bingos = 0
    for k, (board, drawn) in enumerate(positions):
        for blanks in (0, 1, 2):
            rack = drawn[: size - blanks] + plays.BLANK * blanks
            moves = scrabble.find_moves(lexicon, board, rack)
            for top in (1, 3):
                assert scrabble.find_moves(lexicon, board, rack, top=top) == moves[:top], rack
            if blanks < 2 and moves and len(moves[0].placed) == size:
                bingos += 1
            if k % 30 == 0 and blanks == 1:
                assert moves == reference.scrabble_moves_python(lexicon, board, rack)
    assert bingos >= 3


@pytest.mark.parametrize(
    ("rack", "bingo"), [("RETAINS", True), ("RETAIN?", True), ("QZXJKVW", False)]
)
def test_the_best_move_on_an_empty_board_is_a_bingo_when_the_rack_spells_a_word(
    build_dir, rack, bingo
):
    """On the empty board a move covers the start square with rack tiles only: the best one
    places the whole rack exactly when it spells a word (a blank spelling any letter)."""
    lexicon = Lexicon.open(build_dir / "stage" / "en")
    board = scrabble.parse_board(EMPTY_15, lexicon.language, STANDARD)
    best = scrabble.find_moves(lexicon, board, rack, top=1)
    assert best == scrabble.find_moves(lexicon, board, rack)[:1]
    assert (len(best) == 1 and len(best[0].placed) == 7) == bingo
