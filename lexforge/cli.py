"""The ``lexforge`` command: word-game queries over a built lexicon or a word list.

    lexforge anagram LETTERS|-        lexforge pattern C?A??
    lexforge boggle GRID|FILE|-       lexforge worddle -d DICT -s SIZE
    lexforge ruzzle BOARD|FILE|-      lexforge generate --rows 4 --cols 4
    lexforge scrabble BOARD|FILE|- --rack LETTERS
    lexforge check WORD...            lexforge verify --lexicon NAME
    lexforge report --lexicon NAME    lexforge completion bash|zsh|fish
    lexforge lexicons                 lexforge install BUNDLE.tar.gz

Every query takes ``--lexicon NAME|PATH`` (a name on the search path, see lexforge.paths, or a
directory) or ``-d WORDLIST``
(read like the ``ods`` reader unless ``--list-format`` says otherwise, normalized with
``--language``; a plain list is taken whole, a spell-checker list or ``--clean`` cleaned, see
lexforge.wordlist), and every command that prints an answer ``--format text|json|jsonl|tsv``
(``--json``: ``--format json``; shapes in lexforge.output). An option has one name in every
command (older spellings stay as hidden aliases). Every error is one line on stderr,
``lexforge COMMAND: message``: exit status 2 for a command line argparse refuses (a usage
error), 1 for any other, 130 for Ctrl-C. ``lexforge`` alone prints the help (exit status 0).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from lexforge.errors import UserError, error_prefix, excerpt, one_line, report_user_errors
from lexforge.lexicon import Lexicon
from lexforge.output import FORMATS, Answer, format_path, write
from lexforge.paths import exists_safely

TYPE_CHECKING = False  # typing's constant, without importing typing (a faster start)
if TYPE_CHECKING:
    from typing import Any, NoReturn, TextIO

LIST_FORMATS = ("ods", "dict", "freelang", "aspell", "hunspell")
MAX_LENGTH_OPTION = 999  # word lengths: no language comes near; keeps C ints from overflowing


def load_lexicon(args: argparse.Namespace) -> Lexicon:
    """The lexicon a query names: ``-d WORDLIST`` (compiled once into the cache, then mapped)
    or ``--lexicon`` (memory-mapped)."""
    if args.wordlist is not None:
        from lexforge.wordlist import lexicon_from_wordlist

        if args.wordlist == "-":
            raise UserError(
                "-d -: a word list is not read from stdin (boards and racks are): give a file"
            )
        prefix = error_prefix(command_of(args)).removesuffix(": ")

        def say(message: str) -> None:
            print(f"{prefix}: {message}", file=sys.stderr, flush=True)

        path = Path(args.wordlist)
        progress = sys.stderr.isatty()  # notes for a person watching, not for logs and pipes
        return lexicon_from_wordlist(
            path, args.list_format, args.language, args.clean, args.encoding, say, progress
        )
    return Lexicon.open(lexicon_name(args))


def lexicon_name(args: argparse.Namespace) -> str:
    """``--lexicon``, else ``$LEXFORGE_LEXICON``; UserError when neither is given."""
    name = args.lexicon or os.environ.get("LEXFORGE_LEXICON")
    if not name:
        raise UserError(
            "no lexicon: give --lexicon NAME|PATH or -d WORDLIST (or set LEXFORGE_LEXICON)"
        )
    return name


def read_input(spec: str) -> tuple[str, str]:
    """Text of a file argument (``-`` = stdin) and the name to report it by."""
    if spec == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(spec)
    try:
        return path.read_text(encoding="utf-8"), spec
    except FileNotFoundError:
        raise UserError(f"{spec}: file not found") from None
    except (OSError, ValueError) as error:  # ValueError: undecodable text or a NUL in the name
        raise UserError(f"{spec}: cannot read ({error})") from None


def read_board(spec: str) -> tuple[str, str, bool]:
    """A board argument: ``-`` (stdin), a file, or else the board itself (rows separated by
    ``/``). Returns the text, the name to report it by and whether it was given inline."""
    if spec == "-" or exists_safely(Path(spec), Path.is_file):
        return *read_input(spec), False
    where = f"board {excerpt(spec)!r} (no such file; read as a board)"
    # An n-D grid on one line (layers separated by "|") is read as one line.
    return spec if "|" in spec else spec.replace("/", "\n"), where, True


def answer(args: argparse.Namespace, answer: Answer, text: Callable[[TextIO], None]) -> None:
    write(answer, args.output, sys.stdout, text)


def write_matches(out: TextIO, rows: Iterable, sort: str) -> None:
    """Rows of (word, shown, score): the shown word, and its score when sorted by score; written
    a few thousand lines at a time (a pattern may match millions of words)."""
    from itertools import islice
    from operator import itemgetter

    rows = iter(rows)
    while batch := list(islice(rows, 8192)):
        if sort == "score":
            out.write("".join(f"{shown}\t{score}\n" for _, shown, score in batch))
        else:
            out.write("\n".join(map(itemgetter(1), batch)) + "\n")


def cmd_anagram(args: argparse.Namespace) -> None:
    from lexforge.answers import anagram_answer

    if args.phrase is not None:
        cmd_phrase(args)
        return
    check_rack_options(args)
    lexicon = load_lexicon(args)
    options = {
        "exact": args.exact,
        "min_length": args.min_length,
        "max_length": args.max_length,
        "contains": args.contains or "",
        "sort": args.sort or "length",
    }
    if args.letters != "-":
        found = anagram_answer(lexicon, args.letters, **options)
        answer(args, found, lambda out: write_matches(out, found.rows, options["sort"]))
        return
    racks = [line.strip() for line in sys.stdin.read().splitlines() if line.strip()]
    if not racks:
        raise UserError("<stdin>: no rack: expected one rack per line")
    found = anagram_answer(lexicon, "-", racks=racks, **options)

    def text(out: TextIO) -> None:
        per_rack: list[list] = [[] for _ in racks]
        for number, *match in found.rows:
            per_rack[number - 1].append(match)
        for number, (rack, rows) in enumerate(zip(racks, per_rack, strict=True), start=1):
            out.write(f"{'' if number == 1 else chr(10)}# rack {number}: {rack}\n")
            write_matches(out, rows, options["sort"])

    answer(args, found, text)


RACK_SORTS = ("length", "alpha", "score")
PHRASE_ONLY = ("words", "limit", "seconds")  # anagram options that only --phrase takes
PHRASE_SECONDS = 30.0  # the phrase search's time limit when no --seconds is given


def check_rack_options(args: argparse.Namespace) -> None:
    """UserError for a rack query (LETTERS) given options of phrase queries, or none."""
    if args.letters is None:
        raise UserError("give LETTERS (or '-'), or --phrase TEXT")
    for name in PHRASE_ONLY:
        if getattr(args, name) is not None:
            raise UserError(f"--{name} applies to --phrase only")
    if args.sort not in (None, *RACK_SORTS):
        raise UserError(f"--sort {args.sort} applies to --phrase only")


def cmd_phrase(args: argparse.Namespace) -> None:
    """``anagram --phrase TEXT``: multi-word anagrams, each written as soon as the search finds
    it, within ``--seconds`` (see lexforge.phrase)."""
    from lexforge.output import write_streamed
    from lexforge.phrase import PHRASE_SORTS, PhraseTimeout, phrase_batches

    if args.letters is not None:
        raise UserError(f"give LETTERS ({args.letters}) or --phrase, not both")
    if args.exact:
        raise UserError("--exact is implied by --phrase (a phrase uses every letter)")
    if args.sort not in (None, *PHRASE_SORTS):
        raise UserError(f"--phrase: --sort {args.sort}: use {' or '.join(PHRASE_SORTS)}")
    lexicon = load_lexicon(args)
    seconds = PHRASE_SECONDS if args.seconds is None else args.seconds
    options = {
        "max_words": args.words,
        "min_length": args.min_length,
        "max_length": args.max_length,
        "contains": args.contains or "",
        "sort": args.sort or "longest",
    }
    batches = phrase_batches(lexicon, args.phrase, **options, seconds=seconds or None)
    query = {"phrase": args.phrase, **options, "limit": args.limit}
    spell = lexicon.language.spell  # multi-letter tiles (es-scrabble) as their letters
    stopped: list[PhraseTimeout] = []
    shown = [0]  # phrases written

    def chunks() -> Iterator[list[tuple[str, tuple[str, ...]]]]:
        """Each batch of the search as it comes (a batch is at most a few ms of search)."""
        left = args.limit
        try:
            for batch in batches:
                if left is not None:
                    batch = batch[:left]
                    left -= len(batch)
                shown[0] += len(batch)
                yield [(spell(" ".join(words)), tuple(map(spell, words))) for words in batch]
                if left == 0:
                    return
        except PhraseTimeout as timeout:  # end the answer cleanly, then say why it stopped
            stopped.append(timeout)

    def text(rows: list[tuple[str, tuple[str, ...]]]) -> str:
        return "".join(row[0] + "\n" for row in rows)

    columns = ("phrase", "words")
    head = Answer("anagram", lexicon.name, query, columns, [])
    write_streamed(head, args.output, sys.stdout, chunks(), text)
    if stopped:
        shown = f"the {shown[0]} phrases shown are not all" if shown[0] else "no phrase found yet"
        raise UserError(
            f"{stopped[0]} ({shown}); allow longer with --seconds S (0: no limit) or narrow "
            "the search with --words N, --min-length N or --contains WORD"
        )


def cmd_pattern(args: argparse.Namespace) -> None:
    from lexforge.answers import pattern_answer

    lexicon = load_lexicon(args)
    found = pattern_answer(lexicon, args.pattern, rack=args.rack, sort=args.sort)
    answer(args, found, lambda out: write_matches(out, found.rows, args.sort))


def grid_header(out: TextIO, number: int, count: int) -> None:
    """Before each grid's block when there are several: ``# grid N`` (blank line between)."""
    if count > 1:
        out.write(f"{'' if number == 1 else chr(10)}# grid {number}\n")
    elif number > 1:
        out.write("\n")


