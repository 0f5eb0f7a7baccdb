"""Boggle/Worddle: the compiled search against both reference oracles, and the letter graph."""

from __future__ import annotations

import itertools
import random
from dataclasses import FrozenInstanceError

import marisa_trie
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import LANGUAGES, assert_valid_path, grids, language, small_lexicon

from lexforge import boggle, reference
from lexforge.errors import UserError
from lexforge.graph import (
    GRAPH_FILE,
    build_graph,
    build_sorted_graph,
    graph_letters,
    graph_words,
    letter_matrix,
    load_graph,
)
from lexforge.grid import Grid, parse_grids
from lexforge.lexicon import Lexicon

EN = language("en")
FR = language("fr")


def lexicon(*words: str, lang=FR) -> Lexicon:
    return Lexicon.from_words(words, lang)


# --- the letter graph ----------------------------------------------------------------------


def test_graph_holds_exactly_the_words_with_their_ids():
    words = small_lexicon("fr").words
    graph = build_graph(words, FR.alphabet)
    assert graph_words(graph, FR.alphabet) == {key: words[key] for key in words}
    assert not graph.flags.writeable


def test_graph_is_deterministic_and_loads_memory_mapped(tmp_path):
    words = small_lexicon("de").words.keys()
    shuffled = random.Random(7).sample(words, len(words))
    first = build_graph(marisa_trie.Trie(words), FR.alphabet)
    second = build_graph(marisa_trie.Trie(shuffled), FR.alphabet)
    assert first.tobytes() == second.tobytes()
    np.save(tmp_path / GRAPH_FILE, first)
    loaded = load_graph(tmp_path / GRAPH_FILE)
    assert isinstance(loaded, np.memmap) and loaded.tobytes() == first.tobytes()


def test_graph_layout_children_by_letter():
    trie = marisa_trie.Trie(["AB", "AC", "B", "ABC"])
    graph = build_graph(trie, "CBA")  # letter order is code-point order, whatever the alphabet
    assert graph_letters("CBA") == "ABC"
    mask, first, word = graph[0]
    assert (mask, first, word) == (0b011, 1, -1)  # root → A (1), B (2)
    assert graph["word"][2] == trie["B"]
    assert graph["mask"][1] == 0b110 and graph["first"][1] == 3  # A → AB (3), AC (4)
    assert [graph["word"][3], graph["word"][4]] == [trie["AB"], trie["AC"]]
    assert graph["word"][5] == trie["ABC"] and graph["mask"][5] == 0


def test_graph_of_any_word_to_id_mapping():
    graph = build_graph({"AB": 7, "A": 0, "BA": 3}, "AB")
    assert graph_words(graph, "AB") == {"AB": 7, "A": 0, "BA": 3}


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text("ABCÉ", max_size=7), st.integers(0, 2**31 - 1), max_size=40))
def test_graph_of_random_words_walks_back_to_them(words):
    """The two-pass builder (``lexforge._letters.graph_nodes``) on any set of words, the empty
    word and prefixes of other words among them."""
    graph = build_graph(words, "ABCÉ")
    assert graph_words(graph, "ABCÉ") == words
    assert np.count_nonzero(graph["word"] >= 0) == len(words)


def test_sorted_graph_refuses_keys_out_of_order():
    ids = np.arange(2, dtype=np.int32)
    with pytest.raises(ValueError, match=r"row 1: .* not after the row before"):
        build_sorted_graph(["AB", "AA"], ids, "AB")
    with pytest.raises(ValueError, match=r"row 1: .* not after the row before"):
        build_sorted_graph(["AB", "AB"], ids, "AB")


