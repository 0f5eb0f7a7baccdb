# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Upper bounds on Boggle board classes, and the branch-and-bound that uses them
(lexforge.boardclass feeds it; the method is Vanderkam's, "A Computational Proof of the
Highest-Scoring Boggle Board", arXiv 2507.02117, whose 2009 bounds these are).

A board class gives each cell a set of letters (a bit mask of graph letter indices, one letter
per cell); its boards are every choice of one letter per cell. Both bounds walk every grid path
in lockstep with the node-array letter graph (lexforge.graph), letting each cell of a path be
any of its letters:

* max/no-mark: at each cell of a path, the best of its letters (the points of the word it ends,
  if any, plus the bounds of every continuation), each path counted apart (a word found twice
  counts twice). A board's score is at most its own paths' sum, and each cell's choice is
  at most the best one, so it bounds every board of the class.
* sum/union: every word some board of the class has, counted once: a board's words are among
  them. For a single board it is the board's exact score.
* the orderly tree (the paper's 2025 bound, built here in a simple form, without its merges):
  every path of every word some board of the class has, its (cell, letter) pairs sorted by a
  fixed cell order, goes into a tree whose levels alternate a choice of a cell (the best of its
  letters) and the sum of what follows a letter. A board's paths all lie in the tree, each on
  the branch of the board's own letters, so the tree's value (sums of points, bests of
  choices) is at least the board's score; it is much lower than max/no-mark because a path's
  cells are chosen once, in order, for all the words that share them. The tree of a
  class holds the tree of each class inside it: its bound is the big tree's value with each
  choice limited to the smaller class's letters, so one tree serves a top-level class and all
  the classes it splits into.

``prove`` runs the branch-and-bound (orderly bound; a single board's exact score) on classes and
returns their trees; ``bounds`` gives the three bounds of classes, ``tree_bounds`` the bound
``prove`` uses, of classes inside one top-level class.
"""

from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from lexforge._graph cimport Node

import numpy as np

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long value) nogil


# prove's tree: a (code, value) pair per node, in preorder; a split's children follow it in
# the ascending letter order of the cell it splits.
cdef enum:
    MAX_CELLS = 32  # the cells of a path are the bits of a uint32
    ELIMINATED_CODE = -1  # value: the bound, below the threshold
    BOARD_CODE = -2  # a single board: value its exact score
    # code >= 0: split at cell ``code``; value: the bound, at least the threshold

ELIMINATED = ELIMINATED_CODE
BOARD = BOARD_CODE


cdef struct Walk:  # what one bound or score computation needs
    const Node* graph
    const uint64_t* masks  # each cell's letters
    const int64_t* nbr  # cells × nbr_width
    Py_ssize_t nbr_width
    const int64_t* nbr_count
    const int64_t* points  # by letter count, the last entry for that many and more
    Py_ssize_t n_points
    int min_length
    uint32_t* stamp  # per graph node: the last walk that counted its word
    uint32_t walk  # this walk's stamp
    int64_t union_sum  # sum/union: the points of the distinct words met


cdef inline int64_t word_points(Walk* w, Py_ssize_t length) noexcept nogil:
    if length < w.min_length:
        return 0
    if length >= w.n_points:
        length = w.n_points - 1
    return w.points[length]


cdef int64_t max_nomark(Walk* w, Py_ssize_t cell, int64_t node, uint32_t used,
                        Py_ssize_t length) noexcept nogil:
    """The max/no-mark bound of the paths through ``cell`` after ``node`` (``length`` letters,
    ``used`` cells), adding every distinct word met to ``w.union_sum``."""
    cdef uint64_t nmask = w.graph[node].mask
    cdef uint64_t options = w.masks[cell] & nmask
    cdef uint64_t bit
    cdef int64_t child, here, best = 0, pts
    cdef Py_ssize_t k, other
    cdef const int64_t* around = w.nbr + cell * w.nbr_width
    used |= (<uint32_t>1) << cell
    while options:
        bit = options & (~options + 1)
        options ^= bit
        child = w.graph[node].first + popcount(nmask & (bit - 1))
        here = 0
        if w.graph[child].word >= 0:
            pts = word_points(w, length + 1)
            here = pts
            if pts and w.stamp[child] != w.walk:
                w.stamp[child] = w.walk
                w.union_sum += pts
        if w.graph[child].mask:
            for k in range(w.nbr_count[cell]):
                other = around[k]
                if not (used >> other) & 1:
                    here += max_nomark(w, other, child, used, length + 1)
        if here > best:
            best = here
    return best


cdef int64_t class_bound(Walk* w, Py_ssize_t cells, int64_t* nomark_out,
                         int64_t* union_out) noexcept nogil:
    """min(max/no-mark, sum/union) of the class ``w.masks``; each to its ``_out``."""
    cdef int64_t total = 0
    cdef Py_ssize_t cell
    w.walk += 1
    w.union_sum = 0
    for cell in range(cells):
        total += max_nomark(w, cell, 0, 0, 0)
    nomark_out[0] = total
    union_out[0] = w.union_sum
    return total if total < w.union_sum else w.union_sum


cdef struct TNode:  # a node of the orderly tree: a sum (of a letter) or a choice (of a cell)
    int32_t label  # a sum: its letter; a choice: its cell
    int32_t first  # first child, -1 for none
    int32_t next  # next sibling, -1 for none
    int64_t points  # a sum: the points of the paths that end there


cdef struct Orderly:  # an orderly tree being built or evaluated
    TNode* nodes
    Py_ssize_t size
    Py_ssize_t capacity
    int64_t* value  # per node, its value for the class the tree was built for
    Py_ssize_t value_capacity
    const int64_t* rank  # each cell's place in the cell order
    int32_t path_cell[MAX_CELLS]
    int32_t path_letter[MAX_CELLS]


cdef int32_t new_node(Orderly* o, int32_t parent, int32_t label) noexcept nogil:
    """A new child of ``parent`` (-1 when out of memory)."""
    cdef TNode* grown
    cdef int32_t at
    if o.size == o.capacity:
        o.capacity = 2 * o.capacity + 1024
        grown = <TNode*>realloc(o.nodes, o.capacity * sizeof(TNode))
        if grown == NULL:
            return -1
        o.nodes = grown
    at = <int32_t>o.size
    o.size += 1
    o.nodes[at].label = label
    o.nodes[at].first = -1
    o.nodes[at].points = 0
    o.nodes[at].next = -1
    if parent >= 0:
        o.nodes[at].next = o.nodes[parent].first
        o.nodes[parent].first = at
    return at


cdef int32_t child_of(Orderly* o, int32_t parent, int32_t label) noexcept nogil:
    """The child of ``parent`` labelled ``label``, made if missing (-1 when out of memory)."""
    cdef int32_t at = o.nodes[parent].first
    while at >= 0:
        if o.nodes[at].label == label:
            return at
        at = o.nodes[at].next
    return new_node(o, parent, label)


cdef int insert(Orderly* o, Py_ssize_t length, int64_t pts) noexcept nogil:
    """Add the path ``o.path_*[:length]`` worth ``pts``, its cells in the cell order."""
    cdef int32_t cells[MAX_CELLS]
    cdef int32_t letters[MAX_CELLS]
    cdef Py_ssize_t i, j
    cdef int32_t node = 0
    for i in range(length):  # insertion sort by rank: paths are short
        j = i
        while j > 0 and o.rank[cells[j - 1]] > o.rank[o.path_cell[i]]:
            cells[j] = cells[j - 1]
            letters[j] = letters[j - 1]
            j -= 1
        cells[j] = o.path_cell[i]
        letters[j] = o.path_letter[i]
    for i in range(length):
        node = child_of(o, node, cells[i])
        if node < 0:
            return -1
        node = child_of(o, node, letters[i])
        if node < 0:
            return -1
    o.nodes[node].points += pts
    return 0


cdef int collect(Walk* w, Orderly* o, Py_ssize_t cell, int64_t node, uint32_t used,
                 Py_ssize_t length) noexcept nogil:
    """Insert every word path through ``cell`` after ``node`` into the tree."""
    cdef uint64_t nmask = w.graph[node].mask
    cdef uint64_t options = w.masks[cell] & nmask
    cdef uint64_t bit
    cdef int64_t child, pts
    cdef Py_ssize_t k, other
    cdef const int64_t* around = w.nbr + cell * w.nbr_width
    used |= (<uint32_t>1) << cell
    o.path_cell[length] = <int32_t>cell
    while options:
        bit = options & (~options + 1)
        options ^= bit
        o.path_letter[length] = popcount(bit - 1)
        child = w.graph[node].first + popcount(nmask & (bit - 1))
        if w.graph[child].word >= 0:
            pts = word_points(w, length + 1)
            if pts and insert(o, length + 1, pts) < 0:
                return -1
        if w.graph[child].mask:
            for k in range(w.nbr_count[cell]):
                other = around[k]
                if not (used >> other) & 1:
                    if collect(w, o, other, child, used, length + 1) < 0:
                        return -1
    return 0


cdef int build(Walk* w, Orderly* o, Py_ssize_t cells) noexcept nogil:
    """The orderly tree of the class ``w.masks`` (node 0: its root, a sum)."""
    cdef Py_ssize_t cell
    o.size = 0
    if new_node(o, -1, -1) < 0:
        return -1
    for cell in range(cells):
        if collect(w, o, cell, 0, 0, 0) < 0:
            return -1
    cdef int64_t* grown
    if o.value_capacity < o.size:
        grown = <int64_t*>realloc(o.value, o.size * sizeof(int64_t))
        if grown == NULL:
            return -1
        o.value = grown
        o.value_capacity = o.size
    store_values(o, 0)
    return 0


cdef int64_t tree_value(const TNode* nodes, int32_t at, const uint64_t* masks) noexcept nogil:
    """The bound of the sum ``at`` for the class ``masks``."""
    cdef int64_t total = nodes[at].points, best, here
    cdef int32_t choice = nodes[at].first, option
    cdef uint64_t allowed
    while choice >= 0:
        allowed = masks[nodes[choice].label]
        best = 0
        option = nodes[choice].first
        while option >= 0:
            if (allowed >> nodes[option].label) & 1:
                here = tree_value(nodes, option, masks)
                if here > best:
                    best = here
            option = nodes[option].next
        total += best
        choice = nodes[choice].next
    return total


cdef int64_t store_values(Orderly* o, int32_t at) noexcept nogil:
    """``o.value`` of the sum ``at``, its choices and everything below (all letters
    allowed: the tree holds only the letters of the class it was built for)."""
    cdef int64_t total = o.nodes[at].points, best, here
    cdef int32_t choice = o.nodes[at].first, option
    while choice >= 0:
        best = 0
        option = o.nodes[choice].first
        while option >= 0:
            here = store_values(o, option)
            if here > best:
                best = here
            option = o.nodes[option].next
        o.value[choice] = best
        total += best
        choice = o.nodes[choice].next
    o.value[at] = total
    return total


cdef int64_t prefix_value(const Orderly* o, int32_t at, const uint64_t* masks,
                          int64_t free_from) noexcept nogil:
    """``tree_value`` of the sum ``at`` for a class that has the tree's own letters at every
    cell of rank ``free_from`` and more: a choice of such a cell (all below it come later in
    the order) keeps its stored value."""
    cdef int64_t total = o.nodes[at].points, best, here
    cdef int32_t choice = o.nodes[at].first, option
    cdef uint64_t allowed
    while choice >= 0:
        if o.rank[o.nodes[choice].label] >= free_from:
            total += o.value[choice]
        else:
            allowed = masks[o.nodes[choice].label]
            best = 0
            option = o.nodes[choice].first
            while option >= 0:
                if (allowed >> o.nodes[option].label) & 1:
                    here = prefix_value(o, option, masks, free_from)
                    if here > best:
                        best = here
                option = o.nodes[option].next
            total += best
        choice = o.nodes[choice].next
    return total


cdef int single(const uint64_t* masks, Py_ssize_t cells) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(cells):
        if popcount(masks[i]) != 1:
            return 0
    return 1


cdef int64_t prove_bound(Walk* w, Orderly* o, uint64_t* masks, const uint64_t* top,
                         const int64_t* order, Py_ssize_t cells) noexcept nogil:
    """The bound ``prove`` uses: a single board's exact score, else the orderly tree's value
    (``o`` holds the tree of the class ``top``, which contains ``masks``). A class split in
    ``order`` from ``top`` has single letters up to a cell, ``top``'s letters from there on:
    the tree's stored values serve from there."""
    cdef int64_t nomark, union_sum
    cdef Py_ssize_t i, free_from = cells
    if single(masks, cells):
        w.masks = masks
        class_bound(w, cells, &nomark, &union_sum)
        return union_sum
    for i in range(cells - 1, -1, -1):
        if masks[order[i]] != top[order[i]]:
            break
        free_from = i
    return prefix_value(o, 0, masks, free_from)


cdef struct Tree:  # prove's output, grown as it goes
    int64_t* items
    Py_ssize_t size
    Py_ssize_t capacity
    int64_t nodes_left  # node budget: stop (and fail) at 0


cdef int push(Tree* t, int64_t code, int64_t value) noexcept nogil:
    cdef int64_t* grown
    if t.size + 2 > t.capacity:
        t.capacity = 2 * t.capacity + 64
        grown = <int64_t*>realloc(t.items, t.capacity * sizeof(int64_t))
        if grown == NULL:
            return -1
        t.items = grown
    t.items[t.size] = code
    t.items[t.size + 1] = value
    t.size += 2
    return 0


cdef int branch(Walk* w, Orderly* o, Tree* t, uint64_t* masks, const uint64_t* top,
                Py_ssize_t cells, const int64_t* order, int64_t threshold) noexcept nogil:
    """Eliminate, score or split the class ``masks`` (restored before returning); -1 when out
    of memory or of node budget."""
    cdef int64_t bound
    cdef Py_ssize_t i, cell = -1
    cdef uint64_t saved, options, bit
    t.nodes_left -= 1
    if t.nodes_left < 0:
        return -1
    bound = prove_bound(w, o, masks, top, order, cells)
    if bound < threshold:
        return push(t, ELIMINATED_CODE, bound)
    for i in range(cells):
        if popcount(masks[order[i]]) > 1:
            cell = order[i]
            break
    if cell < 0:
        return push(t, BOARD_CODE, bound)
    if push(t, cell, bound) < 0:
        return -1
    saved = masks[cell]
    options = saved
    while options:
        bit = options & (~options + 1)
        options ^= bit
        masks[cell] = bit
        if branch(w, o, t, masks, top, cells, order, threshold) < 0:
            masks[cell] = saved
            return -1
    masks[cell] = saved
    return 0


cdef int start(Walk* w, const Node[::1] graph, const int64_t[:, ::1] nbr,
               const int64_t[::1] nbr_count, const int64_t[::1] points, int min_length) except -1:
    if graph.shape[0] == 0 or points.shape[0] == 0:
        raise ValueError("an empty graph or points table")
    w.graph = &graph[0]
    w.nbr = &nbr[0, 0]
    w.nbr_width = nbr.shape[1]
    w.nbr_count = &nbr_count[0]
    w.points = &points[0]
    w.n_points = points.shape[0]
    w.min_length = min_length
    w.walk = 0
    w.stamp = <uint32_t*>calloc(graph.shape[0], sizeof(uint32_t))
    if w.stamp == NULL:
        raise MemoryError()
    return 0


cdef void empty_tree(Orderly* o, int64_t* rank, const int64_t[::1] order) noexcept:
    """An orderly tree with no nodes yet, splitting the cells in ``order`` (``rank``: each
    cell's place in it)."""
    cdef Py_ssize_t i
    for i in range(order.shape[0]):
        rank[order[i]] = i
    o.nodes = NULL
    o.capacity = 0
    o.value = NULL
    o.value_capacity = 0
    o.rank = rank


cdef void release(Walk* w, Orderly* o) noexcept nogil:
    """Free what ``start`` and the tree's growth allocated."""
    free(w.stamp)
    free(o.nodes)
    free(o.value)


cdef check_shape(Py_ssize_t cells, const int64_t[:, ::1] nbr):
    if cells > MAX_CELLS or nbr.shape[0] != cells:
        raise ValueError(f"{cells} cells: at most {MAX_CELLS}, one neighbour row each")


def bounds(
    const Node[::1] graph,
    const uint64_t[:, ::1] classes,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    const int64_t[::1] points,
    int min_length,
    const int64_t[::1] order,
):
    """The max/no-mark, sum/union and orderly-tree bounds of each class (a row of cell letter
    masks; the tree's cells sorted by ``order``)."""
    cdef Walk w
    cdef Orderly o
    cdef Py_ssize_t cells = classes.shape[1], i
    cdef int status = 0
    check_shape(cells, nbr)
    if order.shape[0] != cells:
        raise ValueError("the order must list every cell")
    out = np.zeros((classes.shape[0], 3), dtype=np.int64)
    cdef int64_t[:, ::1] result = out
    cdef int64_t rank[MAX_CELLS]
    empty_tree(&o, rank, order)
    start(&w, graph, nbr, nbr_count, points, min_length)
    try:
        with nogil:
            for i in range(classes.shape[0]):
                w.masks = &classes[i, 0]
                class_bound(&w, cells, &result[i, 0], &result[i, 1])
                status = build(&w, &o, cells)
                if status < 0:
                    break
                result[i, 2] = tree_value(o.nodes, 0, &classes[i, 0])
        if status < 0:
            raise MemoryError()
    finally:
        release(&w, &o)
    return out


def tree_bounds(
    const Node[::1] graph,
    const uint64_t[::1] top,
    const uint64_t[:, ::1] classes,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    const int64_t[::1] points,
    int min_length,
    const int64_t[::1] order,
):
    """The bound ``prove`` uses of each class (a row of masks), all inside the class ``top``."""
    cdef Walk w
    cdef Orderly o
    cdef Py_ssize_t cells = classes.shape[1], i, c
    cdef int status = 0
    cdef uint64_t work[MAX_CELLS]
    check_shape(cells, nbr)
    out = np.zeros(classes.shape[0], dtype=np.int64)
    cdef int64_t[::1] result = out
    cdef int64_t rank[MAX_CELLS]
    if top.shape[0] != cells or order.shape[0] != cells:
        raise ValueError("the top class, the order and the classes differ in cells")
    empty_tree(&o, rank, order)
    start(&w, graph, nbr, nbr_count, points, min_length)
    try:
        with nogil:
            w.masks = &top[0]
            status = build(&w, &o, cells)
            if status == 0:
                for i in range(classes.shape[0]):
                    for c in range(cells):
                        work[c] = classes[i, c]
                        if work[c] & ~top[c]:
                            status = -2
                    if status < 0:
                        break
                    result[i] = prove_bound(&w, &o, work, &top[0], &order[0], cells)
        if status == -1:
            raise MemoryError()
        if status == -2:
            raise ValueError("a class outside the top class")
    finally:
        release(&w, &o)
    return out


def prove(
    const Node[::1] graph,
    const uint64_t[:, ::1] classes,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    const int64_t[::1] points,
    int min_length,
    const int64_t[::1] order,
    int64_t threshold,
    int64_t max_nodes,
):
    """Branch-and-bound on each class (a row of cell letter masks): a list of their trees,
    (code, value) rows in preorder (see ELIMINATED, BOARD; a split's code is its cell, the
    first in ``order`` with more than one letter); None for a tree past ``max_nodes`` nodes."""
    cdef Walk w
    cdef Orderly o
    cdef Tree t
    cdef Py_ssize_t cells = classes.shape[1], i, k
    cdef uint64_t work[MAX_CELLS]
    cdef uint64_t top[MAX_CELLS]
    cdef int64_t rank[MAX_CELLS]
    cdef int status
    check_shape(cells, nbr)
    if order.shape[0] != cells:
        raise ValueError("the order must list every cell")
    trees = []
    t.items = NULL
    t.capacity = 0
    empty_tree(&o, rank, order)
    start(&w, graph, nbr, nbr_count, points, min_length)
    try:
        for k in range(classes.shape[0]):
            for i in range(cells):
                work[i] = classes[k, i]
                top[i] = classes[k, i]
            t.size = 0
            t.nodes_left = max_nodes
            with nogil:
                w.masks = work
                status = build(&w, &o, cells)
                if status == 0:
                    status = branch(&w, &o, &t, work, top, cells, &order[0], threshold)
            if status < 0:
                if t.nodes_left >= 0:
                    raise MemoryError()
                trees.append(None)
                continue
            out = np.empty(t.size, dtype=np.int64)
            for i in range(t.size):
                out[i] = t.items[i]
            trees.append(out.reshape(-1, 2))
        return trees
    finally:
        free(t.items)
        release(&w, &o)