def read_grids(args: argparse.Namespace, lexicon: Lexicon, *, multipliers: bool) -> list:
    """The grids of the board argument (``--shape``: a stream of cells); Ruzzle's
    (``multipliers``) must be 2-D."""
    from lexforge.grid import parse_grids, parse_shape

    text, source, _ = read_board(args.board)
    shape = getattr(args, "shape", None)
    grids = parse_grids(
        text,
        lexicon.language,
        source=source,
        multipliers=multipliers,
        shape=None if shape is None else parse_shape(shape),
    )
    size = getattr(args, "size", None)
    for number, grid in enumerate(grids, start=1):
        sides = "×".join(map(str, grid.shape))
        if size is not None and grid.shape != (size, size):
            raise UserError(f"{source}: grid {number} is {sides}, --size says {size}×{size}")
        if multipliers and grid.layers:
            raise UserError(f"{source}: grid {number} is {sides}: Ruzzle boards are 2-D")
    return grids


def cmd_boggle(args: argparse.Namespace) -> None:
    from lexforge.answers import boggle_answer

    lexicon = load_lexicon(args)
    grids = read_grids(args, lexicon, multipliers=False)
    found = boggle_answer(
        lexicon,
        grids,
        min_length=args.min_length,
        adjacency=args.adjacency,
        paths=args.paths,
        threads=args.threads,
    )

    def text(out: TextIO) -> None:
        start = 0
        for grid in found.summary["grids"]:
            grid_header(out, grid["grid"], len(grids))
            for row in found.rows[start : start + grid["count"]]:
                fields = [row[1]]
                if args.score:
                    fields.append(str(row[2]))
                if args.paths:
                    fields.append(format_path(row[3]))
                out.write("\t".join(fields) + "\n")
            start += grid["count"]
            if args.score:
                out.write(f"total\t{grid['total']}\n")

    if show_pictures(args, lexicon, grids, [], "boggle"):
        return
    answer(args, found, text)


def cmd_worddle(args: argparse.Namespace) -> None:
    """The Worddle brief's program: grid on stdin, words on stdout (lowercase), longest first."""
    from lexforge import boggle
    from lexforge.grid import parse_grids

    lexicon = load_lexicon(args)
    grids = parse_grids(sys.stdin.read(), lexicon.language, source="<stdin>", size=args.size)
    found = boggle.solve_batch(lexicon, grids, min_length=args.min_length, threads=args.threads)
    rows = [
        (number, word.lower(), boggle.boggle_score(word))
        for number, words in enumerate(found, start=1)
        for word in words
    ]
    query = {"size": args.size, "min_length": args.min_length}

    def text(out: TextIO) -> None:
        out.writelines(row[1] + "\n" for row in rows)

    columns = ("grid", "word", "score")
    answer(args, Answer("worddle", lexicon.name, query, columns, rows), text)


def cmd_ruzzle(args: argparse.Namespace) -> None:
    from lexforge.answers import ruzzle_answer, ruzzle_results
    from lexforge.grid import format_grid

    lexicon = load_lexicon(args)
    boards = read_grids(args, lexicon, multipliers=True)
    results = ruzzle_results(lexicon, boards, sort=args.sort, values=args.values)
    found = ruzzle_answer(lexicon, boards, results, sort=args.sort, values=args.values)

    def text(out: TextIO) -> None:
        for number, (board, words) in enumerate(zip(boards, results, strict=True), start=1):
            grid_header(out, number, len(boards))
            spell = lexicon.language.spell  # multi-letter tiles spelled: [CH] on the board
            width = max((len(spell(w.word)) for w in words), default=0) + 2
            lines = [spell(format_grid(board), bracket=True).rstrip("\n"), ""]
            lines += [f"{spell(w.word):<{width}}{w.score:<7}{format_path(w.path)}" for w in words]
            grid = found.summary["grids"][number - 1]
            lines += [
                "",
                f"Number of words:            {grid['count']}",
                f"Length of the longest word: {grid['longest']}",
                f"Maximum total score:        {grid['total']}",
            ]
            out.write("\n".join(lines) + "\n")

    if show_pictures(args, lexicon, boards, results, "ruzzle"):
        return
    answer(args, found, text)


def show_pictures(
    args: argparse.Namespace, lexicon: Lexicon, grids: list, results: list, command: str
) -> bool:
    """``--show``/``--svg`` for grid commands: draw the chosen word's path. True when the
    picture replaced the listing (``--show``)."""
    if args.show is None and args.svg is None:
        return False
    check_show_format(args)
    for number, grid in enumerate(grids, start=1):
        if grid.layers:
            sides = "×".join(map(str, grid.shape))
            raise UserError(f"--show and --svg draw 2-D grids; grid {number} is {sides}")
    from lexforge import picture

    if args.svg is not None and len(grids) != 1:
        raise UserError(f"--svg draws one grid; the input has {len(grids)}")
    if not results:  # Boggle: paths only for the pictures
        from lexforge import boggle

        options = {"min_length": args.min_length, "adjacency": args.adjacency}
        results = [boggle.solve(lexicon, grid, **options) for grid in grids]
    word = args.show or ""
    chosen = [picture.choose(words, word, lexicon.language) for words in results]
    if not any(chosen):
        what = f"'{word}' is on no grid" if word else "no word on the grid"
        raise UserError(f"nothing to draw: {what}")
    ruzzle = command == "ruzzle"
    if args.svg is not None:
        write_svg(args.svg, picture.grid_svg(grids[0], chosen[0], multipliers=ruzzle))
    if args.show is None:
        return False
    colour = picture.use_colour(sys.stdout)
    for number, (grid, found) in enumerate(zip(grids, chosen, strict=True), start=1):
        grid_header(sys.stdout, number, len(grids))
        sys.stdout.write(picture.grid_text(grid, found, colour=colour, multipliers=ruzzle))
    return True


