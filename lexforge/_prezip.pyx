# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""aspell's compressed word lists (``.cwl.gz`` parts, after gunzip) decoded in C, for the
pipeline's words step: a Python loop over the lines took 0.7 s for French's 630,000.

Each line shares a prefix with the line before it; ``prezip_lines`` rebuilds the lines, each
followed by a newline. The checks that give each malformed stream its message stay in
``lexforge.sources.aspell``, which calls this once they pass."""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy


cdef enum:
    BAD_STREAM = -1  # a length cut off by the end, or 0x00 0x00 (the callers' checks catch both)
    NO_MEMORY = -2


def prezip_lines(bytes data, int version):
    """``(text, 0)``: the lines of a compressed word list of format ``version`` (2: ``0x02``
    then lines; 1: the older ``0x01`` format, whose magic byte is the first line's length), each
    with its newline; or ``(None, n)``: line ``n`` (from 1) shares more bytes than the line
    before it has. ValueError for a length cut off by the end (or a 0x00 length in format 1),
    MemoryError."""
    cdef const unsigned char* at = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t size = len(data)
    cdef Py_ssize_t capacity = 2 * size + 64
    cdef char* text = <char*>malloc(capacity)
    cdef Py_ssize_t status
    if text == NULL:
        raise MemoryError()
    try:
        status = decode(at, size, version, &text, &capacity)
        if status == NO_MEMORY:
            raise MemoryError()
        if status == BAD_STREAM:
            raise ValueError("a line length cut off by the end of the data")
        if status > 0:
            return None, status
        return PyBytes_FromStringAndSize(text, -status), 0
    finally:
        free(text)


cdef Py_ssize_t decode(
    const unsigned char* data, Py_ssize_t size, int version, char** text, Py_ssize_t* capacity
) noexcept nogil:
    """Write the lines into ``text`` (grown as needed): minus their length in bytes (0 or
    less), the number of a line sharing too much, or BAD_STREAM or NO_MEMORY."""
    cdef Py_ssize_t i = 1 if version == 2 else 0
    cdef Py_ssize_t used = 0, previous = 0, previous_size = 0, shared, start, line = 0
    cdef unsigned char first
    cdef unsigned char rest_from = 0x1f if version == 2 else 0x21
    while i < size:
        first = data[i]
        if version == 2:  # 0x00-0x1d, or 0x1e 0xff* n: 30 + 255 per 0xff + n
            i += 1
            shared = first
            if first == 0x1e:
                while i < size and data[i] == 0xff:
                    shared += 255
                    i += 1
                if i == size:
                    return BAD_STREAM
                shared += data[i]
                i += 1
        else:  # length + 1: 0x01-0x20, or 0x00 then any byte
            if first == 0:
                if i + 1 == size or data[i + 1] == 0:
                    return BAD_STREAM
                shared = data[i + 1] - 1
                i += 2
            else:
                shared = first - 1
                i += 1
        line += 1
        if shared > previous_size:
            return line
        start = i
        while i < size and data[i] >= rest_from:
            i += 1
        if used + shared + (i - start) + 1 > capacity[0]:
            if grow(text, capacity, used + shared + (i - start) + 1) < 0:
                return NO_MEMORY
        memcpy(text[0] + used, text[0] + previous, shared)  # the previous line is before it
        memcpy(text[0] + used + shared, data + start, i - start)
        previous = used
        previous_size = shared + (i - start)
        used += previous_size
        text[0][used] = b"\n"
        used += 1
    return -used


cdef int grow(char** text, Py_ssize_t* capacity, Py_ssize_t needed) noexcept nogil:
    cdef Py_ssize_t size = max(2 * capacity[0], needed)
    cdef char* bigger = <char*>realloc(text[0], size)
    if bigger == NULL:
        return -1
    text[0] = bigger
    capacity[0] = size
    return 0