def test_graph_edge_cases(tmp_path):
    empty = build_graph(marisa_trie.Trie([]), EN.alphabet)
    assert len(empty) == 1 and graph_words(empty, EN.alphabet) == {}
    with pytest.raises(ValueError, match="'ÉTÉ' has letter 'É'"):
        build_graph(marisa_trie.Trie(["ETE", "ÉTÉ"]), EN.alphabet)
    (tmp_path / "bad.npy").write_bytes(b"not numpy")
    with pytest.raises(UserError, match=r"bad\.npy: unreadable letter graph"):
        load_graph(tmp_path / "bad.npy")
    np.save(tmp_path / "ints.npy", np.arange(4))
    with pytest.raises(UserError, match=r"ints\.npy: not a lexforge letter graph"):
        load_graph(tmp_path / "ints.npy")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text("ABCÉŁ😀", max_size=6), max_size=30), st.booleans())
def test_letter_matrix_holds_each_letters_code(keys, wide):
    """Row by row, each character's index in the letters + 1, then zeros (one byte a code, four
    past 254 letters); a character outside the letters is named."""
    letters = "ABCÉŁ" + ("".join(chr(0x400 + i) for i in range(300)) if wide else "")
    width = max(map(len, keys), default=0) + 1
    if any(char not in letters for key in keys for char in key):
        with pytest.raises(ValueError, match="not in the alphabet"):
            letter_matrix(keys, letters, width)
        return
    matrix = letter_matrix(keys, letters, width)
    expected = [[letters.index(c) + 1 for c in key] + [0] * (width - len(key)) for key in keys]
    assert matrix.tolist() == expected and matrix.shape == (len(keys), width)
    assert matrix.dtype == (np.uint32 if wide else np.uint8) and not matrix.flags.writeable


def test_letter_matrix_refuses_a_key_longer_than_its_width():
    with pytest.raises(ValueError, match="'ABC' is longer than 2 letters"):
        letter_matrix(["AB", "ABC"], "ABC", 2)


# --- Boggle ---------------------------------------------------------------------------------

WORDDLE_GRID = """\
C H A T
X I E N
N C H E
Z O O R
"""


def test_worddle_example_order_and_adjacency():
    lex = lexicon("CHIEN", "CHAT", "NICHE", "NICHER", "ZOO", "ZOOS", "HI")
    (grid,) = parse_grids(WORDDLE_GRID, FR)
    found = boggle.solve(lex, grid)
    assert [w.word for w in found] == ["NICHER", "CHIEN", "NICHE", "CHAT", "ZOO"]
    assert [w.score for w in found] == [3, 2, 2, 1, 1]
    assert found[1].path == ((0, 0), (0, 1), (1, 1), (1, 2), (1, 3))
    # NICHE needs the diagonal N(2,0)–I(1,1).
    four = boggle.solve(lex, grid, adjacency=4)
    assert [w.word for w in four] == ["CHIEN", "CHAT", "ZOO"]
    assert boggle.solve_batch(lex, [grid, grid], adjacency=4) == [("CHIEN", "CHAT", "ZOO")] * 2
    assert [w.word for w in boggle.solve(lex, grid, min_length=2)][-1] == "HI"


def test_qu_is_one_cell_of_two_letters():
    lex = lexicon("QUA", "QUIT", "QUITE", "QI", lang=EN)
    grid = Grid.from_rows([["QU", "A"], ["I", "T"]])
    found = boggle.solve(lex, grid)
    assert [(w.word, w.path, w.score) for w in found] == [
        ("QUIT", ((0, 0), (1, 0), (1, 1)), 1),
        ("QUA", ((0, 0), (0, 1)), 1),
    ]
    assert [w.word for w in boggle.solve(lex, grid, min_length=4)] == ["QUIT"]
    assert boggle.solve_batch(lex, [grid], min_length=4) == [("QUIT",)]


def test_each_cell_once_and_one_path_per_word():
    lex = lexicon("ALA", "ALAS", "AAA", lang=EN)
    grid = Grid.from_rows([["A", "L"], ["S", "A"]])
    found = boggle.solve(lex, grid)
    assert [w.word for w in found] == ["ALAS", "ALA"]  # no AAA: two A cells only
    assert found[1].path == ((0, 0), (0, 1), (1, 1))  # first in reading order of two