def check_show_format(args: argparse.Namespace) -> None:
    if args.show is not None and args.output != "text":
        raise UserError(
            f"--show draws a picture in text; it has no --format {args.output} (--svg FILE has)"
        )


def write_svg(spec: str, svg: str) -> None:
    """Write ``--svg FILE`` atomically; UserError naming the file when it cannot be."""
    write_text(spec, svg, "the picture")


def cmd_scrabble(args: argparse.Namespace) -> None:
    from lexforge import scrabble
    from lexforge.answers import scrabble_answer

    lexicon = load_lexicon(args)
    layout = scrabble.load_layout(args.layout)
    if args.gcg is not None:
        board, rack, summary, source = gcg_position(args, lexicon, layout)
        if not rack:  # a finished game: its final position, nothing to play
            game_over(args, board, lexicon, summary)
            return
    else:
        if args.turn is not None:
            raise UserError("--turn N picks a turn of a game record: give --gcg FILE")
        if args.rack is None:
            raise UserError("give the rack: --rack LETTERS (or a game record: --gcg FILE)")
        text, source, _ = read_board(args.board or "-")
        board = scrabble.parse_board(text, lexicon.language, layout, source)
        rack, summary = args.rack, {}
    if args.sim is not None:
        simulate(args, lexicon, board, rack, source, summary)
        return
    found, moves = scrabble_answer(
        lexicon, board, rack, top=args.top, layout=args.layout, source=source
    )
    found.summary.update(summary)
    if args.show is not None or args.svg is not None:
        check_show_format(args)
        from lexforge import picture

        # A named word may be any legal move; otherwise the best of those shown.
        candidates = moves.best(None if args.show else args.top or None)
        move = picture.choose_move(candidates, args.show or "", lexicon.language)
        if args.svg is not None:
            write_svg(args.svg, picture.scrabble_svg(board, move, lexicon.language))
        if args.show is not None:
            colour = picture.use_colour(sys.stdout)
            sys.stdout.write(picture.scrabble_text(board, move, lexicon.language, colour=colour))
            return

    def text_out(out: TextIO) -> None:
        if record := summary.get("gcg"):
            scores = "–".join(map(str, record["scores"]))
            played = f"; played {record['played']}" if record["played"] else ""
            out.write(
                f"# turn {record['turn']}: {record['player']} to play {record['rack']} "
                f"(scores {scores}){played}\n"
            )
        out.writelines(f"{row[-1]} {row[0]}\n" for row in found.rows)

    answer(args, found, text_out)


def simulate(
    args: argparse.Namespace, lexicon: Lexicon, board, rack: str, source: str, summary: dict
) -> None:
    """``scrabble --sim SECONDS``: the best candidates ranked by simulation."""
    from lexforge.answers import simulation_answer
    from lexforge.leaves import check_leaves, default_leaves, load_leaves

    if args.show is not None or args.svg is not None:
        raise UserError("--sim ranks the candidates: give it without --show or --svg")
    leaves = load_leaves(args.leaves) if args.leaves else default_leaves(lexicon)
    if args.leaves:
        check_leaves(leaves, lexicon.language, args.leaves)
    found = simulation_answer(
        lexicon,
        board,
        rack,
        seconds=args.sim,
        leaves=leaves,
        seed=args.seed,
        layout=args.layout,
        source=source,
    )
    found.summary.update(summary)

    def text_out(out: TextIO) -> None:
        deals = "splits of the unseen tiles" if found.summary["exact"] else "deals"
        out.write(
            f"# {len(found.rows)} candidates, {found.summary['samples']} {deals} "
            f"(bag {found.summary['bag']}): notation, score, equity, simulated, deals\n"
        )
        out.writelines(f"{n} {s} {e:.1f} {v:+.1f} {d}\n" for n, s, e, v, d in found.rows)

    answer(args, found, text_out)


def gcg_position(args: argparse.Namespace, lexicon: Lexicon, layout) -> tuple:
    """``--gcg FILE [--turn N]``: the board and the rack of the player to move (``--rack``
    overrides it), the answer's ``gcg`` summary, and the name to report the file by."""
    from lexforge import gcg

    if args.board is not None:
        raise UserError("--gcg sets up the board: give no BOARD argument with it")
    spec = args.gcg
    try:
        data = sys.stdin.buffer.read() if spec == "-" else Path(spec).read_bytes()
    except FileNotFoundError:
        raise UserError(f"{spec}: file not found") from None
    except (OSError, ValueError) as error:
        raise UserError(f"{spec}: cannot read ({error})") from None
    source = "<stdin>" if spec == "-" else spec
    record = gcg.parse_record(gcg.decode(data, source), source)
    position = gcg.replay(record, lexicon.language, layout, args.turn, source)
    for warning in position.warnings:
        print(f"lexforge scrabble: warning: {warning}", file=sys.stderr)
    rack = args.rack or position.rack
    nick = record.players[position.player][0]
    if not rack and not position.over:
        raise UserError(
            f"{source}: the record does not say {nick}'s rack at turn {position.turn}: "
            "give --rack LETTERS"
        )
    recorded = position.recorded
    played = None
    if recorded is not None:
        played = gcg.notation(recorded, position.board, lexicon.language)
    summary = {
        "gcg": {
            "turn": position.turn,
            "player": nick,
            "rack": rack,
            "scores": list(position.scores),
            "played": played,
            "over": position.over and not rack,
        }
    }
    return position.board, rack, summary, source


def game_over(args: argparse.Namespace, board, lexicon: Lexicon, summary: dict) -> None:
    """``--gcg`` on a finished game: the final scores (and board, with ``--show``/``--svg``)."""
    from lexforge import picture
    from lexforge.answers import SCRABBLE_COLUMNS

    record = summary["gcg"]
    if args.svg is not None:
        write_svg(args.svg, picture.scrabble_svg(board, None, lexicon.language))
    if args.show is not None:
        colour = picture.use_colour(sys.stdout)
        sys.stdout.write(picture.board_text(board, {}, lexicon.language, colour=colour))
    query = {"rack": "", "top": args.top, "layout": args.layout}
    found = Answer("scrabble", lexicon.name, query, SCRABBLE_COLUMNS, [], {"moves": 0, **summary})

    def text_out(out: TextIO) -> None:
        scores = "–".join(map(str, record["scores"]))
        out.write(f"# game over after turn {record['turn'] - 1} (scores {scores})\n")

    if args.show is None:
        answer(args, found, text_out)


def cmd_scrabble_play(args: argparse.Namespace) -> None:
    from functools import partial

    from lexforge import game, picture, players
    from lexforge.answers import game_answer
    from lexforge.leaves import check_leaves, load_leaves
    from lexforge.scrabble import load_layout

    lexicon = load_lexicon(args)
    kinds = players.player_kinds(args.players)
    human = "human" in kinds
    if human and args.output != "text":
        raise UserError(f"a game with a human player is played in text, not --format {args.output}")
    leaves = load_leaves(args.leaves) if args.leaves else None
    if leaves is not None:
        check_leaves(leaves, lexicon.language, args.leaves)
    colour = picture.use_colour(sys.stdout)

    def human(name: str) -> players.Human:
        draw = partial(picture.board_text, new={}, language=lexicon.language, colour=colour)
        return players.Human(name, input, sys.stdout, draw)

    seats = [
        players.make_player(kind, f"{kind}{number}", leaves=leaves, human=human)
        for number, kind in enumerate(kinds, start=1)
    ]
    layout = load_layout(args.layout)

    def show(event, state) -> None:
        nick = state.players[event.player].name
        sys.stdout.write(event.text(nick) + "\n")

    result = game.play_game(
        lexicon, seats, args.seed, layout=layout, on_turn=show if args.output == "text" else None
    )
    if args.gcg_out:
        write_text(args.gcg_out, game_gcg(result), "the game record")
    found = game_answer(lexicon, result, args.seed)

    def text(out: TextIO) -> None:
        for event in result.record.events[result.turns :]:
            out.write(event.text(result.record.players[event.player][0]) + "\n")
        for nick, score, bingos in found.rows:
            out.write(f"{nick}\t{score}\t{bingos} bingos\n")

    answer(args, found, text)


