# cython: language_level=3, boundscheck=False, wraparound=False
"""The plain path of normalization in C: entries of Latin letters, nearly all of a real list.

``normalize_latin`` gives, for such an entry, exactly what ``Normalizer.__call__`` gives: the
folded word when its length fits and no shape rule rejects it (the few words a rule could
reject are judged by the Python ``Classifier.reason``), or the proper-noun rejection of a
capitalised entry where capitals mark names. Each character's fold comes from a table made by
``lexforge.normalize.latin_tables`` (``fold_word`` of that one character). The entries it does
not decide (other characters or cases, a fold outside the alphabet, a length out of bounds) are
handed back for the Python path, which counts their reasons.
"""

from libc.stdint cimport uint8_t
from libc.string cimport memcpy


cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    uint8_t *PyUnicode_1BYTE_DATA(object text)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)


# Bits of ``classes[c]`` (lexforge.normalize.latin_tables says how each is computed).
cdef enum:
    ALPHA = 1  # c.isalpha()
    LOWER_OK = 2  # a letter that leaves a lowercase word lowercase: ("a" + c).islower()
    LOWER = 4  # c.islower()
    UPPER = 8  # c.isupper()


cdef enum:
    MOST_FOLDED = 1000  # letters of the longest word this path builds; longer ones go back


def normalize_latin(
    list entries,
    set out,
    list rest,
    object lowercase,
    bint case_sensitive,
    bint reject_capitalised,
    Py_ssize_t shortest,
    Py_ssize_t longest,
    bytes classes,
    bytes folds,
    bytes suspect_letters,
    bint vowel_rule,
    object units,
    object reason,
    object tokenize,
    bytes tile_pairs,
    object reject,
):
    """Add the word of each entry this path decides to ``out`` (and to ``lowercase``, a set or
    None, when the entry starts lowercase); append every other entry to ``rest``.

    An entry is decided when each of its characters is below ``len(classes)`` and, with
    ``case_sensitive``, it is lowercase (``entry.islower()``) or capitalised (an uppercase
    letter, then letters of lowercase words, one of them lowercase). A capitalised entry is
    rejected as a proper noun when ``reject_capitalised``. ``folds[4 * c]`` is the length
    (0: no fold here) of character c's fold, the next three bytes its letters (Latin-1 codes of
    the alphabet). ``suspect_letters``, ``vowel_rule`` and ``units`` are
    ``Classifier.ascii_screen()``: a word with no vowel (if ``vowel_rule``), only
    Roman-numeral letters, or in ``units`` is passed to ``reason`` (None: no shape rules),
    whose reason, if any, goes to ``reject(reason, entry)``. ``tokenize`` (or None) turns a
    kept word into tiles, too short below ``shortest`` tiles; with ``tile_pairs`` (a bit per
    pair of letter codes, ``tile_pairs[(a << 5) | (b >> 3)] >> (b & 7)``: the two first
    letters of a tile's spelling) only a word holding such a pair is passed to it. Returns the
    number of entries decided here."""
    cdef Py_ssize_t i, j, n, m, size, decided = 0, table_size = len(classes)
    cdef Py_ssize_t limit = min(longest, MOST_FOLDED)
    cdef const uint8_t *kinds = classes
    cdef const uint8_t *fold = folds
    cdef const uint8_t *suspects = suspect_letters
    cdef const uint8_t *pairs = NULL if tile_pairs is None else <const uint8_t *>tile_pairs
    cdef uint8_t letters[MOST_FOLDED + 3]
    cdef uint8_t c, seen, high, lower_seen
    cdef Py_ssize_t code, first  # code points (Py_UCS4 would be a character to Cython)
    cdef int kind
    cdef void *data
    cdef bint decidable, capitalised
    cdef object entry, word, why
    for entry in entries:
        n = PyUnicode_GET_LENGTH(entry)
        if n == 0:
            rest.append(entry)
            continue
        kind = PyUnicode_KIND(entry)
        data = PyUnicode_DATA(entry)
        first = PyUnicode_READ(kind, data, 0)
        if first >= table_size:
            rest.append(entry)
            continue
        capitalised = case_sensitive and kinds[first] & UPPER
        decidable = True
        lower_seen = 0
        for i in range(1 if capitalised else 0, n):
            code = PyUnicode_READ(kind, data, i)
            if code >= table_size:
                decidable = False
                break
            if not case_sensitive:
                if not kinds[code] & ALPHA:
                    decidable = False
                    break
            elif not kinds[code] & LOWER_OK:
                decidable = False
                break
            lower_seen |= kinds[code] & LOWER
        # Lowercase needs one lowercase letter; a capitalised word of two letters or more does
        # too (else it is all capitals: an abbreviation, for the Python path).
        if case_sensitive and not lower_seen and not (capitalised and n == 1):
            decidable = False
        if not decidable:
            rest.append(entry)
            continue
        if capitalised and reject_capitalised:
            decided += 1
            reject("proper-noun", entry)
            continue
        m = 0
        high = 0
        seen = 0
        for i in range(n):
            code = PyUnicode_READ(kind, data, i)
            size = fold[4 * code]
            if size == 0 or m + size > limit:
                decidable = False
                break
            for j in range(1, size + 1):
                c = fold[4 * code + j]
                letters[m] = c
                m += 1
                high |= c & 0x80
                seen |= suspects[c]
                if not suspects[c] & 2:
                    seen |= 8  # a letter that is no Roman numeral
        if not decidable or m < shortest:
            rest.append(entry)
            continue
        word = PyUnicode_New(m, 255 if high else 127)
        memcpy(PyUnicode_1BYTE_DATA(word), letters, m)
        decided += 1
        if reason is not None and ((vowel_rule and not seen & 1) or not seen & 8 or word in units):
            why = reason(word)
            if why is not None:
                reject(why, entry)
                continue
        if tokenize is not None and (pairs == NULL or _holds_pair(letters, m, pairs)):
            word = tokenize(word)
            if PyUnicode_GET_LENGTH(word) < shortest:
                reject("too-short", entry)
                continue
        out.add(word)
        if lowercase is not None and kinds[first] & LOWER:
            lowercase.add(word)
    return decided


cdef inline bint _holds_pair(const uint8_t *letters, Py_ssize_t m, const uint8_t *pairs):
    """Whether two neighbouring ``letters`` are a pair of ``pairs`` (see normalize_latin)."""
    cdef Py_ssize_t i
    for i in range(m - 1):
        if pairs[(letters[i] << 5) | (letters[i + 1] >> 3)] >> (letters[i + 1] & 7) & 1:
            return True
    return False
