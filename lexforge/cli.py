"""The ``lexforge`` command: word-game queries over a built lexicon or a word list.

    lexforge anagram LETTERS          lexforge pattern C?A??
    lexforge boggle GRID_FILE         lexforge worddle -d DICT -s SIZE
    lexforge ruzzle BOARD_FILE        lexforge generate --rows 4 --cols 4
    lexforge scrabble BOARD_FILE --rack LETTERS
    lexforge verify --lexicon NAME    lexforge report --lexicon NAME
    lexforge lexicons                 lexforge install BUNDLE.tar.gz

Every query takes ``--lexicon NAME|PATH`` (a name on the search path, see lexforge.paths, or a
directory) or ``-d WORDLIST``
(read like the ``ods`` reader unless ``--format`` says otherwise, normalized with ``--language``),
and ``--json`` for machine output. Expected failures are one line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from lexforge.errors import UserError, report_user_errors
from lexforge.lexicon import Lexicon

FORMATS = ("ods", "dict", "freelang", "aspell", "hunspell")


def load_lexicon(args: argparse.Namespace) -> Lexicon:
    """The lexicon a query names: ``-d WORDLIST`` (in memory) or ``--lexicon`` (memory-mapped)."""
    if args.wordlist is not None:
        from lexforge.wordlist import lexicon_from_wordlist

        return lexicon_from_wordlist(Path(args.wordlist), args.format, args.language)
    name = args.lexicon or os.environ.get("LEXFORGE_LEXICON")
    if not name:
        raise UserError(
            "no lexicon: give --lexicon NAME|PATH or -d WORDLIST (or set LEXFORGE_LEXICON)"
        )
    return Lexicon.open(name)


def read_input(spec: str) -> tuple[str, str]:
    """Text of a file argument (``-`` = stdin) and the name to report it by."""
    if spec == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(spec)
    try:
        return path.read_text(encoding="utf-8"), spec
    except FileNotFoundError:
        raise UserError(f"{spec}: file not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{spec}: cannot read ({error})") from None


def emit_json(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def cmd_anagram(args: argparse.Namespace) -> None:
    from lexforge.anagram import anagram

    lexicon = load_lexicon(args)
    matches = anagram(
        lexicon,
        args.letters,
        exact=args.exact,
        min_length=args.min,
        max_length=args.max,
        contains=args.contains or "",
        sort=args.sort,
    )
    print_matches(matches, args)


def cmd_pattern(args: argparse.Namespace) -> None:
    from lexforge.anagram import pattern

    lexicon = load_lexicon(args)
    print_matches(pattern(lexicon, args.pattern, rack_text=args.rack, sort=args.sort), args)


def print_matches(matches: list, args: argparse.Namespace) -> None:
    if args.json:
        emit_json([{"word": m.word, "shown": m.shown, "score": m.score} for m in matches])
        return
    out = sys.stdout
    for m in matches:
        out.write(f"{m.shown}\t{m.score}\n" if args.sort == "score" else f"{m.shown}\n")


def format_path(path: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"({r},{c})" for r, c in path)


def cmd_boggle(args: argparse.Namespace) -> None:
    from lexforge import boggle
    from lexforge.grid import parse_grids

    lexicon = load_lexicon(args)
    text, source = read_input(args.grid)
    grids = parse_grids(text, lexicon.language, source=source)
    options = {"min_length": args.min_length, "adjacency": args.adjacency}
    if args.json or args.paths:
        results = [boggle.solve(lexicon, grid, **options) for grid in grids]
    else:  # no paths wanted: the batch search, on all cores
        results = [
            [boggle.BoggleWord(word, (), boggle.boggle_score(word)) for word in words]
            for words in boggle.solve_batch(lexicon, grids, **options)
        ]
    if args.json:
        emit_json(
            [
                {
                    "words": [
                        {"word": w.word, "score": w.score, "path": [list(p) for p in w.path]}
                        for w in words
                    ],
                    "count": len(words),
                    "total": sum(w.score for w in words),
                }
                for words in results
            ]
        )
        return
    blocks = []
    for words in results:
        lines = []
        for w in words:
            fields = [w.word]
            if args.score:
                fields.append(str(w.score))
            if args.paths:
                fields.append(format_path(w.path))
            lines.append("\t".join(fields))
        if args.score:
            lines.append(f"total\t{sum(w.score for w in words)}")
        blocks.append("\n".join(lines))
    sys.stdout.write("\n\n".join(blocks) + ("\n" if blocks else ""))


def cmd_worddle(args: argparse.Namespace) -> None:
    """The Worddle brief's program: grid on stdin, words on stdout, longest first."""
    from lexforge import boggle
    from lexforge.grid import parse_grids

    lexicon = load_lexicon(args)
    grids = parse_grids(sys.stdin.read(), lexicon.language, source="<stdin>", size=args.size)
    for grid in grids:
        for w in boggle.solve(lexicon, grid, min_length=args.min_length):
            sys.stdout.write(w.word.lower() + "\n")