def game_gcg(result) -> str:
    from lexforge.gcg import format_record

    return format_record(result.record)


def write_text(spec: str, text: str, what: str) -> None:
    """Write a file atomically; UserError naming it when it cannot be."""
    from lexforge.atomic import atomic_open

    try:
        if not Path(spec).resolve().parent.is_dir():
            raise UserError(f"{spec}: cannot write {what} (no such directory)")
        with atomic_open(spec) as handle:
            handle.write(text)
    except OSError as error:
        raise UserError(f"{spec}: cannot write {what} ({error.strerror})") from None
    except ValueError:  # a NUL byte in the name
        raise UserError(f"{spec!r}: cannot write {what} (not a valid file name)") from None


def cmd_scrabble_selfplay(args: argparse.Namespace) -> None:
    from lexforge import game, players
    from lexforge.answers import selfplay_answer
    from lexforge.leaves import check_leaves, load_leaves

    lexicon = load_lexicon(args)
    kinds = players.player_kinds(args.players)
    if "human" in kinds:
        raise UserError("selfplay is between computer players: greedy, equity or simulation")
    leaves = load_leaves(args.leaves) if args.leaves else None
    if leaves is not None:
        check_leaves(leaves, lexicon.language, args.leaves)

    def seats() -> list:
        return [
            players.make_player(kind, f"{kind}{number}", leaves=leaves)
            for number, kind in enumerate(kinds, start=1)
        ]

    standings = game.selfplay(lexicon, seats, args.games, args.seed)
    found = selfplay_answer(lexicon, standings, args.games, args.seed)

    def text(out: TextIO) -> None:
        out.write(f"{args.games} games, seeds {args.seed}…{args.seed + args.games - 1}\n")
        for s in standings:
            out.write(
                f"{s.player}\twins {s.win_rate:.1%} (95% CI {s.low:.1%}–{s.high:.1%})"
                f"\tmean score {s.mean_score:.1f}\tbingos/game {s.bingos_per_game:.2f}\n"
            )

    answer(args, found, text)


def cmd_generate(args: argparse.Namespace) -> None:
    from lexforge.answers import generate_answer
    from lexforge.grid import format_grid, parse_shape

    lexicon = load_lexicon(args)
    found, boards = generate_answer(
        lexicon,
        rows=args.rows,
        cols=args.cols,
        count=args.count,
        seed=args.seed,
        dice=args.dice,
        multipliers=args.multipliers,
        min_words=args.min_words,
        threads=args.threads,
        shape=None if args.shape is None else parse_shape(args.shape),
    )

    def text(out: TextIO) -> None:
        for number, board in enumerate(boards):
            out.write(("\n" if number else "") + format_grid(board))

    answer(args, found, text)


DEFAULT_SECONDS = 10.0  # best-board's time limit when no --restarts is given
DEFAULT_STEPS = 20_000  # lexforge.bestboard.STEPS (the parser does not import numpy)


def cmd_best_board(args: argparse.Namespace) -> None:
    from lexforge.bestboard import best_board
    from lexforge.generate import dice_set
    from lexforge.grid import format_grid, format_grid_line

    rows, cols = args.size
    lexicon = load_lexicon(args)
    if args.check is not None:
        return check_proof(args, lexicon)
    if args.prove is not None:
        if args.dice is not None or args.letters is not None:
            raise UserError("--prove: the proof covers every letter, not --dice or --letters")
        space = proof_space(args, lexicon)  # its mistakes before the search
        if args.threshold is not None:
            return prove_best_board(args, lexicon, space, args.threshold, None)
    dice = dice_set(lexicon, args.dice, rows * cols) if args.dice is not None else None
    seconds = args.seconds
    if seconds is None and args.restarts is None:
        seconds = DEFAULT_SECONDS
    found = best_board(
        lexicon,
        rows,
        cols,
        letters=args.letters,
        dice=dice,
        seconds=seconds,
        restarts=args.restarts,
        steps=args.steps,
        stop_at=args.stop_at,
        seed=args.seed,
        min_length=args.min_length,
        threads=args.threads,
    )
    query = {
        "rows": rows,
        "cols": cols,
        "letters": args.letters,
        "dice": args.dice,
        "seconds": seconds,
        "restarts": args.restarts,
        "steps": args.steps,
        "stop_at": args.stop_at,
        "seed": args.seed,
        "min_length": args.min_length,
    }
    rows_out = [(format_grid_line(found.grid), found.score, found.words)]
    summary = {"restarts": found.restarts, "evaluations": found.evaluations}

    def text(out: TextIO) -> None:
        out.write(f"{format_grid(found.grid)}score\t{found.score}\nwords\t{found.words}\n")

    if args.prove is not None:
        searched = format_grid_line(found.grid)
        return prove_best_board(args, lexicon, space, found.score, searched)
    columns = ("board", "score", "words")
    answer(args, Answer("best-board", lexicon.name, query, columns, rows_out, summary), text)


def proof_space(args: argparse.Namespace, lexicon: Lexicon) -> Any:  # boardclass.Space
    """The board space of ``--prove``: ``--size``, ``--classes`` (default: by frequency)."""
    from lexforge.boardclass import MAX_PROOF_CELLS, Space, default_classes, parse_classes

    rows, cols = args.size
    if rows * cols > MAX_PROOF_CELLS:
        raise UserError(f"board {rows}×{cols}: --prove takes at most {MAX_PROOF_CELLS} cells")
    if args.classes is None:
        classes = corner = default_classes(lexicon)
    else:
        classes, corner = parse_classes(args.classes, lexicon)
    return Space(rows, cols, classes, corner, args.min_length)


def prove_best_board(
    args: argparse.Namespace,
    lexicon: Lexicon,
    space: Any,  # lexforge.boardclass.Space
    threshold: int,
    searched: str | None,
) -> None:
    """``--prove CERT``: branch-and-bound over every board at ``threshold`` (the best score
    the search found, or ``--threshold``); the certificate to CERT, the optimum to stdout."""
    import time

    from lexforge.boardclass import run_proof, write_certificate

    started = time.monotonic()
    certificate = run_proof(lexicon, space, threshold, threads=args.threads)
    took = time.monotonic() - started
    certificate["word_list"] = proof_word_list(args)
    write_certificate(certificate, Path(args.prove))
    proof_answer(args, lexicon, certificate, searched, took)


def proof_word_list(args: argparse.Namespace) -> dict[str, str] | None:
    """The -d file's name and sha256, for the certificate."""
    if args.wordlist is None:
        return None
    from lexforge.boardclass import file_sha256

    path = Path(args.wordlist)
    return {"file": path.name, "sha256": file_sha256(path)}


def proof_answer(
    args: argparse.Namespace,
    lexicon: Lexicon,
    certificate: dict,
    searched: str | None,
    took: float | None,
) -> None:
    """The optimum a (made or checked) certificate proves, and its figures."""
    boards = certificate["boards"]
    best = boards[0] if boards else None
    threshold = certificate["threshold"]
    stats = certificate["stats"]
    query = {"rows": certificate["rows"], "cols": certificate["cols"], "threshold": threshold}
    rows_out = [(b["board"], b["score"]) for b in boards]
    summary = {
        "proven": best is not None and certificate["range"] == [0, certificate["top_classes"]],
        "threshold": threshold,
        "letter_classes": certificate["classes"],
        "corner_classes": certificate["corner_classes"],
        **stats,
    }
    if searched is not None:
        summary["searched"] = searched
    if took is not None:
        summary["seconds"] = round(took, 1)

    def text(out: TextIO) -> None:
        if best is None:
            out.write(f"no board scores {threshold} or more\n")
        else:
            out.write(f"best\t{best['board']}\nscore\t{best['score']}\n")
            out.write(f"boards\t{len(boards)} scoring {threshold} or more (up to symmetry)\n")
        out.write(f"threshold\t{threshold}\n")
        out.write(
            f"classes\t{stats['classes']:,}: {stats['eliminated']:,} eliminated, "
            f"{stats['split']:,} split, {stats['boards_scored']:,} boards scored\n"
        )
        if took is not None:
            out.write(f"seconds\t{took:.1f}\n")

    columns = ("board", "score")
    answer(args, Answer("best-board", lexicon.name, query, columns, rows_out, summary), text)


