"""The node-array letter graph: a trie of all words as one flat numpy array (``graph.npy``).

The compiled Boggle and Ruzzle searches walk this array instead of the marisa trie: one node is
one 16-byte record, so a whole lexicon is a single ``.npy`` file that ``load_graph`` maps with
``numpy.load(mmap_mode="r")`` (nothing is rebuilt or copied when a lexicon is opened).

Layout (structured dtype ``NODE_DTYPE``, little-endian, one record per trie node)::

    mask   uint64  bit i set ⇔ the node has a child for letter i
    first  int32   index of the node's first child (0 for a leaf)
    word   int32   marisa key id of the word ending here (``words[word]``), -1 if none

* Letter i is the i-th letter of ``sorted(alphabet)`` (code-point order; the alphabet has at
  most 64 letters, so one mask word covers it).
* The children of a node are contiguous and ordered by letter: the child for letter i is
  ``first + popcount(mask & ((1 << i) - 1))``.
* Node 0 is the root (the empty prefix). Nodes are numbered breadth-first, level by level, and
  within a level in code-point order of their prefixes. Two consequences the searches use:
  every node at depth d has a smaller index than every node at depth d + 1, and words of equal
  length sort alphabetically exactly as their end nodes sort by index, so "longest first, then
  alphabetical" (Worddle order) is a sort on ``(−length, node)`` with no string comparison.

The array depends only on the set of words, their marisa ids and the alphabet: the same inputs
give a byte-identical file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import marisa_trie
import numpy as np

from lexforge.errors import UserError

GRAPH_FILE = "graph.npy"
ROOT = 0
NODE_DTYPE = np.dtype([("mask", "<u8"), ("first", "<i4"), ("word", "<i4")])
MAX_LETTERS = 64


def graph_letters(alphabet: str) -> str:
    """The graph's letter order: the alphabet's distinct letters in code-point order."""
    letters = "".join(sorted(set(alphabet)))
    if len(letters) > MAX_LETTERS:
        raise ValueError(f"alphabet has {len(letters)} letters; the letter graph holds at most 64")
    return letters


def build_graph(words: marisa_trie.Trie | Mapping[str, int], alphabet: str) -> np.ndarray:
    """Build the read-only node array of ``words`` (see the module docstring for the layout).

    ``words`` is a marisa trie (word ids are its key ids) or any mapping word → id ≥ 0.
    Raises ValueError if a word holds a letter outside ``alphabet``.
    """
    items = sorted(words.items())  # (word, marisa id) in code-point order
    keys = [key for key, _ in items]
    ids = np.fromiter((key_id for _, key_id in items), dtype=np.int32, count=len(items))
    return build_sorted_graph(keys, ids, alphabet)


def build_sorted_graph(keys: list[str], ids: np.ndarray, alphabet: str) -> np.ndarray:
    """``build_graph`` of distinct ``keys`` already in code-point order, ``ids[i]`` the id of
    ``keys[i]``: what the pipeline calls, with no mapping or sort of millions of pairs."""
    width = max(map(len, keys), default=0)
    return graph_of_codes(letter_matrix(keys, graph_letters(alphabet), width + 1), ids)


def graph_of_codes(matrix: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``build_sorted_graph`` of keys given as a one-byte letter-code matrix (``letter_matrix``
    of the graph's letters), built in C in two passes over the rows
    (``lexforge._letters.graph_nodes``)."""
    from lexforge._letters import graph_nodes

    records = graph_nodes(
        np.ascontiguousarray(matrix, dtype=np.uint8), ids.astype(np.int32, copy=False)
    )
    graph = np.frombuffer(records, dtype=NODE_DTYPE)
    graph.flags.writeable = False
    return graph


def letter_matrix(keys: list[str], letters: Sequence[str], width: int) -> np.ndarray:
    """A read-only ``len(keys)`` × ``width`` matrix: row i holds the code (index in ``letters``
    + 1) of each character of ``keys[i]``, then zeros; one byte a code for up to 254 letters,
    else four. ValueError on a character not in ``letters`` (or a key longer than ``width``)."""
    from lexforge._letters import letter_codes

    wide = len(letters) >= 255
    codes = letter_codes(keys, "".join(letters), width, wide)
    matrix = np.frombuffer(codes, dtype=np.uint32 if wide else np.uint8).reshape(len(keys), width)
    matrix.flags.writeable = False
    return matrix


def load_graph(path: str | Path) -> np.ndarray:
    """Map a saved letter graph read-only; UserError if the file is not one."""
    try:
        graph = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: unreadable letter graph ({error}); rebuild the lexicon") from None
    if graph.dtype != NODE_DTYPE or graph.ndim != 1 or len(graph) == 0:
        raise UserError(f"{path}: not a lexforge letter graph; rebuild the lexicon")
    return graph


def graph_words(graph: np.ndarray, alphabet: str) -> dict[str, int]:
    """Every word of the graph with its word id, by walking it (for checks and tests)."""
    letters = graph_letters(alphabet)
    found: dict[str, int] = {}
    stack = [(ROOT, "")]
    while stack:
        node, prefix = stack.pop()
        mask, first, word = (int(graph[field][node]) for field in ("mask", "first", "word"))
        if word >= 0:
            found[prefix] = word
        child = first
        for index, letter in enumerate(letters):
            if mask >> index & 1:
                stack.append((child, prefix + letter))
                child += 1
    return found
