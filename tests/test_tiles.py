"""Multi-letter tiles (Spanish CH, LL, RR in es-scrabble): the tokenizing rule, hand-scored
Spanish plays, the compiled generator against the Python one and the brute force with digraph
tiles on every rack, the 100-tile bag, GCG round trips and the command line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import language, small_lexicon
from test_cli import fails_in_one_line, run

from lexforge import gcg, plays, reference, scrabble, tiles
from lexforge.errors import UserError
from lexforge.game import play_game
from lexforge.language import Language, check_language_data
from lexforge.lexicon import Lexicon
from lexforge.normalize import Normalizer
from lexforge.players import Greedy

ES = language("es-scrabble")
STANDARD = scrabble.load_layout(None)
EMPTY_15 = "\n".join(["." * 15] * 15)
RANDOM_LAYOUT = scrabble.parse_layout(
    "W . l . . l W\n. w . . . w .\nl . L . L . l\n. . . * . . .\nl . L . L . l\n"
    ". w . . . w .\nW . l . . l W\n"
)


def es_lexicon(*words: str) -> Lexicon:
    """A lexicon of spelled Spanish words, stored as the pipeline stores them (as tiles)."""
    return Lexicon.from_words(sorted(ES.tokenize(w) for w in words), ES)


def moves_of(lexicon: Lexicon, board_text: str, rack: str) -> dict[tuple[str, str], int]:
    """Every move, spelled (``8D CHICOS``), after checking the three generators agree."""
    board = scrabble.parse_board(board_text, ES, STANDARD)
    moves = scrabble.find_moves(lexicon, board, rack)
    assert moves == reference.scrabble_brute_force(lexicon, board, rack)
    assert moves == reference.scrabble_moves_python(lexicon, board, rack)
    return {(m.position, ES.spell(m.word)): m.score for m in moves}


def test_words_are_tokenized_greedily_left_to_right_longest_tile_first():
    ch, ll, rr = (ES.tile_symbols[t] for t in ("CH", "LL", "RR"))
    assert ES.tokenize("CHILLARON") == f"{ch}I{ll}ARON"
    assert ES.tokenize("CARRO") == f"CA{rr}O" and ES.tokenize("RRR") == f"{rr}R"
    assert ES.tokenize("chICO") == f"{ch.lower()}ICO"  # a blank standing for CH
    assert ES.tokenize("[CH]C H", spelled=False) == f"{ch}C H"  # a rack: C and H are two tiles
    assert ES.spell(f"{ch.lower()}I{ll}ARON") == "chILLARON"
    assert ES.spell(f"A{ch}?", bracket=True) == "A[CH]?"
    longest = Language.from_dict(
        {
            "code": "xx",
            "alphabet": "ABC",
            "length": {"min": 2, "max": 9},
            "scrabble": {"tiles": {t: [1, 1] for t in ("A", "B", "C", "AB", "ABC")}},
            "tile_symbols": {"AB": "Ç", "ABC": "Ł"},
        }
    )
    assert longest.tokenize("ABCAB") == "ŁÇ" and longest.tokenize("ABAB") == "ÇÇ"
    normalizer = Normalizer(longest, case_sensitive=False, classify=False)
    assert list(normalizer.normalize_all(["abab", "abc", "ba"])) == ["ÇÇ", "BA"]
    assert normalizer.rejected == {"too-short": 1}  # ABC is one tile: no word
    with pytest.raises(UserError, match=r"\[XX\] is not a Spanish tile .*\[CH\] \[LL\] \[RR\]"):
        ES.tokenize("A[XX]")


def test_another_language_is_a_config_change_catalan_l_l_and_ny():
    """Catalan's L·L tile: words fold COL·LECCIÓ to COLLECCIO (the joiner dropped), so the
    symbol is given for the folded spelling LL; the tile counts and scores as one."""
    data = {
        "code": "ca",
        "name": "Catalan",
        "alphabet": "ABCDEFGHIJLMNOPQRSTUVXYZÇ",
        "keep": "Ç",
        "joiners": "·",
        "length": {"min": 2, "max": 15},
        "scrabble": {"tiles": {"A": [12, 1], "L·L": [1, 10], "NY": [1, 10]}},
        "tile_symbols": {"LL": "Ł", "NY": "Ñ"},
    }
    check_language_data(data, "ca.yaml")
    catalan = Language.from_dict(data)
    assert tiles.tile_counts(catalan) == {"A": 12, "Ł": 1, "Ñ": 1}
    assert catalan.tile_values["Ł"] == catalan.tile_values["Ñ"] == 10
    assert catalan.tokenize("COLLECCIO") == "COŁECCIO" and catalan.tokenize("ANY") == "AÑ"


@pytest.mark.parametrize(
    ("symbols", "fragment"),
    [
        ({"QU": "Ç"}, "QU: not one of the Scrabble tiles"),
        ({"CH": "A"}, "'A' is already a letter"),
        ({"CH": "1"}, "not an uppercase letter with a lowercase form"),
        ({"CH": "Ç", "LL": "Ç"}, "two tiles share a symbol"),
    ],
)
def test_bad_tile_symbols_are_one_line(symbols, fragment):
    data = {
        "code": "es",
        "alphabet": "ABCDEFGHIJLMNOPQRSTUVXYZ",
        "length": {"min": 2, "max": 20},
        "scrabble": {"tiles": {"CH": [1, 5], "LL": [1, 8]}},
        "tile_symbols": symbols,
    }
    with pytest.raises(UserError, match=fragment):
        check_language_data(data, "es.yaml")


def test_hand_scored_spanish_plays():
    """es.yaml values: CH 5, LL 8, RR 8, C 3, A E I N O R S 1; blanks 0. Standard layout:
    B8 C8 E8 F8 G8 plain, D8 double letter, H8 the start (double word), H9 plain, I9 double
    letter; a whole rack of 7 tiles adds 50."""
    lex = es_lexicon("CHICOS", "CHILLARON", "ERRE", "SE")
    # CH on the double letter D8: (CH 5×2 + I 1 + C 3 + O 1 + S 1) × 2 for H8 = 32.
    first = moves_of(lex, EMPTY_15, "[CH]ICOS")
    assert first[("8D", "CHICOS")] == (5 * 2 + 1 + 3 + 1 + 1) * 2 == 32
    # The bingo: CH B8 5 + I 1 + LL on D8 8×2 + A 1 + R 1 + O 1 + N on H8 1 = 26, × 2 = 52,
    # + 50 for seven tiles = 102; with a blank as the CH, 5 less before doubling: 92.
    bingo = moves_of(lex, EMPTY_15, "[CH]I[LL]ARON")
    assert bingo[("8B", "CHILLARON")] == (5 + 1 + 8 * 2 + 1 + 1 + 1 + 1) * 2 + 50 == 102
    blank = moves_of(lex, EMPTY_15, "?I[LL]ARON")
    assert blank[("8B", "chILLARON")] == (0 + 1 + 8 * 2 + 1 + 1 + 1 + 1) * 2 + 50 == 92
    # After 8D CHICOS, ERRE across from H9: E 1 + RR on I9 8×2 + E 1 = 18, and the E under
    # the S makes the cross word SE: S 1 (old, no premium) + E 1 = 2; in all 20.
    rows = ["." * 15] * 15
    rows[7] = "...[CH]ICOS......."
    assert (
        moves_of(lex, "\n".join(rows), "EE[RR]")[("9H", "ERRE")] == (1 + 8 * 2 + 1) + (1 + 1) == 20
    )


def test_a_single_tile_whose_letter_starts_no_word_is_still_played():
    """No Spanish word starts with RR: the compiled generator once read past the letter graph
    there (when deciding whether the across search also finds a lone tile) and lost the move."""
    lex = es_lexicon("ARRA", "ARA")
    rows = ["." * 15] * 15
    rows[7], rows[9] = ".......A.......", ".......A......."
    assert moves_of(lex, "\n".join(rows), "[RR]") == {("H8", "ARRA"): 1 + 8 + 1}
    assert moves_of(lex, "\n".join(rows), "R") == {("H8", "ARA"): 1 + 1 + 1}


def test_c_and_h_tiles_never_make_the_ch_of_a_word():
    lex = es_lexicon("CHICOS")
    assert moves_of(lex, EMPTY_15, "CHICOS") == {}  # C and H are not the CH tile
    blank = moves_of(lex, EMPTY_15, "?HICOS")  # a blank can be the CH tile, never C before H
    assert blank and {word for _, word in blank} == {"chICOS"}


@settings(max_examples=10, deadline=None)
@given(
    st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_generators_agree_with_digraph_tiles_on_random_games(picks, blanks, rng):
    """es-scrabble's sample: every rack holds a multi-letter tile (and up to two blanks); the
    compiled generator, the Python one and the brute force find the same moves."""
    lex = small_lexicon("es-scrabble")
    counts = tiles.tile_counts(lex.language)
    board = scrabble.parse_board("\n".join(["." * 7] * 7), lex.language, RANDOM_LAYOUT)
    for pick in picks:
        letters = rng.choices(list(counts), weights=list(counts.values()), k=6 - blanks)
        rack = rng.choice(lex.language.symbols) + "".join(letters) + "?" * blanks
        moves = scrabble.find_moves(lex, board, rack)
        assert moves == reference.scrabble_brute_force(lex, board, rack)
        assert moves == reference.scrabble_moves_python(lex, board, rack)
        for move in moves[:20]:  # and each reads back from its spelled notation
            position, word = lex.language.spell(move.notation).split()
            placed, across = plays.read_play(board, position, word, lex.language)
            assert plays.score_play(board, placed, across, lex.language) == move.score
        if not moves:
            break
        board = scrabble.play(board, moves[pick % len(moves)])


def test_the_board_shows_multi_letter_tiles_and_reads_them_back():
    board = scrabble.parse_board(
        EMPTY_15.replace("." * 15, "..[ch]I[LL]ARON......", 1), ES, STANDARD
    )
    assert [ES.spell(t) for t in board.tiles[2:9]] == ["CH", "I", "LL", "A", "R", "O", "N"]
    assert board.blanks == {2}
    text = scrabble.format_board(board, ES)
    assert text.splitlines()[0].startswith(". . [ch] I [LL] A R O N .")
    assert scrabble.parse_board(text, ES, STANDARD) == board
    with pytest.raises(UserError, match=r"row 1: \[QU\] is not a Spanish tile"):
        scrabble.parse_board(EMPTY_15.replace(".", "[QU]", 1), ES, STANDARD)


GAME = """\
#character-encoding UTF-8
#player1 ana Ana
#player2 bea Bea
#lexicon es-scrabble
>ana: AI[LL]NOR? 8B chILLARON +92 92
>bea: AA[RR]EIST H8 .ARRA +11 11
>ana: [CH]EEIOUU -[CH]EUU +0 92
"""


def test_a_gcg_record_with_digraph_tiles_round_trips_and_replays():
    """bea's NARRA down from H8: N (old) 1 + A 1 + RR 8 + A 1, no premium under H9–H11: 11."""
    record = gcg.parse_record(GAME)
    assert gcg.format_record(record) == GAME
    position = gcg.replay(record, ES, STANDARD, turn=3)
    assert position.scores == (92, 11) and position.rack == "[CH]EEIOUU"
    assert [ES.spell(t) for t in position.board.tiles[7 * 15 + 1 : 7 * 15 + 8]] == [
        "CH",
        "I",
        "LL",
        "A",
        "R",
        "O",
        "N",
    ]
    first = gcg.replay(record, ES, STANDARD, turn=1)
    assert gcg.notation(first.recorded, first.board, ES) == "8B chILLARON 92"
    bad = GAME.replace("+92 92", "+93 93")
    with pytest.raises(UserError, match="line 5: 8B chILLARON scores 92"):
        gcg.replay(gcg.parse_record(bad), ES, STANDARD)