def check_proof(args: argparse.Namespace, lexicon: Lexicon) -> None:
    """``--check CERT``: re-verify a certificate; exit status 1 naming the first problem."""
    import time

    from lexforge.boardclass import check_certificate, read_certificate

    certificate = read_certificate(Path(args.check))
    started = time.monotonic()
    try:
        verdict = check_certificate(certificate, lexicon, threads=args.threads)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise UserError(f"certificate {args.check}: malformed ({error!r})") from None
    for note in verdict.notes:
        print(f"lexforge best-board: note: {note}", file=sys.stderr)
    proof_answer(args, lexicon, certificate, None, time.monotonic() - started)


def board_size(text: str) -> tuple[int, int]:
    """An argparse type: ``RxC`` (or ``N`` for N×N), each side 1–64."""
    rows, _, cols = text.lower().replace("×", "x").partition("x")
    try:
        size = (int(rows), int(cols or rows))
    except ValueError:
        size = (0, 0)
    if not all(1 <= side <= 64 for side in size):
        raise argparse.ArgumentTypeError(f"--size {text!r}: expected RxC (e.g. 4x4), sides 1-64")
    return size


def cmd_check(args: argparse.Namespace) -> None:
    from lexforge.answers import check_answer

    lexicon = load_lexicon(args)
    found = check_answer(lexicon, args.words)

    def text(out: TextIO) -> None:
        for entry, word, reason, present, sources in found.rows:
            if reason is not None:
                out.write(f"{entry}\trejected: {reason}\n")
                continue
            where = f" ({', '.join(sources)})" if sources else ""
            verdict = f"in {lexicon.name}{where}" if present else f"not in {lexicon.name}"
            out.write(f"{entry}\t{word}\t{verdict}\n")

    answer(args, found, text)


def cmd_verify(args: argparse.Namespace) -> int:
    from lexforge.verify import verify

    name = lexicon_name(args)
    problems = verify(name)
    if args.output != "text":
        rows = [(p,) for p in problems]
        found = Answer("verify", name, {}, ("problem",), rows, {"ok": not problems})
        write(found, args.output, sys.stdout, print)
    elif problems:
        for problem in problems:
            print(f"{error_prefix('verify')}{one_line(problem)}", file=sys.stderr)
    else:
        print(f"{name}: every artifact matches manifest.json")
    return 1 if problems else 0


def cmd_lexicons(args: argparse.Namespace) -> None:
    from lexforge.answers import lexicons_answer
    from lexforge.paths import list_lexicons, search_path

    found = list_lexicons()
    if not found and args.output == "text":
        looked = ", ".join(str(folder) for folder in search_path())
        print(f"no lexicon found (looked in {looked})", file=sys.stderr)

    def text(out: TextIO) -> None:
        for f in found:
            note = "\t(shadowed)" if f.shadowed else ""
            out.write(f"{f.name}\t{f.language}\t{f.words}\t{f.version or '-'}\t{f.path}{note}\n")

    answer(args, lexicons_answer(found), text)


def cmd_install(args: argparse.Namespace) -> None:
    from lexforge.install import install_bundle

    folder = install_bundle(
        Path(args.bundle),
        args.dir and Path(args.dir),
        args.sums and Path(args.sums),
        args.sha256,
        args.skip_sha256,
    )
    print(f"installed {folder.name} into {folder}")


def cmd_report(args: argparse.Namespace) -> None:
    from lexforge.paths import find_lexicon_dir
    from lexforge.report import load_report, render_text

    report = load_report(find_lexicon_dir(lexicon_name(args)))
    if args.output != "text":
        import json

        sys.stdout.write(json.dumps(report, ensure_ascii=False, sort_keys=True) + "\n")
    else:
        sys.stdout.write(render_text(report))


def cmd_serve(args: argparse.Namespace) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UserError("needs the serve extra: pip install 'lexforge[serve]'") from None
    from lexforge.serve.app import create_app, local_hosts
    from lexforge.serve.server import listen, run

    app = create_app(args.lexicon, cors=args.cors, time_budget=args.time_budget)
    sock = listen(args.host, args.port, workers=args.workers)
    port = sock.getsockname()[1]
    app.state.hosts = local_hosts(args.host, port)
    names = ", ".join(app.state.served)
    workers = f", {args.workers} processes" if args.workers > 1 else ""
    print(
        f"serving {names} on http://{args.host}:{port}/{workers} (Ctrl-C stops)",
        file=sys.stderr,
        flush=True,
    )
    run(app, sock, args.workers)


def cmd_completion(args: argparse.Namespace) -> None:
    from lexforge.completion import completion_script

    sys.stdout.write(completion_script(build_parser(), args.shell))


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: ``$COLUMNS`` if a positive number, else the width
    of the terminal on standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as the terminal, sized without ``shutil``: argparse
    makes one for every option it is given, and importing shutil (with its archive modules)
    for that took about 5 % of a one-shot rack query."""

    def __init__(self, prog: str, *args: Any, width: int | None = None, **kwargs: Any) -> None:
        width = terminal_columns() - 2 if width is None else width
        super().__init__(prog, *args, width=width, **kwargs)


#: Exit status of a command line argparse refuses (as argparse's own, and POSIX utilities').
USAGE_ERROR = 2


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as one ``lexforge COMMAND: ...`` line, a "did you mean" for a
    misspelt command or option, and exit status USAGE_ERROR."""

    def __init__(self, *args: Any, formatter_class: type = Formatter, **kwargs: Any) -> None:
        super().__init__(*args, formatter_class=formatter_class, **kwargs)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("lexforge").strip()
        message = self.with_suggestion(message)
        message = one_line(message)  # it may quote any argument
        self.exit(USAGE_ERROR, f"{error_prefix(command)}{message} (see: {self.prog} --help)\n")

    def with_suggestion(self, message: str) -> str:
        """argparse's message about a misspelt command or option, with "did you mean"."""
        import re
        from difflib import get_close_matches

        if found := re.match(r"argument COMMAND: invalid choice: '(.*)' \(choose from", message):
            wrong = found.group(1)
            close = get_close_matches(wrong, visible_commands(self), n=1, cutoff=0.6)
            message = f"'{wrong}' is not a command"
        elif found := re.match(r"unrecognized arguments: (-[^\s=]+)", message):
            known = [
                option
                for action in self._actions
                if action.help != argparse.SUPPRESS
                for option in action.option_strings
            ]
            close = get_close_matches(found.group(1), known, n=1, cutoff=0.6)
        else:
            return message
        return f"{message}; did you mean {close[0]}?" if close else message


def visible_commands(parser: argparse.ArgumentParser) -> list[str]:
    """The commands ``parser`` offers (``scrabble play`` is written so, not ``scrabble-play``)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return [name for name in action.choices if name not in HIDDEN_COMMANDS]
    return []


HIDDEN_COMMANDS = ("scrabble-play", "scrabble-selfplay")  # reached as ``scrabble play`` …


def command_of(args: argparse.Namespace) -> str:
    """The command's name as the user types it (``scrabble play`` for ``scrabble-play``)."""
    command = getattr(args, "command", None) or ""
    return command.replace("-", " ", 1) if command in HIDDEN_COMMANDS else command


#: The largest whole number an option takes when it names no bound of its own.
MAX_WHOLE = 10**12