@pytest.mark.parametrize(
    ("word", "points"),
    [("", 0), ("AB", 0), ("ABC", 1), ("ABCD", 1), ("QUEUE", 2), ("ABCDEF", 3), ("A" * 7, 5)]
    + [("A" * n, 11) for n in (8, 9, 17)],
)
def test_boggle_score(word, points):
    assert boggle.boggle_score(word) == points


def test_letter_outside_the_alphabet_is_a_user_error():
    grid = Grid.from_rows([["A", "Ñ"]])
    with pytest.raises(UserError, match="letter 'Ñ' is not in the alphabet"):
        boggle.solve(small_lexicon("es"), grid)


@pytest.mark.parametrize("threads", [1, 2])
def test_letter_outside_the_alphabet_deep_in_a_batch_is_a_user_error(threads):
    """The board is met in a later stretch by one of the threads: the batch raises the error."""
    good = Grid.from_rows([["A", "B"], ["C", "D"]])
    grids = [good] * 1000 + [Grid.from_rows([["A", "Ñ"], ["C", "D"]])] + [good] * 1000
    for batch in (boggle.solve_batch, boggle.score_batch):
        with pytest.raises(UserError, match="letter 'Ñ' is not in the alphabet"):
            batch(small_lexicon("es"), grids, threads=threads)


@pytest.mark.parametrize("code", LANGUAGES)
def test_fast_path_matches_both_oracles(code):
    lex = small_lexicon(code)

    @settings(max_examples=40, deadline=None)
    @given(grids(code), st.sampled_from((4, 8)), st.sampled_from((1, 2, 3, 4)))
    def check(grid, adjacency, min_length):
        fast = boggle.solve(lex, grid, min_length=min_length, adjacency=adjacency)
        assert fast == reference.boggle_dfs(lex, grid, min_length=min_length, adjacency=adjacency)
        assert fast == reference.boggle_brute_force(
            lex, grid, min_length=min_length, adjacency=adjacency
        )
        assert [w.word for w in fast] == sorted((w.word for w in fast), key=lambda w: (-len(w), w))
        for found in fast:
            assert len(found.word) >= min_length and found.word in lex
            assert found.score == boggle.boggle_score(found.word)
            assert_valid_path(grid, found.word, found.path, adjacency)
        batch = boggle.solve_batch(lex, [grid], min_length=min_length, adjacency=adjacency)
        assert batch == [tuple(w.word for w in fast)]
        scores = boggle.score_batch(lex, [grid], min_length=min_length, adjacency=adjacency)
        assert scores == [(sum(w.score for w in fast), len(fast))]

    check()


@settings(max_examples=10, deadline=None)
@given(st.lists(grids("fr", max_side=5), min_size=1, max_size=40), st.sampled_from((1, 2, 3)))
def test_batch_of_mixed_shapes_matches_single_solves(boards, threads):
    lex = small_lexicon("fr")
    expected = [tuple(w.word for w in boggle.solve(lex, grid)) for grid in boards]
    assert boggle.solve_batch(lex, boards, threads=threads) == expected


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from((1, 2)))
def test_batch_words_are_made_in_each_letters_character_width(data, threads):
    """The batch writes its words' characters itself: ASCII, Latin-1, two- and four-byte
    letters, alone and mixed in one word, must give the very strings the single-board search
    spells (``==`` between strings of different widths is false, so a wrong width fails)."""
    from lexforge.language import Language

    alphabet = "AÉŁ😀BC"
    lang = Language(code="xx", name="widths", alphabet=alphabet)
    words = data.draw(st.lists(st.text(alphabet, min_size=1, max_size=4), min_size=1, max_size=60))
    lex = Lexicon.from_words(words, lang)
    boards = data.draw(
        st.lists(
            st.lists(st.sampled_from(alphabet), min_size=9, max_size=9).map(
                lambda cells: Grid.from_cells((3, 3), tuple(cells))
            ),
            min_size=1,
            max_size=40,
        )
    )
    expected = [
        tuple(w.word for w in reference.boggle_dfs(lex, grid, min_length=1)) for grid in boards
    ]
    assert boggle.solve_batch(lex, boards, min_length=1, threads=threads) == expected


