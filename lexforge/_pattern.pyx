# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled scan behind ``lexforge pattern``: the lines of a sorted word file (``words.txt``,
UTF-8, one word a line) that match a crossword pattern, as grep would find them.

A pattern is UTF-8 bytes where ``?`` stands for one letter (one UTF-8 sequence) and ``*`` for
any run of letters; every other byte stands for itself. Matching is the classic wildcard
algorithm (literal bytes and ``?`` in step, backtracking to the last ``*`` only), linear in the
word for all but pathological patterns. A ``*`` never stops inside a letter that a literal then
matches, since a UTF-8 lead byte never equals a continuation byte; ``?`` refuses to start on a
continuation byte. Imports no numpy.
"""

from libc.stdint cimport int32_t, uint8_t
from libc.string cimport memchr, memcmp


cdef inline bint is_continuation(uint8_t byte) noexcept nogil:
    return byte & 0xC0 == 0x80


cdef bint glob_match(
    const uint8_t* word, Py_ssize_t n, const uint8_t* pattern, Py_ssize_t m
) noexcept nogil:
    """Whether the whole of ``word`` matches the whole of ``pattern``."""
    cdef Py_ssize_t w = 0, p = 0, star = -1, resume = 0
    while w < n:
        if p < m and pattern[p] == b"*":
            star = p
            p += 1
            resume = w
            continue
        if p < m and pattern[p] == b"?" and not is_continuation(word[w]):
            w += 1
            while w < n and is_continuation(word[w]):
                w += 1
            p += 1
            continue
        if p < m and pattern[p] != b"?" and pattern[p] == word[w]:
            w += 1
            p += 1
            continue
        if star < 0:
            return False
        p = star + 1  # let the last * take one more byte, and try again after it
        resume += 1
        w = resume
    while p < m and pattern[p] == b"*":
        p += 1
    return p == m


cdef inline Py_ssize_t score_of(
    const uint8_t* word, Py_ssize_t n, const int32_t[::1] values
) noexcept nogil:
    """The sum of ``values[code point]`` over the word's letters (0 beyond the table)."""
    cdef Py_ssize_t i = 0, total = 0, size = values.shape[0]
    cdef uint8_t byte
    cdef int32_t point
    while i < n:
        byte = word[i]
        if byte < 0x80:
            point = byte
            i += 1
        elif byte < 0xE0:
            point = (byte & 0x1F) << 6 | (word[i + 1] & 0x3F) if i + 1 < n else 0
            i += 2
        elif byte < 0xF0:
            point = ((byte & 0x0F) << 12 | (word[i + 1] & 0x3F) << 6 | (word[i + 2] & 0x3F)
                     if i + 2 < n else 0)
            i += 3
        else:
            point = ((byte & 0x07) << 18 | (word[i + 1] & 0x3F) << 12
                     | (word[i + 2] & 0x3F) << 6 | (word[i + 3] & 0x3F) if i + 3 < n else 0)
            i += 4
        if point < size:
            total += values[point]
    return total


def match_lines(
    const uint8_t[::1] text,
    Py_ssize_t start,
    bytes pattern,
    Py_ssize_t prefix_length,
    const int32_t[::1] values,
    Py_ssize_t limit,
):
    """The words of the lines of ``text`` from offset ``start`` (a line start) that match
    ``pattern``, up to ``limit`` of them, as rows ``(word, word, score)`` (the score: the sum
    of ``values`` by code point); the scan ends at the first line that does not begin with the
    pattern's first ``prefix_length`` bytes (its literal prefix: the file is sorted). Returns
    the rows and the offset to go on from (-1: the scan is over)."""
    cdef list found = []
    cdef const uint8_t* base = &text[0] if text.shape[0] else NULL
    cdef const uint8_t* pat = pattern
    cdef Py_ssize_t size = text.shape[0], m = len(pattern), at = start, end, n
    cdef const uint8_t* line
    cdef const void* newline
    if prefix_length > m:
        raise ValueError("the prefix is longer than the pattern")
    while at < size:
        line = base + at
        newline = memchr(line, b"\n", size - at)
        end = size if newline == NULL else <const uint8_t*>newline - base
        n = end - at
        if n < prefix_length or memcmp(line, pat, prefix_length) != 0:
            return found, -1
        if glob_match(line, n, pat, m):
            word = (<const char*>line)[:n].decode("utf-8")
            found.append((word, word, score_of(line, n, values)))
            if len(found) == limit:
                return found, end + 1
        at = end + 1
    return found, -1
