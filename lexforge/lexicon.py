"""A lexicon as the solver sees it: memory-mapped artifacts of ``build/<name>/``.

``Lexicon.open("fr")`` maps the first ``fr/`` on the search path (``$LEXFORGE_PATH``, the user
data directory, ``./build``: see lexforge.paths); ``Lexicon.open("path/to/dir")`` maps a directory;
``Lexicon.from_words(words, language)`` builds the same structures in memory (for ``-d WORDLIST``
and for tests). Nothing is rebuilt from a built lexicon: the words' trie, the anagram index and
the letter graphs are memory-mapped on first use.
"""

from __future__ import annotations

import json
import mmap
import os
import re
from array import array
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path

from lexforge.errors import UserError, excerpt
from lexforge.language import Language
from lexforge.paths import build_command, find_lexicon_dir

TYPE_CHECKING = False  # typing's constant, without importing typing (a faster start)
if TYPE_CHECKING:
    import marisa_trie
    import numpy as np

ANAGRAM_GRAPH_FILE = "anagram-graph.npy"
ANAGRAM_LINES_FILE = "anagrams.txt"
REQUIRED = ("words.marisa", ANAGRAM_LINES_FILE, "language.json", "manifest.json")
TRIE_FILES = ("words.marisa",)
# Per anagram key id: the byte offset in anagrams.txt of the key's first line; then the length.
ANAGRAM_CLASSES_FILE = "anagram-classes.npy"
WORD_SOURCES_FILE = "word-sources.npy"  # per word id: bitmask of the sources that have it
SOURCE_NAMES_FILE = "sources.json"  # the source names, in bit order
#: Names lexforge._nodecheck's check in certified.json: a new name when the check changes, so
#: that graph versions remembered as passing the old one are checked again.
NODE_CHECK = "nodes1"
# The unsigned dtypes of a .npy header (their repr, quotes included): memoryview code and size.
_NPY_UNSIGNED = {"'|u1'": ("B", 1), "'<u2'": ("H", 2), "'<u4'": ("I", 4), "'<u8'": ("Q", 8)}
#: A version-1 ``.npy`` header as numpy writes one: its dict's keys sorted, each value's repr,
#: spaces and a newline to pad. Read with this rather than ``ast``, whose import took about 5 %
#: of a one-shot rack query.
_NPY_HEADER = re.compile(
    r"\{'descr': (?P<descr>.+), 'fortran_order': (?P<fortran_order>False|True), "
    r"'shape': \((?P<shape>(?:\d+, ?)*\d*)\), \} *\n"
)


def word_trie(words: Iterable[str]) -> marisa_trie.Trie:
    """The trie of ``words`` as a lexicon holds it (``words.marisa``): its nodes in label order,
    so that iterating it gives the words in UTF-8 byte order, which is code-point order."""
    import marisa_trie

    return marisa_trie.Trie(words, order=marisa_trie.LABEL_ORDER)


def anagram_key(word: str) -> str:
    """The anagram-class key of a word: its letters by code point (``ELEPHANT`` → ``AEEHLNPT``)."""
    return "".join(sorted(word))


def anagram_class_offsets(lines: Iterable[str]) -> array:
    """Where each key's lines begin in ``anagrams.txt`` (``lines``: its sorted ``KEY=WORD``
    lines), in bytes, key by key (key id order), then the text's length."""
    offsets = array("Q")
    position = 0
    previous = None
    for line in lines:
        key = line.partition("=")[0]
        if key != previous:
            offsets.append(position)
            previous = key
        position += len(line.encode("utf-8")) + 1
    offsets.append(position)
    return offsets


