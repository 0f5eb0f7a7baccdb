# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The words step's ``words.tsv`` in C (``words_tsv``): each word's source bitmask found by set
lookups and the ``WORD<TAB>MASK`` lines written in one pass, where a numpy pass per source and
a Python line per word took 1.5 s for Italian's 3 million words."""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.ref cimport PyObject
from cpython.set cimport PySet_Contains
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy


cdef extern from "Python.h":
    bint PyUnicode_CheckExact(object o)
    bint PySet_CheckExact(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    int PyUnicode_1BYTE_KIND
    bint PyUnicode_IS_ASCII(object text)
    uint8_t* PyUnicode_1BYTE_DATA(object text)
    object PyUnicode_AsUTF8String(object text)
    object PyBytes_FromStringAndSize(const char* data, Py_ssize_t size)


cdef struct Buffer:
    char* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int reserve(Buffer* buffer, Py_ssize_t more) except -1:
    """Room for ``more`` bytes after ``buffer.size``."""
    cdef Py_ssize_t capacity
    cdef char* bigger
    if buffer.size + more <= buffer.capacity:
        return 0
    capacity = max(2 * buffer.capacity, buffer.size + more)
    bigger = <char*>realloc(buffer.data, capacity)
    if bigger == NULL:
        raise MemoryError()
    buffer.data = bigger
    buffer.capacity = capacity
    return 0


cdef int add_word(Buffer* buffer, object word) except -1:
    """Append ``word`` in UTF-8: copied where ASCII, encoded here where Latin-1, by Python
    beyond (which refuses lone surrogates, as the text file it replaces did)."""
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(word), i
    cdef const uint8_t* chars
    cdef uint8_t char
    cdef char* out
    cdef bytes encoded
    if PyUnicode_IS_ASCII(word):
        reserve(buffer, length)
        memcpy(buffer.data + buffer.size, PyUnicode_1BYTE_DATA(word), length)
        buffer.size += length
    elif PyUnicode_KIND(word) == PyUnicode_1BYTE_KIND:
        reserve(buffer, 2 * length)
        chars = PyUnicode_1BYTE_DATA(word)
        out = buffer.data + buffer.size
        for i in range(length):
            char = chars[i]
            if char < 0x80:
                out[0] = <char>char
                out += 1
            else:
                out[0] = <char>(0xC0 | (char >> 6))
                out[1] = <char>(0x80 | (char & 0x3F))
                out += 2
        buffer.size = out - buffer.data
    else:
        encoded = PyUnicode_AsUTF8String(word)
        reserve(buffer, PyBytes_GET_SIZE(encoded))
        memcpy(buffer.data + buffer.size, PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded))
        buffer.size += PyBytes_GET_SIZE(encoded)
    return 0


cdef int add_mask(Buffer* buffer, uint64_t mask) except -1:
    """Append ``<TAB>mask<LF>``, the mask in decimal."""
    cdef char digits[20]
    cdef int count = 0
    reserve(buffer, 22)
    buffer.data[buffer.size] = b"\t"
    buffer.size += 1
    while True:
        digits[count] = <char>(48 + mask % 10)  # "0" + the last digit
        count += 1
        mask //= 10
        if mask == 0:
            break
    while count:
        count -= 1
        buffer.data[buffer.size] = digits[count]
        buffer.size += 1
    buffer.data[buffer.size] = b"\n"
    buffer.size += 1
    return 0


def words_tsv(list words not None, list sources not None):
    """The UTF-8 text of ``words.tsv``: per word of ``words`` (``str``), a ``WORD<TAB>MASK``
    line, MASK in decimal with bit i set when the i-th of ``sources`` (sets, at most 64) holds
    the word."""
    cdef Py_ssize_t n_sources = len(sources), i, s
    cdef uint64_t mask
    cdef Buffer buffer
    cdef object word
    if n_sources > 64:
        raise ValueError(f"{n_sources} sources: a bitmask holds 64 at most")
    for source in sources:
        if not PySet_CheckExact(source):
            raise TypeError(f"sources must be sets, not {type(source).__name__}")
    buffer.size = 0
    buffer.capacity = 16 * len(words) + 64
    buffer.data = <char*>malloc(buffer.capacity)
    if buffer.data == NULL:
        raise MemoryError()
    try:
        for i in range(len(words)):
            word = words[i]
            if not PyUnicode_CheckExact(word):
                raise TypeError(f"word {i} is a {type(word).__name__}, not a str")
            mask = 0
            for s in range(n_sources):
                if PySet_Contains(sources[s], word):
                    mask |= (<uint64_t>1) << s
            add_word(&buffer, word)
            add_mask(&buffer, mask)
        return PyBytes_FromStringAndSize(buffer.data, buffer.size)
    finally:
        free(buffer.data)
