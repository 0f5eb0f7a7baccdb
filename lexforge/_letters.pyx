# cython: language_level=3, boundscheck=False, wraparound=False
"""Words as rows of letter codes, in C: what the pipeline's letter graphs and anagram keys are
computed from (``lexforge.graph.letter_matrix``; no numpy here: the caller views the bytes), the
letter graph's nodes built from them (``graph_nodes``) and the letter table's counts
(``letter_tallies``)."""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from lexforge._graph cimport Node


cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)


@cython.final
cdef class _CodeTable:
    """Code point → its letter's index in ``letters`` + 1."""
    cdef uint32_t *table
    cdef Py_ssize_t size
    cdef str letters

    def __cinit__(self, str letters):
        self.letters = letters
        self.size = max([ord(letter) for letter in letters], default=0) + 1
        self.table = <uint32_t *>calloc(self.size, sizeof(uint32_t))
        if self.table == NULL:
            raise MemoryError()
        for i, letter in enumerate(letters, start=1):
            self.table[ord(letter)] = i

    def __dealloc__(self):
        free(self.table)

    cdef inline uint32_t code(self, object word, Py_ssize_t code_point) except 0:
        """The code of character ``code_point`` of ``word``; ValueError if not a letter."""
        cdef uint32_t code = self.table[code_point] if code_point < self.size else 0
        if code == 0:
            raise ValueError(
                f"word {word!r} has letter {chr(code_point)!r}, not in the alphabet {self.letters!r}"
            )
        return code


def letter_codes(list keys, str letters, Py_ssize_t width, bint wide):
    """``len(keys) × width`` codes, row by row: the code of each character of ``keys[i]`` (its
    index in ``letters`` + 1), then zeros; one byte a code, four (native order) if ``wide``.
    ValueError on a character not in ``letters`` or a key longer than ``width``."""
    cdef Py_ssize_t n_keys = len(keys), row, i, n
    cdef Py_ssize_t item = 4 if wide else 1
    cdef _CodeTable table = _CodeTable(letters)
    cdef uint32_t code
    cdef bytearray matrix = bytearray(n_keys * width * item)
    cdef uint8_t *narrow = matrix
    cdef uint32_t *codes = <uint32_t *>narrow
    cdef int kind
    cdef void *data
    cdef object key
    for row in range(n_keys):
        key = keys[row]
        n = PyUnicode_GET_LENGTH(key)
        if n > width:
            raise ValueError(f"word {key!r} is longer than {width} letters")
        kind = PyUnicode_KIND(key)
        data = PyUnicode_DATA(key)
        for i in range(n):
            code = table.code(key, PyUnicode_READ(kind, data, i))
            if wide:
                codes[row * width + i] = code
            else:
                narrow[row * width + i] = <uint8_t>code
    return matrix


def letter_tallies(list words, str letters):
    """Per letter of ``letters``, in order: its occurrences in ``words``, the words holding it
    and the words it begins, as three lists (the letter table's counts, in one pass). ValueError
    on a character not in ``letters``."""
    cdef Py_ssize_t n_letters = len(letters), row, i
    cdef _CodeTable table = _CodeTable(letters)
    # per code (index + 1): occurrences, words holding it, words it begins, last row counted
    cdef int64_t *tallies = <int64_t *>calloc(4 * (n_letters + 1), sizeof(int64_t))
    cdef int64_t *occurrences = tallies
    cdef int64_t *containing = tallies + (n_letters + 1)
    cdef int64_t *initial = tallies + 2 * (n_letters + 1)
    cdef int64_t *last_row = tallies + 3 * (n_letters + 1)
    cdef uint32_t code
    cdef int kind
    cdef void *data
    cdef object word
    if tallies == NULL:
        raise MemoryError()
    try:
        for code in range(n_letters + 1):
            last_row[code] = -1
        for row in range(len(words)):
            word = words[row]
            kind = PyUnicode_KIND(word)
            data = PyUnicode_DATA(word)
            for i in range(PyUnicode_GET_LENGTH(word)):
                code = table.code(word, PyUnicode_READ(kind, data, i))
                occurrences[code] += 1
                if last_row[code] != row:
                    last_row[code] = row
                    containing[code] += 1
                if i == 0:
                    initial[code] += 1
        return (
            [occurrences[code] for code in range(1, n_letters + 1)],
            [containing[code] for code in range(1, n_letters + 1)],
            [initial[code] for code in range(1, n_letters + 1)],
        )
    finally:
        free(tallies)


def graph_nodes(const uint8_t[:, ::1] matrix not None, const int32_t[::1] ids not None):
    """The letter graph's node records (``lexforge.graph.NODE_DTYPE``, as bytes) of distinct
    keys in code-point order given as rows of letter codes (``matrix``: codes 1 to 64, rows
    padded with 0), ``ids[i]`` the word id of row i.

    Two passes: the first counts the new nodes at each depth (a row's prefixes longer than the
    prefix it shares with the row before), which gives where each level starts; the second
    numbers each level's nodes in row order and links them to their parents."""
    cdef Py_ssize_t n = matrix.shape[0], width = matrix.shape[1], i, d, length, shared
    cdef Py_ssize_t previous_length = 0, total = 1
    cdef int64_t* lengths = <int64_t*>calloc(max(n, 1), sizeof(int64_t))
    cdef int64_t* common = <int64_t*>calloc(max(n, 1), sizeof(int64_t))
    cdef int64_t* next_node = <int64_t*>calloc(width + 2, sizeof(int64_t))  # per depth
    cdef int64_t* path = <int64_t*>calloc(width + 2, sizeof(int64_t))  # the row's nodes
    cdef int64_t node, parent, bad_row = -1
    cdef uint8_t code
    cdef Node* nodes
    try:
        if lengths == NULL or common == NULL or next_node == NULL or path == NULL:
            raise MemoryError()
        if ids.shape[0] != n:
            raise ValueError(f"{n} rows but {ids.shape[0]} ids")
        with nogil:
            for i in range(n):
                length = 0
                while length < width and matrix[i, length] != 0:
                    if matrix[i, length] > 64:
                        bad_row = i
                    length += 1
                shared = 0
                if i > 0:
                    while (
                        shared < length and shared < previous_length
                        and matrix[i, shared] == matrix[i - 1, shared]
                    ):
                        shared += 1
                    if shared == length or (  # equal to the row before, its prefix, or less
                        shared < previous_length and matrix[i, shared] < matrix[i - 1, shared]
                    ):
                        bad_row = i
                lengths[i], common[i] = length, shared
                for d in range(shared + 1, length + 1):
                    next_node[d] += 1
                previous_length = length
        if bad_row >= 0:
            raise ValueError(f"row {bad_row}: a code beyond 64, or not after the row before")
        for d in range(1, width + 1):  # counts become each level's first node
            total, next_node[d] = total + next_node[d], total
        records = bytearray(total * sizeof(Node))
        nodes = <Node*><char*>records
        with nogil:
            for node in range(total):
                nodes[node].word = -1
            for i in range(n):
                for d in range(common[i] + 1, lengths[i] + 1):
                    node = next_node[d]
                    next_node[d] += 1
                    path[d] = node
                    parent = path[d - 1]
                    code = matrix[i, d - 1]
                    nodes[parent].mask |= (<uint64_t>1) << (code - 1)
                    if nodes[parent].first == 0:
                        nodes[parent].first = <int32_t>node
                nodes[path[lengths[i]]].word = ids[i]
        return records
    finally:
        free(lengths)
        free(common)
        free(next_node)
        free(path)