def test_batch_of_boards_over_64_cells_matches_single_solves():
    """Boards over 64 cells go to the depth-first search (the batch's per-path state grows with
    the board); mixed with small ones, every board keeps its place."""
    lex = small_lexicon("fr")
    rng = random.Random(7)
    letters = "EEEAAISSNRTULOCDMP"
    boards = [
        Grid.from_rows([[rng.choice(letters) for _ in range(side)] for _ in range(side)])
        for side in (9, 4, 13)
    ]
    expected = [tuple(w.word for w in boggle.solve(lex, grid)) for grid in boards]
    assert sum(map(len, expected)) > 100
    assert boggle.solve_batch(lex, boards, threads=1) == expected


def test_batch_buffers_grow_for_boards_with_many_words_and_paths():
    """Every word of 3–6 letters over A, B, C on 64-cell boards of those letters: far more
    words, steps and waiting paths than the batch search's first buffers hold (512 words,
    4,096 steps, 1,024 paths), so it grows them and retries the board."""
    words = ["".join(p) for n in range(3, 7) for p in itertools.product("ABC", repeat=n)]
    lex = lexicon(*words)
    rng = random.Random(11)
    boards = [
        Grid.from_cells(shape, tuple(rng.choice("ABC") for _ in range(64)))
        for shape in ((8, 8), (4, 4, 4))
    ]
    expected = [tuple(w.word for w in boggle.solve(lex, grid)) for grid in boards]
    assert min(map(len, expected)) > 512
    assert boggle.solve_batch(lex, boards, threads=1) == expected
    assert boggle.score_batch(lex, boards, threads=1) == [
        (sum(boggle.boggle_score(word) for word in words), len(words)) for words in expected
    ]


def test_scores_count_each_word_once_a_board_over_many_boards_in_one_call():
    """The score-only search counts a word once a board by a mark per graph node, the board's
    generation (8 bits, every mark cleared when they run out, once in 255 boards): in one
    call (one working memory), a board scored again exactly 255 boards later, when its marks
    carry the generation come round again, and 10 boards in turn over many generations, each
    as the listing search finds it."""
    lex = small_lexicon("en")
    rng = random.Random(7)
    distinct = [
        Grid.from_rows([[rng.choice("EEEAAISSNRTLOPG") for _ in range(4)] for _ in range(4)])
        for _ in range(10)
    ]
    quiet = Grid.from_rows([["J"] * 4] * 4)  # no word
    grids = [distinct[0], *[quiet] * 254, distinct[0], *distinct * 60]
    listed = [boggle.solve(lex, grid) for grid in distinct]
    scored = [(sum(w.score for w in words), len(words)) for words in listed]
    assert min(count for _, count in scored) > 5 and boggle.solve(lex, quiet) == []
    expected = [scored[0], *[(0, 0)] * 254, scored[0], *scored * 60]
    arrays = boggle.encode_boards(lex, grids, 8).chunk(0, len(grids))
    totals, counts = boggle.boggle_scores(lex.graph, *arrays, 3, boggle.POINTS_TABLE)
    assert list(zip(totals.tolist(), counts.tolist(), strict=True)) == expected


