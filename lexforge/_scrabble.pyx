# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled Scrabble move generator behind lexforge.scrabble (Appel & Jacobson, 1988).

It walks the words' letter graph (lexforge.graph's layout, read as 64-bit words: the child mask,
then the first child in the low 32 bits and the word id in the high 32) exactly as the plain-Python
generator of lexforge.reference does, direction by direction, line by line:

* anchors: empty squares next to a tile (on an empty board, the start square);
* cross-checks: the letters that make a word with the tiles above and below an empty square,
  and the value of those tiles (the cross word's score without the new tile);
* left parts: rack tiles over the empty non-anchor squares before an anchor (or the tiles
  already there), then the word grows rightwards through the anchor.

A move is one record: its score, the square of its first letter, its direction, its length and
the letters of the tiles it places, in order (``BLANK_FLAG`` set for a blank); the new tiles
fill exactly the empty squares of the word, so their squares need not be stored. No Python
object is built per move.

With ``top`` > 0 only the moves scoring at least the ``top``-th best score are kept: every anchor
gets an upper bound on the score of any move found from it (the best playable tile value on each
square, the premiums, the cross words and the bingo, over every span through the anchor; the
bingo only where the whole rack and the span's tiles are an anagram key of the lexicon), the
anchors are taken best bound first from a heap and the search stops at the first anchor whose
bound is below the ``top``-th best score found so far.

``EndgameSearch`` is lexforge.endgame's negamax over this generator: it places and lifts tiles
on its own board, updates the cross-checks and anchors around the squares that changed, and
keeps each position's plays (``EMove``: the score, the square of the first letter, the
direction, which squares of the word are new and their tiles) for the next visit, and each
line's plays by the line's squares and the rack for any board where the line reads the same
(see ``EndgameSearch.generate``). Several ``EndgameSearch`` objects, one a thread, may share one
``EndgameTable``, of fixed size, read and written without locks.
"""

from cpython cimport array
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy, memmove, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

import array

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long value) nogil
    int ctz "__builtin_ctzll"(unsigned long long value) nogil
    void prefetch "__builtin_prefetch"(const void* address) nogil

cdef extern from "<stdlib.h>" nogil:
    int posix_memalign(void** memory, size_t alignment, size_t size)

cdef extern from *:
    """
    #include <sys/mman.h>
    #ifndef MADV_HUGEPAGE  /* not Linux: no huge pages to ask for, the memory as it comes */
    #define MADV_HUGEPAGE MADV_NORMAL
    #endif
    """
    int madvise(void* address, size_t length, int advice) nogil
    int MADV_HUGEPAGE
    void* mmap(void* address, size_t length, int prot, int flags, int fd, long offset) nogil
    int munmap(void* address, size_t length) nogil
    int PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS
    void* MAP_FAILED

cdef extern from *:
    """
    #define LF_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define LF_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    """
    # Whole 64-bit (or int) loads and stores, kept as such by the compiler: the endgame's
    # shared table is read and written by several threads (plain moves on x86-64 and ARM64).
    uint64_t load_word "LF_LOAD"(const uint64_t* address) nogil
    void store_word "LF_STORE"(uint64_t* address, uint64_t value) nogil
    int load_flag "LF_LOAD"(const int* address) nogil
    void store_flag "LF_STORE"(int* address, int value) nogil

cdef enum:
    HUGE_PAGE = 2 << 20  # bytes of a huge page (x86-64, ARM64 with 4 kB pages)
    MAX_SIDE = 26
    MAX_SQUARES = MAX_SIDE * MAX_SIDE
    HEADER = 5  # ints before a record's tiles: score, row, col, across, length

BLANK_FLAG = 256
HEADER_INTS = HEADER
cdef int C_BLANK_FLAG = 256
cdef uint64_t NO_WORD = 0xFFFFFFFF
cdef int NO_CROSS = -1


cdef struct Rec:
    int32_t score
    uint8_t row, col, across, length, count
    uint8_t letters[MAX_SIDE]
    uint8_t blank[MAX_SIDE]


cdef struct Dir:  # the board seen along one direction, line-major (line r, position c)
    int lines, length
    int tile[MAX_SQUARES]  # letter index, -1 for an empty square
    int tile_value[MAX_SQUARES]  # 0 for a blank
    int letter_mult[MAX_SQUARES]
    int word_mult[MAX_SQUARES]
    uint64_t allowed[MAX_SQUARES]  # cross-check of an empty square
    int cross_value[MAX_SQUARES]  # tiles of its cross word, NO_CROSS when it has none
    uint8_t anchor[MAX_SQUARES]
    uint8_t tile_rank[MAX_SQUARES]  # a tile's place in the words' order (see ``ranks``)


cdef struct Left:  # a left part: rack tiles spelling a path of the graph from the root
    int64_t node
    uint64_t follow  # letters the rack (what it has left) may add after it, on the anchor
    int length
    uint8_t letters[MAX_SIDE]
    uint8_t blank[MAX_SIDE]


cdef struct Anchor:
    int64_t bound
    int across, line, col


cdef struct Gen:
    const uint64_t* nodes
    int64_t n_nodes
    uint64_t all_letters  # the alphabet's letters: a mask bit beyond them is ignored
    Dir* dir
    Dir* dirs  # both directions (the words' order reads the board tiles)
    const uint8_t* ranks  # see Position.ranks
    int n_letters
    int across, line
    int counts[64]
    int blanks
    uint64_t rack_mask  # letters with counts > 0
    int values[64]
    int rack_size, bingo
    int letter_stack[MAX_SIDE]
    int blank_stack[MAX_SIDE]
    int placed
    Rec* out
    Py_ssize_t n, cap
    int top
    int* best  # the top best scores found so far, descending
    int n_best
    bint failed
    Left* lefts  # the left parts of the rack of up to lefts_depth tiles, shortest first
    Py_ssize_t n_lefts, lefts_cap
    int lefts_depth  # -1 before the first anchor that needs them
    Py_ssize_t lefts_up_to[MAX_SIDE + 1]  # left parts of at most that many tiles: lefts[:n]
    int64_t rack_best[MAX_SIDE + 1]  # sum of the k highest tile values of the rack
    const uint64_t* keys  # the anagram keys' letter graph (top mode), or NULL: see may_bingo
    int64_t n_keys
    int8_t bingo_ok[2 * MAX_SQUARES]  # per direction and first square: see may_bingo


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    """splitmix64's finalizer: a 64-bit hash of ``x``."""
    x += 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef inline int64_t next_node_of(
    const uint64_t* nodes, int64_t n_nodes, int64_t node, uint64_t mask, uint64_t bit
) noexcept nogil:
    """The child of ``node`` (its child ``mask``) for the letter of ``bit``; -1 if the graph
    points outside itself. lexforge.lexicon checks a graph's structure once per file version
    (lexforge._nodecheck); this bound keeps even a graph damaged since from leading a read
    outside it, as in the other searches."""
    cdef int64_t index = <int64_t>(nodes[2 * node + 1] & NO_WORD) + popcount(mask & (bit - 1))
    return index if <uint64_t>index < <uint64_t>n_nodes else -1


cdef inline int64_t child(
    const uint64_t* nodes, int64_t n_nodes, int64_t node, int letter
) noexcept nogil:
    cdef uint64_t mask = nodes[2 * node], bit = (<uint64_t>1) << letter
    if mask & bit == 0:
        return -1
    return next_node_of(nodes, n_nodes, node, mask, bit)


cdef inline bint is_word(const uint64_t* nodes, int64_t node) noexcept nogil:
    return (nodes[2 * node + 1] >> 32) != NO_WORD


cdef inline int threshold(Gen* g) noexcept nogil:
    """The lowest score a move must have to be kept (top mode), or the lowest int."""
    if g.top > 0 and g.n_best >= g.top:
        return g.best[g.top - 1]
    return -2147483647


cdef void fill_dir(Dir* d, bint across, int rows, int cols, const uint8_t* tiles,
                   const uint8_t* blank, const uint8_t* lmult, const uint8_t* wmult,
                   const int* values, const uint8_t* ranks, const uint64_t* nodes,
                   int64_t n_nodes, int n_letters, int start, bint empty_board) noexcept nogil:
    """The direction's lines, anchors and cross-checks."""
    cdef int r, c, s, i
    d.lines = rows if across else cols
    d.length = cols if across else rows
    cdef int L = d.length
    for r in range(d.lines):
        for c in range(L):
            s = r * cols + c if across else c * cols + r
            i = r * L + c
            d.tile[i] = <int>tiles[s] - 1
            d.tile_value[i] = 0 if (tiles[s] == 0 or blank[s]) else values[tiles[s] - 1]
            d.tile_rank[i] = 0 if tiles[s] == 0 else ranks[tiles[s] - 1 + (n_letters if blank[s] else 0)]
            d.letter_mult[i] = lmult[s]
            d.word_mult[i] = wmult[s]
    cdef uint64_t all_letters = (<uint64_t>-1) if n_letters >= 64 else (((<uint64_t>1) << n_letters) - 1)
    for r in range(d.lines):
        for c in range(L):
            s = r * cols + c if across else c * cols + r
            i = r * L + c
            if d.tile[i] < 0 and (r == 0 or d.tile[i - L] < 0) and (
                r + 1 == d.lines or d.tile[i + L] < 0
            ):  # no tile across the line next to it: fill_square's answer, inline
                d.allowed[i] = all_letters
                d.cross_value[i] = NO_CROSS
                if empty_board:
                    d.anchor[i] = s == start
                else:
                    set_anchor(d, r, c)
                continue
            fill_square(d, r, c, nodes, n_nodes, n_letters, empty_board and s == start,
                        empty_board)


cdef inline void set_anchor(Dir* d, int r, int c) noexcept nogil:
    """Whether the square (line r, position c) of a board with tiles is an anchor."""
    cdef int L = d.length, i = r * L + c
    d.anchor[i] = d.tile[i] < 0 and (
        (r > 0 and d.tile[i - L] >= 0) or (r + 1 < d.lines and d.tile[i + L] >= 0)
        or (c > 0 and d.tile[i - 1] >= 0) or (c + 1 < L and d.tile[i + 1] >= 0)
    )


cdef enum:
    CROSS_SLOTS = 1 << 13  # cross-checks an endgame search keeps (see ``Cross``)


cdef struct Cross:  # a cross-check once computed: the tiles around the square, the letters
    uint64_t allowed
    uint8_t above, below  # tiles before and after the square across the lines; 0, 0: unused
    uint8_t letters[MAX_SIDE]  # their letters, top to bottom, the square left out


cdef void fill_square(Dir* d, int r, int c, const uint64_t* nodes, int64_t n_nodes,
                      int n_letters, bint start, bint empty_board,
                      Cross* crosses=NULL) noexcept nogil:
    """Whether the square (line r, position c) is an anchor, and its cross-check (the
    tiles of its line's neighbours already in ``d``); ``start``: it is the start square.
    ``crosses`` (or NULL): cross-checks already computed, by the letters around the square
    (the same letters have the same cross-check on any square), read and written."""
    cdef int L = d.length, i = r * L + c, s, top, bottom, letter, k = 0
    cdef int64_t node, branch
    cdef uint64_t mask, h
    cdef uint8_t letters[MAX_SIDE]
    cdef Cross* slot = NULL
    cdef uint64_t all_letters = (<uint64_t>-1) if n_letters >= 64 else (((<uint64_t>1) << n_letters) - 1)
    cdef uint64_t allowed
    d.anchor[i] = 0
    d.allowed[i] = 0
    d.cross_value[i] = NO_CROSS
    if d.tile[i] >= 0:
        return
    if empty_board:
        d.anchor[i] = start
    else:
        set_anchor(d, r, c)
    top = r
    while top > 0 and d.tile[(top - 1) * L + c] >= 0:
        top -= 1
    bottom = r
    while bottom + 1 < d.lines and d.tile[(bottom + 1) * L + c] >= 0:
        bottom += 1
    if top == bottom:
        d.allowed[i] = all_letters
        return
    d.cross_value[i] = 0
    for s in range(top, bottom + 1):
        if s != r:
            d.cross_value[i] += d.tile_value[s * L + c]
    if crosses != NULL:
        h = <uint64_t>(r - top) * 64 + <uint64_t>(bottom - r)
        for s in range(top, bottom + 1):
            if s != r:
                letters[k] = <uint8_t>d.tile[s * L + c]
                h = h * 0x100000001B3ULL + letters[k] + 1
                k += 1
        slot = &crosses[mix(h) & (CROSS_SLOTS - 1)]
        if (slot.above == r - top and slot.below == bottom - r
                and memcmp(slot.letters, letters, k) == 0):
            d.allowed[i] = slot.allowed
            return
    node = 0
    for s in range(top, r):
        node = child(nodes, n_nodes, node, d.tile[s * L + c])
        if node < 0:
            break
    allowed = 0
    if node >= 0:
        mask = nodes[2 * node] & all_letters  # (only a damaged graph has others)
        while mask:
            letter = ctz(mask)
            branch = child(nodes, n_nodes, node, letter)
            mask &= mask - 1
            s = r + 1
            while branch >= 0 and s <= bottom:
                branch = child(nodes, n_nodes, branch, d.tile[s * L + c])
                s += 1
            if branch >= 0 and is_word(nodes, branch):
                allowed |= (<uint64_t>1) << letter
    d.allowed[i] = allowed
    if slot != NULL:
        slot.allowed = allowed
        slot.above = r - top
        slot.below = bottom - r
        memcpy(slot.letters, letters, k)


cdef int refresh_list(Dir* d, int r, int c, int* squares, int n, uint32_t* seen,
                      uint32_t stamp) noexcept nogil:
    """After the square (line r, position c) of a board with tiles changed: add to
    ``squares[:n]`` (once each: ``seen`` is ``stamp`` for a square already there) the squares
    whose cross-check and anchor may change: it and the first empty squares before and after
    it across the lines; set the anchors of its two neighbours along its line. The new n."""
    cdef int L = d.length, line = r, k, i
    cdef int found[3]
    while line >= 0 and (line == r or d.tile[line * L + c] >= 0):
        line -= 1
    found[0] = line * L + c if line >= 0 else -1
    line = r
    while line < d.lines and (line == r or d.tile[line * L + c] >= 0):
        line += 1
    found[1] = line * L + c if line < d.lines else -1
    found[2] = r * L + c
    for k in range(3):
        i = found[k]
        if i >= 0 and seen[i] != stamp:
            seen[i] = stamp
            squares[n] = i
            n += 1
    if c > 0:
        set_anchor(d, r, c - 1)
    if c + 1 < L:
        set_anchor(d, r, c + 1)
    return n


cdef void record(Gen* g, int start, int end) noexcept nogil:
    """Score the word of the line from ``start`` to ``end`` (excluded) with the placed tiles."""
    cdef Dir* d = g.dir
    cdef int L = d.length, base = g.line * L
    cdef int col, k = 0, letter, value, main = 0, word_mult = 1, crosses = 0, score, i, pos = 0
    cdef int64_t node
    cdef Rec* rec
    for col in range(start, end):
        i = base + col
        if d.tile[i] >= 0:
            main += d.tile_value[i]
            continue
        letter = g.letter_stack[k]
        value = 0 if g.blank_stack[k] else g.values[letter] * d.letter_mult[i]
        k += 1
        pos = col
        main += value
        word_mult *= d.word_mult[i]
        if d.cross_value[i] != NO_CROSS:
            crosses += (d.cross_value[i] + value) * d.word_mult[i]
    if not g.across and g.placed == 1:
        # One tile making a word both ways is one move: the across search finds it too when the
        # tile has a neighbour across (that word is the cross-check here) or is a word alone.
        # (No word may start with the letter at all: Spanish RR. Then there is no node to read.)
        i = base + pos
        node = child(g.nodes, g.n_nodes, 0, g.letter_stack[0])
        if ((g.line > 0 and d.tile[i - L] >= 0) or (g.line + 1 < d.lines and d.tile[i + L] >= 0)
                or (node >= 0 and is_word(g.nodes, node))):
            return
    score = main * word_mult + crosses + (g.bingo if g.placed == g.rack_size else 0)
    if score < threshold(g):
        return
    if g.top > 0:
        keep_best(g, score)
    if g.n == g.cap:
        if g.top > 0 and g.n >= 4 * g.top + 256:
            compact(g)
        if g.n > g.cap // 2:  # grown unless compacting freed half: compacted seldom
            g.cap = g.cap * 2 + 64
            rec = <Rec*>realloc(g.out, g.cap * sizeof(Rec))
            if rec == NULL:
                g.failed = True
                g.cap = g.n
                return
            g.out = rec
    rec = &g.out[g.n]
    g.n += 1
    rec.score = score
    rec.across = g.across
    rec.row = g.line if g.across else start
    rec.col = start if g.across else g.line
    rec.length = end - start
    rec.count = g.placed
    for k in range(g.placed):
        rec.letters[k] = g.letter_stack[k]
        rec.blank[k] = g.blank_stack[k]


cdef void keep_best(Gen* g, int score) noexcept nogil:
    """Insert ``score`` among the top best scores (descending, at most ``top`` of them)."""
    cdef int i = g.n_best if g.n_best < g.top else g.top - 1
    if g.n_best == g.top and score <= g.best[g.top - 1]:
        return
    while i > 0 and g.best[i - 1] < score:
        g.best[i] = g.best[i - 1]
        i -= 1
    g.best[i] = score
    if g.n_best < g.top:
        g.n_best += 1


cdef void compact(Gen* g) noexcept nogil:
    """Drop the kept moves that no longer reach the threshold."""
    cdef int limit = threshold(g)
    cdef Py_ssize_t i, n = 0
    for i in range(g.n):
        if g.out[i].score >= limit:
            if n != i:
                g.out[n] = g.out[i]
            n += 1
    g.n = n


cdef void extend(Gen* g, int64_t node, int col, int anchor, int start) noexcept nogil:
    """Grow the word from ``col`` rightwards; record it wherever it may end."""
    cdef Dir* d = g.dir
    cdef int L = d.length, i = g.line * L + col, letter
    cdef int64_t next_node
    cdef uint64_t mask, candidates, bit
    if col == L:
        if col > anchor and is_word(g.nodes, node):
            record(g, start, col)
        return
    if d.tile[i] >= 0:
        next_node = child(g.nodes, g.n_nodes, node, d.tile[i])
        if next_node >= 0:
            extend(g, next_node, col + 1, anchor, start)
        return
    if col > anchor and is_word(g.nodes, node):
        record(g, start, col)
    mask = g.nodes[2 * node]
    candidates = mask & d.allowed[i] & g.all_letters
    if g.blanks == 0:
        candidates &= g.rack_mask
    while candidates:
        bit = candidates & (~candidates + 1)
        candidates ^= bit
        letter = ctz(bit)
        next_node = next_node_of(g.nodes, g.n_nodes, node, mask, bit)
        if next_node < 0:
            continue
        g.letter_stack[g.placed] = letter
        if g.counts[letter]:
            take(g, letter)
            g.blank_stack[g.placed] = 0
            g.placed += 1
            extend(g, next_node, col + 1, anchor, start)
            g.placed -= 1
            give(g, letter)
        if g.blanks:
            g.blanks -= 1
            g.blank_stack[g.placed] = 1
            g.placed += 1
            extend(g, next_node, col + 1, anchor, start)
            g.placed -= 1
            g.blanks += 1


cdef inline void take(Gen* g, int letter) noexcept nogil:
    g.counts[letter] -= 1
    if g.counts[letter] == 0:
        g.rack_mask &= ~((<uint64_t>1) << letter)


cdef inline void give(Gen* g, int letter) noexcept nogil:
    g.counts[letter] += 1
    g.rack_mask |= (<uint64_t>1) << letter


cdef void collect_lefts(Gen* g, int64_t node, int depth) noexcept nogil:
    """Every left part of exactly ``depth`` more rack tiles from ``node``, appended to
    ``g.lefts``: the same for every anchor, so each anchor only filters them (Appel & Jacobson's
    LeftPart, walked once per rack instead of once per anchor)."""
    cdef uint64_t mask = g.nodes[2 * node], candidates, bit
    cdef int letter
    cdef int64_t next_node
    cdef Left* entry
    if depth == 0:
        if g.n_lefts == g.lefts_cap:
            entry = <Left*>realloc(g.lefts, (g.lefts_cap * 2 + 64) * sizeof(Left))
            if entry == NULL:
                g.failed = True
                return
            g.lefts = entry
            g.lefts_cap = g.lefts_cap * 2 + 64
        entry = &g.lefts[g.n_lefts]
        g.n_lefts += 1
        entry.node = node
        entry.follow = (mask if g.blanks else mask & g.rack_mask) & g.all_letters
        entry.length = g.placed
        copy_stack(g, entry)
        return
    candidates = (mask if g.blanks else mask & g.rack_mask) & g.all_letters
    while candidates:
        bit = candidates & (~candidates + 1)
        candidates ^= bit
        letter = ctz(bit)
        next_node = next_node_of(g.nodes, g.n_nodes, node, mask, bit)
        if next_node < 0:
            continue
        g.letter_stack[g.placed] = letter
        if g.counts[letter]:
            take(g, letter)
            g.blank_stack[g.placed] = 0
            g.placed += 1
            collect_lefts(g, next_node, depth - 1)
            g.placed -= 1
            give(g, letter)
        if g.blanks:
            g.blanks -= 1
            g.blank_stack[g.placed] = 1
            g.placed += 1
            collect_lefts(g, next_node, depth - 1)
            g.placed -= 1
            g.blanks += 1


cdef inline void copy_stack(Gen* g, Left* entry) noexcept nogil:
    cdef int k
    for k in range(g.placed):
        entry.letters[k] = g.letter_stack[k]
        entry.blank[k] = g.blank_stack[k]


cdef void use_left(Gen* g, const Left* entry, int anchor) noexcept nogil:
    """Lay the left part before ``anchor`` and grow the word through it."""
    cdef int k
    for k in range(entry.length):
        g.letter_stack[k] = entry.letters[k]
        g.blank_stack[k] = entry.blank[k]
        if entry.blank[k]:
            g.blanks -= 1
        else:
            take(g, entry.letters[k])
    g.placed = entry.length
    extend(g, entry.node, anchor, anchor, anchor - entry.length)
    g.placed = 0
    for k in range(entry.length):
        if entry.blank[k]:
            g.blanks += 1
        else:
            give(g, entry.letters[k])


cdef int left_limit(Dir* d, int r, int c) noexcept nogil:
    """The empty non-anchor squares just before the anchor (r, c)."""
    cdef int L = d.length, limit = 0
    while c > limit and d.tile[r * L + c - limit - 1] < 0 and not d.anchor[r * L + c - limit - 1]:
        limit += 1
    return limit


cdef void ensure_lefts(Gen* g, int depth) noexcept nogil:
    """``g.lefts``: every left part of up to ``depth`` tiles, shortest first, each length in the
    walk's order (the longer ones appended when an anchor first needs them)."""
    while g.lefts_depth < depth:  # one walk per length: shortest first, no sort
        g.lefts_depth += 1
        collect_lefts(g, 0, g.lefts_depth)
        g.lefts_up_to[g.lefts_depth] = g.n_lefts


cdef void search_anchor(Gen* g, int r, int c, int n_rack, const int64_t* start_bound) noexcept nogil:
    """Every move whose leftmost anchor is (r, c); with ``start_bound`` (top mode), not the left
    parts whose first square's bound (see ``anchor_bound``) is below the threshold."""
    cdef Dir* d = g.dir
    cdef int L = d.length, start, k, length, limit
    cdef int64_t node = 0
    cdef Py_ssize_t i
    cdef uint64_t allowed = d.allowed[r * L + c]
    g.line = r
    if c > 0 and d.tile[r * L + c - 1] >= 0:  # the tiles left of the anchor start the word
        start = c - 1
        while start > 0 and d.tile[r * L + start - 1] >= 0:
            start -= 1
        for k in range(start, c):
            node = child(g.nodes, g.n_nodes, node, d.tile[r * L + k])
            if node < 0:
                return
        extend(g, node, c, c, start)
        return
    # The left parts leave a tile for the anchor.
    limit = min(left_limit(d, r, c), n_rack - 1, MAX_SIDE)
    if start_bound != NULL:
        while limit > 0 and start_bound[c - limit] < threshold(g):
            limit -= 1
    ensure_lefts(g, limit)
    if g.failed:
        return
    for length in range(limit + 1):
        if start_bound != NULL and start_bound[c - length] < threshold(g):
            continue
        for i in range(g.lefts_up_to[length - 1] if length else 0, g.lefts_up_to[length]):
            if g.lefts[i].follow & allowed == 0:
                continue
            use_left(g, &g.lefts[i], c)


cdef int64_t anchor_bound(
    Gen* g, Dir* d, int r, int c, const int* best_value, int n_rack, int64_t* start_bound
) noexcept nogil:
    """An upper bound on the score of every move found from the anchor (r, c): over every span
    through it, each empty square scored with the best rack tile it allows (``best_value``: per
    square, -1 when no rack tile may go there), premiums and cross words included; ``n_rack``:
    the rack's tiles. The bound of the spans from each first square s goes to
    ``start_bound[s]`` (-1 for none)."""
    cdef int L = d.length, base = r * L, first, last, s, e, i, k
    cdef int64_t tiles, new, mult, cross, bound = -1, total, paired
    cdef int doubles, triples
    if c > 0 and d.tile[base + c - 1] >= 0:
        first = c - 1
        while first > 0 and d.tile[base + first - 1] >= 0:
            first -= 1
        last = first
    else:
        first = c - left_limit(d, r, c)
        last = c
    for s in range(first, last + 1):
        start_bound[s] = -1
        tiles = 0
        new = 0
        mult = 1
        cross = 0
        k = 0
        doubles = 0
        triples = 0
        for e in range(s, L):
            i = base + e
            if d.tile[i] >= 0:
                tiles += d.tile_value[i]
            else:
                if best_value[i] < 0 or k == n_rack:
                    break
                k += 1
                new += best_value[i]
                doubles += d.letter_mult[i] == 2
                triples += d.letter_mult[i] == 3
                mult *= d.word_mult[i]
                if d.cross_value[i] != NO_CROSS:
                    cross += (d.cross_value[i] + best_value[i]) * d.word_mult[i]
            if e >= c and (e + 1 == L or d.tile[i + 1] < 0):
                # The new tiles score at most the rack's best values on the best letter premiums.
                paired = g.rack_best[k] + g.rack_best[doubles + triples] + g.rack_best[triples]
                total = (tiles + min(new, paired)) * mult + cross
                if k == g.rack_size:
                    if not may_bingo(g, d, r, s, e):
                        continue  # the rack makes no word with the span's tiles
                    total += g.bingo
                if total > start_bound[s]:
                    start_bound[s] = total
        if start_bound[s] > bound:
            bound = start_bound[s]
    return bound


cdef bint may_bingo(Gen* g, Dir* d, int r, int s, int e) noexcept nogil:
    """Whether the whole rack and the tiles of the line from ``s`` to ``e`` (included) may spell
    a word: whether the multiset of their letters is an anagram key of the lexicon (any letter
    for a blank, up to one blank; always with more or without the key graph). Per line and
    first square, as a line has one span from ``s`` that places the whole rack."""
    cdef int L = d.length, letter, i
    cdef int need[64]
    cdef int8_t* known = &g.bingo_ok[(0 if d == g.dirs else MAX_SQUARES) + r * L + s]
    if g.keys == NULL or g.blanks > 1:
        return True
    if known[0] < 0:
        for letter in range(g.n_letters):
            need[letter] = g.counts[letter]
        for i in range(r * L + s, r * L + e + 1):
            if d.tile[i] >= 0:
                need[d.tile[i]] += 1
        known[0] = has_key(g.keys, g.n_keys, 0, need, 0, g.n_letters, g.blanks)
    return known[0]


cdef bint has_key(const uint64_t* nodes, int64_t n_nodes, int64_t node, const int* need,
                  int letter, int n_letters, int wild) noexcept nogil:
    """Whether the anagram keys' graph holds, from ``node``, a key of ``need[l]`` times each
    letter l from ``letter`` on (keys list letters in the graph's order), plus ``wild`` letters
    of any kind."""
    cdef int extra, k
    cdef int64_t at
    if wild == 0:  # one path: each letter's count in turn
        while letter < n_letters:
            for k in range(need[letter]):
                node = child(nodes, n_nodes, node, letter)
                if node < 0:
                    return False
            letter += 1
        return is_word(nodes, node)
    if letter == n_letters:
        return False
    for extra in range(wild + 1):
        at = node
        for k in range(need[letter] + extra):
            at = child(nodes, n_nodes, at, letter)
            if at < 0:
                return False  # more of this letter is no key either
        if has_key(nodes, n_nodes, at, need, letter + 1, n_letters, wild - extra):
            return True
    return False


cdef enum:
    SLOT_BITS = 11  # an anchor's index in its heap key: 2 * MAX_SQUARES < 2 ** SLOT_BITS


cdef inline int64_t anchor_key(const Anchor* a, int slot) noexcept nogil:
    """The anchor's place in the search (top mode), highest first: best bound, then across
    first, then line and position; its index ``slot`` in the low bits. Its bound is ≥ 0."""
    return ((((a.bound * 2 + a.across) * 32 + (31 - a.line)) * 32 + (31 - a.col))
            << SLOT_BITS) + slot


cdef void sift_down(int64_t* heap, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """Restore the max-heap below ``heap[i]``."""
    cdef Py_ssize_t j
    cdef int64_t v = heap[i]
    while 2 * i + 1 < n:
        j = 2 * i + 1
        if j + 1 < n and heap[j + 1] > heap[j]:
            j += 1
        if heap[j] <= v:
            break
        heap[i] = heap[j]
        i = j
    heap[i] = v


cdef bint order_moves(Gen* g, int32_t* order) noexcept nogil:
    """``order``: the moves' indices best first (score, then square, across first), by two
    stable counting sorts (square, then score): linear in the moves. False if out of memory."""
    cdef Py_ssize_t i, n = g.n
    cdef int low = 0, high = 0, key, total, count
    cdef int32_t* by_square = <int32_t*>malloc((n + 1) * sizeof(int32_t))
    cdef int32_t* counts
    for i in range(n):
        if i == 0 or g.out[i].score < low:
            low = g.out[i].score
        if i == 0 or g.out[i].score > high:
            high = g.out[i].score
    cdef int buckets = max(high - low + 1, 2 * MAX_SQUARES)
    counts = <int32_t*>malloc((buckets + 1) * sizeof(int32_t))
    if by_square == NULL or counts == NULL:
        free(by_square)
        free(counts)
        return False
    memset(counts, 0, (buckets + 1) * sizeof(int32_t))
    for i in range(n):
        counts[square_key(&g.out[i])] += 1
    total = 0
    for key in range(buckets):
        count = counts[key]
        counts[key] = total
        total += count
    for i in range(n):
        key = square_key(&g.out[i])
        by_square[counts[key]] = i
        counts[key] += 1
    memset(counts, 0, (buckets + 1) * sizeof(int32_t))
    for i in range(n):
        counts[high - g.out[i].score] += 1
    total = 0
    for key in range(buckets):
        count = counts[key]
        counts[key] = total
        total += count
    for i in range(n):
        key = high - g.out[by_square[i]].score
        order[counts[key]] = by_square[i]
        counts[key] += 1
    free(by_square)
    free(counts)
    return True


cdef enum:
    KEY = MAX_SIDE + 2  # bytes of a word's sort key: its letters' ranks + 1, then zeros


cdef void word_key(const Gen* g, const Rec* rec, uint8_t* key) noexcept nogil:
    """``key``: the ranks + 1 of the letters of the move's main word, then zeros, so that
    ``memcmp`` orders keys as Python orders the words (a prefix first)."""
    cdef const Dir* d = &g.dirs[0 if rec.across else 1]
    cdef int L = d.length, line = rec.row if rec.across else rec.col
    cdef int first = rec.col if rec.across else rec.row, j, i, k = 0
    memset(key, 0, KEY)
    for j in range(rec.length):
        i = line * L + first + j
        if d.tile[i] >= 0:
            key[j] = d.tile_rank[i] + 1
        else:
            key[j] = g.ranks[rec.letters[k] + (g.n_letters if rec.blank[k] else 0)] + 1
            k += 1


cdef void merge_sort(const uint8_t* keys, int32_t* a, int32_t* tmp, Py_ssize_t n) noexcept nogil:
    """``a`` (indices into ``keys``) by key: insertion sort below 9, else a merge sort."""
    cdef Py_ssize_t i, j, k, mid
    cdef int32_t v
    if n <= 8:
        for i in range(1, n):
            v = a[i]
            j = i
            while j > 0 and memcmp(keys + a[j - 1] * KEY, keys + v * KEY, KEY) > 0:
                a[j] = a[j - 1]
                j -= 1
            a[j] = v
        return
    mid = n // 2
    merge_sort(keys, a, tmp, mid)
    merge_sort(keys, a + mid, tmp, n - mid)
    i, j, k = 0, mid, 0
    while i < mid and j < n:
        if memcmp(keys + a[j] * KEY, keys + a[i] * KEY, KEY) < 0:
            tmp[k] = a[j]
            j += 1
        else:
            tmp[k] = a[i]
            i += 1
        k += 1
    while i < mid:
        tmp[k] = a[i]
        i += 1
        k += 1
    memcpy(a, tmp, k * sizeof(int32_t))  # the rest of the right half is in place


cdef bint order_words(Gen* g, int32_t* order) noexcept nogil:
    """Each run of moves of one score, square and direction in ``order`` sorted by word, so
    that the order is total (one word on one square and direction is one move). False if out
    of memory."""
    cdef Py_ssize_t low = 0, high, k, m
    cdef const Rec* x
    cdef const Rec* y
    cdef int32_t* local = NULL  # a run's positions 0…m-1, sorted by key; then a scratch half
    cdef uint8_t* keys = NULL
    cdef int32_t* moves = NULL
    while low < g.n:
        high = low + 1
        x = &g.out[order[low]]
        while high < g.n:
            y = &g.out[order[high]]
            if x.score != y.score or x.row != y.row or x.col != y.col or x.across != y.across:
                break
            high += 1
        m = high - low
        if m > 1:
            if local == NULL:
                local = <int32_t*>malloc(2 * g.n * sizeof(int32_t))
                moves = <int32_t*>malloc(g.n * sizeof(int32_t))
                keys = <uint8_t*>malloc(g.n * KEY)
                if local == NULL or moves == NULL or keys == NULL:
                    free(local)
                    free(moves)
                    free(keys)
                    return False
            for k in range(m):
                local[k] = k
                moves[k] = order[low + k]
                word_key(g, &g.out[moves[k]], keys + k * KEY)
            merge_sort(keys, local, local + g.n, m)
            for k in range(m):
                order[low + k] = moves[local[k]]
        low = high
    free(local)
    free(moves)
    free(keys)
    return True


cdef inline int square_key(const Rec* rec) noexcept nogil:
    return (rec.row * MAX_SIDE + rec.col) * 2 + (0 if rec.across else 1)


cdef void rack_best_values(Gen* g) noexcept nogil:
    """``g.rack_best[k]``: the sum of the k highest values of the rack's tiles (blanks 0)."""
    cdef int sorted_values[MAX_SIDE]
    cdef int n = 0, letter, k, j, v
    for letter in range(64):
        for k in range(g.counts[letter]):
            if n < MAX_SIDE:
                v = g.values[letter]
                j = n
                while j > 0 and sorted_values[j - 1] < v:
                    sorted_values[j] = sorted_values[j - 1]
                    j -= 1
                sorted_values[j] = v
                n += 1
    g.rack_best[0] = 0
    for k in range(1, MAX_SIDE + 1):
        g.rack_best[k] = g.rack_best[k - 1] + (sorted_values[k - 1] if k <= n else 0)


cdef void best_values(Gen* g, Dir* d, int* best_value) noexcept nogil:
    """Per empty square, the highest value (letter premium included) a rack tile may score there;
    0 if only a blank may go there, -1 if nothing may."""
    cdef int i, letter, v, highest = 0
    cdef uint64_t playable
    for letter in range(g.n_letters):
        if g.counts[letter] and g.values[letter] > highest:
            highest = g.values[letter]
    for i in range(d.lines * d.length):
        best_value[i] = -1
        if d.tile[i] >= 0 or d.allowed[i] == 0:
            continue
        if g.blanks:
            best_value[i] = 0
        playable = d.allowed[i] & g.rack_mask
        if playable == g.rack_mask and playable:  # any rack tile: the highest value
            best_value[i] = highest * d.letter_mult[i]
            continue
        while playable:
            letter = ctz(playable)
            playable &= playable - 1
            v = g.values[letter] * d.letter_mult[i]
            if v > best_value[i]:
                best_value[i] = v


def known_rows(str text, dict known, int rows, int cols):
    """The tiles (a tuple, row-major) and the squares of the blanks of a board whose every line
    is a row of ``known`` (stripped line → its tiles and the positions of its blanks) of ``cols``
    squares, ``rows`` of them (blank lines skipped); None otherwise."""
    cdef list tiles = [], blanks = []
    cdef int count = 0
    cdef Py_ssize_t first
    cdef PyObject* found
    cdef tuple row
    cdef str line
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        found = PyDict_GetItem(known, line)
        if found == NULL:
            return None
        row = <tuple>found
        if len(<tuple>row[0]) != cols:
            return None
        if row[1]:
            first = len(tiles)
            for k in row[1]:
                blanks.append(first + k)
        tiles.extend(<tuple>row[0])
        count += 1
    if count != rows:
        return None
    return tuple(tiles), blanks


def tile_codes(tiles, dict codes):
    """The board's tiles as bytes, ``codes[tile]`` each (0…255); None if a tile has no code."""
    cdef tuple squares = tuple(tiles)
    cdef Py_ssize_t i, n = len(squares)
    cdef bytes result = PyBytes_FromStringAndSize(NULL, n)
    cdef char* out = PyBytes_AS_STRING(result)
    cdef PyObject* found
    cdef object tile, last = None
    cdef int code = 0
    for i in range(n):
        tile = squares[i]
        if tile is not last:  # runs of one tile object (empty squares) are looked up once
            found = PyDict_GetItem(codes, tile)
            if found == NULL:
                return None
            code = <object>found
            if not 0 <= code <= 255:
                raise ValueError(f"tile code {code} beyond a byte")
            last = tile
        out[i] = <char>code
    return result


cdef class Position:
    """A board prepared for one lexicon's graph and tile values: both directions' lines,
    anchors and cross-checks, computed once and shared by every rack played on it."""

    cdef const uint64_t[::1] nodes  # holds the graph's buffer while the position lives
    cdef Dir* dirs
    cdef Anchor* anchors  # bound 0; across, line, col
    cdef int n_anchors, n_letters
    cdef int values[64]
    cdef uint8_t ranks[128]  # per letter, its place in the order of the words' letters, then
                             # that of its lowercase (a blank): as Python compares strings

    def __cinit__(
        self,
        const uint64_t[::1] nodes,
        int rows,
        int cols,
        bytes tiles,
        bytes blanks,
        bytes letter_mult,
        bytes word_mult,
        int start,
        values,
        int n_letters,
        bytes ranks,
    ) -> None:
        """Board squares are row-major: ``tiles`` holds letter index + 1 (0 for an empty
        square), ``blanks`` 1 where the tile is a blank, ``letter_mult``/``word_mult`` the
        premiums; ``values`` the tile value per graph letter; ``ranks`` the place of each graph
        letter, then of each one's lowercase, in the order of their characters (the words'
        order breaks ties between moves)."""
        if not (0 < rows <= MAX_SIDE and 0 < cols <= MAX_SIDE):
            raise ValueError(f"board of {rows}×{cols} squares; at most {MAX_SIDE}×{MAX_SIDE}")
        if nodes.shape[0] < 2 or nodes.shape[0] % 2:
            raise ValueError("a letter graph of no whole node")
        if not (len(tiles) == len(blanks) == len(letter_mult) == len(word_mult) == rows * cols):
            raise ValueError("board arrays of the wrong size")
        if not (0 < n_letters <= 64 and len(values) == n_letters and len(ranks) == 2 * n_letters):
            raise ValueError("letter arrays of the wrong size")
        cdef const uint8_t* t = tiles
        cdef const uint8_t* blank = blanks
        cdef const uint8_t* lmult = letter_mult
        cdef const uint8_t* wmult = word_mult
        cdef const uint8_t* rank = ranks
        cdef int i, k, r, c
        cdef bint empty_board = True
        for i in range(rows * cols):
            if t[i] > n_letters:
                raise ValueError(f"tile {t[i]} beyond the {n_letters} letters")
            if not (1 <= lmult[i] <= 3 and 1 <= wmult[i]):
                raise ValueError("letter premiums are 1, 2 or 3; word premiums at least 1")
            if t[i]:
                empty_board = False
        self.nodes = nodes
        self.n_letters = n_letters
        i = 0
        for value in values:
            self.values[i] = value
            i += 1
        memcpy(self.ranks, rank, 2 * n_letters)
        self.dirs = <Dir*>malloc(2 * sizeof(Dir))
        self.anchors = <Anchor*>malloc(2 * MAX_SQUARES * sizeof(Anchor))
        if self.dirs == NULL or self.anchors == NULL:
            raise MemoryError()
        for k in range(2):
            fill_dir(&self.dirs[k], k == 0, rows, cols, t, blank, lmult, wmult, self.values,
                     self.ranks, &nodes[0], nodes.shape[0] // 2, n_letters, start, empty_board)
            for r in range(self.dirs[k].lines):
                for c in range(self.dirs[k].length):
                    if self.dirs[k].anchor[r * self.dirs[k].length + c]:
                        self.anchors[self.n_anchors].across = k == 0
                        self.anchors[self.n_anchors].line = r
                        self.anchors[self.n_anchors].col = c
                        self.anchors[self.n_anchors].bound = 0
                        self.n_anchors += 1

    def __dealloc__(self) -> None:
        free(self.dirs)
        free(self.anchors)


def generate(
    Position position, counts, int jokers, int rack_size, int bingo, int top=0,
    const uint64_t[::1] keys=None,
):
    """The moves of a rack on a prepared board, best first (score, then square, across first,
    then the main word as Python orders strings), as one ``array('i')`` of records of
    ``HEADER + width`` ints, and ``width``.

    ``counts`` holds the rack's tiles per graph letter, ``jokers`` its blanks. A record is:
    score, row, column, across (1) or down (0), length of the main word, then the placed tiles'
    letters in order (``BLANK_FLAG`` added for a blank), padded with -1 to ``width`` = the
    rack's tiles. ``top`` > 0 keeps only the moves scoring at least the ``top``-th best score;
    then ``keys``, the lexicon's anagram keys' letter graph (lexforge.lexicon's
    ``anagram_nodes``, in the graph's letter order), drops the bingo from the bound of a span
    whose tiles and the rack's make no word.
    """
    cdef int n_letters = position.n_letters
    if len(counts) != n_letters:
        raise ValueError("letter arrays of the wrong size")
    cdef int i, k, r, width, n_anchors = position.n_anchors
    cdef Gen g
    cdef Dir* dirs = position.dirs
    cdef Anchor* anchors = <Anchor*>malloc((n_anchors + 1) * sizeof(Anchor))
    cdef int* best = <int*>malloc((top if top > 0 else 1) * sizeof(int))
    cdef int* best_value = <int*>malloc(2 * MAX_SQUARES * sizeof(int))
    cdef int64_t* start_bounds = NULL  # per anchor, MAX_SIDE of them: see anchor_bound
    cdef int64_t* heap = NULL  # top mode: the anchors left to search (see anchor_key)
    cdef Py_ssize_t n_heap = 0
    cdef int n_rack
    cdef array.array result
    cdef int32_t* order = NULL
    cdef int* out
    cdef const Rec* rec
    memset(&g, 0, sizeof(Gen))
    try:
        if anchors == NULL or best == NULL or best_value == NULL:
            raise MemoryError()
        memcpy(anchors, position.anchors, n_anchors * sizeof(Anchor))
        memcpy(g.values, position.values, sizeof(g.values))
        for i in range(n_letters):
            g.counts[i] = counts[i]
            if g.counts[i] > 0:
                g.rack_mask |= (<uint64_t>1) << i
        width = jokers
        for i in range(n_letters):
            width += g.counts[i]
        n_rack = width
        rack_best_values(&g)
        g.dirs = dirs
        g.ranks = position.ranks
        g.n_letters = n_letters
        g.nodes = &position.nodes[0]
        g.n_nodes = position.nodes.shape[0] // 2
        g.all_letters = (<uint64_t>-1) if n_letters >= 64 else ((<uint64_t>1) << n_letters) - 1
        g.blanks = jokers
        g.rack_size = rack_size
        g.bingo = bingo
        g.top = top
        g.best = best
        if keys is not None and keys.shape[0] >= 2:
            g.keys = &keys[0]
            g.n_keys = keys.shape[0] // 2
        memset(g.bingo_ok, -1, sizeof(g.bingo_ok))
        g.lefts_depth = -1
        g.cap = 256
        g.out = <Rec*>malloc(g.cap * sizeof(Rec))
        if g.out == NULL:
            raise MemoryError()
        with nogil:
            if top > 0:
                start_bounds = <int64_t*>malloc((n_anchors + 1) * MAX_SIDE * sizeof(int64_t))
                heap = <int64_t*>malloc((n_anchors + 1) * sizeof(int64_t))
                if start_bounds == NULL or heap == NULL:
                    g.failed = True
                    n_anchors = 0
                for k in range(2):
                    g.dir = &dirs[k]
                    best_values(&g, &dirs[k], best_value + k * MAX_SQUARES)
                # The anchors in a max-heap by bound (none without a playable span): only those
                # searched are taken out, until the best bound left is below the threshold.
                for i in range(n_anchors):
                    k = 0 if anchors[i].across else 1
                    anchors[i].bound = anchor_bound(
                        &g, &dirs[k], anchors[i].line, anchors[i].col,
                        best_value + k * MAX_SQUARES, n_rack, start_bounds + i * MAX_SIDE
                    )
                    if anchors[i].bound >= 0:
                        heap[n_heap] = anchor_key(&anchors[i], i)
                        n_heap += 1
                for i in range(n_heap // 2 - 1, -1, -1):
                    sift_down(heap, n_heap, i)
                while n_heap > 0 and not g.failed:
                    i = heap[0] & ((1 << SLOT_BITS) - 1)
                    if anchors[i].bound < threshold(&g):
                        break
                    n_heap -= 1
                    heap[0] = heap[n_heap]
                    sift_down(heap, n_heap, 0)
                    g.across = anchors[i].across
                    g.dir = &dirs[0 if g.across else 1]
                    search_anchor(&g, anchors[i].line, anchors[i].col, n_rack,
                                  start_bounds + i * MAX_SIDE)
            else:
                for i in range(n_anchors):
                    if g.failed:
                        break
                    g.across = anchors[i].across
                    g.dir = &dirs[0 if g.across else 1]
                    search_anchor(&g, anchors[i].line, anchors[i].col, n_rack, NULL)
            if top > 0:
                compact(&g)
            order = <int32_t*>malloc((g.n + 1) * sizeof(int32_t))
            if order == NULL or not order_moves(&g, order) or not order_words(&g, order):
                g.failed = True
        if g.failed:
            raise MemoryError()
        result = array.clone(array.array("i"), g.n * (HEADER + width), zero=False)
        out = result.data.as_ints
        for i in range(g.n):
            rec = &g.out[order[i]]
            k = i * (HEADER + width)
            out[k] = rec.score
            out[k + 1] = rec.row
            out[k + 2] = rec.col
            out[k + 3] = rec.across
            out[k + 4] = rec.length
            for r in range(width):
                out[k + HEADER + r] = (
                    rec.letters[r] + (C_BLANK_FLAG if rec.blank[r] else 0) if r < rec.count else -1
                )
        return result, width
    finally:
        free(g.out)
        free(order)
        free(g.lefts)
        free(anchors)
        free(start_bounds)
        free(heap)
        free(best)
        free(best_value)


# ---------------------------------------------------------------------------------------------
# The endgame search (lexforge.endgame): negamax over both known racks, compiled end to end.


cdef enum:
    MAX_RACK = 16  # tiles a rack may hold in the endgame search
    MAX_LINE = 256  # turns of a best line read back
    BLANK_CODE = 64  # added to a letter index: a blank played as that letter
    PASS = -1  # a turn index: the pass
    NO_TURN = -2
    COMPLETE = 32767  # a table entry's depth when no line below it met the horizon
    INFINITE = 1 << 29
    SCORELESS_END = 6  # six scoreless turns in a row end the game (lexforge.game)
    PLAYOUT_FIRST = 1 << 20  # added to a play-out's search order

cdef uint64_t NO_KEY = 0


cdef struct EMove:  # a play of the endgame search (fields laid out for 40 bytes, no padding)
    uint64_t key  # the hash of its tiles on their squares
    int32_t score
    uint32_t new  # bit j: the word's j-th square gets a placed tile
    uint8_t code[MAX_RACK]  # their letter index, BLANK_CODE added for a blank
    uint8_t count, row, col, across, length


cdef struct Ranked:  # a play being ordered for the search: its order, its key, where it is
    int32_t order  # search order: higher first
    uint64_t key  # ties: the lower key first (distinct plays' keys differ)
    const EMove* move


cdef struct LinePlays:  # the plays of one line for one rack, kept: this header, then what
    int32_t size, n     # they depend on (``size`` bytes: see EndgameSearch.find_line), then
    int32_t line, blanks  # the ``n`` plays; direction * MAX_SIDE + line; the rack's blanks


cdef struct RackFit:  # the root plays whose tiles a rack holds: indices in root order
    uint64_t hash  # the rack's (Side.hash)
    int32_t* plays  # NULL: an unused slot
    int32_t n, blanks
    uint8_t counts[64]  # the rack's tiles per letter


cdef struct LineSlot:  # a slot of the table of kept lines: the entry's hash beside it, so
    uint64_t hash       # that a probe reads the entries of other hashes no further
    LinePlays* entry  # NULL: an empty slot


cdef struct MoveSet:  # the plays of one rack on one board, in search order
    uint64_t key
    EMove* moves
    int32_t n


cdef struct Arena:  # memory handed out in order and freed all at once: the kept plays
    char* chunk  # the current chunk; its first bytes point to the chunk before it
    size_t used, size


cdef void* arena_alloc(Arena* arena, size_t size) noexcept nogil:
    """``size`` bytes (8-aligned) from the arena, in a new chunk of at least 1 MB when the
    current one is full; NULL if out of memory."""
    cdef char* chunk
    cdef size_t capacity
    size = (size + 7) & ~(<size_t>7)
    if arena.chunk == NULL or arena.used + size > arena.size:
        capacity = max(<size_t>(1 << 20), size + 8)
        chunk = <char*>malloc(capacity)
        if chunk == NULL:
            return NULL
        (<char**>chunk)[0] = arena.chunk
        arena.chunk, arena.used, arena.size = chunk, 8, capacity
    arena.used += size
    return arena.chunk + arena.used - size


cdef void arena_clear(Arena* arena) noexcept nogil:
    """Free every chunk."""
    cdef char* before
    while arena.chunk != NULL:
        before = (<char**>arena.chunk)[0]
        free(arena.chunk)
        arena.chunk = before
    arena.used = arena.size = 0


cdef struct Entry:  # a transposition table's slot: a position's record in three words
    uint64_t check  # the position's key ^ bounds ^ more: a slot read half-written (another
    uint64_t bounds  # thread storing it meanwhile) reads as another key (Hyatt's lockless
    uint64_t more  # hashing); bounds: lower, upper (int32 each); more: depth (16 bits), then
    # whether the best turn is a helper thread's (1 bit), best (the high 32 bits)


cdef struct Found:  # a slot as read: the key it holds (NO_KEY: empty) and its record
    uint64_t key
    int32_t lower, upper
    int32_t depth  # searched that many turns deep; COMPLETE: to the end of every line
    int32_t best  # the best turn's index in the position's MoveSet, PASS, or NO_TURN
    bint helped  # the best turn is a helper thread's (EndgameSearch.perturb)


cdef enum:
    BUCKET = 4  # the slots a key may take in a shared table (EndgameTable)


cdef inline void read_slot(const Entry* slot, Found* found) noexcept nogil:
    """Read ``slot`` once, word by word, into ``found``."""
    cdef uint64_t check = load_word(&slot.check)
    cdef uint64_t bounds = load_word(&slot.bounds)
    cdef uint64_t more = load_word(&slot.more)
    found.key = check ^ bounds ^ more
    found.lower = <int32_t><uint32_t>bounds
    found.upper = <int32_t><uint32_t>(bounds >> 32)
    found.depth = <int32_t>(more & 0xFFFF)
    found.helped = (more >> 16) & 1
    found.best = <int32_t><uint32_t>(more >> 32)


cdef inline void write_slot(Entry* slot, uint64_t key, int lower, int upper, int depth,
                            int best, bint helped) noexcept nogil:
    """Write a position's record into ``slot``, word by word."""
    cdef uint64_t bounds = <uint64_t><uint32_t>lower | (<uint64_t><uint32_t>upper) << 32
    cdef uint64_t more = (<uint64_t>depth | (<uint64_t>helped) << 16
                          | (<uint64_t><uint32_t>best) << 32)
    store_word(&slot.bounds, bounds)
    store_word(&slot.more, more)
    store_word(&slot.check, key ^ bounds ^ more)


cdef class EndgameTable:
    """A transposition table of fixed size that the searches of one endgame share, each on its
    own thread (lexforge.endgame.solve with threads), and the flag that stops them all: a key
    takes one of the ``BUCKET`` slots of its bucket, the least deep giving way to a new key."""

    cdef Entry* slots
    cdef int64_t mask
    cdef int stopped
    cdef int round  # the main search's current search: a helper's search of another stops

    def __cinit__(self, int64_t size_bytes) -> None:
        """A table of at most ``size_bytes`` (a power of two slots, at least one bucket)."""
        cdef int64_t n = BUCKET
        cdef void* memory
        while 2 * n * <int64_t>sizeof(Entry) <= size_bytes:
            n *= 2
        # Zeroed pages mapped as the search first touches them (on huge pages where the system
        # gives them on request): no time spent up front on memory a short search never uses.
        memory = mmap(NULL, n * sizeof(Entry), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if memory == MAP_FAILED:
            raise MemoryError()
        madvise(memory, n * sizeof(Entry), MADV_HUGEPAGE)
        self.slots = <Entry*>memory
        self.mask = n - 1

    def __dealloc__(self) -> None:
        if self.slots != NULL:
            munmap(self.slots, (self.mask + 1) * sizeof(Entry))

    def used(self) -> int:
        """The slots holding a position."""
        cdef int64_t i, n = 0
        cdef Found found
        for i in range(self.mask + 1):
            read_slot(&self.slots[i], &found)
            n += found.key != NO_KEY
        return n

    def stop(self) -> None:
        """Stop every search on the table (their ``search`` returns None)."""
        store_flag(&self.stopped, 1)

    def next_round(self) -> int:
        """Begin the main search's next search: the helpers' searches of the previous one stop
        (``EndgameSearch.search`` with ``round``); its number."""
        store_flag(&self.round, self.round + 1)
        return self.round


cdef inline uint64_t tile_key(int square, int code) noexcept nogil:
    return mix(<uint64_t>(square * 256 + code + 1))


cdef struct Side:  # one player's rack
    int counts[64]
    int blanks
    int tiles
    int points  # the rack's value (blanks 0)
    uint64_t hash  # Zobrist: rack_tile_key of each tile (its letter, its copy), updated in play


cdef inline uint64_t rack_tile_key(int letter, int copy) noexcept nogil:
    """The hash of the ``copy``-th tile of a letter (64: a blank) on a rack."""
    return mix(<uint64_t>(0x5A5A0000 + letter * MAX_RACK + copy))


cdef inline int line_index(const Rec* rec) noexcept nogil:
    """The line of a generated move, as EndgameSearch groups plays: direction * MAX_SIDE + line."""
    return rec.row if rec.across else MAX_SIDE + rec.col


cdef inline void rank(Ranked* ranked, const EMove* move, int32_t order) noexcept nogil:
    """Set ``ranked`` to the play ``move`` with its search order."""
    ranked.move = move
    ranked.key = move.key
    ranked.order = order


cdef inline bint ranked_before(const Ranked* x, const Ranked* y) noexcept nogil:
    """Whether ``x`` is searched before ``y``: the higher order, then the lower key."""
    return x.order > y.order or (x.order == y.order and x.key < y.key)


cdef inline int32_t base_order(const EMove* move) noexcept nogil:
    """A play's search order but for a play-out's raise: its score plus 3 points a tile."""
    return move.score + 3 * move.count


cdef inline int32_t search_order(const EMove* move, const Side* side) noexcept nogil:
    """A play's search order for the rack ``side``: a play-out first, then by score plus 3
    points a tile placed (tiles dumped early shorten the game)."""
    return base_order(move) + (PLAYOUT_FIRST if move.count == side.tiles else 0)


cdef inline EMove* line_moves(LinePlays* entry) noexcept nogil:
    """The plays kept after the entry's state."""
    return <EMove*>(<uint8_t*>entry + sizeof(LinePlays) + entry.size)


cdef void merge_two(const Ranked* src, Ranked* dst, Py_ssize_t left, Py_ssize_t mid,
                    Py_ssize_t end) noexcept nogil:
    """Merge the sorted ``src[left:mid]`` and ``src[mid:end]`` into ``dst[left:end]``, stably."""
    cdef Py_ssize_t right = mid, k = left
    while left < mid and right < end:
        if ranked_before(&src[right], &src[left]):
            dst[k] = src[right]
            right += 1
        else:
            dst[k] = src[left]
            left += 1
        k += 1
    if left < mid:
        memcpy(&dst[k], &src[left], (mid - left) * sizeof(Ranked))
    if right < end:
        memcpy(&dst[k], &src[right], (end - right) * sizeof(Ranked))


cdef void merge_runs(Ranked* a, Ranked* tmp, Py_ssize_t* starts, Py_ssize_t n_runs) noexcept nogil:
    """Sort ``a`` whose runs ``a[starts[i]:starts[i + 1]]`` (i < n_runs) are each sorted in
    search order, by merging them pairwise, stably (``tmp``: room for as many; ``starts``
    overwritten)."""
    cdef Ranked* src = a
    cdef Ranked* dst = tmp
    cdef Ranked* swap
    cdef Py_ssize_t r, out
    while n_runs > 1:
        out = 0
        for r in range(0, n_runs, 2):
            if r + 1 == n_runs:
                memcpy(&dst[starts[r]], &src[starts[r]],
                       (starts[r + 1] - starts[r]) * sizeof(Ranked))
            else:
                merge_two(src, dst, starts[r], starts[r + 1], starts[r + 2])
            starts[out] = starts[r]
            out += 1
        starts[out] = starts[n_runs]
        n_runs = out
        swap = src
        src = dst
        dst = swap
    if src != a:
        memcpy(&a[starts[0]], &src[starts[0]], (starts[1] - starts[0]) * sizeof(Ranked))


cdef void sort_ranked(Ranked* a, Ranked* tmp, Py_ssize_t n) noexcept nogil:
    """Sort ``a[:n]`` in search order, stably (``tmp``: room for n): insertion sort on runs of
    16, then bottom-up merges (the comparison inline, the items 24 bytes: no qsort callback)."""
    cdef Py_ssize_t i, j, start, end, width = 16
    cdef Ranked v
    cdef Ranked* src = a
    cdef Ranked* dst = tmp
    cdef Ranked* swap
    start = 0
    while start < n:
        end = min(start + 16, n)
        for i in range(start + 1, end):
            v = a[i]
            j = i
            while j > start and ranked_before(&v, &a[j - 1]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = v
        start = end
    while width < n:
        start = 0
        while start < n:
            end = min(start + 2 * width, n)
            merge_two(src, dst, start, min(start + width, n), end)
            start = end
        swap = src
        src = dst
        dst = swap
        width *= 2
    if src != a:
        memcpy(a, src, n * sizeof(Ranked))


cdef class EndgameSearch:
    """One endgame: the board (tiles placed and lifted as the search plays), both racks, the
    transposition table, the plays generated per position, the budget."""

    cdef const uint64_t[::1] nodes
    cdef int rows, cols, start, n_letters, rack_size, bingo
    cdef int values[64]
    cdef uint8_t ranks[128]
    cdef uint8_t tiles[MAX_SQUARES]  # letter index + 1, 0 for an empty square
    cdef uint8_t blank[MAX_SQUARES]
    cdef uint8_t lmult[MAX_SQUARES]
    cdef uint8_t wmult[MAX_SQUARES]
    cdef bint empty_root
    cdef int placed  # tiles placed since the root
    cdef uint64_t board_key  # the hash of the tiles placed since the root
    cdef Side sides[2]
    cdef Dir* dirs
    cdef uint8_t filled[MAX_SQUARES]  # the tiles ``dirs`` were filled for
    cdef uint8_t filled_blank[MAX_SQUARES]
    cdef bint filled_ok, filled_empty
    cdef uint32_t seen[2][MAX_SQUARES]  # per direction: the squares update_dirs refills…
    cdef uint32_t stamp  # …are those whose seen is stamp
    cdef Cross* crosses  # cross-checks computed (CROSS_SLOTS of them), by the letters around
    cdef Entry* table  # its own, growing to stay half full; or a shared one's, of fixed size
    cdef int64_t table_mask, table_used
    cdef EndgameTable shared  # the shared table, or None
    cdef int* stopped  # the shared table's flag (NULL: none)
    cdef int* table_round  # the shared table's round…
    cdef int round  # …while the search's is this one (-1: any)
    cdef int root_depth  # the search's depth
    cdef MoveSet* sets
    cdef Arena set_memory  # the kept sets' plays
    cdef int64_t sets_mask, sets_used, set_bytes
    cdef int64_t max_set_bytes
    cdef public int64_t positions
    cdef int64_t max_positions
    # Each side's plays on the root board, generated once; the racks they were generated for;
    # the root board's lines, against which a line is found unchanged.
    cdef Side root_sides[2]
    cdef Dir* root_dirs
    cdef uint8_t root_tiles[MAX_SQUARES]
    cdef EMove* root_moves[2]  # in search order less the play-outs' raise (see root_plays)
    cdef uint8_t* root_line[2]  # each root play's line: direction * MAX_SIDE + line
    cdef uint64_t* root_letters[2]  # the letters each takes (a blank not counted)
    cdef int64_t root_n[2]
    # The plays of each line (row or column) generated so far, by the line's state and the
    # rack (see find_line): an open-addressing table, lines_mask + 1 slots, half full at most.
    cdef LineSlot* lines
    cdef int64_t lines_mask, lines_used, line_bytes, max_line_bytes
    cdef Arena line_memory  # the kept lines' entries
    cdef uint64_t line_key[2 * MAX_SIDE]  # per line, a hash of what its plays depend on…
    cdef uint8_t line_key_ok[2 * MAX_SIDE]  # …when up to date (see line_hash, update_dirs)
    cdef uint8_t line_dirty[2 * MAX_SIDE]  # whether its plays are not the root plays…
    cdef uint8_t line_dirty_ok[2 * MAX_SIDE]  # …when up to date (see refresh_dirty)
    cdef const EMove** kept  # the root plays a position keeps (room for twice the most)
    cdef RackFit* fits[2]  # per side, by rack: an open-addressing table, half full at most
    cdef int64_t fits_mask[2], fits_used[2]
    cdef int64_t kept_cap
    cdef bint root_ready[2]
    cdef EMove* scratch  # a position's plays from the generator, before they are kept
    cdef Ranked* ranked  # the scratch's plays as they are ordered, then room to merge them
    cdef int64_t scratch_cap, ranked_cap
    cdef Anchor* anchors  # the generator's anchors
    cdef Rec* gen_out  # the generator's buffers, kept from one run to the next
    cdef Left* gen_lefts
    cdef Py_ssize_t gen_cap, gen_lefts_cap
    cdef double deadline
    cdef bint aborted
    # A helper thread's search (lexforge.endgame.solve with threads) sets ``perturb`` to its
    # number (1…threads - 1): its root's plays after the first are then searched in reverse
    # order from its own share of them, so that the threads prove different plays worse
    # (see helper_turn). 0: the main search, its plays in order.
    cdef public int perturb, threads

    def __cinit__(
        self,
        const uint64_t[::1] nodes,
        int rows,
        int cols,
        bytes tiles,
        bytes blanks,
        bytes letter_mult,
        bytes word_mult,
        int start,
        values,
        int n_letters,
        bytes ranks,
        int rack_size,
        int bingo,
        racks,
        int64_t max_set_bytes = 512 << 20,
        EndgameTable table = None,
    ) -> None:
        """The board as ``Position`` takes it; ``racks``: the mover's and the other's, each
        (counts per graph letter, blanks); ``table``: a table shared with other searches of
        this endgame (else its own)."""
        cdef int i, j, k
        if not (0 < rows <= MAX_SIDE and 0 < cols <= MAX_SIDE):
            raise ValueError(f"board of {rows}×{cols} squares; at most {MAX_SIDE}×{MAX_SIDE}")
        if not (len(tiles) == len(blanks) == len(letter_mult) == len(word_mult) == rows * cols):
            raise ValueError("board arrays of the wrong size")
        if not (0 < n_letters <= 64 and len(values) == n_letters and len(ranks) == 2 * n_letters):
            raise ValueError("letter arrays of the wrong size")
        self.nodes = nodes
        self.rows, self.cols, self.start = rows, cols, start
        self.n_letters, self.rack_size, self.bingo = n_letters, rack_size, bingo
        for i in range(n_letters):
            self.values[i] = values[i]
        for i in range(2 * n_letters):
            self.ranks[i] = ranks[i]
        self.empty_root = True
        for i in range(rows * cols):
            if tiles[i] > n_letters:
                raise ValueError(f"tile {tiles[i]} beyond the {n_letters} letters")
            if not (1 <= letter_mult[i] <= 3 and 1 <= word_mult[i]):
                raise ValueError("letter premiums are 1, 2 or 3; word premiums at least 1")
            self.tiles[i] = tiles[i]
            self.blank[i] = blanks[i]
            self.lmult[i] = letter_mult[i]
            self.wmult[i] = word_mult[i]
            if tiles[i]:
                self.empty_root = False
        for k in range(2):
            counts, jokers = racks[k]
            if len(counts) != n_letters:
                raise ValueError("letter arrays of the wrong size")
            memset(&self.sides[k], 0, sizeof(Side))
            for i in range(n_letters):
                self.sides[k].counts[i] = counts[i]
                self.sides[k].tiles += counts[i]
                self.sides[k].points += counts[i] * self.values[i]
            self.sides[k].blanks = jokers
            self.sides[k].tiles += jokers
            for i in range(n_letters):
                for j in range(counts[i]):
                    self.sides[k].hash ^= rack_tile_key(i, j)
            for j in range(jokers):
                self.sides[k].hash ^= rack_tile_key(64, j)
            if self.sides[k].tiles > MAX_RACK:
                raise ValueError(f"a rack of {self.sides[k].tiles} tiles; at most {MAX_RACK}")
        self.max_set_bytes = max_set_bytes
        self.root_sides[0] = self.sides[0]
        self.root_sides[1] = self.sides[1]
        memcpy(self.root_tiles, self.tiles, sizeof(self.root_tiles))
        self.root_dirs = <Dir*>malloc(2 * sizeof(Dir))
        if self.root_dirs == NULL:
            raise MemoryError()
        for k in range(2):
            fill_dir(&self.root_dirs[k], k == 0, rows, cols, self.tiles, self.blank, self.lmult,
                     self.wmult, self.values, self.ranks, &self.nodes[0],
                     self.nodes.shape[0] // 2, n_letters, start, self.empty_root)
        self.dirs = <Dir*>malloc(2 * sizeof(Dir))
        self.anchors = <Anchor*>malloc(2 * MAX_SQUARES * sizeof(Anchor))
        self.crosses = <Cross*>calloc(CROSS_SLOTS, sizeof(Cross))
        if self.anchors == NULL or self.crosses == NULL:
            raise MemoryError()
        if table is None:
            self.table_mask = (1 << 16) - 1
            self.table = <Entry*>table_alloc((self.table_mask + 1) * sizeof(Entry))
        else:
            self.shared = table
            self.table = table.slots
            self.table_mask = table.mask
            self.stopped = &table.stopped
            self.table_round = &table.round
        self.lines_mask = (1 << 12) - 1
        self.lines = <LineSlot*>table_alloc((self.lines_mask + 1) * sizeof(LineSlot))
        if self.lines == NULL:
            raise MemoryError()
        self.max_line_bytes = max_set_bytes // 4
        self.sets_mask = (1 << 12) - 1
        self.sets = <MoveSet*>table_alloc((self.sets_mask + 1) * sizeof(MoveSet))
        if self.dirs == NULL or self.table == NULL or self.sets == NULL:
            raise MemoryError()
        self.max_positions = -1
        self.deadline = -1

    def __dealloc__(self) -> None:
        cdef int k
        cdef int64_t i
        arena_clear(&self.set_memory)
        arena_clear(&self.line_memory)
        free(self.lines)
        free(self.sets)
        if self.shared is None:
            free(self.table)
        free(self.dirs)
        free(self.root_dirs)
        for k in range(2):
            if self.fits[k] != NULL:
                for i in range(self.fits_mask[k] + 1):
                    free(self.fits[k][i].plays)
                free(self.fits[k])
            free(self.root_moves[k])
            free(self.root_line[k])
            free(self.root_letters[k])
        free(self.kept)
        free(self.scratch)
        free(self.ranked)
        free(self.anchors)
        free(self.crosses)
        free(self.gen_out)
        free(self.gen_lefts)

    cdef void clear_sets(self) noexcept nogil:
        arena_clear(&self.set_memory)
        if self.sets != NULL:
            memset(self.sets, 0, (self.sets_mask + 1) * sizeof(MoveSet))
        self.sets_used = 0
        self.set_bytes = 0

    def search(self, int depth, int scoreless, max_positions, seconds, int alpha=-INFINITE,
               int beta=INFINITE, int round=-1):
        """The mover's value searched ``depth`` turns deep within (alpha, beta) (outside it,
        a bound), and whether no line met the horizon; None when the budget ran out first
        (positions counted over every search of this object, ``seconds`` from now), the
        shared table stopped, or its round (``EndgameTable.next_round``) is no longer
        ``round`` (-1: any)."""
        cdef bint complete = True
        cdef int value
        self.round = round
        self.root_depth = depth
        self.max_positions = -1 if max_positions is None else max_positions
        self.deadline = -1 if seconds is None else now() + seconds
        self.aborted = False
        if self.set_bytes > self.max_set_bytes:
            self.clear_sets()
        with nogil:
            value = self.negamax(0, depth, alpha, beta, scoreless, &complete)
        if self.aborted:
            return None
        return value, complete

    cdef uint64_t key_of(self, int me, int scoreless) noexcept nogil:
        """The position's key: the tiles placed since the root, both racks, whose turn it
        is (as whose rack is which), the scoreless turns."""
        cdef uint64_t h = self.board_key ^ mix(<uint64_t>scoreless + 0x51ED)
        h ^= mix(self.sides[me].hash ^ 0x1234567)
        h ^= mix(self.sides[1 - me].hash ^ 0x7654321)
        return h if h != NO_KEY else 1

    cdef inline int helper_turn(self, int k, int n) noexcept nogil:
        """A helper's ``k``-th play at the root (0 < k < n): the plays after the first in
        reverse order, from the end for the first helper, from a later helper's share of them
        on for the others (the main search takes them in order from the first on)."""
        cdef int m = n - 1
        cdef int offset = (self.perturb - 1) * m // max(self.threads - 1, 1)
        return 1 + ((m - k) - offset + m) % m

    cdef Entry* probe(self, uint64_t key, Found* found) noexcept nogil:
        """The table's slot for ``key``, read into ``found``: its own (``found.key == key``),
        or the slot where it would go: in its own table the empty slot, in a shared one an
        empty slot of its bucket, else the least deep."""
        cdef int64_t i = <int64_t>(key & <uint64_t>self.table_mask), k, at
        cdef Found other
        if self.shared is None:
            read_slot(&self.table[i], found)
            while found.key != NO_KEY and found.key != key:
                i = (i + 1) & self.table_mask
                read_slot(&self.table[i], found)
            return &self.table[i]
        # Two threads may both take a free slot for one key (each reading the other's slot as
        # it is being written): of the slots holding the key, the deepest.
        i -= i % BUCKET
        at = -1
        found.key = NO_KEY
        for k in range(i, i + BUCKET):
            read_slot(&self.table[k], &other)
            if other.key == key:
                if found.key != key or other.depth > found.depth:
                    found[0] = other
                    at = k
            elif found.key != key and (
                    at < 0 or (found.key != NO_KEY and (other.key == NO_KEY
                                                         or other.depth < found.depth))):
                found[0] = other
                at = k
        return &self.table[at]

    cdef bint store(self, uint64_t key, int lower, int upper, int depth, int best) noexcept nogil:
        """Record a position (its own table grows to stay at most half full); False if out of
        memory."""
        cdef Found found
        cdef Entry* entry = self.probe(key, &found)
        cdef Entry* old
        cdef int64_t i, size
        if self.shared is not None:
            if self.perturb and (load_flag(self.stopped) or load_flag(self.table_round) != self.round):
                return True  # a helper's search the main search has left: its results are stale
            # A proven value stays: a search on another thread may store the same position's
            # bound or depth-limited value after this thread's probe missed the proof.
            if found.key == key and found.depth == COMPLETE and found.lower == found.upper:
                return True
            # A helper's depth-limited result keeps the main search's best turn (the main
            # orders its plays by its own best turns only); a proof keeps its own, which the
            # line is read from.
            if self.perturb and found.key == key and not found.helped and depth != COMPLETE:
                write_slot(entry, key, lower, upper, depth, found.best, False)
            else:
                write_slot(entry, key, lower, upper, depth, best, self.perturb != 0)
            return True
        if found.key == NO_KEY:
            if 2 * (self.table_used + 1) > self.table_mask + 1:
                size = 2 * (self.table_mask + 1)
                old = self.table
                self.table = <Entry*>table_alloc(size * sizeof(Entry))
                if self.table == NULL:
                    self.table = old
                    return False
                self.table_mask = size - 1
                for i in range(size // 2):
                    read_slot(&old[i], &found)
                    if found.key != NO_KEY:
                        self.probe(found.key, &found)[0] = old[i]
                free(old)
                entry = self.probe(key, &found)
            self.table_used += 1
        write_slot(entry, key, lower, upper, depth, best, False)
        return True

    cdef bint spend(self) noexcept nogil:
        """Count a position; True when the budget is spent."""
        self.positions += 1
        if self.max_positions >= 0 and self.positions > self.max_positions:
            self.aborted = True
        elif self.stopped != NULL and (load_flag(self.stopped) or (
                self.round >= 0 and load_flag(self.table_round) != self.round)):
            self.aborted = True
        elif self.deadline >= 0 and self.positions % 64 == 0 and now() > self.deadline:
            self.aborted = True
        return self.aborted

    cdef int negamax(
        self, int me, int depth, int alpha, int beta, int scoreless, bint* complete
    ) noexcept nogil:
        """The value for player ``me`` to move, searched ``depth`` turns deep within (alpha,
        beta); ``complete`` cleared when a line met the horizon (lexforge.endgame.solve)."""
        cdef uint64_t key
        cdef Found entry
        cdef int hint = NO_TURN, start_alpha, best, best_turn, value, k, turn, turn_depth
        cdef bint all_done = True, done
        cdef MoveSet moves
        cdef bint owned
        if self.spend():
            return 0
        key = self.key_of(me, scoreless)
        self.probe(key, &entry)
        if entry.key == key:
            if self.perturb or not entry.helped:
                hint = entry.best
            if entry.depth >= depth:
                if entry.lower >= beta:
                    complete[0] = complete[0] and entry.depth == COMPLETE
                    return entry.lower
                if entry.upper <= alpha:
                    complete[0] = complete[0] and entry.depth == COMPLETE
                    return entry.upper
                if entry.lower == entry.upper:
                    complete[0] = complete[0] and entry.depth == COMPLETE
                    return entry.lower
                if entry.depth == COMPLETE and self.shared is None:
                    # True bounds narrow the window soundly; a depth-limited entry's would make
                    # a search that met no horizon return a bound as if it were the value. (Not
                    # on a shared table: another thread's bound would make every play fail low
                    # at the narrowed alpha, the value right but the best turn any of them.)
                    alpha = max(alpha, entry.lower)
                    beta = min(beta, entry.upper)
        if depth == 0:
            complete[0] = False
            return self.sides[1 - me].points - self.sides[me].points
        if not self.moves_of(me, &moves, &owned):
            self.aborted = True
            return 0
        start_alpha = alpha
        best = -INFINITE
        best_turn = NO_TURN
        # A forced pass (no play at all) costs no depth: a stuck player's passes would
        # otherwise halve the horizon (MAGPIE's forced-pass bypass, jvc56/MAGPIE pull request
        # 479). The scoreless streak still ends a chain of forced passes.
        turn_depth = depth + 1 if moves.n == 0 else depth
        # The table's best turn first, then the plays in order, then the pass.
        for k in range(-1, moves.n + 1):
            if k == -1:
                if hint == NO_TURN or hint >= moves.n:
                    continue
                turn = hint
            elif k == moves.n:
                if hint == PASS:
                    continue
                turn = PASS
            else:
                turn = k
                if self.perturb and k > 0 and depth == self.root_depth:
                    turn = self.helper_turn(k, moves.n)
                if turn == hint:
                    continue
            done = True
            if best == -INFINITE or beta - alpha <= 1:
                value = self.after(me, turn_depth, alpha, beta, scoreless,
                                   &moves.moves[turn] if turn >= 0 else NULL, &done)
            else:  # a null window first: does it beat the best so far? (principal variation)
                value = self.after(me, turn_depth, alpha, alpha + 1, scoreless,
                                   &moves.moves[turn] if turn >= 0 else NULL, &done)
                if alpha < value < beta and not self.aborted:
                    done = True
                    value = self.after(me, turn_depth, alpha, beta, scoreless,
                                       &moves.moves[turn] if turn >= 0 else NULL, &done)
            if self.aborted:
                break
            all_done = all_done and done
            if value > best:
                best = value
                best_turn = turn
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        if owned:
            free(moves.moves)
        if self.aborted:
            return 0
        complete[0] = complete[0] and all_done
        k = COMPLETE if all_done else depth
        if best <= start_alpha:
            done = self.store(key, -INFINITE, best, k, best_turn)
        elif best >= beta:
            done = self.store(key, best, INFINITE, k, best_turn)
        else:
            done = self.store(key, best, best, k, best_turn)
        if not done:
            self.aborted = True
        return best

    cdef int after(
        self, int me, int depth, int alpha, int beta, int scoreless, const EMove* move,
        bint* complete
    ) noexcept nogil:
        """The value for ``me`` of playing ``move`` (NULL: passing)."""
        cdef Side* mine = &self.sides[me]
        cdef Side* other = &self.sides[1 - me]
        cdef int score = move.score if move != NULL else 0
        cdef int left = mine.tiles - (move.count if move != NULL else 0)
        cdef int streak, value, points = 0
        if left == 0:  # played out: the other's rack counts twice
            return score + 2 * other.points
        streak = 0 if score else scoreless + 1
        if move != NULL:
            points = play_points(self, move)
        if streak >= SCORELESS_END:  # each loses their own rack
            return score + other.points - (mine.points - points)
        if move != NULL:
            self.place(me, move, points)
        # The mover's window less the play's score, from the other side: (alpha, beta) for
        # ``score - value`` is (score - beta, score - alpha) for ``value``.
        value = self.negamax(1 - me, depth - 1, score - beta, score - alpha, streak, complete)
        if move != NULL:
            self.lift(me, move, points)
        return score - value

    cdef void place(self, int me, const EMove* move, int points) noexcept nogil:
        cdef Side* side = &self.sides[me]
        cdef int k = 0, j, code, square = move.row * self.cols + move.col
        cdef int step = 1 if move.across else self.cols
        for j in range(move.length):
            if move.new >> j & 1:
                code = move.code[k]
                k += 1
                if code >= BLANK_CODE:
                    side.blanks -= 1
                    side.hash ^= rack_tile_key(64, side.blanks)
                    self.tiles[square] = code - BLANK_CODE + 1
                    self.blank[square] = 1
                else:
                    side.counts[code] -= 1
                    side.hash ^= rack_tile_key(code, side.counts[code])
                    self.tiles[square] = code + 1
            square += step
        side.tiles -= move.count
        side.points -= points
        self.placed += move.count
        self.board_key ^= move.key

    cdef void lift(self, int me, const EMove* move, int points) noexcept nogil:
        cdef Side* side = &self.sides[me]
        cdef int k = 0, j, code, square = move.row * self.cols + move.col
        cdef int step = 1 if move.across else self.cols
        for j in range(move.length):
            if move.new >> j & 1:
                code = move.code[k]
                k += 1
                if code >= BLANK_CODE:
                    side.hash ^= rack_tile_key(64, side.blanks)
                    side.blanks += 1
                    self.blank[square] = 0
                else:
                    side.hash ^= rack_tile_key(code, side.counts[code])
                    side.counts[code] += 1
                self.tiles[square] = 0
            square += step
        side.tiles += move.count
        side.points += points
        self.placed -= move.count
        self.board_key ^= move.key

    cdef void update_dirs(self, bint empty) noexcept nogil:
        """Both directions' lines, anchors and cross-checks for the current board: filled
        whole for an empty board or the first time, else updated around the squares whose
        tile changed since: an empty square's cross-check reads the tiles next to it up to
        the first empty square, its anchor its four neighbours."""
        cdef int s, k, i, j, w, row, col, n = 0, m
        cdef uint64_t a, b, x, y
        cdef int changed[MAX_SQUARES]
        cdef int squares[3 * MAX_SQUARES]
        cdef Dir* d
        cdef const uint64_t* nodes = &self.nodes[0]
        cdef int64_t n_nodes = self.nodes.shape[0] // 2
        if empty or not self.filled_ok or self.filled_empty:
            for k in range(2):
                fill_dir(&self.dirs[k], k == 0, self.rows, self.cols, self.tiles, self.blank,
                         self.lmult, self.wmult, self.values, self.ranks, nodes, n_nodes,
                         self.n_letters, self.start, empty)
            memcpy(self.filled, self.tiles, sizeof(self.filled))
            memcpy(self.filled_blank, self.blank, sizeof(self.filled_blank))
            memset(self.line_key_ok, 0, sizeof(self.line_key_ok))
            memset(self.line_dirty_ok, 0, sizeof(self.line_dirty_ok))
            self.filled_ok = True
            self.filled_empty = empty
            return
        for w in range(0, self.rows * self.cols, 8):  # 8 squares at a time (the rest alone)
            if w + 8 <= self.rows * self.cols:
                memcpy(&a, &self.filled[w], 8)
                memcpy(&b, &self.tiles[w], 8)
                memcpy(&x, &self.filled_blank[w], 8)
                memcpy(&y, &self.blank[w], 8)
                if a == b and x == y:
                    continue
            for s in range(w, min(w + 8, self.rows * self.cols)):
                if self.filled[s] == self.tiles[s] and self.filled_blank[s] == self.blank[s]:
                    continue
                changed[n] = s
                n += 1
                self.filled[s] = self.tiles[s]
                self.filled_blank[s] = self.blank[s]
                row, col = s // self.cols, s % self.cols
                for k in range(2):
                    d = &self.dirs[k]
                    i = (row * d.length + col) if k == 0 else (col * d.length + row)
                    d.tile[i] = <int>self.tiles[s] - 1
                    d.tile_value[i] = (
                        0 if (self.tiles[s] == 0 or self.blank[s])
                        else self.values[self.tiles[s] - 1]
                    )
                    d.tile_rank[i] = 0 if self.tiles[s] == 0 else self.ranks[
                        self.tiles[s] - 1 + (self.n_letters if self.blank[s] else 0)
                    ]
        # Every cross-check and anchor is a function of the tiles alone, all updated by now:
        # each square is refilled once, in any order.
        for k in range(2):
            self.stamp += 1
            if self.stamp == 0:  # wrapped around: no square is seen
                memset(self.seen, 0, sizeof(self.seen))
                self.stamp = 1
            m = 0
            for j in range(n):
                row, col = changed[j] // self.cols, changed[j] % self.cols
                if k == 0:
                    m = refresh_list(&self.dirs[0], row, col, squares, m, self.seen[0], self.stamp)
                else:
                    m = refresh_list(&self.dirs[1], col, row, squares, m, self.seen[1], self.stamp)
            d = &self.dirs[k]
            for j in range(m):
                self.line_key_ok[k * MAX_SIDE + squares[j] // d.length] = 0
                self.line_dirty_ok[k * MAX_SIDE + squares[j] // d.length] = 0
                fill_square(d, squares[j] // d.length, squares[j] % d.length, nodes, n_nodes,
                            self.n_letters, False, False, self.crosses)

    cdef bint moves_of(self, int me, MoveSet* out, bint* owned) noexcept nogil:
        """The plays of ``me`` in search order: kept from an earlier visit to the same board
        and rack, else generated (and kept while the kept plays fit their memory). False if
        out of memory."""
        cdef uint64_t key = mix(self.board_key ^ mix(self.sides[me].hash ^ 0x99))
        cdef int64_t i
        cdef MoveSet* slot
        if key == NO_KEY:
            key = 1
        i = <int64_t>(key & <uint64_t>self.sets_mask)
        while self.sets[i].key != NO_KEY and self.sets[i].key != key:
            i = (i + 1) & self.sets_mask
        if self.sets[i].key == key:
            out[0] = self.sets[i]
            owned[0] = False
            return True
        # Plays to keep come from the arena; past the memory for kept plays, a position's
        # plays are the caller's to free.
        owned[0] = self.set_bytes > self.max_set_bytes
        if not self.generate(me, out, owned[0]):
            return False
        out.key = key
        if owned[0] or (2 * (self.sets_used + 1) > self.sets_mask + 1 and not self.grow_sets()):
            return True  # (plays from the arena that find no slot go with the arena)
        i = <int64_t>(key & <uint64_t>self.sets_mask)
        while self.sets[i].key != NO_KEY:
            i = (i + 1) & self.sets_mask
        self.sets[i] = out[0]
        self.sets_used += 1
        self.set_bytes += out.n * sizeof(EMove) + sizeof(MoveSet)
        owned[0] = False
        return True

    cdef bint grow_sets(self) noexcept nogil:
        cdef int64_t size = 2 * (self.sets_mask + 1), i, j
        cdef MoveSet* old = self.sets
        self.sets = <MoveSet*>table_alloc(size * sizeof(MoveSet))
        if self.sets == NULL:
            self.sets = old
            return False
        self.sets_mask = size - 1
        for i in range(size // 2):
            if old[i].key != NO_KEY:
                j = <int64_t>(old[i].key & <uint64_t>self.sets_mask)
                while self.sets[j].key != NO_KEY:
                    j = (j + 1) & self.sets_mask
                self.sets[j] = old[i]
        free(old)
        return True

    cdef bint generate(self, int me, MoveSet* out, bint owned) noexcept nogil:
        """Every play of ``me``'s rack on the current board, ordered for the search (see
        ``search_order``; the play-outs' order by score with the other's rack twice is the
        same, the other's rack being the same for all): in memory of their own when ``owned``
        (the caller frees it), else from the arena of kept plays.

        A line's plays (row or column) depend on nothing but the rack and the line's tiles,
        cross-checks, cross words' values and anchors (a neighbour tile shows in the cross
        word's value). The plays are generated once per side on the root board: a line whose
        squares are those of the root board has as plays the root plays whose tiles the rack
        (which only shrinks) still holds (listed once per rack). Another line's plays are
        kept by its squares and the rack once generated, so lexforge.scrabble's generator
        runs only on the anchors of the lines not met before with that rack."""
        cdef Side* side = &self.sides[me]
        cdef Gen g
        cdef int k, r
        cdef int64_t i, n
        cdef bint empty = self.empty_root and self.placed == 0
        cdef uint8_t dirty[2 * MAX_SIDE]  # the lines whose plays are not the root plays'…
        cdef uint8_t missed[2 * MAX_SIDE]  # …and those of them generated now
        cdef const EMove* root
        cdef Ranked* ranked
        cdef int64_t j, m, p, n_found, n_ranked
        cdef Ranked root_ranked  # a root play the position keeps, ranked to be merged
        cdef RackFit* fit
        cdef LinePlays* found[2 * MAX_SIDE]
        cdef uint64_t hashes[2 * MAX_SIDE]
        cdef Py_ssize_t starts[2 * MAX_SIDE + 2]
        cdef Py_ssize_t n_runs
        self.update_dirs(empty)
        if not self.empty_root and not self.root_ready[me] and not self.root_plays(me):
            return False
        for k in range(2):
            for r in range(self.dirs[k].lines):
                if not self.line_dirty_ok[k * MAX_SIDE + r]:
                    self.refresh_dirty(k, r)
                dirty[k * MAX_SIDE + r] = self.line_dirty[k * MAX_SIDE + r]
        # The other lines' plays: kept from a line of the same state for the same rack, else
        # generated (and kept).
        # (The table's slots, then the entries they point to, are prefetched for all the lines
        # first: their cache misses overlap.)
        n_found = 0
        for k in range(2):
            for r in range(self.dirs[k].lines):
                if dirty[k * MAX_SIDE + r]:
                    hashes[k * MAX_SIDE + r] = self.line_hash(side, k, r)
                    prefetch(&self.lines[hashes[k * MAX_SIDE + r] & <uint64_t>self.lines_mask])
        for k in range(2):
            for r in range(self.dirs[k].lines):
                if dirty[k * MAX_SIDE + r]:
                    prefetch(self.lines[hashes[k * MAX_SIDE + r] & <uint64_t>self.lines_mask].entry)
        for k in range(2):
            for r in range(self.dirs[k].lines):
                found[k * MAX_SIDE + r] = NULL
                missed[k * MAX_SIDE + r] = dirty[k * MAX_SIDE + r]
                if dirty[k * MAX_SIDE + r]:
                    found[k * MAX_SIDE + r] = self.find_line(side, k, r, hashes[k * MAX_SIDE + r])
                    if found[k * MAX_SIDE + r] != NULL:
                        missed[k * MAX_SIDE + r] = 0
                        n_found += found[k * MAX_SIDE + r].n
        if not self.run_generator(self.dirs, side, missed, &g):
            return False
        if g.n + 1 > self.scratch_cap or 2 * (g.n + n_found + 1) > self.ranked_cap:
            free(self.scratch)
            free(self.ranked)
            self.scratch = <EMove*>malloc((g.n + 1) * sizeof(EMove))
            self.ranked = <Ranked*>malloc(2 * (g.n + n_found + 1) * sizeof(Ranked))
            if self.scratch == NULL or self.ranked == NULL:
                self.scratch_cap = self.ranked_cap = 0
                return False
            self.scratch_cap = g.n + 1
            self.ranked_cap = 2 * (g.n + n_found + 1)
        for i in range(g.n):
            to_emove(&g.out[i], &self.scratch[i], self.tiles, self.cols)
        if self.line_bytes <= self.max_line_bytes:
            for k in range(2):
                for r in range(self.dirs[k].lines):
                    if missed[k * MAX_SIDE + r] and not self.keep_line(side, k, r, &g):
                        return False
        # The generated plays in search order, then each kept line's (kept in that order):
        # sorted runs, merged.
        ranked = self.ranked
        for i in range(g.n):
            rank(&ranked[i], &self.scratch[i], search_order(&self.scratch[i], side))
        sort_ranked(ranked, &ranked[g.n], g.n)
        n = g.n
        starts[0] = 0
        n_runs = 1
        for k in range(2):
            for r in range(self.dirs[k].lines):
                if found[k * MAX_SIDE + r] != NULL and found[k * MAX_SIDE + r].n:
                    starts[n_runs] = n
                    n_runs += 1
                    root = line_moves(found[k * MAX_SIDE + r])
                    for i in range(found[k * MAX_SIDE + r].n):
                        rank(&ranked[n], &root[i], search_order(&root[i], side))
                        n += 1
        starts[n_runs] = n
        merge_runs(ranked, &ranked[n], starts, n_runs)
        n_ranked = n
        # The root plays of the unchanged lines that the rack still holds, in search order:
        # root_plays ranked them by score plus 3 points a tile, which is the search order but
        # for the play-outs' raise; the play-outs (a few) are moved to the front.
        m = p = 0
        if not self.empty_root:
            fit = self.rack_fit(me, side)
            if fit == NULL:
                return False
            root = self.root_moves[me]
            for j in range(fit.n):
                i = fit.plays[j]
                if not dirty[self.root_line[me][i]]:
                    if root[i].count == side.tiles:
                        self.kept[self.root_n[me] + p] = &root[i]
                        p += 1
                    else:
                        self.kept[m] = &root[i]
                        m += 1
            if p:
                memmove(&self.kept[p], self.kept, m * sizeof(EMove*))
                memcpy(self.kept, &self.kept[self.root_n[me]], p * sizeof(EMove*))
                m += p
        # Both lists merged by order, then key (distinct plays' keys differ).
        out.n = <int32_t>(n_ranked + m)
        if owned:
            out.moves = <EMove*>malloc((n_ranked + m + 1) * sizeof(EMove))
        else:
            out.moves = <EMove*>arena_alloc(&self.set_memory, (n_ranked + m + 1) * sizeof(EMove))
        if out.moves == NULL:
            return False
        i = j = n = 0
        while i < m and j < n_ranked:
            rank(&root_ranked, self.kept[i], search_order(self.kept[i], side))
            if ranked_before(&root_ranked, &ranked[j]):
                out.moves[n] = self.kept[i][0]
                i += 1
            else:
                out.moves[n] = ranked[j].move[0]
                j += 1
            n += 1
        while i < m:
            out.moves[n] = self.kept[i][0]
            i += 1
            n += 1
        while j < n_ranked:
            out.moves[n] = ranked[j].move[0]
            j += 1
            n += 1
        return True

    cdef RackFit* rack_fit(self, int me, const Side* side) noexcept nogil:
        """The root plays of ``me`` whose tiles the rack ``side`` holds, found once per rack;
        NULL if out of memory."""
        cdef RackFit* table = self.fits[me]
        cdef RackFit* slot
        cdef int64_t i, j, size
        cdef uint8_t counts[64]
        cdef uint64_t have = 0
        memset(counts, 0, sizeof(counts))
        for i in range(self.n_letters):
            counts[i] = <uint8_t>side.counts[i]
            if side.counts[i] > 0:
                have |= (<uint64_t>1) << i
        if table == NULL or 2 * (self.fits_used[me] + 1) > self.fits_mask[me] + 1:
            size = 64 if table == NULL else 2 * (self.fits_mask[me] + 1)
            table = <RackFit*>calloc(size, sizeof(RackFit))
            if table == NULL:
                return NULL
            if self.fits[me] != NULL:
                for i in range(self.fits_mask[me] + 1):
                    if self.fits[me][i].plays != NULL:
                        j = <int64_t>(self.fits[me][i].hash & <uint64_t>(size - 1))
                        while table[j].plays != NULL:
                            j = (j + 1) & (size - 1)
                        table[j] = self.fits[me][i]
                free(self.fits[me])
            self.fits[me] = table
            self.fits_mask[me] = size - 1
        i = <int64_t>(side.hash & <uint64_t>self.fits_mask[me])
        while table[i].plays != NULL:
            slot = &table[i]
            if (slot.hash == side.hash and slot.blanks == side.blanks
                    and memcmp(slot.counts, counts, sizeof(counts)) == 0):
                return slot
            i = (i + 1) & self.fits_mask[me]
        slot = &table[i]
        slot.plays = <int32_t*>malloc((self.root_n[me] + 1) * sizeof(int32_t))
        if slot.plays == NULL:
            return NULL
        slot.hash = side.hash
        slot.blanks = side.blanks
        memcpy(slot.counts, counts, sizeof(counts))
        slot.n = 0
        for j in range(self.root_n[me]):
            if (self.root_letters[me][j] & ~have == 0
                    and fits(&self.root_moves[me][j], side)):
                slot.plays[slot.n] = <int32_t>j
                slot.n += 1
        self.fits_used[me] += 1
        return slot

    cdef void refresh_dirty(self, int k, int r) noexcept nogil:
        """A line's ``line_dirty``: whether what its plays depend on but the rack (its tiles,
        their values (0 for a blank), cross-checks, cross words' values and anchors: no other
        line's, a neighbour tile showing in the cross word's value) differs from the root
        board's (always, on an empty board: no root plays)."""
        cdef const Dir* d = &self.dirs[k]
        cdef const Dir* root = &self.root_dirs[k]
        cdef int L = d.length, line = k * MAX_SIDE + r
        self.line_dirty_ok[line] = True
        self.line_dirty[line] = self.empty_root or not (
            memcmp(&d.tile[r * L], &root.tile[r * L], L * sizeof(int)) == 0
            and memcmp(&d.tile_value[r * L], &root.tile_value[r * L], L * sizeof(int)) == 0
            and memcmp(&d.allowed[r * L], &root.allowed[r * L], L * sizeof(uint64_t)) == 0
            and memcmp(&d.cross_value[r * L], &root.cross_value[r * L], L * sizeof(int)) == 0
            and memcmp(&d.anchor[r * L], &root.anchor[r * L], L) == 0
        )

    cdef uint64_t line_hash(self, const Side* side, int k, int r) noexcept nogil:
        """A hash of what the plays of line ``r`` of direction ``k`` depend on for the rack
        ``side`` (see refresh_dirty): the line's part kept in ``line_key`` while it holds."""
        cdef const Dir* d = &self.dirs[k]
        cdef int L = d.length, line = k * MAX_SIDE + r, c, i
        cdef uint64_t h = mix(<uint64_t>line), word
        if self.line_key_ok[line]:
            return mix(self.line_key[line] ^ side.hash)
        for c in range(L):
            i = r * L + c
            word = d.allowed[i] ^ (
                (<uint64_t><uint32_t>d.tile[i] | (<uint64_t><uint32_t>d.cross_value[i] << 32))
                * 0xBF58476D1CE4E5B9ULL
            ) ^ ((<uint64_t><uint32_t>d.tile_value[i] * 256 + d.anchor[i]) * 0x94D049BB133111EBULL)
            h = (h ^ word) * 0x9E3779B97F4A7C15ULL
            h ^= h >> 32
        self.line_key[line] = h
        self.line_key_ok[line] = True
        return mix(h ^ side.hash)

    cdef LinePlays* find_line(self, const Side* side, int k, int r, uint64_t h) noexcept nogil:
        """The kept plays of line ``r`` of direction ``k`` for the rack ``side`` (``h``: its
        line_hash), or NULL. An entry holds, after its header, the rack's counts, then the
        line's cross-checks, tiles, tile values, cross words' values and anchors as ``dirs``
        holds them."""
        cdef const Dir* d = &self.dirs[k]
        cdef int L = d.length, line = k * MAX_SIDE + r, at
        cdef int64_t i = <int64_t>(h & <uint64_t>self.lines_mask)
        cdef LinePlays* entry
        cdef const uint8_t* state
        while self.lines[i].entry != NULL:
            if self.lines[i].hash != h:
                i = (i + 1) & self.lines_mask
                continue
            entry = self.lines[i].entry
            state = <const uint8_t*>entry + sizeof(LinePlays)
            at = (self.n_letters * sizeof(int) + 7) & ~7
            if (entry.line == line and entry.blanks == side.blanks
                    and memcmp(state, side.counts, self.n_letters * sizeof(int)) == 0
                    and memcmp(&state[at], &d.allowed[r * L], L * sizeof(uint64_t)) == 0
                    and memcmp(&state[at + 8 * L], &d.tile[r * L], L * sizeof(int)) == 0
                    and memcmp(&state[at + 12 * L], &d.tile_value[r * L], L * sizeof(int)) == 0
                    and memcmp(&state[at + 16 * L], &d.cross_value[r * L], L * sizeof(int)) == 0
                    and memcmp(&state[at + 20 * L], &d.anchor[r * L], L) == 0):
                return entry
            i = (i + 1) & self.lines_mask
        return NULL

    cdef bint keep_line(self, const Side* side, int k, int r, const Gen* g) noexcept nogil:
        """Keep the plays just generated (``g.out``, as EMoves in ``scratch``) of line ``r`` of
        direction ``k``, in search order; False if out of memory."""
        cdef const Dir* d = &self.dirs[k]
        cdef int L = d.length, at = (self.n_letters * sizeof(int) + 7) & ~7
        cdef int size = (at + 20 * L + L + 7) & ~7
        cdef int64_t i, n = 0, line = k * MAX_SIDE + r, j
        cdef size_t bytes_needed
        cdef LinePlays* entry
        cdef LineSlot* table
        cdef uint64_t h
        cdef EMove* moves
        cdef uint8_t* state
        for i in range(g.n):
            if line_index(&g.out[i]) == line:
                n += 1
        bytes_needed = sizeof(LinePlays) + size + n * sizeof(EMove)
        entry = <LinePlays*>arena_alloc(&self.line_memory, bytes_needed)
        if entry == NULL:
            return False
        memset(entry, 0, bytes_needed)
        entry.size = size
        entry.n = <int32_t>n
        entry.line = <int32_t>line
        entry.blanks = side.blanks
        state = <uint8_t*>entry + sizeof(LinePlays)
        memcpy(state, side.counts, self.n_letters * sizeof(int))
        memcpy(&state[at], &d.allowed[r * L], L * sizeof(uint64_t))
        memcpy(&state[at + 8 * L], &d.tile[r * L], L * sizeof(int))
        memcpy(&state[at + 12 * L], &d.tile_value[r * L], L * sizeof(int))
        memcpy(&state[at + 16 * L], &d.cross_value[r * L], L * sizeof(int))
        memcpy(&state[at + 20 * L], &d.anchor[r * L], L)
        moves = line_moves(entry)
        n = 0
        for i in range(g.n):  # in search order (``ranked`` is free until generate merges)
            if line_index(&g.out[i]) == line:
                rank(&self.ranked[n], &self.scratch[i], search_order(&self.scratch[i], side))
                n += 1
        sort_ranked(self.ranked, &self.ranked[n], n)
        for i in range(n):
            moves[i] = self.ranked[i].move[0]
        if 2 * (self.lines_used + 1) > self.lines_mask + 1:
            table = <LineSlot*>table_alloc(2 * (self.lines_mask + 1) * sizeof(LineSlot))
            if table == NULL:
                return False  # (the entry goes with the arena)
            for i in range(self.lines_mask + 1):
                if self.lines[i].entry != NULL:
                    j = <int64_t>(self.lines[i].hash & <uint64_t>(2 * self.lines_mask + 1))
                    while table[j].entry != NULL:
                        j = (j + 1) & (2 * self.lines_mask + 1)
                    table[j] = self.lines[i]
            free(self.lines)
            self.lines = table
            self.lines_mask = 2 * self.lines_mask + 1
        h = self.line_hash(side, k, r)
        i = <int64_t>(h & <uint64_t>self.lines_mask)
        while self.lines[i].entry != NULL:
            i = (i + 1) & self.lines_mask
        self.lines[i].hash = h
        self.lines[i].entry = entry
        self.lines_used += 1
        self.line_bytes += bytes_needed
        return True

    cdef bint root_plays(self, int me) noexcept nogil:
        """``me``'s plays on the root board with the root rack, in search order without the
        play-outs' raise (score plus 3 points a tile placed, then key), each with its line and
        the letters it takes; False if out of memory."""
        cdef Gen g
        cdef uint8_t every_line[2 * MAX_SIDE]
        cdef int64_t i, k
        cdef EMove* moves
        cdef Ranked* ranked
        cdef const EMove** kept
        memset(every_line, 1, sizeof(every_line))
        if not self.run_generator(self.root_dirs, &self.root_sides[me], every_line, &g):
            return False
        moves = <EMove*>malloc((g.n + 1) * sizeof(EMove))
        ranked = <Ranked*>malloc(2 * (g.n + 1) * sizeof(Ranked))
        self.root_moves[me] = <EMove*>malloc((g.n + 1) * sizeof(EMove))
        self.root_line[me] = <uint8_t*>malloc(g.n + 1)
        self.root_letters[me] = <uint64_t*>malloc((g.n + 1) * sizeof(uint64_t))
        if 2 * (g.n + 1) > self.kept_cap:
            kept = <const EMove**>realloc(self.kept, 2 * (g.n + 1) * sizeof(EMove*))
            if kept != NULL:
                self.kept = kept
                self.kept_cap = 2 * (g.n + 1)
        if (moves == NULL or ranked == NULL or self.root_moves[me] == NULL
                or self.root_line[me] == NULL or self.root_letters[me] == NULL
                or self.kept_cap < 2 * (g.n + 1)):
            free(moves)
            free(ranked)
            return False
        for i in range(g.n):
            to_emove(&g.out[i], &moves[i], self.root_tiles, self.cols)
            rank(&ranked[i], &moves[i], base_order(&moves[i]))
        sort_ranked(ranked, &ranked[g.n], g.n)
        for i in range(g.n):
            self.root_moves[me][i] = ranked[i].move[0]
            self.root_line[me][i] = line_index(&g.out[ranked[i].move - moves])
        for i in range(g.n):
            self.root_letters[me][i] = 0
            for k in range(self.root_moves[me][i].count):
                if self.root_moves[me][i].code[k] < BLANK_CODE:
                    self.root_letters[me][i] |= (<uint64_t>1) << self.root_moves[me][i].code[k]
        self.root_n[me] = g.n
        free(moves)
        free(ranked)
        self.root_ready[me] = True
        return True

    cdef bint run_generator(
        self, Dir* dirs, const Side* side, const uint8_t* lines, Gen* g
    ) noexcept nogil:
        """lexforge.scrabble's generator over ``dirs`` for ``side``'s rack, on the anchors of
        the lines flagged in ``lines`` (index direction * MAX_SIDE + line): ``g.out[:g.n]``
        (the search's buffers, valid until the next run). False if out of memory."""
        cdef int i, k, r, c
        cdef int n_anchors = 0
        cdef Anchor* anchors = self.anchors
        for k in range(2):
            for r in range(dirs[k].lines):
                if not lines[k * MAX_SIDE + r]:
                    continue
                for c in range(dirs[k].length):
                    if dirs[k].anchor[r * dirs[k].length + c]:
                        anchors[n_anchors].across = k == 0
                        anchors[n_anchors].line = r
                        anchors[n_anchors].col = c
                        n_anchors += 1
        memset(g, 0, sizeof(Gen))
        if n_anchors == 0:
            return True
        memcpy(g.values, self.values, sizeof(g.values))
        for i in range(self.n_letters):
            g.counts[i] = side.counts[i]
            if g.counts[i] > 0:
                g.rack_mask |= (<uint64_t>1) << i
        rack_best_values(g)
        g.dirs = dirs
        g.ranks = self.ranks
        g.n_letters = self.n_letters
        g.nodes = &self.nodes[0]
        g.n_nodes = self.nodes.shape[0] // 2
        g.all_letters = (
            (<uint64_t>-1) if self.n_letters >= 64 else ((<uint64_t>1) << self.n_letters) - 1
        )
        g.blanks = side.blanks
        g.rack_size = self.rack_size
        g.bingo = self.bingo
        g.lefts_depth = -1
        g.lefts, g.lefts_cap = self.gen_lefts, self.gen_lefts_cap
        g.out, g.cap = self.gen_out, self.gen_cap
        if g.out == NULL:
            g.out = <Rec*>malloc(256 * sizeof(Rec))
            if g.out == NULL:
                return False
            g.cap = 256
        for i in range(n_anchors):
            if g.failed:
                break
            g.across = anchors[i].across
            g.dir = &dirs[0 if g.across else 1]
            search_anchor(g, anchors[i].line, anchors[i].col, side.tiles, NULL)
        self.gen_lefts, self.gen_lefts_cap = g.lefts, g.lefts_cap
        self.gen_out, self.gen_cap = g.out, g.cap
        return not g.failed

    def line(self, int scoreless):
        """The best line, read from the table's best turns: per turn, None for a pass, else
        the play as ``generate`` records it (score, row, column, across, length, codes)."""
        cdef list turns = []
        cdef int me = 0, k, n = 0
        cdef uint64_t key
        cdef Found entry
        cdef MoveSet moves
        cdef bint owned = False
        cdef EMove* move
        cdef EMove played[MAX_LINE]  # the plays placed, lifted afterwards
        cdef int movers[MAX_LINE]
        cdef int points[MAX_LINE]
        try:
            while len(turns) < MAX_LINE:
                key = self.key_of(me, scoreless)
                self.probe(key, &entry)
                if entry.key != key or entry.best == NO_TURN:
                    break
                if entry.best == PASS:
                    turns.append(None)
                    scoreless += 1
                    if scoreless >= SCORELESS_END:
                        break
                    me = 1 - me
                    continue
                if not self.moves_of(me, &moves, &owned):
                    raise MemoryError()
                if entry.best < moves.n:
                    played[n] = moves.moves[entry.best]
                if owned:
                    free(moves.moves)
                if entry.best >= moves.n:
                    break
                move = &played[n]
                record = [move.score, move.row, move.col, move.across, move.length]
                for k in range(move.count):
                    if move.code[k] >= BLANK_CODE:
                        record.append(move.code[k] - BLANK_CODE + C_BLANK_FLAG)
                    else:
                        record.append(move.code[k])
                turns.append(record)
                movers[n] = me
                points[n] = play_points(self, move)
                self.place(me, move, points[n])
                n += 1
                scoreless = 0 if move.score else scoreless + 1
                if self.sides[me].tiles == 0 or scoreless >= SCORELESS_END:
                    break
                me = 1 - me
        finally:
            while n > 0:
                n -= 1
                self.lift(movers[n], &played[n], points[n])
        return turns


cdef int play_points(EndgameSearch search, const EMove* move) noexcept nogil:
    """The value of the tiles a play takes from the rack (blanks 0)."""
    cdef int k, points = 0
    for k in range(move.count):
        if move.code[k] < BLANK_CODE:
            points += search.values[move.code[k]]
    return points


cdef void to_emove(const Rec* rec, EMove* move, const uint8_t* tiles, int cols) noexcept nogil:
    """A generator record as the search's play, read on the board ``tiles`` it was found on."""
    cdef int j, k = 0, square = rec.row * cols + rec.col, step = 1 if rec.across else cols
    move.score = rec.score
    move.row = rec.row
    move.col = rec.col
    move.across = rec.across
    move.length = rec.length
    move.count = rec.count
    move.key = 0
    move.new = 0
    for j in range(rec.length):
        if tiles[square] == 0:
            move.new |= (<uint32_t>1) << j
            move.code[k] = rec.letters[k] + (BLANK_CODE if rec.blank[k] else 0)
            move.key ^= tile_key(square, move.code[k])
            k += 1
        square += step


cdef inline bint fits(const EMove* move, const Side* side) noexcept nogil:
    """Whether the rack holds the play's tiles."""
    cdef int j, i, code, copies, held
    for j in range(move.count):
        code = min(move.code[j], BLANK_CODE)  # any blank: BLANK_CODE
        held = side.blanks if code == BLANK_CODE else side.counts[code]
        if held == 0:
            return False
        copies = 1
        for i in range(j):
            if min(move.code[i], BLANK_CODE) == code:
                copies += 1
        if copies > held:
            return False
    return True


cdef void* table_alloc(size_t size) noexcept nogil:
    """Zeroed memory for a hash table (NULL if none): from 2 MB up, on huge pages where the
    system gives them on request (a probe anywhere in a table of tens of MB then misses the
    TLB far less often). ``free`` releases it."""
    cdef void* memory = NULL
    if size < HUGE_PAGE:
        return calloc(1, size)
    if posix_memalign(&memory, HUGE_PAGE, size) != 0:
        return NULL
    madvise(memory, size, MADV_HUGEPAGE)
    memset(memory, 0, size)
    return memory


cdef double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9

