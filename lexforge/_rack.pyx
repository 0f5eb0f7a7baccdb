# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled rack search behind lexforge.anagram: every anagram key a rack can make, and the
words of those keys.

The walk is the one ``lexforge.anagram`` describes, over the letter graph of anagram keys
(``anagram-graph.npy``: two 64-bit words per node, the child mask, then the first child in the
low 32 bits and the key id in the high 32): from a key prefix, only letters not below its last
one, present as children, and available from the rack (any letter while a joker is left); a rack
letter is always preferred to a joker. Key ``k``'s words are the lines
``text[offsets[k]:offsets[k + 1]]`` of ``anagrams.txt`` (``KEY=WORD``, grouped by key in key id
order; ``anagram-classes.npy`` holds the offsets). Imports no numpy (a one-shot query would pay
more for numpy's import than for the search).
"""

from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memchr, memcmp, memcpy, memmove

cdef uint64_t NO_KEY = 0xFFFFFFFF
DEF MAX_LETTERS = 64
DEF MAX_JOKERS = 8  # joker letters of a key are packed one byte each in a 64-bit word

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long value) nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long value) nogil


cdef struct Found:
    uint64_t key  # key id
    uint64_t jokers  # letter index + 1 of each joker's letter, in walk order, a byte each
    int64_t value  # the rack letters' tile values (a joker scores 0)
    int length  # letters in the key


cdef struct Walk:
    const uint64_t* nodes
    Py_ssize_t n_nodes
    Py_ssize_t n_keys
    int counts[MAX_LETTERS]  # rack letters left
    int used[MAX_LETTERS]  # letters of the key so far, jokers included
    int required[MAX_LETTERS]  # letters the key must hold (``--contains``)
    int64_t values[MAX_LETTERS]
    uint64_t every_letter
    int min_length, top, want
    bint check_required
    Found* found
    Py_ssize_t n_found, capacity
    bint bad_key


cdef int add(Walk* w, uint64_t key, uint64_t jokers, int64_t value, int length) nogil:
    cdef Found* grown
    if key >= <uint64_t>w.n_keys:
        w.bad_key = True
        return 0
    if w.n_found == w.capacity:
        w.capacity = 2 * w.capacity + 64
        grown = <Found*>realloc(w.found, w.capacity * sizeof(Found))
        if grown == NULL:
            return -1
        w.found = grown
    w.found[w.n_found].key = key
    w.found[w.n_found].jokers = jokers
    w.found[w.n_found].value = value
    w.found[w.n_found].length = length
    w.n_found += 1
    return 0


cdef int walk(
    Walk* w, Py_ssize_t node, int length, int64_t value, uint64_t below, uint64_t rack_mask,
    int jokers_left, uint64_t jokers, int n_jokers,
) nogil:
    cdef uint64_t mask = w.nodes[2 * node], info = w.nodes[2 * node + 1]
    cdef uint64_t candidates, bit, key = info >> 32
    cdef Py_ssize_t child, first = info & NO_KEY
    cdef int i, ok
    if key != NO_KEY and length >= w.min_length and (w.want < 0 or length == w.want):
        ok = 1
        if w.check_required:
            for i in range(MAX_LETTERS):
                if w.used[i] < w.required[i]:
                    ok = 0
                    break
        if ok and add(w, key, jokers, value, length) < 0:
            return -1
    if length >= w.top:
        return 0
    candidates = mask & (w.every_letter if jokers_left else rack_mask) & ~below
    while candidates:
        bit = candidates & (~candidates + 1)
        candidates ^= bit
        i = lowest_bit(bit)
        child = first + popcount(mask & (bit - 1))
        if child <= node or child >= w.n_nodes:  # the graph check forbids it; never trust it
            w.bad_key = True
            return 0
        w.used[i] += 1
        if w.counts[i]:
            w.counts[i] -= 1
            if walk(w, child, length + 1, value + w.values[i], bit - 1,
                    rack_mask if w.counts[i] else rack_mask & ~bit,
                    jokers_left, jokers, n_jokers) < 0:
                return -1
            w.counts[i] += 1
        else:
            if walk(w, child, length + 1, value, bit - 1, rack_mask, jokers_left - 1,
                    jokers | (<uint64_t>(i + 1) << (8 * n_jokers)), n_jokers + 1) < 0:
                return -1
        w.used[i] -= 1
    return 0


cdef Walk* start(
    const uint64_t[::1] nodes, Py_ssize_t n_keys, const uint8_t[::1] counts, int jokers,
    const int64_t[::1] values, const uint8_t[::1] required, int min_length, int max_length,
    int want,
) except NULL:
    """Run the walk; the caller frees ``found`` and the walk."""
    cdef Walk* w
    cdef Py_ssize_t n_letters = counts.shape[0], i
    cdef int size = jokers
    cdef uint64_t rack_mask = 0
    if n_letters > MAX_LETTERS or values.shape[0] != n_letters or required.shape[0] != n_letters:
        raise ValueError("one count, value and requirement per letter, at most 64 letters")
    if not 0 <= jokers <= MAX_JOKERS:
        raise ValueError(f"at most {MAX_JOKERS} jokers")
    w = <Walk*>realloc(NULL, sizeof(Walk))
    if w == NULL:
        raise MemoryError()
    w.nodes = &nodes[0]
    w.n_nodes = nodes.shape[0] // 2
    w.n_keys = n_keys
    w.found = NULL
    w.n_found = w.capacity = 0
    w.bad_key = False
    w.check_required = False
    w.every_letter = (<uint64_t>-1) if n_letters == 64 else ((<uint64_t>1 << n_letters) - 1)
    for i in range(MAX_LETTERS):
        w.counts[i] = counts[i] if i < n_letters else 0
        w.values[i] = values[i] if i < n_letters else 0
        w.required[i] = required[i] if i < n_letters else 0
        w.used[i] = 0
        size += w.counts[i]
        if w.counts[i]:
            rack_mask |= <uint64_t>1 << i
        if w.required[i]:
            w.check_required = True
    w.min_length = min_length
    w.top = min(max_length, size, 255)
    w.want = want
    if w.n_nodes and walk(w, 0, 0, 0, 0, rack_mask, jokers, 0, 0) < 0:
        free(w.found)
        free(w)
        raise MemoryError()
    if w.bad_key:
        free(w.found)
        free(w)
        raise ValueError("a key id or child index beyond the anagram index")
    return w


cdef inline Py_ssize_t line_end(const uint8_t* text, Py_ssize_t at, Py_ssize_t end):
    cdef const void* found = memchr(text + at, b"\n", end - at)
    return end if found == NULL else <const uint8_t*>found - text


cdef struct Word:
    Py_ssize_t start, size  # the word's UTF-8 bytes in the text
    int64_t value
    uint64_t jokers
    int length  # in letters (its key's length)


# The order qsort gives the words: its comparison functions read the text through this global
# (the search holds the GIL, so one search at a time uses it).
cdef const uint8_t* sort_text = NULL
DEF SORT_ALPHA = 0
DEF SORT_LENGTH = 1
DEF SORT_SCORE = 2


cdef int by_word(const void* x, const void* y) noexcept nogil:
    cdef const Word* a = <const Word*>x
    cdef const Word* b = <const Word*>y
    cdef int order = memcmp(sort_text + a.start, sort_text + b.start, min(a.size, b.size))
    if order:
        return order
    return (a.size > b.size) - (a.size < b.size)  # UTF-8 byte order is code-point order


cdef int by_length(const void* x, const void* y) noexcept nogil:
    cdef const Word* a = <const Word*>x
    cdef const Word* b = <const Word*>y
    if a.length != b.length:
        return -1 if a.length > b.length else 1
    return by_word(x, y)


cdef int by_score(const void* x, const void* y) noexcept nogil:
    cdef const Word* a = <const Word*>x
    cdef const Word* b = <const Word*>y
    if a.value != b.value:
        return -1 if a.value > b.value else 1
    return by_word(x, y)


cdef extern from "Python.h":
    ctypedef struct AllocatingType "PyTypeObject":
        PyObject* (*tp_alloc)(AllocatingType*, Py_ssize_t) except NULL


cdef inline object new_match(type cls, str word, str shown, object score):
    """``cls(word, shown, score)`` for a named tuple class ``cls``, made as ``tuple.__new__``
    makes a tuple subclass (allocate, fill), without the call of its Python-level ``__new__``:
    over half of a joker rack's time went to that call."""
    cdef PyObject* made = (<AllocatingType*>cls).tp_alloc(<AllocatingType*>cls, 3)
    cdef object match = <object>made  # a second reference: drop the allocation's own
    Py_XDECREF(made)
    Py_INCREF(word)  # PyTuple_SET_ITEM takes each reference over
    PyTuple_SET_ITEM(match, 0, word)
    Py_INCREF(shown)
    PyTuple_SET_ITEM(match, 1, shown)
    Py_INCREF(score)
    PyTuple_SET_ITEM(match, 2, score)
    return match


cdef struct LetterForms:
    const char* upper[MAX_LETTERS]
    const char* lower[MAX_LETTERS]
    Py_ssize_t upper_size[MAX_LETTERS]
    Py_ssize_t lower_size[MAX_LETTERS]


cdef str shown_word(const uint8_t* word, Py_ssize_t size, uint64_t jokers,
                    const LetterForms* forms):
    """The word with the letter of each joker, in turn, lowercased at its last uppercase
    occurrence (what ``lexforge.anagram.show_jokers`` does, on UTF-8 bytes: a letter's
    sequence cannot match in the middle of another's)."""
    cdef Py_ssize_t capacity = size + MAX_JOKERS * 8, n = size, at, letter, up, low
    cdef char* buffer = <char*>malloc(capacity)
    if buffer == NULL:
        raise MemoryError()
    memcpy(buffer, word, size)
    try:
        while jokers:
            letter = (jokers & 0xFF) - 1
            jokers >>= 8
            up = forms.upper_size[letter]
            low = forms.lower_size[letter]
            at = n - up
            while at >= 0 and memcmp(buffer + at, forms.upper[letter], up) != 0:
                at -= 1
            if at < 0 or n + low - up > capacity:
                continue
            memmove(buffer + at + low, buffer + at + up, n - at - up)
            memcpy(buffer + at, forms.lower[letter], low)
            n += low - up
        return PyUnicode_DecodeUTF8(buffer, n, NULL)
    finally:
        free(buffer)


def rack_matches(
    const uint64_t[::1] nodes, const uint64_t[::1] offsets, const uint8_t[::1] text,
    const uint8_t[::1] counts, int jokers, const int64_t[::1] values,
    const uint8_t[::1] required, int min_length, int max_length, int want, int sort,
    tuple upper, tuple lower, type make,
):
    """``make(word, shown, score)`` (``make``: a named tuple class) for every word of every key the rack can make, sorted.

    ``counts[i]``/``values[i]``/``required[i]``: the rack's count, the tile value and the
    required count (``--contains``) of letter ``i`` in the graph's letter order, whose UTF-8
    forms are ``upper[i]`` and ``lower[i]``; ``want`` ≥ 0 keeps only keys of that length. A
    word using jokers is shown with their letters in lowercase. ``sort``: 0 alphabetical,
    1 longest first, 2 highest score first, then alphabetical. ValueError if the index is
    inconsistent.
    """
    global sort_text
    if not issubclass(make, tuple) or len(getattr(make, "_fields", ())) != 3:
        raise TypeError("make must be a named tuple class of three fields")
    cdef Walk* w = start(nodes, offsets.shape[0] - 1, counts, jokers, values, required,
                         min_length, max_length, want)
    cdef Py_ssize_t f, at, end, stop, n_text = text.shape[0], n_words = 0, capacity = 0
    cdef const uint8_t* data = &text[0] if n_text else NULL
    cdef const uint8_t* eq
    cdef Word* words = NULL
    cdef Word* grown
    cdef list matches = []
    cdef str word, shown
    cdef LetterForms forms
    cdef Py_ssize_t letter
    if len(upper) != counts.shape[0] or len(lower) != counts.shape[0]:
        free(w.found)
        free(w)
        raise ValueError("one upper and one lower form per letter")
    for letter in range(counts.shape[0]):  # the tuples hold the bytes alive meanwhile
        forms.upper[letter] = upper[letter]
        forms.upper_size[letter] = len(upper[letter])
        forms.lower[letter] = lower[letter]
        forms.lower_size[letter] = len(lower[letter])
    try:
        for f in range(w.n_found):
            at = offsets[w.found[f].key]
            stop = offsets[w.found[f].key + 1]
            if not at <= stop <= n_text:
                raise ValueError("anagram class offsets beyond anagrams.txt")
            while at < stop:
                end = line_end(data, at, stop)
                eq = <const uint8_t*>memchr(data + at, b"=", end - at)
                if eq == NULL:
                    raise ValueError("an anagrams.txt line without '='")
                if n_words == capacity:
                    capacity = 2 * capacity + 256
                    grown = <Word*>realloc(words, capacity * sizeof(Word))
                    if grown == NULL:
                        raise MemoryError()
                    words = grown
                words[n_words].start = eq + 1 - data
                words[n_words].size = data + end - (eq + 1)
                words[n_words].value = w.found[f].value
                words[n_words].jokers = w.found[f].jokers
                words[n_words].length = w.found[f].length
                n_words += 1
                at = end + 1
        if n_words:
            sort_text = data
            qsort(words, n_words, sizeof(Word),
                  by_score if sort == SORT_SCORE else by_length if sort == SORT_LENGTH
                  else by_word)
            sort_text = NULL
        for f in range(n_words):
            word = PyUnicode_DecodeUTF8(<const char*>data + words[f].start, words[f].size, NULL)
            if words[f].jokers:
                shown = shown_word(data + words[f].start, words[f].size, words[f].jokers,
                                   &forms)
            else:
                shown = word
            matches.append(new_match(make, word, shown, words[f].value))
    finally:
        free(words)
        free(w.found)
        free(w)
    return matches


def rack_keys(
    const uint64_t[::1] nodes, const uint64_t[::1] offsets, const uint8_t[::1] text,
    const uint8_t[::1] counts, int min_length, int max_length,
):
    """The keys (strings) that the letters ``counts`` can make, without jokers: the candidate
    words of a phrase anagram. Arguments as for ``rack_matches``."""
    cdef Py_ssize_t n = counts.shape[0]
    cdef Walk* w
    cdef Py_ssize_t f, at, stop, eq, n_text = text.shape[0]
    cdef const uint8_t* data = &text[0] if n_text else NULL
    cdef const void* found_eq
    cdef list keys = []
    w = start(nodes, offsets.shape[0] - 1, counts, 0, memoryview(bytes(8 * n)).cast("q"),
              bytes(n), min_length, max_length, -1)
    try:
        for f in range(w.n_found):
            at = offsets[w.found[f].key]
            stop = offsets[w.found[f].key + 1]
            if not at < stop <= n_text:
                raise ValueError("anagram class offsets beyond anagrams.txt")
            found_eq = memchr(data + at, b"=", stop - at)
            if found_eq == NULL:
                raise ValueError("an anagrams.txt line without '='")
            eq = <const uint8_t*>found_eq - data
            keys.append(PyUnicode_DecodeUTF8(<const char*>data + at, eq - at, NULL))
    finally:
        free(w.found)
        free(w)
    return keys
