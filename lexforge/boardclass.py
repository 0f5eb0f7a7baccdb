"""Board classes, their upper bounds, and a proof by branch-and-bound that no Boggle board
scores more than the best one found, written as a certificate that ``check`` re-verifies.

The method is D. Vanderkam's ("A Computational Proof of the Highest-Scoring Boggle Board",
arXiv 2507.02117, 2025; danvk/hybrid-boggle): a board class gives each cell a set of letters
and holds every board choosing one of them per cell. Its bound (lexforge._bound: the orderly
tree's value, or a single board's exact score) is at least the score of each of its boards. The
space of boards (one letter of the alphabet per cell, as ``best-board`` searches it) is cut
into top-level classes: each cell takes one class of a partition of the alphabet (corner cells
may have a partition of their own). A class whose bound is below the threshold (the best score
known) is eliminated; else its first cell in the split order (most neighbours first) that has
more than one letter is split into one class per letter, down to single boards, which are
scored exactly. Top-level classes that a symmetry of the grid maps to a smaller one (in the
mixed-radix order of their indices) are left out: a board and its mirror images score alike.

A class's tree is a line of tokens in preorder: ``e<bound>`` eliminated, ``s<cell>:<bound>``
split (its children follow, in the alphabet order of that cell's letters), ``b<score>`` one
board, scored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from lexforge._bound import BOARD, ELIMINATED, bounds, prove, tree_bounds
from lexforge.boggle import POINTS_TABLE, _letter_index, _neighbour_table, score_batch
from lexforge.errors import UserError
from lexforge.grid import Grid
from lexforge.lexicon import Lexicon
from lexforge.text import fold_word

CERTIFICATE_FORMAT = "lexforge-boggle-proof/1"
#: The files whose code the proof runs: their sha256 is the certificate's code version.
CODE_FILES = ("_bound.pyx", "boardclass.py")
#: The largest board a proof takes (a path's cells are the bits of a 32-bit word).
MAX_PROOF_CELLS = 32
#: Node budget of one top-level class's tree (a guard against a threshold far too low).
MAX_NODES = 50_000_000


@dataclass(frozen=True)
class Space:
    """The boards of a proof and their top-level classes."""

    rows: int
    cols: int
    classes: tuple[str, ...]  # the partition of the alphabet for most cells
    corner_classes: tuple[str, ...]  # ... and for the four corners
    min_length: int = 3

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def partition(self, cell: int) -> tuple[str, ...]:
        """The letter classes cell ``cell`` takes."""
        return self.corner_classes if cell in self.corners else self.classes

    @property
    def corners(self) -> frozenset[int]:
        last = self.cells - 1
        return frozenset({0, self.cols - 1, last - self.cols + 1, last})

    @property
    def radices(self) -> list[int]:
        return [len(self.partition(cell)) for cell in range(self.cells)]

    @property
    def top_classes(self) -> int:
        """How many top-level classes (before symmetry)."""
        return int(np.prod(self.radices, dtype=object))

    def digits(self, index: int) -> list[int]:
        """Top-level class ``index``: the letter class of each cell (cell 0 most significant)."""
        out = []
        for radix in reversed(self.radices):
            index, digit = divmod(index, radix)
            out.append(digit)
        return out[::-1]

    def index(self, digits: Iterable[int]) -> int:
        value = 0
        for digit, radix in zip(digits, self.radices, strict=True):
            value = value * radix + digit
        return value

    def top_class(self, index: int) -> list[str]:
        """The letters of each cell of top-level class ``index``."""
        return [self.partition(c)[d] for c, d in enumerate(self.digits(index))]

    def canonical(self, index: int) -> bool:
        """Whether no symmetry of the grid maps top-level class ``index`` to a smaller one."""
        digits = self.digits(index)
        return all(
            [digits[perm.index(c)] for c in range(self.cells)] >= digits
            for perm in symmetries(self.rows, self.cols)
        )

    def split_order(self) -> list[int]:
        """Cells by neighbour count, most first (then by index): the order classes split in."""
        _, count = _neighbour_table((self.rows, self.cols), 8)
        return sorted(range(self.cells), key=lambda c: (-int(count[c]), c))


def symmetries(rows: int, cols: int) -> list[list[int]]:
    """The grid's symmetries (8 for a square, 4 for a rectangle) as cell permutations:
    ``perm[cell]`` is where ``cell`` goes."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    out = []
    for f in maps:
        perm = []
        for cell in range(rows * cols):
            r, c = f(*divmod(cell, cols))
            perm.append(r * cols + c)
        out.append(perm)
    return out


