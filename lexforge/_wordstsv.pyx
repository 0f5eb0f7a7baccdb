# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The words step's ``words.tsv`` in C. ``words_tsv`` writes it: each word's source bitmask
found by set lookups and the ``WORD<TAB>MASK`` lines made in one pass, where a numpy pass per
source and a Python line per word took 1.5 s for Italian's 3 million words. ``parse_words_tsv``
reads it for the later steps: the words and masks in one pass, where splitting the text into
six million strings took 0.85 s."""

from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
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


def parse_words_tsv(bytes data not None, bint with_masks):
    """The words of a ``words.tsv`` text (``WORD<TAB>MASK`` lines, UTF-8) as ``str``, and with
    ``with_masks`` their masks as native uint64 (a bytearray; else None). ValueError naming the
    line for anything else: a line without its tab, mask or newline, a mask that is not a
    decimal number below 2**64, a word that is not UTF-8."""
    cdef const char* text = PyBytes_AS_STRING(data)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(data), at = 0, start, tab, line = 0
    cdef uint64_t mask, digit
    cdef list words = []
    # A mask per newline: every line that parses ends with one.
    masks = bytearray(data.count(b"\n") * sizeof(uint64_t)) if with_masks else None
    cdef uint64_t* mask_of = <uint64_t*>PyByteArray_AS_STRING(masks) if with_masks else NULL
    while at < size:
        line += 1
        start = at
        while at < size and text[at] != b"\t" and text[at] != b"\n":
            at += 1
        if at == size or text[at] != b"\t":
            raise ValueError(f"not WORD<TAB>MASK lines (line {line})")
        tab = at
        at += 1
        mask = 0
        if at == size or text[at] == b"\n":
            raise ValueError(f"not WORD<TAB>MASK lines (line {line}: no mask)")
        while at < size and text[at] != b"\n":
            digit = <uint64_t>(<unsigned char>text[at]) - 48
            if digit > 9 or mask > (<uint64_t>0xFFFFFFFFFFFFFFFF - digit) // 10:
                raise ValueError(f"line {line}: the mask is not a number below 2**64")
            mask = 10 * mask + digit
            at += 1
        if at == size:
            raise ValueError(f"not WORD<TAB>MASK lines (line {line}: no newline)")
        at += 1
        try:
            words.append(text[start:tab].decode("utf-8"))
        except UnicodeDecodeError as error:
            raise ValueError(f"line {line}: {error}") from None
        if with_masks:
            mask_of[line - 1] = mask
    return words, masks