def test_score_only_search_refuses_cells_of_more_than_64_letters():
    lex = lexicon("CHAT")
    boards = boggle.encode_boards(lex, [Grid.from_rows([["C", "H"], ["A", "T"]])], 8)
    letters = np.zeros((4, 65), np.int64)
    letters[:, :1] = boards.cell_letters[:, :1]
    with pytest.raises(ValueError, match="a cell of at most 64 letters"):
        boggle.boggle_scores(
            lex.graph,
            boards.board_start,
            letters,
            np.ones(4, np.int64),
            boards.nbr,
            boards.nbr_count,
            3,
            boggle.POINTS_TABLE,
        )


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_words_are_untracked_tuples_sharing_one_str_a_word(threads):
    """Each board's words come back as a tuple that the garbage collector leaves untracked, as
    it leaves any tuple of strings (no cycle can pass through one), in a tracked list. A word
    a thread finds on many boards is one ``str``, referenced once by each tuple holding it:
    the reference counts written without the GIL add up."""
    import gc
    import sys
    from collections import Counter

    lex = lexicon("CHAT", "THE")
    grids = [Grid.from_rows([["C", "H"], ["A", "T"]])] * 600  # stretches on each thread
    found = boggle.solve_batch(lex, grids, threads=threads)
    assert found == [("CHAT",)] * 600
    assert gc.is_tracked(found) and not any(gc.is_tracked(words) for words in found)
    words = [words[0] for words in found]  # a second reference to each word a board has
    holders = Counter(map(id, words))
    assert len(holders) <= threads
    distinct = list({id(word): word for word in words}.values())
    # besides the tuples' and `words`': `distinct`'s, the loop's and getrefcount's argument
    for word in distinct:
        assert sys.getrefcount(word) == 2 * holders[id(word)] + 3
    del found
    for word in distinct:
        assert sys.getrefcount(word) == holders[id(word)] + 3


def test_concurrent_batches_give_the_answers_of_single_solves():
    """Batches running at once in several threads, each on two threads of its own."""
    from concurrent.futures import ThreadPoolExecutor

    lex = small_lexicon("fr")
    rng = random.Random(5)
    boards = [
        Grid.from_rows([[rng.choice("EEEAAISSNRTULOCDMP") for _ in range(4)] for _ in range(4)])
        for _ in range(400)
    ]
    expected = [tuple(w.word for w in boggle.solve(lex, grid)) for grid in boards]
    parts = [boards[i::4] for i in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda part: boggle.solve_batch(lex, part, threads=2), parts))
    assert found == [expected[i::4] for i in range(4)]


def test_batch_shares_one_neighbour_table_only_among_boards_of_its_size():
    lex = lexicon("CHAT", "THE")
    grids = [Grid.from_rows([["C", "H"], ["A", "T"]]), Grid.from_rows([["T", "H"], ["E", "A"]])]
    boards = boggle.encode_boards(lex, grids, 8)
    assert len(boards.nbr) == 4  # one 2×2 board's table for both
    assert boggle.solve_batch(lex, grids, threads=1) == [("CHAT",), ("THE",)]
    letters = np.concatenate([boards.cell_letters, boards.cell_letters[:1]])
    with pytest.raises(ValueError, match="shared neighbour table"):
        boggle.boggle_scores(
            lex.graph,
            np.array([0, 4, 9]),  # a second board of 5 cells with the 4-cell table
            letters,
            np.ones(9, np.int64),
            boards.nbr,
            boards.nbr_count,
            3,
            boggle.POINTS_TABLE,
        )


def test_compiled_search_refuses_indices_off_the_board():
    lex = lexicon("CHAT")
    boards = boggle.encode_boards(lex, [Grid.from_rows([["C", "H"], ["A", "T"]])], 8)
    nbr = boards.nbr.copy()
    nbr[0, 0] = 4  # a neighbour outside the 4 cells
    with pytest.raises(ValueError, match="neighbour outside the board"):
        arrays = (boards.board_start, boards.cell_letters, boards.cell_len, nbr, boards.nbr_count)
        stretches = iter([(0, arrays)])
        boggle.boggle_words(
            lex.graph, lambda: next(stretches, None), 3, boggle._letter_chars(lex.language.alphabet)
        )
    letters = boards.cell_letters.copy()
    letters[1, 0] = 64
    with pytest.raises(ValueError, match="letter index outside"):
        boggle.search_board(
            lex.graph,
            letters,
            boards.cell_len,
            np.zeros(4, np.int64),
            np.ones(4, np.int64),
            boards.nbr,
            boards.nbr_count,
            3,
            np.zeros(5, np.int64),
        )