def parse_classes(spec: str, lexicon: Lexicon) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``"A B C, corner:D E"`` (letter classes separated by spaces; the corner cells' own
    partition after a comma) as (classes, corner classes); UserError unless each partition
    holds every letter of the alphabet exactly once."""
    main, _, corner = spec.partition(",")
    corner = corner.strip()
    if corner and not corner.startswith("corner:"):
        raise UserError(f"--classes {spec!r}: after the comma, 'corner:' and its classes")
    parts = [_partition(main, lexicon, spec)]
    parts.append(_partition(corner.removeprefix("corner:"), lexicon, spec) if corner else parts[0])
    return parts[0], parts[1]


def _partition(text: str, lexicon: Lexicon, spec: str) -> tuple[str, ...]:
    alphabet = board_letters(lexicon)
    classes = tuple("".join(sorted(fold_word(c, lexicon.language))) for c in text.split())
    letters = "".join(classes)
    missing = sorted(set(alphabet) - set(letters))
    extra = sorted(set(letters) - set(alphabet))
    twice = sorted({c for c in letters if letters.count(c) > 1})
    for problem, what in (
        (extra, "not in the alphabet"),
        (twice, "in two classes"),
        (missing, "in no class"),
    ):
        if problem:
            raise UserError(f"--classes {spec!r}: {''.join(problem)} {what} ({alphabet})")
    return classes


def board_letters(lexicon: Lexicon) -> str:
    """The letters a cell may hold: the alphabet but its multi-letter tile symbols."""
    language = lexicon.language
    return "".join(sorted(set(language.alphabet) - set(language.symbols)))


def default_classes(lexicon: Lexicon, count: int = 4) -> tuple[str, ...]:
    """The alphabet cut into ``count`` classes of about equal letter frequency in the lexicon's
    words, most frequent letters first (a class of rare letters is soon eliminated)."""
    from lexforge.generate import letter_weights

    weights = letter_weights(lexicon)
    letters = sorted(board_letters(lexicon), key=lambda c: (-weights.get(c, 0.0), c))
    total = sum(weights.get(c, 0.0) for c in letters)
    classes: list[str] = [""]
    seen = 0.0
    for letter in letters:
        if seen >= total * len(classes) / count and len(classes) < count:
            classes.append("")
        classes[-1] += letter
        seen += weights.get(letter, 0.0)
    return tuple("".join(sorted(c)) for c in classes)


class Bounder:
    """The compiled bound and branch-and-bound on one lexicon and board shape."""

    def __init__(self, lexicon: Lexicon, space: Space) -> None:
        self.lexicon = lexicon
        self.space = space
        self.position = _letter_index(lexicon.language.alphabet)
        self.letter_of = {i: c for c, i in self.position.items()}
        self.nbr, self.count = _neighbour_table((space.rows, space.cols), 8)
        self.order = np.array(space.split_order(), dtype=np.int64)

    def masks(self, cells: list[str]) -> np.ndarray:
        """Each cell's letters as a bit mask of graph letters."""
        out = np.zeros(len(cells), dtype=np.uint64)
        for i, letters in enumerate(cells):
            for letter in letters:
                out[i] |= np.uint64(1 << self.position[letter])
        return out

    def letters(self, mask: int) -> str:
        """The letters of a mask, in alphabet order."""
        return "".join(self.letter_of[i] for i in range(64) if mask >> i & 1)

    def bounds(self, classes: list[list[str]]) -> np.ndarray:
        """(max/no-mark, sum/union, orderly tree) bounds of each class (a list of each cell's
        letters)."""
        rows = np.array([self.masks(cells) for cells in classes], dtype=np.uint64)
        return bounds(
            self.lexicon.graph,
            rows.reshape(len(classes), self.space.cells),
            self.nbr,
            self.count,
            POINTS_TABLE,
            self.space.min_length,
            self.order,
        )

    def proof_bounds(self, top: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The bound the proof uses (a single board's score, else the orderly tree's) of each
        class of ``rows`` (masks), all inside the class ``top`` (masks)."""
        return tree_bounds(
            self.lexicon.graph,
            top,
            rows,
            self.nbr,
            self.count,
            POINTS_TABLE,
            self.space.min_length,
            self.order,
        )

    def trees(self, classes: list[list[str]], threshold: int) -> list[np.ndarray]:
        """The branch-and-bound tree of each class: (code, value) rows in preorder."""
        rows = np.array([self.masks(cells) for cells in classes], dtype=np.uint64)
        found = prove(
            self.lexicon.graph,
            rows.reshape(len(classes), self.space.cells),
            self.nbr,
            self.count,
            POINTS_TABLE,
            self.space.min_length,
            self.order,
            threshold,
            MAX_NODES,
        )
        for cells, tree in zip(classes, found, strict=True):
            if tree is None:
                raise UserError(
                    f"class {' '.join(cells)}: more than {MAX_NODES:,} classes at threshold "
                    f"{threshold}: give a higher --threshold"
                )
        return found


def tree_text(tree: np.ndarray) -> str:
    """A tree's rows as the certificate's tokens."""
    out = []
    for code, value in tree.tolist():
        if code == ELIMINATED:
            out.append(f"e{value}")
        elif code == BOARD:
            out.append(f"b{value}")
        else:
            out.append(f"s{code}:{value}")
    return " ".join(out)


def walk_tree(
    bounder: Bounder, cells: list[str], text: str
) -> Iterator[tuple[str, int, np.ndarray]]:
    """Each node of a class's tree: (token kind, recorded value, the class's masks); ValueError
    when the tokens do not make one complete tree of the class."""
    current = bounder.masks(cells)
    tokens = text.split()
    # the splits being visited: (cell, its letters before the split, letters still to visit)
    stack: list[tuple[int, int, list[int]]] = []
    for at, token in enumerate(tokens):
        kind, rest = token[:1], token[1:]
        if kind == "s":
            cell_text, _, value_text = rest.partition(":")
            cell, value = int(cell_text), int(value_text)
            if not 0 <= cell < len(current) or int(current[cell]).bit_count() < 2:
                raise ValueError(f"{token}: cell {cell} has no letters to split")
            yield kind, value, current.copy()
            saved = int(current[cell])
            stack.append((cell, saved, [1 << i for i in range(64) if saved >> i & 1]))
        elif kind in ("e", "b"):
            if kind == "b" and any(int(m).bit_count() != 1 for m in current):
                raise ValueError(f"{token}: the class is more than one board")
            yield kind, int(rest), current.copy()
        else:
            raise ValueError(f"{token!r}: not a tree token")
        while stack and not stack[-1][2]:  # splits whose letters are all visited
            cell, saved, _ = stack.pop()
            current[cell] = np.uint64(saved)
        if not stack:
            if at != len(tokens) - 1:
                raise ValueError("tokens after the end of the tree")
            return
        current[stack[-1][0]] = np.uint64(stack[-1][2].pop(0))
    raise ValueError("the tree ends early")


# --- the proof and its certificate ----------------------------------------------------------

#: Top-level classes handed to a thread at a time.
CHUNK = 16


def code_version() -> str:
    """sha256 of the proof's code (``CODE_FILES``), as the certificate records it."""
    digest = hashlib.sha256()
    for name in CODE_FILES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