def bounded(low: int, high: int = MAX_WHOLE) -> Callable[[str], int]:
    """An argparse type: a whole number within [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: expected from {low} to {high:,}"
            )
        return value

    return parse


def seconds(text: str) -> float:
    """An argparse type: a positive number of seconds, at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"{text} is out of range: expected 0 < SECONDS ≤ 86400")
    return value


def seconds_or_none(text: str) -> float:
    """An argparse type: ``seconds``, or 0 for no limit."""
    try:
        if float(text) == 0:
            return 0.0
    except ValueError:
        pass
    return seconds(text)


class VersionAction(argparse.Action):
    """``--version``: the installed distribution's version (looked up only when asked)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import version

        sys.stdout.write(f"lexforge {version('lexforge')}\n")
        parser.exit(0)


class Unbuilt:
    """Stands for the parser of a command that is not about to run: it takes nothing."""

    prog = ""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        """Nothing: the command's options are not needed."""

    def set_defaults(self, **kwargs: object) -> None:
        """Nothing: the command's handler is not needed."""

    def add_argument_group(self, *args: object, **kwargs: object) -> Unbuilt:
        """Itself: a group of options that are not needed."""
        return self


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. With ``only`` (the first argument), if it names a command, the
    parser has that command alone: the others cannot be reached from there, and making all
    their parsers took about 3 ms of a one-shot query (a whole anagram query: ~65 ms)."""
    parser = Parser(
        prog="lexforge",
        description="Word-game solver over lexforge lexicons: anagrams, crossword patterns, "
        "Boggle, Ruzzle and Scrabble. 'lexforge COMMAND --help' tells more of each command.",
    )
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )

    names: list[str] = []  # every command, built or not

    def subcommand(
        name: str, help_text: str, description: str = "", **kwargs: Any
    ) -> argparse.ArgumentParser | Unbuilt:
        """The parser of command ``name``, or an Unbuilt one if another command is to run;
        ``help_text`` lists it, ``description`` (default: the same) heads its help."""
        names.append(name)
        if only not in (None, name):
            return Unbuilt()
        if name not in HIDDEN_COMMANDS:  # (argparse lists a command given any help)
            kwargs["help"] = help_text
        return commands.add_parser(name, description=description or help_text, **kwargs)

    def lexicon_option(group: Any, help_text: str) -> None:
        group.add_argument("--lexicon", "-l", metavar="NAME|PATH", help=help_text)

    def format_options(group: Any, choices: tuple[str, ...] = FORMATS) -> None:
        shapes = {
            "text": "text (the default)",
            "json": "json (one object)",
            "jsonl": "jsonl (a row per line)",
            "tsv": "tsv (with a header)",
        }
        group.add_argument(
            "--format",
            dest="output",
            choices=choices,
            default="text",
            help=", ".join(shapes[c] for c in choices),
        )
        group.add_argument(
            "--json", dest="output", action="store_const", const="json", help="= --format json"
        )

    lexicon_options = Parser(add_help=False)
    group = lexicon_options.add_argument_group("lexicon")
    lexicon_option(
        group,
        "lexicon: a name on $LEXFORGE_PATH, the data dir or ./build, or a directory "
        "(default: $LEXFORGE_LEXICON)",
    )
    group.add_argument(
        "-d",
        dest="wordlist",
        metavar="WORDLIST",
        help="use a word list file instead: compiled on first use into the cache "
        "($LEXFORGE_CACHE, default ~/.cache/lexforge; up to 15 times the list's size; "
        "to free it: rm -r that folder), then read from there",
    )
    group.add_argument(
        "--list-format",
        choices=LIST_FORMATS,
        default="ods",
        help="reader for -d (default: ods, a plain list)",
    )
    group.add_argument(
        "--clean",
        action=argparse.BooleanOptionalAction,
        help="apply to -d the junk rules of spell-checker lists: capitals, no vowel, Roman "
        "numeral, unit (default: for dict, aspell, hunspell; a plain list is taken whole)",
    )
    group.add_argument(
        "--encoding",
        metavar="NAME",
        help="the encoding of -d's file, e.g. latin-1 (default: UTF-8)",
    )
    group.add_argument(
        "--language",
        default="en",
        help="language rules for -d: a code (shipped, or config/languages/CODE.yaml) "
        "or a YAML file (default: en)",
    )
    format_options(lexicon_options.add_argument_group("output"))

    def command(
        name: str, handler: Callable, help_text: str, description: str = ""
    ) -> argparse.ArgumentParser | Unbuilt:
        sub = subcommand(name, help_text, description, parents=[lexicon_options])
        sub.set_defaults(handler=handler)
        return sub

    def threads_option(sub: argparse.ArgumentParser | Unbuilt) -> None:
        sub.add_argument(
            "--threads",
            type=bounded(1, 1024),
            metavar="N",
            help="threads of the batch search (default: the cores available)",
        )

    def picture_options(sub: argparse.ArgumentParser | Unbuilt, what: str) -> None:
        sub.add_argument(
            "--show",
            nargs="?",
            const="",
            metavar="WORD",
            help=f"draw the {what} with WORD's path highlighted (default: the best word)",
        )
        sub.add_argument(
            "--svg",
            metavar="FILE",
            help=f"write the same picture of the {what} as SVG (default: none)",
        )

    length = bounded(1, MAX_LENGTH_OPTION)

    def length_options(
        sub: argparse.ArgumentParser | Unbuilt,
        minimum: int | None,
        *,
        maximum: bool = False,
        aliases: tuple[str, ...] = (),
    ) -> None:
        """``--min-length N`` (and ``--max-length N``): the one name of word lengths in every
        command; ``aliases`` (older spellings) are taken but not shown."""
        default = "(default: any)" if minimum is None else f"(default: {minimum})"
        sub.add_argument(
            "--min-length",
            type=length,
            default=minimum,
            metavar="N",
            help=f"shortest word, in letters {default}",
        )
        for alias in aliases:
            dest = "max_length" if alias == "--max" else "min_length"
            sub.add_argument(alias, dest=dest, type=length, help=argparse.SUPPRESS)
        if maximum:
            sub.add_argument(
                "--max-length",
                type=length,
                metavar="N",
                help="longest word, in letters (default: any)",
            )

    def seed_option(
        sub: argparse.ArgumentParser | Unbuilt,
        default: int | None,
        what: str,
        whole: Callable[[str], int] = int,
    ) -> None:
        shown = "a new one each run" if default is None else default
        sub.add_argument(
            "--seed",
            type=whole,
            default=default,
            metavar="N",
            help=f"random seed: the same seed gives the same {what} (default: {shown})",
        )

    sorts = RACK_SORTS
    sub = command(
        "anagram",
        cmd_anagram,
        "words made from LETTERS, or multi-word anagrams of a phrase",
        "Words made from a subset of LETTERS (jokers: * or ?); '-': one rack per line on "
        "stdin. With --phrase TEXT: multi-word anagrams using every letter of TEXT, each "
        "printed as soon as it is found, within --seconds.",
    )
    sub.add_argument(
        "letters", nargs="?", metavar="LETTERS|-", help="the rack; '-': one rack per line on stdin"
    )
    sub.add_argument("--exact", action="store_true", help="use every letter")
    length_options(sub, None, maximum=True, aliases=("--min", "--min-len", "--max"))
    sub.add_argument(
        "--contains",
        metavar="LETTERS|WORD",
        help="the word must contain these letters (--phrase: the phrase must hold this word) "
        "(default: none)",
    )
    sub.add_argument(
        "--sort",
        choices=(*sorts, "longest", "words"),
        help="racks: length (default), alpha, score; --phrase: longest (longest word "
        "first, the default) or words (fewest words first); phrases stream either way",
    )
    sub.add_argument(
        "--phrase",
        metavar="TEXT",
        help="multi-word anagrams of TEXT, streamed (default: none: words of LETTERS)",
    )
    sub.add_argument(
        "--words",
        type=bounded(1, MAX_LENGTH_OPTION),
        metavar="N",
        help="--phrase: at most N words (default: any)",
    )
    sub.add_argument(
        "--limit",
        type=bounded(1),
        metavar="N",
        help="--phrase: stop after N phrases (default: all)",
    )
    sub.add_argument(
        "--seconds",
        type=seconds_or_none,
        metavar="S",
        help=f"--phrase: stop the search after S seconds, saying so (default: {PHRASE_SECONDS:g};"
        " 0: no limit)",
    )

    sub = command(
        "pattern",
        cmd_pattern,
        "words matching a crossword pattern (? one letter, * any run)",
        "Words matching a crossword pattern: ? stands for one letter, * for any run of "
        "letters, other letters for themselves (C?A??, *TION, *A*E*I*).",
    )
    sub.add_argument("pattern", help="the pattern, e.g. C?A?? or *TION")
    sub.add_argument(
        "--rack",
        metavar="LETTERS",
        help="fill the wildcards from these letters (jokers: * or ?) (default: any letters)",
    )
    sub.add_argument(
        "--sort",
        choices=sorts,
        default="alpha",
        help="alpha (the default: streams as found), length (longest first), score",
    )

    board_help = "a file, '-' (stdin, the default), or the grid itself (rows separated by '/')"
    sub = command(
        "boggle",
        cmd_boggle,
        "all words of Boggle grids",
        "All words of one or more Boggle grids (blank-line separated), longest first.",
    )
    sub.add_argument("board", nargs="?", default="-", metavar="GRID|FILE|-", help=board_help)
    sub.add_argument(
        "--size", type=bounded(1, 64), metavar="N", help="check every grid is N×N (default: any)"
    )
    sub.add_argument(
        "--shape",
        metavar="AxBxC…",
        help="n-D grids (e.g. 4x4x4) from a stream of cells: the product of the sides per grid "
        "(default: 2-D grids as laid out)",
    )
    length_options(sub, 3)
    sub.add_argument(
        "--adjacency",
        type=int,
        choices=(4, 8),
        default=8,
        help="8 (the default): cells at most one step away on every axis (26 in 3-D); "
        "4: one step on one axis",
    )
    sub.add_argument("--paths", action="store_true", help="show one path per word")
    sub.add_argument(
        "--score", action="store_true", help="show classic Boggle points and the total"
    )
    threads_option(sub)
    picture_options(sub, "grid")

    sub = command(
        "worddle",
        cmd_worddle,
        "Worddle: a grid on stdin, its words on stdout",
        "Solve Worddle: read an N×N grid on stdin, print its words on stdout in lowercase, "
        "longest first (the plain interface of a Worddle solver).",
    )
    sub.add_argument(
        "-s", "--size", type=bounded(1, 64), required=True, metavar="N", help="grid size N (N×N)"
    )
    length_options(sub, 3)
    threads_option(sub)

    sub = command(
        "ruzzle",
        cmd_ruzzle,
        "all words of a Ruzzle board with scores",
        "All words of a Ruzzle board with their scores and paths (the board in elzzur's format: "
        "a letter and its multiplier per cell).",
    )
    sub.add_argument("board", nargs="?", default="-", metavar="BOARD|FILE|-", help=board_help)
    sub.add_argument(
        "--sort",
        choices=("score", "length", "start", "end"),
        default="score",
        help="score (the default), length, start or end (of the path)",
    )
    sub.add_argument(
        "--values",
        metavar="FILE|A=1,B=4,...",
        help="override letter values (default: the language's Ruzzle values)",
    )
    picture_options(sub, "board")

    sub = command(
        "scrabble",
        cmd_scrabble,
        "the best Scrabble moves of a rack on a board; scrabble play|selfplay: games",
        "The best Scrabble moves of a rack on a board. 'lexforge scrabble play' plays a game, "
        "'lexforge scrabble selfplay' games between computer players (see their --help).",
    )
    sub.add_argument(
        "board",
        nargs="?",
        metavar="BOARD|FILE|-",
        help="a file, '-' (stdin, the default), or the board itself (rows separated by '/')",
    )
    sub.add_argument(
        "--rack",
        metavar="LETTERS",
        help="the rack's tiles (blanks: * or ?) (default: the --gcg record's)",
    )
    sub.add_argument("--layout", metavar="FILE", help="premium squares (default: standard 15×15)")
    sub.add_argument(
        "--top",
        type=bounded(0),
        default=20,
        metavar="N",
        help="moves shown, best first (default: 20; 0: all)",
    )
    sub.add_argument(
        "--sim",
        type=seconds,
        metavar="SECONDS",
        help="rank the simulation player's candidates (the equity player's 8 best, its best "
        "exchange or a pass) by simulating the opponent's replies for SECONDS (default: off: "
        "moves by score)",
    )
    sub.add_argument(
        "--leaves",
        metavar="FILE",
        help="with --sim: leave values, learned (snakemake leaves) or a table (default: the "
        "lexicon's learned values, every leave 0 where it has none)",
    )
    seed_option(sub, 0, "simulation", bounded(0))
    sub.add_argument(
        "--gcg",
        metavar="FILE",
        help="set up the position of a GCG game record ('-': stdin) (default: none)",
    )
    sub.add_argument(
        "--turn",
        type=bounded(1),
        metavar="N",
        help="with --gcg: the position before turn N (default: after the last)",
    )
    picture_options(sub, "board")

    def game_options(sub: argparse.ArgumentParser | Unbuilt, kinds: tuple[str, ...]) -> None:
        sub.add_argument(
            "--players",
            default="greedy,greedy",
            metavar="KIND,KIND…",
            help=f"two or more of {', '.join(kinds)} (default: greedy,greedy)",
        )
        seed_option(sub, 0, "game", bounded(0))
        sub.add_argument(
            "--leaves",
            metavar="FILE",
            help="the equity and simulation players' leave values: learned (snakemake leaves) "
            "or a table (default: the lexicon's learned values, every leave 0 where it has none)",
        )
        sub.add_argument("--layout", metavar="FILE", help="premium squares (default: standard)")

    sub = command("scrabble-play", cmd_scrabble_play, "a game of Scrabble (= scrabble play)")
    sub.prog = "lexforge scrabble play"
    game_options(sub, ("greedy", "equity", "simulation", "human"))
    sub.add_argument(
        "--gcg-out", metavar="FILE", help="write the game's record (GCG) (default: none)"
    )

    sub = command(
        "scrabble-selfplay",
        cmd_scrabble_selfplay,
        "N games between computer players (= scrabble selfplay)",
    )
    sub.prog = "lexforge scrabble selfplay"
    game_options(sub, ("greedy", "equity", "simulation"))
    sub.add_argument(
        "--games",
        type=bounded(1, 1_000_000),
        default=100,
        metavar="N",
        help="number of games (default: 100)",
    )

    sub = command(
        "generate",
        cmd_generate,
        "random boards the other commands read",
        "Random Boggle or Ruzzle boards, in the format boggle and ruzzle read.",
    )
    sub.add_argument(
        "--rows", type=bounded(1, 64), default=4, metavar="N", help="rows (default: 4)"
    )
    sub.add_argument(
        "--cols", type=bounded(1, 64), default=4, metavar="N", help="columns (default: 4)"
    )
    sub.add_argument(
        "--shape",
        metavar="AxBxC…",
        help="an n-D board (e.g. 3x3x3), instead of --rows/--cols (default: 2-D)",
    )
    sub.add_argument(
        "--count",
        type=bounded(1, 1_000_000),
        default=1,
        metavar="N",
        help="number of boards (default: 1)",
    )
    seed_option(sub, None, "boards")
    sub.add_argument(
        "--dice",
        nargs="?",
        const="",
        metavar="SET",
        help="draw from the language's dice set SET (no SET: its first) "
        "(default: letters by frequency)",
    )
    sub.add_argument("--multipliers", action="store_true", help="add Ruzzle multipliers")
    sub.add_argument(
        "--min-words",
        type=bounded(0),
        default=0,
        metavar="K",
        help="redraw until a board has K words (default: 0, any board)",
    )
    threads_option(sub)

    sub = command(
        "best-board",
        cmd_best_board,
        "search for the highest-scoring Boggle board",
        "Search for the highest-scoring Boggle board (simulated annealing with restarts).",
    )
    sub.add_argument(
        "--size", type=board_size, default=(4, 4), metavar="RxC", help="board size (default: 4x4)"
    )
    sub.add_argument(
        "--dice",
        nargs="?",
        const="",
        metavar="SET",
        help="arrange and roll the language's dice SET (no SET: the first of the board's size) "
        "(default: any letters)",
    )
    sub.add_argument("--letters", help="cells drawn from these letters (default: the alphabet)")
    sub.add_argument(
        "--seconds",
        type=seconds,
        metavar="S",
        help=f"time limit (default: {DEFAULT_SECONDS:g} s unless --restarts is given)",
    )
    sub.add_argument(
        "--restarts",
        type=bounded(1),
        metavar="N",
        help="number of restarts: with --seed, always the same board (default: until --seconds)",
    )
    sub.add_argument(
        "--steps",
        type=bounded(1),
        default=DEFAULT_STEPS,
        metavar="N",
        help=f"annealing steps of a restart (default: {DEFAULT_STEPS:,})",
    )
    sub.add_argument(
        "--stop-at",
        type=bounded(1),
        metavar="SCORE",
        help="stop as soon as a board scores SCORE or more (default: run to the limit)",
    )
    sub.add_argument(
        "--prove",
        metavar="CERT",
        help="then prove the best board optimal by branch-and-bound over board classes, "
        "writing the certificate to CERT (JSON; gzip if CERT ends in .gz) (default: no proof)",
    )
    sub.add_argument(
        "--threshold",
        type=bounded(1),
        metavar="N",
        help="with --prove: prove against score N instead of searching first "
        "(default: the best board the search finds)",
    )
    sub.add_argument(
        "--classes",
        metavar="SPEC",
        help="with --prove: the letter classes of the top-level board classes, e.g. "
        "'BDFGJQVWXZ AEIOU LNRSY CHKMPT' (', corner:...' for the corners' own) "
        "(default: 4 classes of equal letter frequency)",
    )
    sub.add_argument(
        "--check",
        metavar="CERT",
        help="re-verify the certificate CERT (the same word list) instead of searching "
        "(default: none)",
    )
    seed_option(sub, 0, "board with --restarts")
    length_options(sub, 3)
    threads_option(sub)

    sub = command(
        "check",
        cmd_check,
        "how words normalize, whether the lexicon has them, which sources",
        "How each WORD normalizes, whether the lexicon has it, and which sources list it.",
    )
    sub.add_argument("words", nargs="+", metavar="WORD", help="the words to look up")

    sub = subcommand(
        "verify",
        "check a built lexicon against its manifest",
        "Check every artifact of a built lexicon against the sizes and sha256 sums of its "
        "manifest.json; exit status 1 when one differs, naming it and the step to rerun.",
    )
    group = sub.add_argument_group("lexicon")
    lexicon_option(group, "the lexicon: a name or a directory (default: $LEXFORGE_LEXICON)")
    format_options(sub.add_argument_group("output"))
    sub.set_defaults(handler=cmd_verify)

    sub = subcommand(
        "serve",
        "the web page and JSON API over the lexicons (needs lexforge[serve])",
        "Serve the web page and the JSON API over the lexicons on http://HOST:PORT/ until "
        "Ctrl-C (needs the serve extra: pip install 'lexforge[serve]').",
    )
    sub.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    sub.add_argument(
        "--port", type=bounded(0, 65535), default=8000, help="port (default: 8000; 0: any free)"
    )
    sub.add_argument(
        "--lexicon",
        "-l",
        action="append",
        metavar="NAME|PATH",
        help="serve this lexicon (repeat for more; default: every one on the search path)",
    )
    sub.add_argument(
        "--cors",
        action="append",
        metavar="ORIGIN",
        help="let pages of ORIGIN call the API (repeatable; default: none)",
    )
    sub.add_argument(
        "--time-budget",
        type=seconds,
        default=5.0,
        metavar="SECONDS",
        help="longest a query may run: past it, it is stopped and answered 503 (default: 5)",
    )
    sub.add_argument(
        "--workers",
        type=bounded(1, 64),
        default=1,
        metavar="N",
        help="answer in N processes sharing the lexicons' memory (default: 1)",
    )
    sub.set_defaults(handler=cmd_serve)

    sub = subcommand(
        "completion",
        "print a shell completion script",
        "Print the completion script of SHELL: commands, options, their values and lexicon "
        'names. bash: eval "$(lexforge completion bash)" in ~/.bashrc; zsh: the same with '
        "zsh in ~/.zshrc; fish: lexforge completion fish > "
        "~/.config/fish/completions/lexforge.fish",
    )
    sub.add_argument("shell", choices=SHELLS, help="the shell: bash, zsh or fish")
    sub.set_defaults(handler=cmd_completion)

    sub = subcommand(
        "lexicons",
        "the lexicons on the search path ($LEXFORGE_PATH, data dir, ./build)",
        "List the lexicons on the search path ($LEXFORGE_PATH, the data dir, ./build): name, "
        "language, words, version and folder; a name found twice is shadowed by the first.",
    )
    format_options(sub)
    sub.set_defaults(handler=cmd_lexicons)

    sub = subcommand(
        "install",
        "check a lexicon bundle and install it",
        "Check a lexicon bundle (BUNDLE.tar.gz, as 'snakemake dist' makes) against its "
        "SHA256SUMS (or --sha256) and its manifest, and install it into the data dir, where "
        "--lexicon finds it by name; a bundle that cannot be checked is refused unless "
        "--skip-sha256.",
    )
    sub.add_argument("bundle", metavar="BUNDLE.tar.gz", help="the bundle file")
    sub.add_argument("--dir", metavar="D", help="install into D/<lexicon>/ (default: data dir)")
    sub.add_argument(
        "--sums", metavar="FILE", help="SHA256SUMS to check (default: the one beside the bundle)"
    )
    sub.add_argument(
        "--sha256",
        metavar="HEX",
        help="the bundle's sha256, to check instead (default: none: the SHA256SUMS)",
    )
    sub.add_argument(
        "--skip-sha256",
        action="store_true",
        help="install a bundle that cannot be checked (no SHA256SUMS, no --sha256); says so",
    )
    sub.set_defaults(handler=cmd_install)

    sub = subcommand(
        "report",
        "a built lexicon's quality report",
        "Print a built lexicon's quality report (report.json, written by the pipeline): "
        "counts, lengths, sources, classes, as text or JSON.",
    )
    group = sub.add_argument_group("lexicon")
    lexicon_option(group, "the lexicon: a name or a directory (default: $LEXFORGE_LEXICON)")
    format_options(sub.add_argument_group("output"), ("text", "json"))
    sub.set_defaults(handler=cmd_report)
    return parser if only is None or only in names else build_parser()


SHELLS = ("bash", "zsh", "fish")


GAME_COMMANDS = ("play", "selfplay")  # ``scrabble play`` is the command ``scrabble-play``


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # nothing asked, nothing failed: the help, on stdout (so it pages)
        sys.stdout.write(build_parser().format_help())
        return 0
    if argv[:1] == ["scrabble"] and argv[1:2] and argv[1] in GAME_COMMANDS:
        argv = [f"scrabble-{argv[1]}", *argv[2:]]
    parser = build_parser(argv[0])
    args, extra = parser.parse_known_args(argv)
    if extra:  # the command's parser says it, so the error names the command
        command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    sys.stdout.reconfigure(encoding="utf-8")
    return report_user_errors(lambda: args.handler(args), command_of(args))


def command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of command ``name`` in ``parser``."""
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[name]


if __name__ == "__main__":
    sys.exit(main())