def cmd_ruzzle(args: argparse.Namespace) -> None:
    from lexforge import ruzzle
    from lexforge.grid import format_grid, parse_grids

    lexicon = load_lexicon(args)
    text, source = read_input(args.board)
    boards = parse_grids(text, lexicon.language, source=source, multipliers=True)
    values = None
    if args.values:  # overrides merge over the language's table
        values = {**lexicon.language.ruzzle_values, **ruzzle.parse_values(args.values, "--values")}
    results = []
    for board in boards:
        words = ruzzle.sort_words(ruzzle.solve(lexicon, board, values=values), args.sort)
        results.append((board, words))
    if args.json:
        emit_json(
            [
                {
                    "board": format_grid(board),
                    "words": [
                        {"word": w.word, "score": w.score, "path": [list(p) for p in w.path]}
                        for w in words
                    ],
                    "count": len(words),
                    "longest": max((len(w.word) for w in words), default=0),
                    "total": sum(w.score for w in words),
                }
                for board, words in results
            ]
        )
        return
    blocks = []
    for board, words in results:
        width = max((len(w.word) for w in words), default=0) + 2
        lines = [format_grid(board).rstrip("\n"), ""]
        lines += [f"{w.word:<{width}}{w.score:<7}{format_path(w.path)}" for w in words]
        lines += [
            "",
            f"Number of words:            {len(words)}",
            f"Length of the longest word: {max((len(w.word) for w in words), default=0)}",
            f"Maximum total score:        {sum(w.score for w in words)}",
        ]
        blocks.append("\n".join(lines))
    sys.stdout.write("\n\n".join(blocks) + "\n")


def cmd_scrabble(args: argparse.Namespace) -> None:
    from lexforge import scrabble

    lexicon = load_lexicon(args)
    text, source = read_input(args.board)
    board = scrabble.parse_board(text, lexicon.language, scrabble.load_layout(args.layout), source)
    if args.top < 0:
        raise UserError(f"--top {args.top}: give a number of moves, or 0 for all")
    moves = scrabble.generate(lexicon, board, args.rack)  # compact: Move objects only for shown
    shown = moves.best(args.top or None)
    if args.json:
        emit_json(
            {
                "moves": [
                    {
                        "word": m.word,
                        "position": m.position,
                        "row": m.row,
                        "col": m.col,
                        "direction": "across" if m.across else "down",
                        "score": m.score,
                        "placed": [list(tile) for tile in m.placed],
                    }
                    for m in shown
                ],
                "count": len(moves),
            }
        )
        return
    for m in shown:
        sys.stdout.write(f"{m.score}\t{m.position}\t{m.word}\n")


def cmd_generate(args: argparse.Namespace) -> None:
    from lexforge.generate import generate_boards
    from lexforge.grid import format_grid

    lexicon = load_lexicon(args)
    boards = generate_boards(
        lexicon,
        rows=args.rows,
        cols=args.cols,
        count=args.count,
        seed=args.seed,
        dice=args.dice,
        multipliers=args.multipliers,
        min_words=args.min_words,
    )
    if args.json:
        emit_json([format_grid(board) for board in boards])
        return
    sys.stdout.write("\n".join(format_grid(board) for board in boards))