class Lexicon:
    """Words, anagram index and letter graph of one lexicon, with its language.

    A built lexicon maps each part on first use, its words' trie too: a rack query reads only
    the anagram index, and opening the trie (with importing marisa) took 5 % of one."""

    def __init__(
        self,
        name: str,
        language: Language,
        words: marisa_trie.Trie | None = None,
        path: Path | None = None,
    ) -> None:
        self.name = name
        self.language = language
        self.path = path
        if words is not None:
            self.words = words  # else the ``words`` property maps the trie of ``path``

    @classmethod
    def open(cls, spec: str | Path) -> Lexicon:
        """Open a built lexicon by name (first on the search path, see lexforge.paths) or by
        directory path."""
        found = find_lexicon_dir(spec)
        # A built lexicon is a link to its current version (pipeline.live): follow it once, so
        # every file is read from one version even if a rebuild swaps the link meanwhile.
        path = found.parent / os.readlink(found) if found.is_symlink() else found
        missing = [name for name in REQUIRED if not (path / name).is_file()]
        if missing:
            raise UserError(
                f"{path}: incomplete lexicon (missing {', '.join(missing)}); "
                f"rebuild it with: {build_command(found.name)}"
            )
        return cls(found.name, Language.from_lexicon(path / "language.json"), path=path)

    @cached_property
    def words(self) -> marisa_trie.Trie:
        """The words' trie: ``words.marisa`` of a built lexicon, mapped once it is found to
        have the manifest's sha256 (marisa reads a trie with a changed byte without complaint,
        and may answer otherwise)."""
        import marisa_trie

        from lexforge.verify import changed_since_certified

        assert self.path is not None
        damaged = changed_since_certified(self.path, TRIE_FILES)
        if damaged:
            raise UserError(
                f"{self.path / damaged[0]}: damaged trie (differs from manifest.json); rebuild "
                f"it with: {build_command(self.name)}"
            )
        words = marisa_trie.Trie()
        try:
            words.mmap(str(self.path / "words.marisa"))
        except Exception as error:  # marisa raises plain RuntimeError/Exception on bad files
            raise UserError(
                f"{self.path}: corrupted trie ({error}); check it with: lexforge verify"
            ) from None
        return words

    @classmethod
    def from_words(cls, words: Iterable[str], language: Language, name: str = "memory") -> Lexicon:
        """Build an in-memory lexicon from already-normalized words."""
        return cls(name, language, word_trie(sorted(set(words))))

    @cached_property
    def graph(self) -> np.ndarray:
        """The node-array letter graph (see lexforge.graph), mapped from disk or built in memory."""
        from lexforge import graph

        if self.path is not None and (self.path / graph.GRAPH_FILE).is_file():
            nodes = graph.load_graph(self.path / graph.GRAPH_FILE)
            self._certify(nodes.view("<u8"), graph.GRAPH_FILE, len(self.words))
            return nodes
        return graph.build_graph(self.words, self.language.alphabet)

    @cached_property
    def anagram_nodes(self) -> memoryview:
        """The letter graph of anagram keys, as 64-bit words: node n is ``[2n]`` = child mask,
        ``[2n + 1]`` = first child (low 32 bits) and key id (high 32 bits, all ones if none).

        Read from ``anagram-graph.npy`` through ``mmap`` without importing numpy, which would
        cost more than a whole one-shot anagram query.
        """
        if self.path is not None and (self.path / ANAGRAM_GRAPH_FILE).is_file():
            nodes = map_node_array(self.path / ANAGRAM_GRAPH_FILE)
            return self._certify(nodes, ANAGRAM_GRAPH_FILE, -1)
        from lexforge import graph

        keys = sorted({anagram_key(word) for word in self.words.iterkeys()})
        ids = dict(zip(keys, range(len(keys)), strict=True))  # key ids in key order
        return node_words(graph.build_graph(ids, self.language.alphabet))

    @cached_property
    def anagram_classes(self) -> tuple[memoryview, bytes | mmap.mmap]:
        """The words of each anagram key: ``text[offsets[k]:offsets[k + 1]]`` are the
        ``KEY=WORD`` lines of key id ``k`` (see ``anagram_nodes``), as ``(offsets, text)``.

        Mapped from ``anagram-classes.npy`` and ``anagrams.txt`` (both checked against the
        manifest once per file version, as the tries are), or built in memory."""
        files = (ANAGRAM_CLASSES_FILE, ANAGRAM_LINES_FILE)
        if self.path is None or not all((self.path / name).is_file() for name in files):
            lines = sorted(f"{anagram_key(word)}={word}" for word in self.words.iterkeys())
            text = "".join(line + "\n" for line in lines).encode("utf-8")
            return memoryview(anagram_class_offsets(lines)), text
        from lexforge.verify import changed_since_certified

        damaged = changed_since_certified(self.path, files)
        offsets = map_vector(self.path / ANAGRAM_CLASSES_FILE)
        text = _map_bytes(self.path / ANAGRAM_LINES_FILE)
        if damaged or offsets.format != "Q" or not offsets or offsets[-1] > len(text):
            name = damaged[0] if damaged else ANAGRAM_CLASSES_FILE
            raise UserError(
                f"{self.path / name}: damaged anagram index (differs from manifest.json or "
                f"from {ANAGRAM_LINES_FILE}); rebuild it with: {build_command(self.name)}"
            )
        return offsets, text

    def anagram_words(self, key: str) -> list[str]:
        """The words whose anagram key (``anagram_key``) is ``key``, in code-point order: the
        ``KEY=WORD`` lines of the anagram index that start with ``key=``, found by bisection."""
        _, text = self.anagram_classes  # checked against the manifest, as the rack search reads it
        prefix = f"{key}=".encode()
        start = end = _first_line_at_least(text, prefix)
        while text[end : end + len(prefix)] == prefix:
            newline = text.find(b"\n", end)
            end = len(text) if newline < 0 else newline + 1
        lines = bytes(text[start:end]).decode("utf-8").split("\n")[:-1]
        return [line[len(key) + 1 :] for line in lines]

    @cached_property
    def word_nodes(self) -> memoryview:
        """The words' letter graph (``graph``) in the layout of ``anagram_nodes``, for walks in
        plain Python (the Scrabble move generator)."""
        from lexforge import graph

        if self.path is not None and (self.path / graph.GRAPH_FILE).is_file():
            nodes = map_node_array(self.path / graph.GRAPH_FILE)
            return self._certify(nodes, graph.GRAPH_FILE, len(self.words))
        return node_words(self.graph)

    def _certify(self, nodes: memoryview | np.ndarray, name: str, n_ids: int) -> memoryview:
        """``nodes`` (64-bit words), the graph mapped from file ``name``, if it is sound for this
        lexicon's words (``n_ids`` of them; -1: any number) and alphabet (see
        ``lexforge._nodecheck``) and has the manifest's sha256; UserError otherwise.

        Both are checked once per file version and per check inputs (``n_ids``, the alphabet's
        size), then remembered (lexforge.verify.changed_since_certified): the check reads every
        node, which took about a tenth of a one-shot rack query. A graph damaged after its
        check (a bit flipped on the disk) cannot lead a search outside it: every compiled
        search bounds the child indices it follows."""
        from lexforge.verify import changed_since_certified

        assert self.path is not None
        path = self.path / name
        advice = "rebuild the lexicon (lexforge verify names the step)"

        letters = len(set(self.language.alphabet))

        def check(_: Path) -> None:
            from lexforge._nodecheck import check_nodes

            problem = check_nodes(nodes, n_ids, letters)
            if problem is not None:
                raise UserError(f"{path}: damaged letter graph ({problem}); {advice}")

        check_id = f"{NODE_CHECK}:{n_ids}:{letters}"
        if changed_since_certified(self.path, (name,), check, check_id):
            raise UserError(f"{path}: damaged letter graph (differs from manifest.json); {advice}")
        return nodes

    def sources_of(self, word: str) -> list[str] | None:
        """The names of the sources that have ``word`` (a lexicon word), from
        ``word-sources.npy`` and ``sources.json``; None for a lexicon without them."""
        if self.path is None or not (self.path / WORD_SOURCES_FILE).is_file():
            return None
        masks, names = self._word_sources
        mask = masks[self.words[word]]
        return [name for bit, name in enumerate(names) if mask >> bit & 1]

    @cached_property
    def _word_sources(self) -> tuple[memoryview, list[str]]:
        """Each word's source mask and the source names, both as ``manifest.json`` certifies
        them: a changed byte in either would name other sources without any error, so they are
        hashed (a few milliseconds; only ``lexforge check`` reads them)."""
        from lexforge.verify import uncertified

        assert self.path is not None
        damaged = uncertified(self.path, (WORD_SOURCES_FILE, SOURCE_NAMES_FILE))
        masks = map_vector(self.path / WORD_SOURCES_FILE)
        try:
            if damaged:
                raise ValueError(f"{damaged[0]} differs from manifest.json")
            names = json.loads((self.path / SOURCE_NAMES_FILE).read_bytes())
            if len(masks) != len(self.words) or not all(isinstance(n, str) for n in names):
                raise ValueError("not one entry per word, or names that are not strings")
        except (OSError, ValueError, TypeError) as error:
            raise UserError(
                f"{self.path}: damaged word sources ({excerpt(str(error))}); "
                "check it with: lexforge verify"
            ) from None
        return masks, names

    def sorted_words(self, prefix: str = "") -> Iterator[str]:
        """The words starting with ``prefix``, in code-point order, one at a time: read from
        ``words.txt`` (sorted, memory-mapped; the prefix found by bisection) when built."""
        if self.path is None or not (self.path / "words.txt").is_file():
            yield from sorted(self.words.iterkeys(prefix))
            return
        key = prefix.encode("utf-8")  # UTF-8 byte order is code-point order
        with open(self.path / "words.txt", "rb") as file:
            if file.seek(0, 2) == 0:
                return
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as text:
                text.seek(_first_line_at_least(text, key))
                while (line := text.readline()).startswith(key) and line:
                    yield line.rstrip(b"\n").decode("utf-8")

    def pattern_rows(
        self, pattern: bytes, prefix: str, values: array, chunk: int = 8192
    ) -> Iterator[list[tuple[str, str, int]]]:
        """The words matching a crossword ``pattern`` (UTF-8 bytes, ``?`` and ``*`` wild: see
        lexforge._pattern) that start with ``prefix`` (its literal prefix), in code-point order,
        as lists of up to ``chunk`` rows ``(word, word, score)``, the score summed from
        ``values`` (by code point). Scanned by compiled code over ``words.txt`` (as grep does)
        when built, else over the words of the trie with that prefix."""
        from lexforge._pattern import match_lines

        key = prefix.encode("utf-8")

        def scan(text: bytes | mmap.mmap, start: int) -> Iterator[list[tuple[str, str, int]]]:
            while start >= 0:
                rows, start = match_lines(text, start, pattern, len(key), values, chunk)
                if rows:
                    yield rows

        if self.path is None or not (self.path / "words.txt").is_file():
            yield from scan("".join(w + "\n" for w in self.sorted_words(prefix)).encode(), 0)
            return
        with open(self.path / "words.txt", "rb") as file:
            if file.seek(0, 2) == 0:
                return
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as text:
                yield from scan(text, _first_line_at_least(text, key))

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def __len__(self) -> int:
        return len(self.words)