def test_a_game_draws_the_digraph_tiles_and_its_record_replays():
    """A greedy es-scrabble game writes its racks with [CH] [LL] [RR] and its words spelled;
    the record reads back to the same bytes and replays with every score."""
    lexicon = small_lexicon("es-scrabble")
    for seed in range(20):
        text = gcg.format_record(play_game(lexicon, [Greedy("a"), Greedy("b")], seed).record)
        if any(f"[{t}]" in text for t in ("CH", "LL", "RR")):
            break
    else:
        pytest.fail("no game in 20 drew a digraph tile")
    assert not set(text) & set(ES.symbols + ES.symbols.lower())  # never the inner letters
    record = gcg.parse_record(text)
    assert gcg.format_record(record) == text
    gcg.replay(record, lexicon.language, STANDARD)


def test_the_command_line_reads_and_shows_digraph_tiles(build_dir, tmp_path):
    done = run(
        "scrabble", "-", "--rack", "?I[ll]ARON", "--lexicon", "es-scrabble", "--top", "0",
        "--json", stdin=EMPTY_15,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["results"]
    assert {"word": "chILLARON", "score": 92, "notation": "8B chILLARON"}.items() <= next(
        r for r in rows if r["notation"] == "8B chILLARON"
    ).items()
    assert not set(done.stdout) & set(ES.symbols + ES.symbols.lower())
    shown = run(
        "scrabble", "-", "--rack", "?I[LL]ARON", "--lexicon", "es-scrabble", "--show",
        "CHILLARON", stdin=EMPTY_15,
    )  # fmt: skip
    assert shown.returncode == 0 and "[ch]" in shown.stdout and "[LL]" in shown.stdout
    words = run("anagram", "O[CH]IC", "--lexicon", "es-scrabble").stdout.split()
    assert (
        "CHICO" in words
        and "CHICO" not in run("anagram", "OCHIC", "--lexicon", "es-scrabble").stdout
    )
    check = run("check", "chico", "--lexicon", "es-scrabble", "--json")
    assert json.loads(check.stdout)["results"][0]["word"] == "CHICO"
    path = tmp_path / "game.gcg"
    path.write_text(GAME, encoding="utf-8")
    done = run("scrabble", "--gcg", str(path), "--turn", "3", "--lexicon", "es-scrabble")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "# turn 3: ana to play [CH]EEIOUU (scores 92–11); played -[CH]EUU\n"
    )


@pytest.mark.parametrize(
    ("rack", "fragment"),
    [
        ("A[XX]", "[XX] is not a Spanish tile"),
        ("[CH][CH]AEIO", "2 [CH], the Spanish set has 1"),
        ("[CH]K", "K not in the Spanish alphabet"),
    ],
)
def test_bad_digraph_racks_are_one_line(build_dir, rack, fragment):
    fails_in_one_line(
        run("scrabble", "-", "--rack", rack, "--lexicon", "es-scrabble", stdin=EMPTY_15), fragment
    )
