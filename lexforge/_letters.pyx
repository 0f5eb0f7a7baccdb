# cython: language_level=3, boundscheck=False, wraparound=False
"""Words as rows of letter codes, in C: what the pipeline's letter graphs and anagram keys are
computed from (``lexforge.graph.letter_matrix``; no numpy here: the caller views the bytes), and
the letter table's counts (``letter_tallies``)."""

from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.stdlib cimport calloc, free


cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)


def letter_codes(list keys, str letters, Py_ssize_t width, bint wide):
    """``len(keys) × width`` codes, row by row: the code of each character of ``keys[i]`` (its
    index in ``letters`` + 1), then zeros; one byte a code, four (native order) if ``wide``.
    ValueError on a character not in ``letters`` or a key longer than ``width``."""
    cdef Py_ssize_t n_keys = len(keys), row, i, n, code_point
    cdef Py_ssize_t table_size = max([ord(letter) for letter in letters], default=0) + 1
    cdef Py_ssize_t item = 4 if wide else 1
    cdef uint32_t *table = <uint32_t *>calloc(table_size, sizeof(uint32_t))
    cdef uint32_t code
    cdef bytearray matrix = bytearray(n_keys * width * item)
    cdef uint8_t *narrow = matrix
    cdef uint32_t *codes = <uint32_t *>narrow
    cdef int kind
    cdef void *data
    cdef object key
    if table == NULL:
        raise MemoryError()
    try:
        for i, letter in enumerate(letters, start=1):
            table[ord(letter)] = i
        for row in range(n_keys):
            key = keys[row]
            n = PyUnicode_GET_LENGTH(key)
            if n > width:
                raise ValueError(f"word {key!r} is longer than {width} letters")
            kind = PyUnicode_KIND(key)
            data = PyUnicode_DATA(key)
            for i in range(n):
                code_point = PyUnicode_READ(kind, data, i)
                code = table[code_point] if code_point < table_size else 0
                if code == 0:
                    raise ValueError(
                        f"word {key!r} has letter {chr(code_point)!r}, not in the alphabet {letters!r}"
                    )
                if wide:
                    codes[row * width + i] = code
                else:
                    narrow[row * width + i] = <uint8_t>code
    finally:
        free(table)
    return matrix


def letter_tallies(list words, str letters):
    """Per letter of ``letters``, in order: its occurrences in ``words``, the words holding it
    and the words it begins, as three lists (the letter table's counts, in one pass). ValueError
    on a character not in ``letters``."""
    cdef Py_ssize_t n_letters = len(letters), row, i, n, code_point
    cdef Py_ssize_t table_size = max([ord(letter) for letter in letters], default=0) + 1
    cdef uint32_t *table = <uint32_t *>calloc(table_size, sizeof(uint32_t))
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
    if table == NULL or tallies == NULL:
        free(table)
        free(tallies)
        raise MemoryError()
    try:
        for i, letter in enumerate(letters, start=1):
            table[ord(letter)] = i
        for code in range(n_letters + 1):
            last_row[code] = -1
        for row in range(len(words)):
            word = words[row]
            n = PyUnicode_GET_LENGTH(word)
            kind = PyUnicode_KIND(word)
            data = PyUnicode_DATA(word)
            for i in range(n):
                code_point = PyUnicode_READ(kind, data, i)
                code = table[code_point] if code_point < table_size else 0
                if code == 0:
                    raise ValueError(
                        f"word {word!r} has letter {chr(code_point)!r}, not in the alphabet {letters!r}"
                    )
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
        free(table)
        free(tallies)
