"""Each query's answer (lexforge.output's ``Answer``), built once for every face.

The command line (lexforge.cli) and the HTTP API (lexforge.serve) both call these functions on
parsed input, so a query has one answer whatever asks it: the CLI renders it as text, JSON,
JSONL or TSV, the API sends its JSON envelope. Inputs are already read (grids parsed, racks as
text); bad ones raise UserError from the solver modules.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from lexforge.lexicon import Lexicon
from lexforge.output import Answer

TYPE_CHECKING = False  # typing's constant, without importing typing (a faster start)
if TYPE_CHECKING:
    from lexforge.game import Result, Standing
    from lexforge.grid import Grid
    from lexforge.leaves import Leaves
    from lexforge.scrabble import Board, MoveList


def matches_answer(command: str, lexicon: Lexicon, query: dict, matches: list) -> Answer:
    """Racks' and patterns' matches: each a (word, shown, score) tuple already."""
    rows = [spelled(lexicon, m) for m in matches] if lexicon.language.tile_symbols else matches
    return Answer(command, lexicon.name, query, ("word", "shown", "score"), rows)


def spelled(lexicon: Lexicon, match: tuple) -> tuple:
    """A match (word, shown, score) with multi-letter tiles spelled (Spanish CH)."""
    spell = lexicon.language.spell
    word, shown, score = match
    return spell(word), spell(shown), score


def anagram_answer(
    lexicon: Lexicon,
    letters: str,
    *,
    racks: list[str] | None = None,
    exact: bool = False,
    min_length: int | None = None,
    max_length: int | None = None,
    contains: str = "",
    sort: str = "length",
) -> Answer:
    """Words from one rack (``letters``), or from each of ``racks`` (``letters`` then ``-``,
    every row carrying its rack's number)."""
    from lexforge.anagram import anagram

    options = {
        "exact": exact,
        "min_length": min_length,
        "max_length": max_length,
        "contains": contains,
        "sort": sort,
    }
    query = {"letters": letters, **options}
    if racks is None:
        return matches_answer("anagram", lexicon, query, anagram(lexicon, letters, **options))
    rows = [
        (number, *spelled(lexicon, m))
        for number, rack in enumerate(racks, start=1)
        for m in anagram(lexicon, rack, **options)
    ]
    query["racks"] = racks
    return Answer("anagram", lexicon.name, query, ("rack", "word", "shown", "score"), rows)


def pattern_answer(
    lexicon: Lexicon, pattern_text: str, *, rack: str | None = None, sort: str = "alpha"
) -> Answer:
    """Words matching a crossword pattern; in alphabetical order (the lexicon's), the rows are a
    generator: they stream as they are written, read once."""
    from itertools import chain

    from lexforge.anagram import pattern, pattern_chunks

    query = {"pattern": pattern_text, "rack": rack, "sort": sort}
    if sort == "alpha":
        chunks = pattern_chunks(lexicon, pattern_text, rack_text=rack)
        if lexicon.language.tile_symbols:
            rows = (spelled(lexicon, m) for rows in chunks for m in rows)
        else:
            rows = chain.from_iterable(chunks)
        return Answer("pattern", lexicon.name, query, ("word", "shown", "score"), rows)
    matches = pattern(lexicon, pattern_text, rack_text=rack, sort=sort)
    return matches_answer("pattern", lexicon, query, matches)


def boggle_answer(
    lexicon: Lexicon,
    grids: list[Grid],
    *,
    min_length: int = 3,
    adjacency: int = 8,
    paths: bool = False,
    threads: int | None = None,
) -> Answer:
    """Every word of each grid; one path per word with ``paths`` (else the batch search on
    ``threads`` threads)."""
    from lexforge import boggle

    options = {"min_length": min_length, "adjacency": adjacency}
    spell = lexicon.language.spell  # multi-letter tiles spelled (Catalan L·L); else unchanged
    if paths:
        results = [boggle.solve(lexicon, grid, **options) for grid in grids]
        rows = [
            (number, spell(w.word), w.score, w.path)
            for number, words in enumerate(results, start=1)
            for w in words
        ]
        counts = [len(words) for words in results]
    else:
        score = boggle.boggle_score
        found = boggle.solve_batch(lexicon, grids, threads=threads, **options)
        rows = [
            (number, spell(word), score(word))
            for number, words in enumerate(found, start=1)
            for word in words
        ]
        counts = [len(words) for words in found]
    totals = [0] * len(grids)
    for row in rows:
        totals[row[0] - 1] += row[2]
    summary = {
        "grids": [
            {"grid": number, "board": board_text(lexicon, grid), "count": count, "total": total}
            | ({"shape": list(grid.shape)} if grid.layers else {})
            for number, (grid, count, total) in enumerate(
                zip(grids, counts, totals, strict=True), start=1
            )
        ]
    }
    columns = ("grid", "word", "score", "path") if paths else ("grid", "word", "score")
    query = {**options, "paths": paths}
    return Answer("boggle", lexicon.name, query, columns, rows, summary)


def board_text(lexicon: Lexicon, grid: Grid) -> str:
    """The grid on one line, multi-letter tiles bracketed (``CO[L·L]/…``: read back the same)."""
    from lexforge.grid import format_grid_line

    return lexicon.language.spell(format_grid_line(grid), bracket=True)


def ruzzle_results(
    lexicon: Lexicon, boards: list[Grid], *, sort: str = "score", values: str | None = None
) -> list[list]:
    """Each board's words (``RuzzleWord``), sorted; ``values`` (``A=1,B=4`` or a file) merges
    over the language's letter values."""
    from lexforge import ruzzle

    table = None
    if values:
        table = {**lexicon.language.ruzzle_values, **ruzzle.parse_values(values, "--values")}
    return [ruzzle.sort_words(ruzzle.solve(lexicon, board, values=table), sort) for board in boards]


def ruzzle_answer(
    lexicon: Lexicon,
    boards: list[Grid],
    results: list[list],
    *,
    sort: str = "score",
    values: str | None = None,
) -> Answer:
    """The answer of ``ruzzle_results(lexicon, boards, sort=sort, values=values)``."""
    spell = lexicon.language.spell
    rows = [
        (number, spell(w.word), w.score, w.path)
        for number, words in enumerate(results, start=1)
        for w in words
    ]
    summary = {
        "grids": [
            {
                "grid": number,
                "board": board_text(lexicon, board),
                "count": len(words),
                "longest": max((len(w.word) for w in words), default=0),
                "total": sum(w.score for w in words),
            }
            for number, (board, words) in enumerate(zip(boards, results, strict=True), start=1)
        ]
    }
    query = {"sort": sort, "values": values}
    columns = ("grid", "word", "score", "path")
    return Answer("ruzzle", lexicon.name, query, columns, rows, summary)


SCRABBLE_COLUMNS = ("score", "position", "word", "row", "col", "direction", "placed", "notation")


def scrabble_answer(
    lexicon: Lexicon,
    board: Board,
    rack: str,
    *,
    top: int = 20,
    layout: str | None = None,
    source: str = "board",
) -> tuple[Answer, MoveList]:
    """The ``top`` best moves of ``rack`` on ``board`` (0: all), best first, and every legal
    move (compact: ``Move`` objects are built only for those shown). A board no game reaches
    (tiles off the start square or apart, more tiles than the set with the rack) is a
    UserError naming ``source``."""
    from lexforge import scrabble
    from lexforge.plays import parse_tiles
    from lexforge.tiles import check_connected, check_tiles

    moves = scrabble.generate(lexicon, board, rack)  # first: its rack errors come first
    check_connected(board, source)
    check_tiles(board, parse_tiles(rack, lexicon.language, "rack"), lexicon.language, source)
    spell = lexicon.language.spell
    rows = [
        (
            m.score,
            m.position,
            spell(m.word),
            m.row,
            m.col,
            "across" if m.across else "down",
            [[row, col, spell(letter)] for row, col, letter in m.placed],
            spell(m.notation),
        )
        for m in moves.best(top or None)
    ]
    query = {"rack": rack, "top": top, "layout": layout}
    answer = Answer("scrabble", lexicon.name, query, SCRABBLE_COLUMNS, rows, {"moves": len(moves)})
    return answer, moves


SIMULATION_COLUMNS = ("notation", "score", "equity", "simulated", "deals")


def simulation_answer(
    lexicon: Lexicon,
    board: Board,
    rack: str,
    *,
    seconds: float,
    leaves: Leaves,
    seed: int = 0,
    layout: str | None = None,
    source: str = "board",
) -> Answer:
    """The simulation player's candidates for ``rack`` (the equity player's best plays, its
    best exchange or a pass), ranked by lexforge.players.Simulation within ``seconds``: each
    with its score, its equity (score + leave), its simulated value (equity less the
    opponent's best reply's, averaged over deals of the unseen tiles; the endgame's value
    when it empties the bag) and the deals it was simulated on (fewer: pruned), those
    simulated to the end first, best first. The bag holds the unseen tiles less one opponent
    rack."""
    from lexforge.game import View
    from lexforge.players import Simulation, unseen
    from lexforge.plays import Exchange, Pass, parse_tiles
    from lexforge.scrabble import parse_scrabble_rack
    from lexforge.tiles import check_connected, check_tiles

    language = lexicon.language
    parse_scrabble_rack(lexicon, rack)  # a rack's size, blanks and letters
    tiles = parse_tiles(rack, language, "rack")
    check_connected(board, source)
    check_tiles(board, tiles, language, source)
    player = Simulation("simulation", leaves, seconds=seconds, seed=seed)
    hidden = len(unseen(View(lexicon, board, tiles, 0, (0, 0), 0)))
    view = View(lexicon, board, tiles, max(0, hidden - language.rack_size), (0, 0), 0)
    ranked = player.ranked(view)
    outcome = player.simulate(view, ranked)
    spell = language.spell

    def notation(action: object) -> str:
        if isinstance(action, Exchange):
            return f"-{spell(action.tiles, bracket=True)}"
        return "-" if isinstance(action, Pass) else spell(action.notation)

    rows = sorted(
        (
            (
                notation(action),
                getattr(action, "score", 0),
                round(equity, 2),
                round(value, 2),
                deals,
            )
            for (equity, action), value, deals in zip(
                ranked, outcome.values, outcome.samples, strict=True
            )
        ),
        key=lambda row: -row[3],
    )
    kept = {notation(ranked[k][1]) for k in outcome.kept}  # never pruned: listed first
    rows.sort(key=lambda row: row[0] not in kept)
    query = {"rack": rack, "sim": seconds, "seed": seed, "layout": layout}
    summary = {
        "samples": outcome.iterations,
        "kept": len(outcome.kept),
        "exact": outcome.exact,
        "bag": view.bag,
    }
    return Answer("scrabble", lexicon.name, query, SIMULATION_COLUMNS, rows, summary)


def game_answer(lexicon: Lexicon, result: Result, seed: int) -> Answer:
    """A finished game: per player, its nickname, final score and bingos; the summary holds
    the number of turns and the winners."""
    nicks = [nick for nick, _ in result.record.players]
    rows = [
        (nick, score, bingos)
        for nick, score, bingos in zip(nicks, result.scores, result.bingos, strict=True)
    ]
    summary = {"turns": result.turns, "winners": [nicks[i] for i in result.winners()]}
    query = {"players": nicks, "seed": seed}
    return Answer(
        "scrabble-play", lexicon.name, query, ("player", "score", "bingos"), rows, summary
    )


def selfplay_answer(lexicon: Lexicon, standings: list[Standing], games: int, seed: int) -> Answer:
    """Per seat over ``games`` games: wins (ties half), win rate and its 95 % Wilson interval,
    mean score, bingos per game."""
    columns = (
        "player",
        "games",
        "wins",
        "win_rate",
        "low",
        "high",
        "mean_score",
        "bingos_per_game",
    )
    rows = [
        (s.player, s.games, s.wins, s.win_rate, s.low, s.high, s.mean_score, s.bingos_per_game)
        for s in standings
    ]
    query = {"players": [s.player for s in standings], "games": games, "seed": seed}
    return Answer("scrabble-selfplay", lexicon.name, query, columns, rows)


def generate_answer(
    lexicon: Lexicon,
    *,
    rows: int = 4,
    cols: int = 4,
    count: int = 1,
    seed: int | None = None,
    dice: str | None = None,
    multipliers: bool = False,
    min_words: int = 0,
    threads: int | None = None,
    shape: tuple[int, ...] | None = None,
) -> tuple[Answer, Iterator[Grid]]:
    """Random boards, and the answer listing them. Both stream from one draw, so only one of
    them may be read (one format is written); a failure comes before the first board. A
    ``shape`` (n-D boards) replaces ``rows`` and ``cols``, in the query too."""
    from lexforge.generate import generate_boards
    from lexforge.grid import format_grid_line

    sides = {"rows": rows, "cols": cols} if shape is None else {"shape": shape}
    options = {
        "count": count,
        "seed": seed,
        "dice": dice,
        "multipliers": multipliers,
        "min_words": min_words,
    }
    drawn = generate_boards(lexicon, threads=threads, **sides, **options)
    boards = itertools.chain([next(drawn)], drawn)
    listed = ((number, format_grid_line(board)) for number, board in enumerate(boards, start=1))
    return Answer("generate", lexicon.name, sides | options, ("grid", "board"), listed), boards


def check_answer(lexicon: Lexicon, words: list[str]) -> Answer:
    from lexforge.check import check_words

    spell = lexicon.language.spell
    rows = [
        (c.entry, c.word and spell(c.word), c.reason, c.found, c.sources)
        for c in check_words(lexicon, words)
    ]
    columns = ("entry", "word", "rejected", "found", "sources")
    return Answer("check", lexicon.name, {"words": words}, columns, rows)


def lexicons_answer(found: list) -> Answer:
    """The lexicons listed (lexforge.paths.FoundLexicon), with their manifest's summary."""
    columns = ("name", "language", "words", "version", "path", "shadowed")
    rows = [(f.name, f.language, f.words, f.version, str(f.path), f.shadowed) for f in found]
    return Answer("lexicons", None, {}, columns, rows)
