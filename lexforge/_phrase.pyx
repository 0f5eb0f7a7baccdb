# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled search behind lexforge.phrase: multisets of anagram keys that use up a phrase.

The phrase's letter counts are packed into a few 64-bit words, one bit field per distinct
letter, each field wide enough for the letter's count plus a guard bit above it (the classic
``an`` letter-frequency bit pattern). The remaining letters are kept with every guard bit set;
subtracting a key's packed counts clears a field's guard bit exactly when the key needs more of
that letter than remains, and never borrows across fields. So "does this key fit" is a
subtraction and a mask per word.

The search is depth-first over the candidate keys in a fixed order (longest first), each
phrase's keys taken in non-decreasing index order, so every multiset of keys is met once. It is
resumable: ``next_batch`` returns up to a given number of phrases, or fewer (none, even) once it
has taken a given number of steps, and carries on from there on the next call: the caller
streams results as they are found, and between calls Python runs its signal handlers (Ctrl-C)
and checks its clock, however long the search goes without finding a phrase. Imports no numpy (a one-shot
query would pay more for numpy's import than for the search).
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free

DEF MAX_WORDS64 = 8  # packed words: 64 letters × 8 bits at most


cdef class PhraseSearch:
    """The resumable search for one phrase (see the module docstring).

    ``key_letters[key_start[k]:key_start[k + 1]]`` are the letters of key ``k`` as indices into
    ``counts`` (the phrase's count of each of its distinct letters, 1–127 each); keys must be
    in non-increasing length order and each must fit in the phrase. A phrase has at most
    ``max_words`` keys, exactly ``max_words`` when ``exact`` is true.
    """

    cdef Py_ssize_t n_keys, n_words64, max_words, phrase_length, min_key_length
    cdef bint exact
    cdef readonly bint done  # the search is over: next_batch has nothing more to give
    cdef uint64_t guard[MAX_WORDS64]
    cdef uint64_t values[MAX_WORDS64]  # the value bits below each guard bit
    cdef uint64_t* keys  # n_keys × n_words64 packed counts
    cdef uint64_t* avail  # (n_keys + 1) × n_words64: guard bits of letters present in keys[k:]
    cdef int32_t* lengths
    cdef int32_t* first_fit  # letters n → first key of at most n letters
    cdef uint64_t* remaining  # (max_words + 1) × n_words64, guard bits set
    cdef int32_t* left  # letters remaining before each depth's key
    cdef int32_t* next_key  # next key to try at each depth
    cdef int32_t* chosen
    cdef int32_t* table  # open addressing: packed counts → key index + 1 (0: empty slot)
    cdef uint64_t table_mask
    cdef Py_ssize_t depth

    def __cinit__(
        self,
        const uint8_t[::1] key_letters,
        const int32_t[::1] key_start,
        const uint8_t[::1] counts,
        Py_ssize_t max_words,
        bint exact,
    ):
        cdef Py_ssize_t n_letters = counts.shape[0], k, i, w, bit = 0, field_width
        cdef Py_ssize_t shift[64]
        cdef Py_ssize_t word_of[64]
        cdef int64_t key_counts[64]
        cdef uint64_t phrase[MAX_WORDS64]  # the phrase's packed counts, before the guard bits
        self.n_keys = key_start.shape[0] - 1
        if self.n_keys < 0 or n_letters > 64 or max_words < 1:
            raise ValueError("bad phrase search arguments")
        # Lay out the fields: letter l takes bit_length(count) value bits and a guard bit.
        self.n_words64 = 1
        self.phrase_length = 0
        for i in range(MAX_WORDS64):
            self.guard[i] = 0
            self.values[i] = 0
            phrase[i] = 0
        for i in range(n_letters):
            if not 1 <= counts[i] <= 127:
                raise ValueError("letter counts must be 1-127")
            self.phrase_length += counts[i]
            field_width = 1
            while (1 << (field_width - 1)) <= counts[i]:
                field_width += 1
            if bit + field_width > 64:
                self.n_words64 += 1
                bit = 0
                if self.n_words64 > MAX_WORDS64:  # cannot happen: 8 fields of 8 bits a word
                    raise ValueError("too many letters to pack")
            word_of[i] = self.n_words64 - 1
            shift[i] = bit
            self.values[word_of[i]] |= ((<uint64_t>1 << (field_width - 1)) - 1) << bit
            self.guard[word_of[i]] |= (<uint64_t>1) << (bit + field_width - 1)
            phrase[word_of[i]] |= (<uint64_t>counts[i]) << bit
            bit += field_width
        self.max_words = min(max_words, self.phrase_length)
        self.exact = exact
        w = self.n_words64
        self.keys = <uint64_t*>calloc(self.n_keys * w + 1, sizeof(uint64_t))
        self.avail = <uint64_t*>calloc((self.n_keys + 1) * w, sizeof(uint64_t))
        self.lengths = <int32_t*>calloc(self.n_keys + 1, sizeof(int32_t))
        self.first_fit = <int32_t*>calloc(self.phrase_length + 1, sizeof(int32_t))
        self.remaining = <uint64_t*>calloc((self.max_words + 1) * w, sizeof(uint64_t))
        self.left = <int32_t*>calloc(self.max_words + 1, sizeof(int32_t))
        self.next_key = <int32_t*>calloc(self.max_words + 1, sizeof(int32_t))
        self.chosen = <int32_t*>calloc(self.max_words + 1, sizeof(int32_t))
        if not (self.keys and self.avail and self.lengths and self.first_fit and self.remaining
                and self.left and self.next_key and self.chosen):
            raise MemoryError()
        self.min_key_length = self.phrase_length + 1
        for k in range(self.n_keys):
            for i in range(n_letters):
                key_counts[i] = 0
            if not 0 <= key_start[k] < key_start[k + 1] <= key_letters.shape[0]:
                raise ValueError("key_start must increase within key_letters")
            for i in range(key_start[k], key_start[k + 1]):
                if key_letters[i] >= n_letters:
                    raise ValueError("key letter outside the phrase's letters")
                key_counts[key_letters[i]] += 1
            for i in range(n_letters):
                if key_counts[i] > counts[i]:
                    raise ValueError("a key does not fit in the phrase")
                self.keys[k * w + word_of[i]] |= (<uint64_t>key_counts[i]) << shift[i]
            self.lengths[k] = key_start[k + 1] - key_start[k]
            if k and self.lengths[k] > self.lengths[k - 1]:
                raise ValueError("keys must be in non-increasing length order")
            self.min_key_length = min(self.min_key_length, self.lengths[k])
        for k in range(self.n_keys - 1, -1, -1):  # guard bits of the letters of keys[k:]
            for i in range(w):
                self.avail[k * w + i] = self.avail[(k + 1) * w + i] | present(
                    self.keys[k * w + i], self.values[i], self.guard[i])
        k = self.n_keys
        for i in range(self.phrase_length + 1):  # keys of at most i letters start at first_fit[i]
            while k > 0 and self.lengths[k - 1] <= i:
                k -= 1
            self.first_fit[i] = k
        for i in range(w):
            self.remaining[i] = self.guard[i] | phrase[i]
        self.left[0] = self.phrase_length
        self.next_key[0] = 0
        self.depth = 0
        # (an exact search for more keys than letters has nothing to find)
        self.table_mask = 1
        while self.table_mask < 2 * self.n_keys + 2:
            self.table_mask <<= 1
        self.table = <int32_t*>calloc(self.table_mask, sizeof(int32_t))
        if not self.table:
            raise MemoryError()
        self.table_mask -= 1
        for k in range(self.n_keys):  # (distinct keys: distinct letter counts)
            i = hash_counts(self.keys + k * w, self.guard, w) & self.table_mask
            while self.table[i]:
                i = (i + 1) & self.table_mask
            self.table[i] = k + 1
        self.done = self.n_keys == 0 or (exact and max_words > self.phrase_length)

    def __dealloc__(self):
        free(self.keys)
        free(self.avail)
        free(self.lengths)
        free(self.first_fit)
        free(self.remaining)
        free(self.left)
        free(self.next_key)
        free(self.chosen)
        free(self.table)

    def next_batch(self, Py_ssize_t limit, Py_ssize_t steps=1 << 20):
        """Up to ``limit`` more phrases, each a tuple of key indices (non-decreasing), found in
        at most ``steps`` steps of the search (a step tries one key; the default takes a few
        milliseconds): fewer, or none, when the steps ran out first. ``done`` tells when
        the search is over."""
        cdef list found = []
        cdef Py_ssize_t n, k, i
        cdef int32_t* out
        cdef int32_t* row
        if self.done or limit < 1:
            return found
        out = <int32_t*>calloc(limit * (self.max_words + 1), sizeof(int32_t))
        if out == NULL:
            raise MemoryError()
        try:
            with nogil:
                n = self.search(out, limit, max(steps, 1))
            for k in range(n):
                row = out + k * (self.max_words + 1)
                found.append(tuple([row[1 + i] for i in range(row[0])]))
        finally:
            free(out)
        return found

    cdef Py_ssize_t key_of(self, const uint64_t* rem) noexcept nogil:
        """The key whose letter counts are the counts left in ``rem`` (guard bits set), or -1."""
        cdef Py_ssize_t w = self.n_words64, i, k
        cdef uint64_t slot = hash_counts(rem, self.guard, w) & self.table_mask
        cdef bint same
        while self.table[slot]:
            k = self.table[slot] - 1
            same = True
            for i in range(w):
                if self.keys[k * w + i] != rem[i] & ~self.guard[i]:
                    same = False
                    break
            if same:
                return k
            slot = (slot + 1) & self.table_mask
        return -1

    cdef Py_ssize_t search(self, int32_t* out, Py_ssize_t limit, Py_ssize_t steps) noexcept nogil:
        """Carry the depth-first search on until ``limit`` phrases are written into ``out``
        (rows of ``max_words + 1``: the word count, then the keys), ``steps`` steps are taken
        or the search ends."""
        cdef Py_ssize_t w = self.n_words64, n_out = 0, d = self.depth, i, k, words_left, need
        cdef int64_t j, length, n_left
        cdef uint64_t* rem
        cdef uint64_t* nxt
        cdef uint64_t* key
        cdef uint64_t* avail
        cdef bint fits, covered, complete
        cdef int32_t* row
        while d >= 0:
            rem = self.remaining + d * w
            n_left = self.left[d]
            words_left = self.max_words - d
            j = max(self.next_key[d], self.first_fit[n_left])
            # Room left for the keys after this one: an exact search needs words_left - 1 more.
            need = (words_left - 1) * self.min_key_length if self.exact else 0
            if need > n_left:
                j = self.n_keys
            elif need:
                j = max(j, self.first_fit[n_left - need])
            if words_left == 1 and j < self.n_keys:
                # One word left: the key of exactly the letters left, looked up, not scanned.
                if steps:
                    steps -= 1
                k = self.key_of(rem)
                j = k if k >= j else self.n_keys
                if j < self.n_keys:
                    length = self.lengths[j]
                    key = self.keys + j * w
            else:
                while j < self.n_keys:
                    if steps == 0:  # resumed at depth d, key j: letters left, remaining kept
                        self.next_key[d] = j
                        self.depth = d
                        return n_out
                    steps -= 1
                    length = self.lengths[j]
                    if length * words_left < n_left:
                        j = self.n_keys  # later keys are no longer: the words left cannot fill it
                        break
                    key = self.keys + j * w
                    fits = True
                    for i in range(w):
                        if (rem[i] - key[i]) & self.guard[i] != self.guard[i]:
                            fits = False
                            break
                    if fits:
                        break
                    j += 1
            if j >= self.n_keys:
                d -= 1
                continue
            self.next_key[d] = j + 1
            self.chosen[d] = j
            nxt = rem + w
            complete = True
            for i in range(w):
                nxt[i] = rem[i] - key[i]
                if nxt[i] != self.guard[i]:
                    complete = False
            if complete:
                if not self.exact or d + 1 == self.max_words:
                    row = out + n_out * (self.max_words + 1)
                    row[0] = d + 1
                    for i in range(d + 1):
                        row[1 + i] = self.chosen[i]
                    n_out += 1
                    if n_out == limit:
                        self.depth = d
                        return n_out
                continue
            if d + 1 == self.max_words:
                continue
            # Every letter left must occur in some key from j on (keys are never revisited).
            avail = self.avail + j * w
            covered = True
            for i in range(w):
                if present(nxt[i] & ~self.guard[i], self.values[i], self.guard[i]) & ~avail[i]:
                    covered = False
                    break
            if not covered:
                continue
            d += 1
            self.left[d] = n_left - length
            self.next_key[d] = j
        self.done = True
        self.depth = -1
        return n_out


cdef inline uint64_t hash_counts(
    const uint64_t* counts, const uint64_t* guard, Py_ssize_t w
) noexcept nogil:
    """A hash of packed letter counts (their value bits: guard bits are left out)."""
    cdef uint64_t h = 0xCBF29CE484222325ULL  # FNV-1a, a word at a time
    cdef Py_ssize_t i
    for i in range(w):
        h = (h ^ (counts[i] & ~guard[i])) * 0x100000001B3ULL
    return h ^ (h >> 29)


cdef inline uint64_t present(uint64_t counts, uint64_t values, uint64_t guard) noexcept nogil:
    """The guard bits of the fields of ``counts`` (no guard bits set) that are not zero."""
    return (counts + values) & guard
