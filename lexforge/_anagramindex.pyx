# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The anagram index's lines in C (``pipeline.anagrams.anagram_index``): each word's key (its
letter codes sorted), a stable radix sort of the words by key, and the ``KEY=WORD`` text with
the offsets of each key's first line. No numpy here: the caller views the bytes it gets."""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, memmove

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize


cdef extern from *:
    void prefetch "__builtin_prefetch"(const void* address) noexcept nogil


cdef enum:
    PREFETCH_AHEAD = 16  # records whose words' codes are fetched ahead of spelling
    SMALL_BUCKET = 24  # rows sorted by insertion below this (a radix pass costs 256 counters)


cdef inline void sort_row(uint8_t* row, Py_ssize_t n) noexcept nogil:
    """Sort the first ``n`` codes of a row ascending."""
    cdef Py_ssize_t i, j
    cdef uint8_t code
    for i in range(1, n):
        code = row[i]
        j = i
        while j > 0 and row[j - 1] > code:
            row[j] = row[j - 1]
            j -= 1
        row[j] = code


cdef inline int64_t* row_of(uint8_t* record, Py_ssize_t stride) noexcept nogil:
    """Where a record keeps its row number: its last eight bytes, aligned."""
    return <int64_t*>(record + stride - 8)


cdef inline void copy_record(
    uint8_t* target, const uint8_t* source, Py_ssize_t stride
) noexcept nogil:
    """Copy a record eight bytes at a time (a call to memcpy costs more than a short copy)."""
    cdef Py_ssize_t w
    for w in range(stride // 8):
        (<uint64_t*>target)[w] = (<const uint64_t*>source)[w]


cdef inline Py_ssize_t spell(
    char* out, const uint8_t* codes, Py_ssize_t width, const uint8_t** utf8,
    const Py_ssize_t* n_bytes,
) noexcept nogil:
    """Write the UTF-8 bytes of ``codes`` (up to the first 0) at ``out``; how many."""
    cdef Py_ssize_t k, b, written = 0
    cdef uint8_t code
    for k in range(width):
        code = codes[k]
        if code == 0:
            break
        for b in range(n_bytes[code]):
            out[written + b] = utf8[code][b]
        written += n_bytes[code]
    return written


cdef void insertion_sort(
    uint8_t* records, uint8_t* held, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t stride,
    Py_ssize_t width, Py_ssize_t column,
) noexcept nogil:
    """Stable sort of ``records[lo:hi]`` by their keys' codes from ``column`` on (those before
    it are equal); ``held``: room for one record."""
    cdef Py_ssize_t i, j
    for i in range(lo + 1, hi):
        j = i
        while j > lo and memcmp(
            records + (j - 1) * stride + column, records + i * stride + column, width - column
        ) > 0:
            j -= 1
        if j < i:
            memcpy(held, records + i * stride, stride)
            memmove(records + (j + 1) * stride, records + j * stride, (i - j) * stride)
            memcpy(records + j * stride, held, stride)


cdef void radix_sort(
    uint8_t* records, uint8_t* spare, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t stride,
    Py_ssize_t width, Py_ssize_t column,
) noexcept nogil:
    """Stable most-significant-digit radix sort of ``records[lo:hi]`` (each a key's ``width``
    codes, padding, then its row number: ``row_of``) by their codes from ``column`` on, the codes before it being
    equal; ``spare``: scratch as large. The records themselves move, so that every pass reads
    memory in order (sorting row numbers instead reads the keys at random: 1.4× slower)."""
    cdef Py_ssize_t counts[256]
    cdef Py_ssize_t i, code, start, end
    cdef const uint8_t* digit
    while True:  # a column all records share is skipped without recursion
        if hi - lo < 2 or column >= width:
            return
        if hi - lo < SMALL_BUCKET:
            insertion_sort(records, spare, lo, hi, stride, width, column)
            return
        for code in range(256):
            counts[code] = 0
        digit = records + column
        for i in range(lo, hi):
            counts[digit[i * stride]] += 1
        code = digit[lo * stride]
        if counts[code] != hi - lo:
            break
        if code == 0:
            return  # every key ended: all equal
        column += 1
    start = lo
    for code in range(256):  # counts become each code's first position
        end = start + counts[code]
        counts[code] = start
        start = end
    for i in range(lo, hi):
        code = digit[i * stride]
        copy_record(spare + counts[code] * stride, records + i * stride, stride)
        counts[code] += 1
    memcpy(records + lo * stride, spare + lo * stride, (hi - lo) * stride)
    start = counts[0]  # records whose key ended here (code 0) are equal: already in order
    for code in range(1, 256):
        end = counts[code]
        if end - start > 1:
            radix_sort(records, spare, start, end, stride, width, column + 1)
        start = end


def index_lines(const uint8_t[:, ::1] spelled not None, list letter_utf8 not None):
    """The anagram index of words given as rows of letter codes (``spelled``: code c is the
    letter whose UTF-8 bytes are ``letter_utf8[c - 1]``, rows padded with 0), in the rows'
    order where keys tie:

    - the ``KEY=WORD\\n`` lines as UTF-8 bytes, in key order;
    - the distinct keys' codes, one row of ``width + 1`` codes a key (padded with 0);
    - per key, the byte offset of its first line as 8 native bytes, then the text's length.
    """
    cdef Py_ssize_t n = spelled.shape[0], width = spelled.shape[1]
    cdef Py_ssize_t n_letters = len(letter_utf8), i, k, c, n_keys = 0, size = 0, position = 0
    cdef Py_ssize_t length
    cdef Py_ssize_t n_bytes[256]
    cdef const uint8_t* utf8[256]
    cdef Py_ssize_t stride = (width + 7) // 8 * 8 + 8  # the key's codes, then the row number
    cdef uint8_t* records = NULL
    cdef uint8_t* spare = NULL
    cdef uint8_t* record
    cdef int64_t* first_rows
    cdef int64_t row, bad_row = -1
    cdef uint8_t code
    cdef char* out
    cdef uint8_t* key_out
    cdef uint64_t* offsets_out
    if n_letters > 253:
        raise ValueError("more than 253 letters: no two byte codes left for '=' and newline")
    n_bytes[0] = 0
    for c in range(n_letters):
        n_bytes[c + 1] = len(<bytes?>letter_utf8[c])
        utf8[c + 1] = <const uint8_t*>PyBytes_AS_STRING(letter_utf8[c])
    try:
        records = <uint8_t*>malloc(max(n, 1) * stride)
        spare = <uint8_t*>malloc(max(n, 1) * stride)
        if records == NULL or spare == NULL:
            raise MemoryError()
        with nogil:
            for i in range(n):
                record = records + i * stride
                for k in range(stride // 8):
                    (<uint64_t*>record)[k] = 0
                length = 0
                while length < width and spelled[i, length] != 0:
                    code = spelled[i, length]
                    if code > n_letters:
                        bad_row = i
                        code = 0
                    record[length] = code
                    size += 2 * n_bytes[code]
                    length += 1
                size += 2  # "=" and newline
                row_of(record, stride)[0] = i
                sort_row(record, length)
        if bad_row >= 0:
            raise ValueError(f"row {bad_row} holds a code beyond the {n_letters} letters")
        with nogil:
            radix_sort(records, spare, 0, n, stride, width, 0)
            first_rows = <int64_t*>spare  # spare now: the position of each key's first record
            for i in range(n):
                if i == 0 or memcmp(records + i * stride, records + (i - 1) * stride, width):
                    first_rows[n_keys] = i
                    n_keys += 1
        text = PyBytes_FromStringAndSize(NULL, size)
        key_codes = PyBytes_FromStringAndSize(NULL, n_keys * (width + 1))
        offsets = PyBytes_FromStringAndSize(NULL, (n_keys + 1) * sizeof(uint64_t))
        out = PyBytes_AS_STRING(text)
        key_out = <uint8_t*>PyBytes_AS_STRING(key_codes)
        offsets_out = <uint64_t*>PyBytes_AS_STRING(offsets)
        with nogil:
            for k in range(n_keys):
                memcpy(key_out + k * (width + 1), records + first_rows[k] * stride, width)
                key_out[k * (width + 1) + width] = 0
            k = 0  # the key whose first record comes next
            for i in range(n):
                record = records + i * stride
                if i + PREFETCH_AHEAD < n:  # the words lie all over memory
                    prefetch(&spelled[row_of(record + PREFETCH_AHEAD * stride, stride)[0], 0])
                if k < n_keys and i == first_rows[k]:
                    offsets_out[k] = position
                    k += 1
                position += spell(out + position, record, width, utf8, n_bytes)
                out[position] = b"="
                position += 1
                row = row_of(record, stride)[0]
                position += spell(out + position, &spelled[row, 0], width, utf8, n_bytes)
                out[position] = b"\n"
                position += 1
            offsets_out[n_keys] = position
        return text, key_codes, offsets
    finally:
        free(records)
        free(spare)
