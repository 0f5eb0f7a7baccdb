# cython: language_level=3, boundscheck=False, wraparound=False
"""The plain path of normalization in C: entries of ASCII letters, nearly all of a real list.

``normalize_ascii`` gives, for such an entry, exactly what ``Normalizer.__call__`` gives: the
uppercase word when its length and letters fit and no shape rule rejects it (the few words a
rule could reject are judged by the Python ``Classifier.reason``); the entries it does not
decide (other characters, a length or letter out of bounds) are handed back for the Python path,
which counts their reasons.
"""

from libc.stdint cimport uint8_t


cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    uint8_t *PyUnicode_1BYTE_DATA(object text)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)


def normalize_ascii(
    list entries,
    set out,
    list rest,
    object lowercase,
    bint case_sensitive,
    Py_ssize_t shortest,
    Py_ssize_t longest,
    bytes allowed,
    bytes suspect_letters,
    bint vowel_rule,
    object units,
    object reason,
    object tokenize,
    object reject,
):
    """Add the word of each entry of ASCII letters (lowercase only when ``case_sensitive``) to
    ``out`` (and to ``lowercase``, a set or None, when the entry starts lowercase); append every
    other entry to ``rest``. ``allowed[c]`` is 1 for an uppercase letter of the alphabet.
    ``suspect_letters``, ``vowel_rule`` and ``units`` are ``Classifier.ascii_screen()``: a word
    with no vowel (if ``vowel_rule``), only Roman-numeral letters, or in ``units`` is passed to
    ``reason`` (None: no shape rules), whose reason, if any, goes to ``reject(reason, entry)``.
    ``tokenize`` (or None) turns a kept word into tiles, too short below ``shortest`` tiles.
    Returns the number of entries decided here."""
    cdef Py_ssize_t i, n, decided = 0
    cdef const uint8_t *data
    cdef const uint8_t *allowed_table = allowed
    cdef const uint8_t *suspects = suspect_letters
    cdef uint8_t *upper
    cdef uint8_t c, seen
    cdef bint plain
    cdef object entry, word, why
    for entry in entries:
        if not PyUnicode_IS_ASCII(entry):
            rest.append(entry)
            continue
        n = PyUnicode_GET_LENGTH(entry)
        data = PyUnicode_1BYTE_DATA(entry)
        plain = n > 0
        for i in range(n):
            c = data[i]
            if not (97 <= c <= 122 or (not case_sensitive and 65 <= c <= 90)):
                plain = False
                break
        if not plain or n < shortest or n > longest:
            rest.append(entry)
            continue
        word = PyUnicode_New(n, 127)
        upper = PyUnicode_1BYTE_DATA(word)
        seen = 0
        for i in range(n):
            c = data[i] & 0xDF  # ASCII uppercase
            if not allowed_table[c]:
                plain = False
                break
            upper[i] = c
            seen |= suspects[c]
            if not suspects[c] & 2:
                seen |= 8  # a letter that is no Roman numeral
        if not plain:
            rest.append(entry)
            continue
        decided += 1
        if reason is not None and ((vowel_rule and not seen & 1) or not seen & 8 or word in units):
            why = reason(word)
            if why is not None:
                reject(why, entry)
                continue
        if tokenize is not None:
            word = tokenize(word)
            if PyUnicode_GET_LENGTH(word) < shortest:
                reject("too-short", entry)
                continue
        out.add(word)
        if lowercase is not None and data[0] >= 97:
            lowercase.add(word)
    return decided