NODE_DESCR = [("mask", "<u8"), ("first", "<i4"), ("word", "<i4")]


def _first_line_at_least(text: bytes | mmap.mmap, key: bytes) -> int:
    """The offset of the first line of the sorted ``text`` that is not less than ``key``."""
    low, high = 0, len(text)  # the answer is a line start in [low, high]
    while low < high:
        middle = (low + high) // 2
        start = text.rfind(b"\n", 0, middle) + 1  # the line holding byte ``middle``
        end = text.find(b"\n", start)
        end = len(text) if end < 0 else end
        if text[start:end] < key:
            low = end + 1
        else:
            high = start
    return low


def node_words(nodes: np.ndarray) -> memoryview:
    """A node array (lexforge.graph layout) in memory as 64-bit words, like ``map_node_array``."""
    return memoryview(nodes.view("<u8").ravel()).cast("B").cast("Q")


def _map_npy(path: Path) -> tuple[str, bool, tuple[int, ...], memoryview]:
    """The dtype (its repr, as the header holds it), Fortran order and shape of a version-1
    ``.npy`` file, and its data, mapped, without numpy."""
    with open(path, "rb") as handle:
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    if mapped[:6] != b"\x93NUMPY" or mapped[6] != 1:
        raise ValueError("not a version-1 .npy file")
    header_length = int.from_bytes(mapped[8:10], "little")
    header = _NPY_HEADER.fullmatch(mapped[10 : 10 + header_length].decode("latin-1"))
    if header is None:
        raise ValueError("unreadable .npy header")
    shape = tuple(int(side) for side in header["shape"].split(",") if side.strip())
    data = memoryview(mapped)[10 + header_length :]
    return header["descr"], header["fortran_order"] == "True", shape, data