def words_sha256(lexicon: Lexicon) -> str:
    """sha256 of the lexicon's words, sorted, one a line (UTF-8): the same for any file or
    format that gives the same words."""
    text = "".join(word + "\n" for word in sorted(lexicon.words.keys()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def canonical_indices(space: Space, lo: int, hi: int) -> list[int]:
    """The top-level classes from ``lo`` to ``hi`` (excluded) that no symmetry maps to a smaller
    one."""
    perms = symmetries(space.rows, space.cols)[1:]
    inverse = [[perm.index(c) for c in range(space.cells)] for perm in perms]
    out = []
    for index in range(lo, hi):
        digits = space.digits(index)
        if all([digits[i] for i in inv] >= digits for inv in inverse):
            out.append(index)
    return out


def run_proof(
    lexicon: Lexicon,
    space: Space,
    threshold: int,
    lo: int = 0,
    hi: int | None = None,
    threads: int | None = None,
) -> dict:
    """Branch-and-bound over top-level classes ``lo`` to ``hi`` (default: all): the
    certificate (a JSON-ready dict, deterministic: no times in it)."""
    from concurrent.futures import ThreadPoolExecutor

    hi = space.top_classes if hi is None else hi
    if not 0 <= lo <= hi <= space.top_classes:
        raise UserError(f"class range {lo}:{hi}: outside 0:{space.top_classes}")
    bounder = Bounder(lexicon, space)
    indices = canonical_indices(space, lo, hi)
    chunks = [indices[at : at + CHUNK] for at in range(0, len(indices), CHUNK)]

    def work(chunk: list[int]) -> list[np.ndarray]:
        return bounder.trees([space.top_class(i) for i in chunk], threshold)

    wanted = threads or len(__import__("os").sched_getaffinity(0))
    with ThreadPoolExecutor(max_workers=max(1, wanted)) as pool:
        trees = [tree for part in pool.map(work, chunks) for tree in part]
    processed = [[index, tree_text(tree)] for index, tree in zip(indices, trees, strict=True)]
    boards = []
    for index, tree in zip(indices, trees, strict=True):
        if (tree[:, 0] == BOARD).any():
            boards += found_boards(bounder, space.top_class(index), tree_text(tree))
    return {
        "format": CERTIFICATE_FORMAT,
        "code_sha256": code_version(),
        "lexicon": lexicon.name,
        "language": lexicon.language.code,
        "words": len(lexicon.words),
        "words_sha256": words_sha256(lexicon),
        "rows": space.rows,
        "cols": space.cols,
        "min_length": space.min_length,
        "adjacency": 8,
        "points": POINTS_TABLE.tolist(),
        "classes": list(space.classes),
        "corner_classes": list(space.corner_classes),
        "split_order": space.split_order(),
        "symmetries": len(symmetries(space.rows, space.cols)),
        "threshold": threshold,
        "top_classes": space.top_classes,
        "range": [lo, hi],
        "processed": processed,
        "boards": sorted(boards, key=lambda b: (-b["score"], b["board"])),
        "stats": tree_stats(processed),
    }


def found_boards(bounder: Bounder, cells: list[str], text: str) -> list[dict]:
    """The single boards of a tree (each scoring at least the threshold)."""
    out = []
    for kind, value, masks in walk_tree(bounder, cells, text):
        if kind == "b":
            out.append({"board": board_text(bounder, masks), "score": value})
    return out


def board_text(bounder: Bounder, masks: np.ndarray) -> str:
    """A single board's letters, row by row, rows joined by ``/``."""
    letters = [bounder.letters(int(m)) for m in masks]
    cols = bounder.space.cols
    return "/".join("".join(letters[r : r + cols]) for r in range(0, len(letters), cols))


def tree_stats(processed: list[list]) -> dict[str, int]:
    """How many classes the trees hold, by outcome."""
    tokens = [token[0] for _, text in processed for token in text.split()]
    return {
        "top_classes_processed": len(processed),
        "classes": len(tokens),
        "split": tokens.count("s"),
        "eliminated": tokens.count("e"),
        "boards_scored": tokens.count("b"),
    }


def space_of(certificate: dict) -> Space:
    return Space(
        certificate["rows"],
        certificate["cols"],
        tuple(certificate["classes"]),
        tuple(certificate["corner_classes"]),
        certificate["min_length"],
    )


@dataclass(frozen=True)
class Verdict:
    """What a checked certificate proves."""

    complete: bool  # its range is every top-level class
    best: dict | None  # the best board at least the threshold, if any
    boards: int  # boards at least the threshold
    classes: int  # classes re-checked
    notes: list[str]


class CertificateError(UserError):
    """A certificate that does not verify."""


def check_certificate(certificate: dict, lexicon: Lexicon, threads: int | None = None) -> Verdict:
    """Re-verify a certificate on ``lexicon``: the words, each listed class's tree (every node's
    bound recomputed, each eliminated class below the threshold, each single board rescored by
    ``lexforge.boggle.score_batch``), and that the trees cover every canonical top-level class of
    the range; CertificateError naming the first problem."""
    from concurrent.futures import ThreadPoolExecutor

    def fail(message: str) -> CertificateError:
        return CertificateError(f"certificate: {message}")

    if certificate.get("format") != CERTIFICATE_FORMAT:
        raise fail(f"format {certificate.get('format')!r}, not {CERTIFICATE_FORMAT}")
    if certificate["words_sha256"] != words_sha256(lexicon):
        raise fail(f"made for other words than lexicon '{lexicon.name}' (words_sha256 differs)")
    if certificate["points"] != POINTS_TABLE.tolist() or certificate["adjacency"] != 8:
        raise fail("other scoring rules than lexforge's Boggle points")
    space = space_of(certificate)
    letters = board_letters(lexicon)
    for partition in (space.classes, space.corner_classes):
        if sorted("".join(partition)) != sorted(letters):
            raise fail(f"classes {' '.join(partition)} are not a partition of {letters}")
    if certificate["split_order"] != space.split_order():
        raise fail("split order differs from lexforge's")
    threshold = int(certificate["threshold"])
    lo, hi = certificate["range"]
    if not 0 <= lo <= hi <= space.top_classes or certificate["top_classes"] != space.top_classes:
        raise fail(f"range {lo}:{hi} outside 0:{space.top_classes}")
    listed = [index for index, _ in certificate["processed"]]
    expected = canonical_indices(space, lo, hi)
    if listed != expected:
        missing = sorted(set(expected) - set(listed))
        extra = sorted(set(listed) - set(expected))
        what = f"class {missing[0]} missing" if missing else f"class {extra[0]} not expected"
        raise fail(f"the classes listed do not cover range {lo}:{hi}: {what}")
    bounder = Bounder(lexicon, space)
    notes = []
    if certificate["code_sha256"] != code_version():
        notes.append("made by another version of the proof code (its bounds are rechecked)")

    def verify(entry: list) -> list[dict]:
        index, text = entry
        try:
            nodes = list(walk_tree(bounder, space.top_class(index), text))
        except ValueError as error:
            raise fail(f"class {index}: {error}") from None
        masks = np.array([m for _, _, m in nodes], dtype=np.uint64)
        top = bounder.masks(space.top_class(index))
        found = bounder.proof_bounds(top, masks.reshape(len(nodes), space.cells))
        boards = []
        for (kind, value, node_masks), bound in zip(nodes, found.tolist(), strict=True):
            if bound != value:
                raise fail(f"class {index}: {kind}{value} but its bound is {bound}")
            if (kind == "e") != (value < threshold):
                raise fail(f"class {index}: {kind}{value} against threshold {threshold}")
            if kind == "b":
                boards.append({"board": board_text(bounder, node_masks), "score": value})
        return boards

    wanted = threads or len(__import__("os").sched_getaffinity(0))
    with ThreadPoolExecutor(max_workers=max(1, wanted)) as pool:
        boards = [b for part in pool.map(verify, certificate["processed"]) for b in part]
    rescored = score_batch(
        lexicon,
        [Grid.from_rows([list(row) for row in b["board"].split("/")]) for b in boards],
        min_length=space.min_length,
    )
    for board, (score, _) in zip(boards, rescored, strict=True):
        if score != board["score"]:
            raise fail(f"board {board['board']}: scores {score}, not {board['score']}")
    boards.sort(key=lambda b: (-b["score"], b["board"]))
    if boards != certificate["boards"]:
        raise fail("its list of boards differs from the boards its trees hold")
    stats = tree_stats(certificate["processed"])
    return Verdict(
        complete=(lo, hi) == (0, space.top_classes),
        best=boards[0] if boards else None,
        boards=len(boards),
        classes=stats["classes"],
        notes=notes,
    )


def merge_certificates(parts: list[dict]) -> dict:
    """Shards' certificates (ranges end to end, all else alike) as one."""
    if not parts:
        raise UserError("no certificates to merge")
    parts = sorted(parts, key=lambda p: p["range"][0])
    varying = ("range", "processed", "boards", "stats")
    fixed = {k: v for k, v in parts[0].items() if k not in varying}
    for before, after in pairwise(parts):
        if before["range"][1] != after["range"][0]:
            raise UserError(
                f"certificates: range {before['range']} is not followed by {after['range']}"
            )
    for part in parts:
        if {k: v for k, v in part.items() if k in fixed} != fixed:
            raise UserError(f"certificate of range {part['range']}: made with other settings")
    processed = [entry for part in parts for entry in part["processed"]]
    boards = sorted(
        (b for part in parts for b in part["boards"]), key=lambda b: (-b["score"], b["board"])
    )
    return {
        **fixed,
        "range": [parts[0]["range"][0], parts[-1]["range"][1]],
        "processed": processed,
        "boards": boards,
        "stats": tree_stats(processed),
    }


def write_certificate(certificate: dict, path: Path) -> None:
    """As JSON, atomically (gzip-compressed, reproducibly, when the name ends in .gz)."""
    import gzip
    import json

    from lexforge.atomic import atomic_open

    data = (json.dumps(certificate, indent=0, separators=(",", ":")) + "\n").encode("utf-8")
    if path.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    with atomic_open(path, "wb") as out:
        out.write(data)


def read_certificate(path: Path) -> dict:
    import gzip
    import json

    try:
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        found = json.loads(data)
    except (OSError, ValueError, EOFError) as error:
        raise UserError(f"certificate {path}: {error}") from None
    if not isinstance(found, dict):
        raise UserError(f"certificate {path}: not a JSON object")
    return found
