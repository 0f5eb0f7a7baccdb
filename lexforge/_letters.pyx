# cython: language_level=3, boundscheck=False, wraparound=False
"""Words as rows of letter codes, in C: what the pipeline's letter graphs and anagram keys are
computed from (``lexforge.graph.letter_matrix``; no numpy here: the caller views the bytes), and
the letter table's counts (``letter_tallies``)."""

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.stdlib cimport calloc, free


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