def map_vector(path: Path) -> memoryview:
    """Memory-map a one-dimensional ``.npy`` array of unsigned integers, without numpy."""
    try:
        descr, _, shape, data = _map_npy(path)
        if descr not in _NPY_UNSIGNED:
            raise ValueError(f"unexpected dtype {descr}")
        code, size = _NPY_UNSIGNED[descr]
        if len(shape) != 1 or len(data) != size * shape[0]:
            raise ValueError("unexpected shape or size")
    except (OSError, ValueError, IndexError) as error:
        raise UserError(
            f"{path}: corrupted array ({excerpt(str(error))}); check it with: lexforge verify"
        ) from None
    return data.cast(code)


def _map_bytes(path: Path) -> bytes | mmap.mmap:
    """A whole file, memory-mapped (an empty file cannot be mapped: its empty bytes)."""
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            return b""
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def map_node_array(path: Path) -> memoryview:
    """Memory-map a ``.npy`` node array (lexforge.graph layout) as 64-bit words, without numpy."""
    try:
        descr, fortran_order, shape, data = _map_npy(path)
        if descr != repr(NODE_DESCR) or fortran_order or len(shape) != 1:
            raise ValueError(f"unexpected layout {descr}")
        if len(data) != 16 * shape[0]:
            raise ValueError("truncated")
    except (OSError, ValueError, IndexError) as error:
        raise UserError(
            f"{path}: corrupted node array ({excerpt(str(error))}); check it with: lexforge verify"
        ) from None
    return data.cast("Q")