def test_boards_with_thousands_of_words():
    """More words than the search's first buffers hold: it retries with more room."""
    lex = dense_lexicon()
    grid = Grid.from_rows([["A", "B", "C"], ["C", "A", "B"], ["B", "C", "A"]])
    expected = reference.boggle_dfs(lex, grid, min_length=1)
    assert len(expected) > 2000
    assert boggle.solve(lex, grid, min_length=1) == expected
    words = tuple(w.word for w in expected)
    assert boggle.solve_batch(lex, [grid] * 3, min_length=1, threads=2) == [words] * 3
    assert boggle.solve_batch(lex, []) == []


def dense_lexicon() -> Lexicon:
    """Every string of A, B and C of up to 9 letters."""
    return Lexicon.from_words(
        ("".join(p) for n in range(1, 10) for p in itertools.product("ABC", repeat=n)), EN
    )


# --- listed_words: search_board's words as result objects -----------------------------------


def test_listed_words_spells_sorts_and_makes_the_dataclass_objects():
    """Multi-letter and non-ASCII cells spell the word; ties of rank go by code point (É after
    Z, as ``str`` compares), shorter prefix first; fields are set in the class's own order."""
    cells = ("QU", "É", "Z", "A")
    coords = ((0, 0), (0, 1), (1, 0), (1, 1))
    paths = np.array([1, 3, 2, 3, 0, 3, 0, 3, 2, 3], np.int64)  # ÉA, ZA, QUA, QUAZ, A
    rank, scores = np.array([5, 5, 5, 5, 1], np.int64), np.array([7, 8, 9, 4, 1], np.int64)
    start, length = np.array([0, 2, 4, 6, 9], np.int64), np.array([2, 2, 2, 3, 1], np.int64)
    listed = boggle.listed_words(
        boggle.BoggleWord, cells, coords, rank, scores, start, length, paths
    )
    assert listed == [
        boggle.BoggleWord("A", ((1, 1),), 1),
        boggle.BoggleWord("QUA", ((0, 0), (1, 1)), 9),
        boggle.BoggleWord("QUAZ", ((0, 0), (1, 1), (1, 0)), 4),
        boggle.BoggleWord("ZA", ((1, 0), (1, 1)), 8),
        boggle.BoggleWord("ÉA", ((0, 1), (1, 1)), 7),
    ]
    assert list(vars(listed[0])) == ["word", "path", "score"]
    with pytest.raises(FrozenInstanceError):
        listed[0].word = "X"  # type: ignore[misc]
    assert boggle.listed_words(boggle.BoggleWord, cells, coords, *[np.zeros(0, np.int64)] * 5) == []


def test_listed_words_refuses_bad_input():
    cells, coords = ("A", "B"), ((0, 0), (0, 1))
    one = np.zeros(1, np.int64)
    for length, paths, message in [
        (np.array([3], np.int64), np.array([0, 1], np.int64), "path outside paths"),
        (np.array([2], np.int64), np.array([0, 2], np.int64), "cell outside the board"),
    ]:
        with pytest.raises(ValueError, match=message):
            boggle.listed_words(boggle.BoggleWord, cells, coords, one, one, one, length, paths)
    with pytest.raises(ValueError, match="different lengths"):
        boggle.listed_words(boggle.BoggleWord, cells, coords[:1], one, one, one, one, one)
    with pytest.raises(ValueError, match="fields must be word, score and path"):
        boggle.listed_words(boggle.Boards, cells, coords, one, one, one, one, one)