def cmd_verify(args: argparse.Namespace) -> int:
    from lexforge.verify import verify

    args.lexicon = args.lexicon or os.environ.get("LEXFORGE_LEXICON")
    if not args.lexicon:
        raise UserError("no lexicon: give --lexicon NAME|PATH (or set LEXFORGE_LEXICON)")
    problems = verify(args.lexicon)
    if args.json:
        emit_json({"lexicon": args.lexicon, "ok": not problems, "problems": problems})
    elif problems:
        for problem in problems:
            print(f"lexforge: {problem}", file=sys.stderr)
    else:
        print(f"{args.lexicon}: every artifact matches manifest.json")
    return 1 if problems else 0


def cmd_lexicons(args: argparse.Namespace) -> None:
    from lexforge.paths import list_lexicons, search_path

    found = list_lexicons()
    if args.json:
        emit_json(
            [
                {
                    "name": f.name,
                    "language": f.language,
                    "words": f.words,
                    "version": f.version,
                    "path": str(f.path),
                    "shadowed": f.shadowed,
                }
                for f in found
            ]
        )
        return
    if not found:
        looked = ", ".join(str(folder) for folder in search_path())
        print(f"no lexicon found (looked in {looked})", file=sys.stderr)
    for f in found:
        note = "\t(shadowed)" if f.shadowed else ""
        print(f"{f.name}\t{f.language}\t{f.words}\t{f.version or '-'}\t{f.path}{note}")


def cmd_install(args: argparse.Namespace) -> None:
    from lexforge.install import install_bundle

    folder = install_bundle(
        Path(args.bundle), args.dir and Path(args.dir), args.sums and Path(args.sums)
    )
    print(f"installed {folder.name} into {folder}")


