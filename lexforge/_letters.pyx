# cython: language_level=3, boundscheck=False, wraparound=False
"""Words as rows of letter codes, in C: what the pipeline's letter graphs, anagram keys and
letter tables are computed from (``lexforge.graph.letter_matrix``). No numpy here: the caller
views the bytes."""

from libc.stdint cimport uint8_t, uint32_t
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