def cmd_report(args: argparse.Namespace) -> None:
    from lexforge.lexicon import find_lexicon_dir
    from lexforge.report import load_report, render_text

    name = args.lexicon or os.environ.get("LEXFORGE_LEXICON")
    if not name:
        raise UserError("no lexicon: give --lexicon NAME|PATH (or set LEXFORGE_LEXICON)")
    report = load_report(find_lexicon_dir(name))
    if args.json:
        emit_json(report)
    else:
        sys.stdout.write(render_text(report))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lexforge", description="Word-game solver over lexforge lexicons."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    lexicon_options = argparse.ArgumentParser(add_help=False)
    group = lexicon_options.add_argument_group("lexicon")
    group.add_argument(
        "--lexicon",
        "-l",
        metavar="NAME|PATH",
        help="lexicon: a name on $LEXFORGE_PATH, the data dir or ./build, or a directory "
        "(default: $LEXFORGE_LEXICON)",
    )
    group.add_argument(
        "-d",
        dest="wordlist",
        metavar="WORDLIST",
        help="use a word list instead, normalized in memory",
    )
    group.add_argument(
        "--format",
        choices=FORMATS,
        default="ods",
        help="reader for -d (default: ods, a plain list)",
    )
    group.add_argument(
        "--language",
        default="en",
        help="language rules for -d: a code (shipped, or config/languages/CODE.yaml) "
        "or a YAML file (default: en)",
    )
    group.add_argument("--json", action="store_true", help="machine-readable output")

    def command(name: str, handler: Callable, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name, parents=[lexicon_options], help=help_text, description=help_text
        )
        sub.set_defaults(handler=handler)
        return sub

    sorts = ("length", "alpha", "score")
    sub = command("anagram", cmd_anagram, "words made from a subset of LETTERS (jokers: * or ?)")
    sub.add_argument("letters")
    sub.add_argument("--exact", action="store_true", help="use every letter")
    sub.add_argument("--min", type=int, help="minimum length")
    sub.add_argument("--max", type=int, help="maximum length")
    sub.add_argument("--contains", metavar="LETTERS", help="the word must contain these letters")
    sub.add_argument("--sort", choices=sorts, default="length")

    sub = command(
        "pattern", cmd_pattern, "words matching a crossword pattern (? one letter, * any run)"
    )
    sub.add_argument("pattern")
    sub.add_argument("--rack", help="fill the wildcards from these letters (jokers: * or ?)")
    sub.add_argument("--sort", choices=sorts, default="alpha")

    sub = command("boggle", cmd_boggle, "all words of Boggle grids (blank-line separated)")
    sub.add_argument("grid", nargs="?", default="-", metavar="GRID_FILE|-")
    sub.add_argument("--min-length", type=int, default=3)
    sub.add_argument("--adjacency", type=int, choices=(4, 8), default=8)
    sub.add_argument("--paths", action="store_true", help="show one path per word")
    sub.add_argument(
        "--score", action="store_true", help="show classic Boggle points and the total"
    )

    sub = command(
        "worddle", cmd_worddle, "the Worddle brief's solver: grid on stdin, words on stdout"
    )
    sub.add_argument("-s", "--size", type=int, required=True, help="grid size N (N×N)")
    sub.add_argument("--min-length", type=int, default=3)

    sub = command("ruzzle", cmd_ruzzle, "all words of a Ruzzle board with scores (elzzur format)")
    sub.add_argument("board", nargs="?", default="-", metavar="BOARD_FILE|-")
    sub.add_argument("--sort", choices=("score", "length", "start", "end"), default="score")
    sub.add_argument("--values", metavar="FILE|A=1,B=4,...", help="override letter values")

    sub = command("scrabble", cmd_scrabble, "the best Scrabble moves of a rack on a board")
    sub.add_argument("board", nargs="?", default="-", metavar="BOARD_FILE|-")
    sub.add_argument("--rack", required=True, help="the rack's tiles (blanks: * or ?)")
    sub.add_argument("--layout", metavar="FILE", help="premium squares (default: standard 15×15)")
    sub.add_argument("--top", type=int, default=20, help="moves shown, best first (0: all)")

    sub = command("generate", cmd_generate, "random boards the other commands read")
    sub.add_argument("--rows", type=int, default=4)
    sub.add_argument("--cols", type=int, default=4)
    sub.add_argument("--count", type=int, default=1, help="number of boards")
    sub.add_argument("--seed", type=int, help="random seed, for reproducible boards")
    sub.add_argument(
        "--dice",
        nargs="?",
        const="",
        metavar="SET",
        help="draw from the language's dice set (default: its first)",
    )
    sub.add_argument("--multipliers", action="store_true", help="add Ruzzle multipliers")
    sub.add_argument("--min-words", type=int, default=0, help="redraw until a board has K words")

    sub = commands.add_parser("verify", help="check a built lexicon against its manifest")
    sub.add_argument("--lexicon", "-l", metavar="NAME|PATH", help="default: $LEXFORGE_LEXICON")
    sub.add_argument("--json", action="store_true")
    sub.set_defaults(handler=cmd_verify)

    sub = commands.add_parser(
        "lexicons", help="the lexicons on the search path ($LEXFORGE_PATH, data dir, ./build)"
    )
    sub.add_argument("--json", action="store_true")
    sub.set_defaults(handler=cmd_lexicons)

    sub = commands.add_parser("install", help="check a lexicon bundle and install it")
    sub.add_argument("bundle", metavar="BUNDLE.tar.gz")
    sub.add_argument("--dir", metavar="D", help="install into D/<lexicon>/ (default: data dir)")
    sub.add_argument(
        "--sums", metavar="FILE", help="SHA256SUMS to check (default: the one beside the bundle)"
    )
    sub.set_defaults(handler=cmd_install)

    sub = commands.add_parser("report", help="a built lexicon's quality report, as text")
    sub.add_argument("--lexicon", "-l", metavar="NAME|PATH")
    sub.add_argument("--json", action="store_true")
    sub.set_defaults(handler=cmd_report)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sys.stdout.reconfigure(encoding="utf-8")
    return report_user_errors(lambda: args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
