# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled walks of the letter graph behind lexforge.boggle and lexforge.ruzzle.

A grid path is walked in lockstep with the node-array letter graph (lexforge.graph): a node's
``mask`` has bit ``i`` set when letter ``i`` continues it, its children are stored in letter
order from ``first``, so the child for a letter is ``first + popcount(mask & (bit - 1))``.

* ``search_board`` walks one board depth-first and keeps, for every word it meets, its
  best-scoring path (with all cell values 0 that is simply the first path: what Boggle needs;
  Ruzzle passes letter values and multipliers).
* ``listed_words`` turns ``search_board``'s words into the result objects (spelled, sorted and
  made in C: building them in Python took most of a 10×10 Ruzzle board's time).
* ``boggle_words`` finds only the words of many boards (see ``board_words``: their partial
  paths extended in any order, their graph nodes prefetched), each board's as a list of
  ``str``; ``boggle_scores`` only their total scores and word counts (``board_points``: the
  same kind of walk, without branches where dense boards mispredict them; nothing sorted or
  spelled). ``anneal`` scores its boards with it.

They release the GIL while they search, so ``lexforge.boggle.solve_batch`` runs them on all cores
in threads. The plain-Python searches of lexforge.reference are the oracle they are tested against.
"""

from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.list cimport PyList_New
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcmp, memcpy, memset
from lexforge._graph cimport Node

import numpy as np

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long value) nogil


cdef struct Board:  # one board's cells, as lexforge.boggle.encode_boards lays them out
    const int64_t* letters  # cells × width graph letter indices
    Py_ssize_t width
    const int64_t* length  # letters per cell
    const int64_t* nbr  # cells × nbr_width neighbour cells, ascending
    Py_ssize_t nbr_width  # 8 for a 2-D grid, up to 3ⁿ − 1 for an n-D one
    const int64_t* nbr_count
    Py_ssize_t nbr_rows  # rows of nbr: the cells of all boards, or of one shared by all
    Py_ssize_t cells
    uint64_t nodes  # of the graph searched: ``walk`` never follows an index beyond it


cdef enum:
    ROOT = 0
    LENGTH_SHIFT = 32  # Worddle sort key: (MAX_SORT_LENGTH − letters) << 32 | node


cdef int64_t MAX_SORT_LENGTH = 1 << 20
cdef int64_t NODE_MASK = ((<int64_t>1) << LENGTH_SHIFT) - 1  # a sort key's node bits
cdef int64_t KNUTH = 2654435761  # multiplier of Knuth's multiplicative hash


cdef inline int64_t walk(
    const Node* graph, int64_t node, const Board* board, int64_t cell, Py_ssize_t start=0
) noexcept nogil:
    """Follow the letters of ``cell`` (from its ``start``-th) from ``node``; -1 if the graph
    has no such path.

    Every child index comes from the graph file. ``Lexicon`` checks each graph file version
    once (lexforge._nodecheck); the bound here keeps even an unchecked graph from leading a read
    outside it (an index out of range ends the path), at no measurable cost (callgrind: 237 M
    instructions for 1,000 fr 4×4 boards, 239 M without the bound).
    """
    cdef int64_t i
    cdef uint64_t mask, bit
    cdef const int64_t* letters = board.letters + cell * board.width
    for i in range(start, board.length[cell]):
        mask = graph[node].mask
        bit = (<uint64_t>1) << letters[i]
        if mask & bit == 0:
            return -1
        node = graph[node].first + popcount(mask & (bit - 1))
        if <uint64_t>node >= board.nodes:
            return -1
    return node


cdef inline uint64_t first_letter_bit(const Board* board, int64_t cell) noexcept nogil:
    return (<uint64_t>1) << board.letters[cell * board.width]


cdef void fill_reach(const Board* board, uint64_t* reach) noexcept nogil:
    """Bit mask of the first letters of each cell's neighbours: rules most of them out at once."""
    cdef Py_ssize_t cell, k
    for cell in range(board.cells):
        reach[cell] = 0
        for k in range(board.nbr_count[cell]):
            reach[cell] |= first_letter_bit(board, board.nbr[cell * board.nbr_width + k])


cdef inline Py_ssize_t hash_slot(int64_t node, int64_t table_mask) noexcept nogil:
    """Slot of a node in a power-of-two hash table (Knuth's multiplicative hash)."""
    return ((node * KNUTH) >> 16) & table_mask


cdef Board as_board(
    const int64_t[:, ::1] cell_letters,
    const int64_t[::1] cell_len,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    Py_ssize_t nodes,
):
    if cell_letters.shape[0] != cell_len.shape[0] or nbr.shape[0] != nbr_count.shape[0]:
        raise ValueError("board arrays of different lengths")
    if nodes < 1:
        raise ValueError("the graph has no root node")
    cdef Board board
    board.letters = &cell_letters[0, 0] if cell_letters.shape[0] else NULL
    board.width = cell_letters.shape[1]
    board.length = &cell_len[0] if cell_len.shape[0] else NULL
    board.nbr = &nbr[0, 0] if nbr.shape[0] and nbr.shape[1] else NULL
    board.nbr_width = nbr.shape[1]
    board.nbr_count = &nbr_count[0] if nbr_count.shape[0] else NULL
    board.nbr_rows = nbr.shape[0]
    board.cells = cell_len.shape[0]
    board.nodes = nodes
    return board


cdef Board board_of_chunk(const Board* all_cells, const int64_t* board_start, Py_ssize_t board) noexcept nogil:
    """The cells of the ``board``-th board of a chunk (its neighbours are numbered within it).
    The chunk's neighbour table has a row for every cell of every board, or when all boards
    have one shape, a row for each cell of one board, shared."""
    cdef Board cells = all_cells[0]
    cells.letters += board_start[board] * cells.width
    cells.length += board_start[board]
    if cells.nbr_rows == cells.cells:  # a neighbour table for each board (else one for all)
        cells.nbr += board_start[board] * cells.nbr_width
        cells.nbr_count += board_start[board]
    cells.cells = board_start[board + 1] - board_start[board]
    cells.nbr_rows = cells.cells
    return cells


cdef Py_ssize_t check_chunk(const Board* all_cells, const int64_t[::1] board_start) except -1:
    """Check the boards of a chunk (``board_start`` from 0 to the number of cells, never
    decreasing; each board's cells and neighbours); the most cells of one board."""
    cdef Py_ssize_t n_boards = board_start.shape[0] - 1, board, most_cells = 1
    if n_boards < 0 or board_start[0] != 0 or board_start[n_boards] != all_cells.cells:
        raise ValueError("board_start must run from 0 to the number of cells")
    cdef Board cells
    for board in range(n_boards):
        if board_start[board + 1] < board_start[board]:
            raise ValueError("board_start must not decrease")
        if all_cells.nbr_rows != all_cells.cells and (
            board_start[board + 1] - board_start[board] != all_cells.nbr_rows
        ):
            raise ValueError("a shared neighbour table needs boards of as many cells")
        most_cells = max(most_cells, board_start[board + 1] - board_start[board])
        cells = board_of_chunk(all_cells, &board_start[0], board)
        check_board(&cells)
    return most_cells


cdef check_board(const Board* board):
    """ValueError unless every cell has 1..width letters of 0–63 and neighbours on the board:
    the searches trust these indices."""
    cdef Py_ssize_t cell, i
    if board.nbr_rows != board.cells:
        raise ValueError("board arrays of different lengths")
    for cell in range(board.cells):
        if not 1 <= board.length[cell] <= board.width:
            raise ValueError(f"cell {cell}: {board.length[cell]} letters")
        for i in range(board.length[cell]):
            if not 0 <= board.letters[cell * board.width + i] < 64:
                raise ValueError(f"cell {cell}: letter index outside 0–63")
        if not 0 <= board.nbr_count[cell] <= board.nbr_width:
            raise ValueError(f"cell {cell}: {board.nbr_count[cell]} neighbours")
        for i in range(board.nbr_count[cell]):
            if not 0 <= board.nbr[cell * board.nbr_width + i] < board.cells:
                raise ValueError(f"cell {cell}: a neighbour outside the board")


# --- one board, best paths: search_board ------------------------------------------------------


cdef struct Found:  # search_board's output arrays, one entry per word
    int64_t* nodes
    int64_t* scores
    int64_t* lengths
    int64_t* path_start
    int64_t* path_len
    int64_t* paths  # the cells of every kept path, concatenated
    int64_t* slots  # hash table: node → index of the word, -1 if empty
    Py_ssize_t capacity
    Py_ssize_t path_capacity
    Py_ssize_t slot_mask


cdef struct Frame:  # one cell of the depth-first path
    int64_t cell
    int64_t node
    int64_t next  # next neighbour to try
    int64_t value_sum
    int64_t word_mult
    int64_t letters


def search_board(
    const Node[::1] graph,
    const int64_t[:, ::1] cell_letters,
    const int64_t[::1] cell_len,
    const int64_t[::1] cell_value,
    const int64_t[::1] cell_word_mult,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    int64_t min_length,
    const int64_t[::1] length_bonus,
):
    """Depth-first search of one board; each word found once, with its best-scoring path.

    A path scores ``sum(cell_value) × product(cell_word_mult) + length_bonus[letters]``
    (``length_bonus`` has an entry for every letter count up to the board's total); among equal
    scores the first path in depth-first order (the lexicographically smallest sequence of
    cells) is kept. Returns, per word in discovery order: its graph node, score, letter count,
    and its path as ``paths[path_start : path_start + path_len]`` (cell indices); then the
    number of cells the walk stepped on (the work done, for benchmarks).
    """
    cdef Board board = as_board(cell_letters, cell_len, nbr, nbr_count, graph.shape[0])
    check_board(&board)
    if cell_value.shape[0] != board.cells or cell_word_mult.shape[0] != board.cells:
        raise ValueError("cell values and multipliers must have one entry per cell")
    cdef Py_ssize_t total_letters = 0, cell
    for cell in range(board.cells):
        total_letters += board.length[cell]
    if length_bonus.shape[0] <= total_letters:
        raise ValueError("length_bonus needs an entry for every letter count of the board")
    cdef Py_ssize_t capacity = 256
    cdef int64_t[::1] nodes, scores, lengths, path_start, path_len, paths, slots
    cdef Found found
    cdef Py_ssize_t n_found, n_path_cells
    cdef int64_t visited = 0
    cdef Frame* stack
    cdef uint64_t* reach
    cdef uint8_t* used
    if board.cells == 0:
        return (*(np.empty(0, np.int64) for _ in range(6)), 0)
    while True:  # the output arrays never grow during the walk: retry with more room instead
        nodes = np.empty(capacity, np.int64)
        scores = np.empty(capacity, np.int64)
        lengths = np.empty(capacity, np.int64)
        path_start = np.empty(capacity, np.int64)
        path_len = np.empty(capacity, np.int64)
        paths = np.empty(8 * capacity, np.int64)
        slots = np.full(2 * capacity, -1, np.int64)
        found = Found(
            &nodes[0], &scores[0], &lengths[0], &path_start[0], &path_len[0], &paths[0],
            &slots[0], capacity, 8 * capacity, 2 * capacity - 1,
        )
        stack = <Frame*>malloc((board.cells + 1) * sizeof(Frame))
        reach = <uint64_t*>malloc((board.cells + 1) * sizeof(uint64_t))
        used = <uint8_t*>malloc(board.cells + 1)
        if stack == NULL or reach == NULL or used == NULL:
            free(stack)
            free(reach)
            free(used)
            raise MemoryError()
        with nogil:
            fill_reach(&board, reach)
            memset(used, 0, board.cells + 1)
            n_found = depth_first(
                &graph[0], &board, &cell_value[0], &cell_word_mult[0], min_length,
                &length_bonus[0], &found, stack, reach, used, &n_path_cells, &visited,
            )
        free(stack)
        free(reach)
        free(used)
        if n_found >= 0:
            return (
                np.asarray(nodes[:n_found]),
                np.asarray(scores[:n_found]),
                np.asarray(lengths[:n_found]),
                np.asarray(path_start[:n_found]),
                np.asarray(path_len[:n_found]),
                np.asarray(paths[:n_path_cells]),
                visited,
            )
        capacity *= 4


cdef Py_ssize_t depth_first(
    const Node* graph,
    const Board* board,
    const int64_t* cell_value,
    const int64_t* cell_word_mult,
    int64_t min_length,
    const int64_t* length_bonus,
    Found* found,
    Frame* stack,
    const uint64_t* reach,
    uint8_t* used,
    Py_ssize_t* n_path_cells,
    int64_t* visited,
) noexcept nogil:
    """The walk of ``search_board`` into ``found``: the number of words, or -1 when it is full;
    ``visited`` counts the cells stepped on."""
    cdef Py_ssize_t n_found = 0, depth, i, start
    cdef int64_t node, cell, next_cell, child, score, k, word
    cdef Py_ssize_t slot
    cdef uint64_t candidates
    cdef int64_t n_visited = 0
    cdef const int64_t* around
    cdef int64_t n_around
    n_path_cells[0] = 0
    for start in range(board.cells):
        node = walk(graph, ROOT, board, start)
        if node < 0:
            continue
        depth = 0
        stack[0] = Frame(start, node, 0, cell_value[start], cell_word_mult[start],
                         board.length[start])
        used[start] = 1
        n_visited += 1
        while depth >= 0:
            node = stack[depth].node
            if stack[depth].next == 0 and graph[node].word >= 0 and stack[depth].letters >= min_length:
                # First visit of a word node: keep the path if the word is new or scores better.
                score = (stack[depth].value_sum * stack[depth].word_mult
                         + length_bonus[stack[depth].letters])
                slot = hash_slot(node, found.slot_mask)
                while found.slots[slot] >= 0 and found.nodes[found.slots[slot]] != node:
                    slot = (slot + 1) & found.slot_mask
                word = found.slots[slot]
                if word < 0 or score > found.scores[word]:
                    if word < 0:
                        if n_found == found.capacity:
                            return -1
                        word = n_found
                        n_found += 1
                        found.slots[slot] = word
                        found.nodes[word] = node
                        found.lengths[word] = stack[depth].letters
                    if n_path_cells[0] + depth + 1 > found.path_capacity:
                        return -1
                    found.scores[word] = score
                    found.path_start[word] = n_path_cells[0]
                    found.path_len[word] = depth + 1
                    for i in range(depth + 1):
                        found.paths[n_path_cells[0] + i] = stack[i].cell
                    n_path_cells[0] += depth + 1
            # Scan the neighbours from the next untried one for a free cell continuing the word.
            cell = stack[depth].cell
            child = -1
            candidates = graph[node].mask & reach[cell]
            k = stack[depth].next
            if candidates != 0:
                around = board.nbr + cell * board.nbr_width  # a local: no reload per neighbour
                n_around = board.nbr_count[cell]
                while k < n_around:
                    next_cell = around[k]
                    k += 1
                    if candidates & first_letter_bit(board, next_cell) and not used[next_cell]:
                        child = walk(graph, node, board, next_cell)
                        if child >= 0:
                            break
            if child >= 0:
                stack[depth].next = k
                used[next_cell] = 1
                n_visited += 1
                depth += 1
                stack[depth] = Frame(
                    next_cell, child, 0,
                    stack[depth - 1].value_sum + cell_value[next_cell],
                    stack[depth - 1].word_mult * cell_word_mult[next_cell],
                    stack[depth - 1].letters + board.length[next_cell],
                )
            else:
                used[cell] = 0
                depth -= 1
    visited[0] = n_visited
    return n_found


# --- search_board's words as result objects: listed_words ------------------------------------


cdef extern from "Python.h":
    ctypedef struct NewType "PyTypeObject":
        PyObject* (*tp_new)(NewType*, PyObject*, PyObject*) except NULL
    int PyObject_GenericSetAttr(object o, object name, object value) except -1


cdef struct Spelled:  # one word of listed_words, while it is sorted
    int64_t rank
    const char* text  # its UTF-8 bytes
    Py_ssize_t size
    Py_ssize_t word  # its index in search_board's arrays


cdef int by_rank_then_text(const void* x, const void* y) noexcept nogil:
    """Ascending rank, then ascending UTF-8 bytes (code-point order, as ``str`` compares)."""
    cdef const Spelled* a = <const Spelled*>x
    cdef const Spelled* b = <const Spelled*>y
    cdef int order
    if a.rank != b.rank:
        return -1 if a.rank < b.rank else 1
    order = memcmp(a.text, b.text, min(a.size, b.size))
    if order != 0:
        return order
    return (a.size > b.size) - (a.size < b.size)


def listed_words(
    type cls,
    tuple cells,
    tuple coords,
    const int64_t[::1] rank,
    const int64_t[::1] scores,
    const int64_t[::1] path_start,
    const int64_t[::1] path_len,
    const int64_t[::1] paths,
):
    """The words of a ``search_board`` result as ``cls`` objects, sorted by ``rank`` (one entry
    per word, ascending), then by word.

    ``cls`` is a dataclass of fields ``word``, ``score`` and ``path`` (in any order): each
    object is made as its ``__init__`` would make it (``object.__setattr__`` of each field, in
    field order) without the call of that Python function. A word is the concatenation of the
    ``cells`` (strings) of its path; its path is the tuple of the ``coords`` of those cells.
    """
    cdef Py_ssize_t n_words = rank.shape[0], n_cells = len(cells), total = 0, w, i, at, k
    cdef int64_t cell
    if not (scores.shape[0] == path_start.shape[0] == path_len.shape[0] == n_words):
        raise ValueError("rank, scores and paths of different lengths")
    if len(coords) != n_cells:
        raise ValueError("cells and coords of different lengths")
    for w in range(n_words):
        if not (0 <= path_start[w] and 0 <= path_len[w] <= paths.shape[0] - path_start[w]):
            raise ValueError(f"word {w}: a path outside paths")
        for i in range(path_start[w], path_start[w] + path_len[w]):
            if not 0 <= paths[i] < n_cells:
                raise ValueError(f"word {w}: a cell outside the board")
    names = tuple(cls.__dataclass_fields__)
    if sorted(names) != ["path", "score", "word"]:
        raise ValueError(f"{cls.__name__} fields must be word, score and path")
    cdef int which[3]  # field k takes value which[k] of (word, score, path)
    for k in range(3):
        which[k] = ("word", "score", "path").index(names[k])
    encoded = [cell_text.encode() for cell_text in cells]
    cdef Py_ssize_t* cell_size = <Py_ssize_t*>malloc((n_cells + 1) * sizeof(Py_ssize_t))
    cdef const char** cell_bytes = <const char**>malloc((n_cells + 1) * sizeof(char*))
    cdef Spelled* spelled = <Spelled*>malloc((n_words + 1) * sizeof(Spelled))
    cdef char* text = NULL
    cdef bytes data
    cdef NewType* new_type = <NewType*>cls
    cdef PyObject* made
    cdef tuple path
    no_args = ()
    result = []
    try:
        if cell_size == NULL or cell_bytes == NULL or spelled == NULL:
            raise MemoryError()
        for i in range(n_cells):
            data = encoded[i]
            cell_bytes[i] = data
            cell_size[i] = len(data)
        for w in range(n_words):
            for i in range(path_start[w], path_start[w] + path_len[w]):
                total += cell_size[paths[i]]
        text = <char*>malloc(total + 1)
        if text == NULL:
            raise MemoryError()
        at = 0
        for w in range(n_words):
            spelled[w].rank = rank[w]
            spelled[w].text = text + at
            spelled[w].word = w
            for i in range(path_start[w], path_start[w] + path_len[w]):
                cell = paths[i]
                memcpy(text + at, cell_bytes[cell], cell_size[cell])
                at += cell_size[cell]
            spelled[w].size = text + at - spelled[w].text
        qsort(spelled, n_words, sizeof(Spelled), by_rank_then_text)
        for k in range(n_words):
            w = spelled[k].word
            path = PyTuple_New(path_len[w])
            for i in range(path_len[w]):
                place = coords[paths[path_start[w] + i]]
                Py_INCREF(place)  # PyTuple_SET_ITEM takes the reference over
                PyTuple_SET_ITEM(path, i, place)
            values = (PyUnicode_DecodeUTF8(spelled[k].text, spelled[k].size, NULL), scores[w], path)
            made = new_type.tp_new(new_type, <PyObject*>no_args, NULL)
            item = <object>made  # a second reference: drop the allocation's own
            Py_XDECREF(made)
            for i in range(3):
                PyObject_GenericSetAttr(item, names[i], values[which[i]])
            result.append(item)
        return result
    finally:
        free(cell_size)
        free(cell_bytes)
        free(spelled)
        free(text)


# --- many boards, words only: boggle_words ----------------------------------------------------


cdef struct Item:  # a partial path waiting to be extended by board_words
    uint64_t used  # its cells, as bits (a batch board has at most 64)
    int32_t node
    int32_t step  # its last step in Buffers.steps (the steps of its cells, last first)
    int32_t cell
    int32_t letters


cdef struct Step:  # one cell of a path board_words took, linked to the step before it
    int32_t cell
    int32_t parent  # -1 for a start cell


cdef struct Key:  # a word of a board: its Worddle sort key and the last step of its path
    int64_t key
    int64_t path


cdef struct Buffers:  # board_words' working memory, reused from board to board
    Key* keys
    Key* spare  # room to sort keys
    int64_t* slots  # hash set of the nodes found on the board
    Py_ssize_t capacity  # words
    Py_ssize_t* place  # most_letters + 1 counters, to sort keys by length
    Py_ssize_t most_letters  # of a word: the letters of the largest board
    Step* steps
    Py_ssize_t step_capacity
    Item* stack
    Py_ssize_t stack_capacity
    uint64_t* by_letter  # cells × 64: the neighbours of a cell whose first letter is the index
    uint64_t* reach  # one entry per cell: the first letters of its neighbours, as bits
    uint64_t* letter_bit  # board_points: one entry per cell, its first letter as a bit
    uint8_t* marks  # board_points: per graph node, the generation of the last board to count it
    Py_ssize_t mark_nodes
    uint8_t generation


cdef enum:
    IN_FLIGHT = 16  # paths whose graph node is being fetched while others are extended
    MAX_CELL_LETTERS = 64  # of a cell board_points scores: a path's letters fit 16 bits
    BUFFERS_FULL = -1
    OUT_OF_MEMORY = -2


cdef extern from *:
    int count_trailing_zeros "__builtin_ctzll"(unsigned long long value) nogil
    void prefetch "__builtin_prefetch"(const void* address) nogil


cdef int grow(void** array, Py_ssize_t* capacity, Py_ssize_t needed, size_t item) noexcept nogil:
    """Make ``array`` hold at least ``needed`` items (doubling); 0 on success, -1 out of memory."""
    cdef Py_ssize_t size = max(capacity[0], 16)
    cdef void* bigger
    if needed <= capacity[0]:
        return 0
    while size < needed:
        size *= 2
    bigger = realloc(array[0], size * item)
    if bigger == NULL:
        return -1
    array[0] = bigger
    capacity[0] = size
    return 0


cdef void sort_keys(Buffers* buffers, Py_ssize_t n) noexcept nogil:
    """Sort the first ``n`` of ``buffers.keys`` by ascending key (longest word first, then by
    node): counted into their length's place, then an insertion sort, which only moves keys
    among those of one length. (qsort, and then a quicksort, took a sixth of a board's time,
    mostly in mispredicted comparisons.)"""
    cdef Key* keys = buffers.keys
    cdef Key* spare = buffers.spare
    cdef Py_ssize_t* place = buffers.place
    cdef Py_ssize_t i, j, rank, total = 0, count
    cdef int64_t top = MAX_SORT_LENGTH - buffers.most_letters  # the key's high part, longest
    cdef Key key
    # rank of a key: its letters counted down from the most a board can have
    for i in range(buffers.most_letters + 1):
        place[i] = 0
    for i in range(n):
        place[(keys[i].key >> LENGTH_SHIFT) - top] += 1
    for rank in range(buffers.most_letters + 1):
        count = place[rank]
        place[rank] = total
        total += count
    for i in range(n):
        rank = (keys[i].key >> LENGTH_SHIFT) - top
        spare[place[rank]] = keys[i]
        place[rank] += 1
    for i in range(n):
        key = spare[i]
        j = i - 1
        while j >= 0 and keys[j].key > key.key:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = key


cdef int init_buffers(Buffers* buffers, Py_ssize_t most_cells, Py_ssize_t width) noexcept nogil:
    """Allocate ``buffers`` for boards of up to ``most_cells`` cells of up to ``width`` letters;
    0, or -1 out of memory."""
    memset(buffers, 0, sizeof(Buffers))
    buffers.most_letters = most_cells * width
    buffers.place = <Py_ssize_t*>malloc((buffers.most_letters + 1) * sizeof(Py_ssize_t))
    if buffers.place == NULL:
        return -1
    buffers.by_letter = <uint64_t*>malloc(most_cells * 64 * sizeof(uint64_t))
    buffers.reach = <uint64_t*>malloc(most_cells * sizeof(uint64_t))
    buffers.letter_bit = <uint64_t*>malloc(most_cells * sizeof(uint64_t))
    if buffers.by_letter == NULL or buffers.reach == NULL or buffers.letter_bit == NULL:
        return -1
    if set_capacity(buffers, 512) < 0:  # words per board
        return -1
    if grow(<void**>&buffers.steps, &buffers.step_capacity, 4096, sizeof(Step)) < 0:
        return -1
    return grow(<void**>&buffers.stack, &buffers.stack_capacity, 1024, sizeof(Item))


cdef int set_capacity(Buffers* buffers, Py_ssize_t capacity) noexcept nogil:
    """(Re)allocate the word buffers for ``capacity`` words; 0, or -1 out of memory."""
    free(buffers.keys)
    free(buffers.spare)
    free(buffers.slots)
    buffers.keys = <Key*>malloc(capacity * sizeof(Key))
    buffers.spare = <Key*>malloc(capacity * sizeof(Key))
    buffers.slots = <int64_t*>malloc(2 * capacity * sizeof(int64_t))
    buffers.capacity = capacity
    return 0 if buffers.keys and buffers.spare and buffers.slots else -1


cdef int make_room(Buffers* buffers) noexcept nogil:
    """Grow what ``board_words`` may have run out of (it returned BUFFERS_FULL): words, steps
    and waiting paths; 0, or -1 out of memory."""
    if set_capacity(buffers, 4 * buffers.capacity) < 0:
        return -1
    if grow(<void**>&buffers.steps, &buffers.step_capacity, 4 * buffers.step_capacity,
            sizeof(Step)) < 0:
        return -1
    return grow(<void**>&buffers.stack, &buffers.stack_capacity, 4 * buffers.stack_capacity,
                sizeof(Item))


cdef void free_buffers(Buffers* buffers) noexcept nogil:
    free(buffers.keys)
    free(buffers.spare)
    free(buffers.slots)
    free(buffers.place)
    free(buffers.steps)
    free(buffers.stack)
    free(buffers.by_letter)
    free(buffers.reach)
    free(buffers.letter_bit)
    free(buffers.marks)


cdef struct NewWord:  # a word first found in the current stretch, spelled in Chunk.text
    Py_ssize_t start
    Py_ssize_t length
    Py_UCS4 maxchar


cdef struct Chunk:  # boggle_words' working memory, and the objects it has made
    int32_t* index  # graph node → 1 + its word's number in ``words``, 0 if not made yet
    PyObject** words  # every word made, one ``str`` each (owned references)
    Py_ssize_t n_made
    Py_ssize_t words_capacity
    PyObject** boards  # every board's tuple of words, stretch after stretch (owned references)
    Py_ssize_t n_boards
    Py_ssize_t boards_capacity
    # the current stretch:
    Py_UCS4* text  # the letters of its new words, one after the other
    Py_ssize_t text_size
    Py_ssize_t text_capacity
    NewWord* new_words
    Py_ssize_t n_new
    Py_ssize_t new_capacity
    int32_t* indices  # its boards' words, as numbers into ``words``
    Py_ssize_t n_words
    Py_ssize_t indices_capacity
    int64_t* board_end  # board ``b``'s words end at ``indices[board_end[b]]``
    Py_ssize_t board_end_capacity
    int64_t* path  # one word's cells, while it is spelled
    Py_ssize_t most_cells  # of a board, and letters of a cell, that the buffers are made for
    Py_ssize_t width
    Buffers buffers


def boggle_words(
    const Node[::1] graph, next_stretch, int64_t min_length, const uint32_t[::1] letter_chars
):
    """The words of boards (of at most 64 cells each) for ``solve_batch``, in Worddle order.

    ``next_stretch()`` gives the next boards to solve, ``(first, arrays)`` with ``arrays`` as
    ``lexforge.boggle.Boards.chunk`` makes them, or None when there are no more; each call
    is a short turn with the GIL between searches without it. ``letter_chars`` holds the code
    point of each graph letter (64 of them, as a board may hold any index below 64). Returns
    the ``first`` of each stretch, in the order taken, and a list of the boards' words in
    that order, a tuple of ``str`` each. A word found on several boards is one object.

    The tuples are left untracked by the garbage collector, as it leaves tuples of strings
    itself: nothing in them can make a cycle, and a collection has none to walk (walking
    the words of 20,000 boards took a tenth of a batch's time on two threads). Only the
    search, the spelling and (but in a debug build of Python) the filling of the tuples run
    without the GIL; objects are made with it. Nothing this call makes is reachable from Python before it returns (the
    words wait in a C array, the tuples are untracked), so the reference counts and
    contents of its objects may be written without the GIL.
    """
    cdef Chunk chunk
    cdef Py_ssize_t n_boards, first_word, first_board, i
    cdef Board all_cells
    cdef const int64_t[::1] board_start
    cdef int status
    if letter_chars.shape[0] != 64:
        raise ValueError("letter_chars must hold 64 code points")
    firsts = []
    memset(&chunk, 0, sizeof(Chunk))
    try:
        chunk.index = <int32_t*>calloc(graph.shape[0], sizeof(int32_t))  # pages zeroed lazily
        if chunk.index == NULL:
            raise MemoryError()
        while True:
            stretch = next_stretch()
            if stretch is None:
                break
            first, arrays = stretch
            board_start, cell_letters, cell_len, nbr, nbr_count = arrays
            all_cells = as_board(cell_letters, cell_len, nbr, nbr_count, graph.shape[0])
            n_boards = board_start.shape[0] - 1
            if fit_chunk(&chunk, check_chunk(&all_cells, board_start), all_cells.width,
                         n_boards) < 0:
                raise MemoryError()
            with nogil:
                status = solve_boards(
                    &graph[0], &board_start[0], n_boards, &all_cells, min_length,
                    &letter_chars[0], &chunk,
                )
            if status < 0:
                raise MemoryError()
            first_word, first_board = chunk.n_made, chunk.n_boards
            make_objects(&chunk, n_boards)
            if FILL_WITHOUT_GIL:
                with nogil:
                    fill_objects(&chunk, first_word, first_board, n_boards)
            else:
                fill_objects(&chunk, first_word, first_board, n_boards)
            firsts.append(first)
        words = PyList_New(chunk.n_boards)
        for i in range(chunk.n_boards):
            set_list_item(<PyObject*>words, i, chunk.boards[i])  # takes over the reference
        chunk.n_boards = 0
        return firsts, words
    finally:
        for i in range(chunk.n_boards):
            Py_DECREF(chunk.boards[i])
        for i in range(chunk.n_made):
            Py_DECREF(chunk.words[i])
        free(chunk.index)
        free(chunk.words)
        free(chunk.boards)
        free(chunk.text)
        free(chunk.new_words)
        free(chunk.indices)
        free(chunk.board_end)
        free(chunk.path)
        free_buffers(&chunk.buffers)


cdef extern from "Python.h":
    PyObject* new_tuple "PyTuple_New"(Py_ssize_t size) except NULL
    PyObject* PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar) except NULL
    void set_list_item "PyList_SET_ITEM"(PyObject* list, Py_ssize_t index, PyObject* item)
    void PyObject_GC_UnTrack(void* op)
    void Py_DECREF(PyObject* o)


cdef extern from *:
    """
    /* A debug build of Python (Py_REF_DEBUG) also counts every Py_INCREF in a total of the
       interpreter's, which needs the GIL: there, boggle_words fills its objects holding it. */
    #ifdef Py_REF_DEBUG
    #define LEXFORGE_FILL_WITHOUT_GIL 0
    #else
    #define LEXFORGE_FILL_WITHOUT_GIL 1
    #endif
    """
    bint FILL_WITHOUT_GIL "LEXFORGE_FILL_WITHOUT_GIL"


cdef extern from "Python.h" nogil:
    PyObject** tuple_items "PySequence_Fast_ITEMS"(PyObject* o)
    void incref "Py_INCREF"(PyObject* o)
    int unicode_kind "PyUnicode_KIND"(PyObject* o)
    void* unicode_data "PyUnicode_DATA"(PyObject* o)
    void unicode_write "PyUnicode_WRITE"(int kind, void* data, Py_ssize_t index, Py_UCS4 value)


cdef int fit_chunk(Chunk* chunk, Py_ssize_t most_cells, Py_ssize_t width, Py_ssize_t n_boards):
    """Make ``chunk`` ready for a stretch of ``n_boards`` boards of up to ``most_cells`` cells
    of up to ``width`` letters; 0, or -1 out of memory."""
    chunk.n_words = chunk.n_new = chunk.text_size = 0
    if grow(<void**>&chunk.board_end, &chunk.board_end_capacity, n_boards + 1,
            sizeof(int64_t)) < 0:
        return -1
    if most_cells <= chunk.most_cells and width <= chunk.width:
        return 0
    chunk.most_cells = max(most_cells, chunk.most_cells)
    chunk.width = max(width, chunk.width)
    free_buffers(&chunk.buffers)
    memset(&chunk.buffers, 0, sizeof(Buffers))  # nothing left for boggle_words to free again
    free(chunk.path)
    chunk.path = <int64_t*>malloc(chunk.most_cells * sizeof(int64_t))
    if chunk.path == NULL:
        return -1
    return init_buffers(&chunk.buffers, chunk.most_cells, chunk.width)


cdef int make_objects(Chunk* chunk, Py_ssize_t n_boards) except -1:
    """Make (with the GIL) the objects of the stretch just searched: a ``str`` for each new
    word and an untracked tuple for each board, their contents left for ``fill_objects``."""
    cdef Py_ssize_t i, board
    cdef PyObject* made
    if (grow(<void**>&chunk.words, &chunk.words_capacity, chunk.n_made + chunk.n_new,
             sizeof(PyObject*)) < 0
            or grow(<void**>&chunk.boards, &chunk.boards_capacity, chunk.n_boards + n_boards,
                    sizeof(PyObject*)) < 0):
        raise MemoryError()
    for i in range(chunk.n_new):
        chunk.words[chunk.n_made] = PyUnicode_New(chunk.new_words[i].length,
                                                  chunk.new_words[i].maxchar)
        chunk.n_made += 1
    for board in range(n_boards):
        made = new_tuple(chunk.board_end[board + 1] - chunk.board_end[board])
        PyObject_GC_UnTrack(made)
        chunk.boards[chunk.n_boards] = made
        chunk.n_boards += 1
    return 0


cdef void fill_objects(
    Chunk* chunk, Py_ssize_t first_word, Py_ssize_t first_board, Py_ssize_t n_boards
) noexcept nogil:
    """Write the letters of the stretch's new words and fill its boards' tuples (without the
    GIL: see ``boggle_words``)."""
    cdef Py_ssize_t i, j, board, k, start, end = chunk.board_end[n_boards]
    cdef const NewWord* new
    cdef PyObject* word
    cdef PyObject** items
    cdef PyObject** words = chunk.words
    cdef const int32_t* indices = chunk.indices
    cdef void* data
    cdef int kind
    for i in range(chunk.n_new):
        new = &chunk.new_words[i]
        word = words[first_word + i]
        kind = unicode_kind(word)
        data = unicode_data(word)
        for j in range(new.length):
            unicode_write(kind, data, j, chunk.text[new.start + j])
    for board in range(n_boards):
        start = chunk.board_end[board]
        items = tuple_items(chunk.boards[first_board + board])
        for k in range(start, chunk.board_end[board + 1]):
            # The word objects lie all over memory: fetch a few ahead of their reference count.
            if k + 16 < end:
                prefetch(words[indices[k + 16]])
            word = words[indices[k]]
            incref(word)
            items[k - start] = word


cdef int solve_boards(
    const Node* graph,
    const int64_t* board_start,
    Py_ssize_t n_boards,
    const Board* all_cells,
    int64_t min_length,
    const uint32_t* letter_chars,
    Chunk* chunk,
) noexcept nogil:
    """Search the boards of a stretch: their words' numbers go to ``chunk.indices`` (up to
    ``board_end[b + 1]`` for board ``b``), each word new to the chunk numbered and spelled
    into ``chunk.text``. 0, or -1 out of memory."""
    cdef Py_ssize_t board, rank, n_keys, depth, i, needed
    cdef int64_t j, step, letter, cell, letters
    cdef Board cells
    cdef Buffers* buffers = &chunk.buffers
    cdef Key* key
    cdef int32_t* known
    cdef NewWord* new
    cdef Py_UCS4 code
    chunk.board_end[0] = 0
    for board in range(n_boards):
        cells = board_of_chunk(all_cells, board_start, board)
        while True:  # retry the board with more room if the buffers could not hold it
            n_keys = board_words(graph, &cells, min_length, buffers)
            if n_keys >= 0:
                break
            if make_room(buffers) < 0:
                return -1
        needed = chunk.n_words + n_keys
        if grow(<void**>&chunk.indices, &chunk.indices_capacity, needed, sizeof(int32_t)) < 0:
            return -1
        sort_keys(buffers, n_keys)
        # All the (cache-missing) loads of index[] at once, before any decision.
        known = chunk.indices + chunk.n_words
        for rank in range(n_keys):
            known[rank] = chunk.index[buffers.keys[rank].key & NODE_MASK] - 1
        for rank in range(n_keys):
            if known[rank] >= 0:
                continue
            # New to the chunk (a board finds a node once): spell it from its path.
            key = &buffers.keys[rank]
            known[rank] = chunk.n_made + chunk.n_new
            chunk.index[key.key & NODE_MASK] = known[rank] + 1
            if grow(<void**>&chunk.new_words, &chunk.new_capacity, chunk.n_new + 1,
                    sizeof(NewWord)) < 0:
                return -1
            letters = MAX_SORT_LENGTH - (key.key >> LENGTH_SHIFT)
            if grow(<void**>&chunk.text, &chunk.text_capacity, chunk.text_size + letters,
                    sizeof(Py_UCS4)) < 0:
                return -1
            new = &chunk.new_words[chunk.n_new]
            chunk.n_new += 1
            new.start = chunk.text_size
            new.maxchar = 0
            depth = 0
            step = key.path
            while step >= 0:  # the path's cells, last first
                chunk.path[depth] = buffers.steps[step].cell
                depth += 1
                step = buffers.steps[step].parent
            for i in range(depth - 1, -1, -1):
                cell = chunk.path[i]
                for j in range(cells.length[cell]):
                    letter = cells.letters[cell * cells.width + j]
                    code = letter_chars[letter]
                    new.maxchar = max(new.maxchar, code)
                    chunk.text[chunk.text_size] = code
                    chunk.text_size += 1
            new.length = chunk.text_size - new.start
        chunk.n_words += n_keys
        chunk.board_end[board + 1] = chunk.n_words
    return 0


cdef void index_neighbours(const Board* board, Buffers* buffers) noexcept nogil:
    """Fill ``buffers.by_letter`` and ``buffers.reach`` for ``board``."""
    cdef Py_ssize_t cell, k, neighbour
    cdef int64_t letter
    memset(buffers.by_letter, 0, board.cells * 64 * sizeof(uint64_t))
    for cell in range(board.cells):
        buffers.reach[cell] = 0
        for k in range(board.nbr_count[cell]):
            neighbour = board.nbr[cell * board.nbr_width + k]
            letter = board.letters[neighbour * board.width]
            buffers.by_letter[cell * 64 + letter] |= (<uint64_t>1) << neighbour
            buffers.reach[cell] |= (<uint64_t>1) << letter


cdef Py_ssize_t board_words(
    const Node* graph, const Board* board, int64_t min_length, Buffers* buffers
) noexcept nogil:

    """The lean search of one board (at most 64 cells): nothing but its words.

    Every partial path is an independent ``Item`` (its cells as bits, its node), so the order in
    which they are extended does not matter. They wait on a stack (depth-first, which keeps it
    small); on leaving it, an item's graph node is prefetched, and the item is extended only
    after ``IN_FLIGHT`` others: the processor fetches many nodes of the (megabytes large) graph
    at once instead of waiting for each. Extending a path looks only at the letters that both
    continue its word and lie around its cell (``by_letter``), not at every neighbour.

    Writes the Worddle sort key ``(−letters, node)`` of each word found into ``buffers.keys``
    (once: ``slots`` is a hash set of the nodes found), and the last step of a path spelling
    it (``buffers.steps`` links each step to the one before). Returns the number of words, or
    BUFFERS_FULL. (Scores alone: ``board_points``.)
    """
    cdef Item in_flight[IN_FLIGHT]
    cdef Item item
    cdef Node node
    cdef Py_ssize_t head = 0, n_flying = 0, n_stack = 0, n_steps = 0, n_keys = 0, slot
    cdef Py_ssize_t table_mask = 2 * buffers.capacity - 1, capacity = buffers.capacity
    cdef Py_ssize_t max_stack = buffers.stack_capacity - board.cells
    cdef Py_ssize_t max_steps = buffers.step_capacity
    cdef int64_t cell, child, first, start_node
    cdef uint64_t candidates, bit, free_cells, nodes = board.nodes
    # Locals, not fields: the module is compiled without strict aliasing, so a field would be
    # reloaded after every store.
    cdef Item* stack = buffers.stack
    cdef Step* steps = buffers.steps
    cdef Key* keys = buffers.keys
    cdef int64_t* slots = buffers.slots
    cdef const uint64_t* by_letter = buffers.by_letter
    cdef const uint64_t* reach = buffers.reach
    cdef const int64_t* cell_length = board.length
    index_neighbours(board, buffers)
    memset(slots, 0xFF, 2 * capacity * sizeof(int64_t))
    for cell in range(board.cells - 1, -1, -1):  # the start cells, first cell on top
        start_node = walk(graph, ROOT, board, cell)
        if start_node >= 0:
            stack[n_stack].used = (<uint64_t>1) << cell
            stack[n_stack].node = start_node
            stack[n_stack].step = -1
            stack[n_stack].cell = cell
            stack[n_stack].letters = cell_length[cell]
            n_stack += 1
    while True:
        while n_flying < IN_FLIGHT and n_stack > 0:
            n_stack -= 1
            prefetch(&graph[stack[n_stack].node])
            in_flight[(head + n_flying) & (IN_FLIGHT - 1)] = stack[n_stack]
            n_flying += 1
        if n_flying == 0:
            return n_keys
        item = in_flight[head]
        head = (head + 1) & (IN_FLIGHT - 1)
        n_flying -= 1
        if n_steps == max_steps:
            return BUFFERS_FULL
        steps[n_steps].cell = item.cell
        steps[n_steps].parent = item.step
        item.step = n_steps
        n_steps += 1
        node = graph[item.node]
        if node.word >= 0 and item.letters >= min_length:
            slot = hash_slot(item.node, table_mask)
            while slots[slot] >= 0 and slots[slot] != item.node:
                slot = (slot + 1) & table_mask
            if slots[slot] < 0:  # new on this board
                if n_keys == capacity:
                    return BUFFERS_FULL
                slots[slot] = item.node
                keys[n_keys].key = (MAX_SORT_LENGTH - item.letters) << LENGTH_SHIFT | item.node
                keys[n_keys].path = item.step
                n_keys += 1
        candidates = node.mask & reach[item.cell]
        while candidates:  # each letter continuing the word that lies around the cell
            bit = candidates & (~candidates + 1)
            candidates ^= bit
            free_cells = by_letter[item.cell * 64 + count_trailing_zeros(bit)] & ~item.used
            if free_cells == 0:
                continue
            first = node.first + popcount(node.mask & (bit - 1))
            if <uint64_t>first >= nodes:
                continue
            while free_cells:
                cell = count_trailing_zeros(free_cells)
                free_cells &= free_cells - 1
                child = first
                if cell_length[cell] > 1:  # the cell's further letters (a Qu cell's U)
                    child = walk(graph, child, board, cell, 1)
                    if child < 0:
                        continue
                if n_stack == max_stack:
                    return BUFFERS_FULL
                stack[n_stack].used = item.used | ((<uint64_t>1) << cell)
                stack[n_stack].node = child
                stack[n_stack].step = item.step
                stack[n_stack].cell = cell
                stack[n_stack].letters = item.letters + cell_length[cell]
                n_stack += 1


# --- many boards, scores only: boggle_scores --------------------------------------------------


def boggle_scores(
    const Node[::1] graph,
    const int64_t[::1] board_start,
    const int64_t[:, ::1] cell_letters,
    const int64_t[::1] cell_len,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    int64_t min_length,
    const int64_t[::1] points,
):
    """The score-only search of consecutive boards (of at most 64 cells, of at most 64
    letters each): ``board_points``, a walk like ``boggle_words``' where nothing is kept, sorted
    or spelled. A word of ``n`` letters scores ``points[min(n, len - 1)]``.

    Returns ``(totals, counts)``: each board's total score and number of distinct words.
    """
    cdef Board all_cells = as_board(cell_letters, cell_len, nbr, nbr_count, graph.shape[0])
    cdef Py_ssize_t n_boards = board_start.shape[0] - 1
    cdef Py_ssize_t most_cells = check_chunk(&all_cells, board_start)
    if points.shape[0] == 0:
        raise ValueError("points needs at least one entry")
    if all_cells.width > MAX_CELL_LETTERS:
        raise ValueError(f"a cell of at most {MAX_CELL_LETTERS} letters")
    totals = np.zeros(n_boards, np.int64)
    counts = np.zeros(n_boards, np.int64)
    cdef int64_t[::1] totals_view = totals, counts_view = counts
    cdef Buffers buffers
    cdef int status
    memset(&buffers, 0, sizeof(Buffers))
    try:
        with nogil:
            status = score_chunk(
                &graph[0], &board_start[0], n_boards, most_cells, &all_cells, min_length,
                &points[0], points.shape[0],
                &totals_view[0] if n_boards else NULL, &counts_view[0] if n_boards else NULL,
                &buffers,
            )
        if status < 0:
            raise MemoryError()
        return totals, counts
    finally:
        free_buffers(&buffers)


cdef int score_chunk(
    const Node* graph,
    const int64_t* board_start,
    Py_ssize_t n_boards,
    Py_ssize_t most_cells,
    const Board* all_cells,
    int64_t min_length,
    const int64_t* points,
    Py_ssize_t n_points,
    int64_t* totals,
    int64_t* counts,
    Buffers* buffers,
) noexcept nogil:
    """The work of ``boggle_scores``: 0, or -1 out of memory."""
    cdef Py_ssize_t board
    cdef Board cells
    if init_buffers(buffers, most_cells, all_cells.width) < 0:
        return -1
    for board in range(n_boards):
        cells = board_of_chunk(all_cells, board_start, board)
        totals[board] = board_score(graph, &cells, min_length, points, n_points, buffers,
                                    &counts[board])
        if totals[board] < 0:
            return -1
    return 0


cdef int64_t board_score(
    const Node* graph,
    const Board* board,
    int64_t min_length,
    const int64_t* points,
    Py_ssize_t n_points,
    Buffers* buffers,
    int64_t* words,
) noexcept nogil:
    """The total score of one board (its number of words in ``words``); -1 out of memory."""
    cdef int64_t total
    while True:  # retry the board with more room if the buffers could not hold it
        words[0] = board_points(graph, board, min_length, points, n_points, buffers, &total)
        if words[0] >= 0:
            return total
        if words[0] == OUT_OF_MEMORY or make_room(buffers) < 0:
            return -1


cdef struct Lean:  # a partial path waiting to be extended by board_points
    uint64_t used  # its cells, as bits
    int32_t node
    int16_t cell
    int16_t letters


cdef int next_generation(Buffers* buffers, Py_ssize_t nodes) noexcept nogil:
    """Make ``buffers.marks`` ready for a new board of a graph of ``nodes`` nodes: the next
    generation (every mark cleared once in 255 boards, when the count runs out); 0, or -1 out
    of memory."""
    if buffers.mark_nodes < nodes:
        free(buffers.marks)
        buffers.marks = <uint8_t*>calloc(nodes, 1)
        buffers.mark_nodes = nodes if buffers.marks != NULL else 0
        buffers.generation = 0
        if buffers.marks == NULL:
            return -1
    if buffers.generation == 255:
        memset(buffers.marks, 0, buffers.mark_nodes)
        buffers.generation = 0
    buffers.generation += 1
    return 0


cdef inline Py_ssize_t extend(
    Lean* stack,
    Py_ssize_t n_stack,
    const Node* graph,
    const Board* board,
    const int64_t* nbr,
    Py_ssize_t n_nbr,
    const uint64_t* letter_bit,
    uint64_t mask,
    int64_t first,
    uint64_t used,
    int64_t letters,
    bint multi,
) noexcept nogil:
    """Write on ``stack`` from ``n_stack`` the path ``used`` (of ``letters``, at a node of
    child letters ``mask`` from ``first``, every child in the graph) gone on to each of the
    ``n_nbr`` cells ``nbr``, and keep (move the top past) those of free cells whose letter
    continues the node, without a branch but for the further letters of cells if ``multi``
    (else every cell has one letter); the new top."""
    cdef Py_ssize_t j
    cdef int64_t k, child, ok
    cdef uint64_t bit
    cdef Lean* top
    for j in range(n_nbr):
        k = nbr[j]
        bit = letter_bit[k]
        child = first + popcount(mask & (bit - 1))
        ok = ((mask & bit) != 0) & (((used >> k) & 1) ^ 1)
        if multi and ok and board.length[k] > 1:  # the further letters of a cell (Qu's U)
            child = walk(graph, child, board, k, 1)
            ok = child >= 0
        top = &stack[n_stack]
        top.used = used | ((<uint64_t>1) << k)
        top.node = child
        top.cell = k
        top.letters = letters + (board.length[k] if multi else 1)
        n_stack += ok
    return n_stack


cdef Py_ssize_t board_points(
    const Node* graph,
    const Board* board,
    int64_t min_length,
    const int64_t* points,
    Py_ssize_t n_points,
    Buffers* buffers,
    int64_t* score,
) noexcept nogil:
    """The score-only search of one board (at most 64 cells): its number of distinct words,
    their total score in ``score``; BUFFERS_FULL if the stack is too small, OUT_OF_MEMORY.

    ``board_words``' walk (paths waiting on a stack, each graph node prefetched ``IN_FLIGHT``
    paths before it is read), made for the dense boards of the best-board search, where a path
    goes on in many ways and a mispredicted branch costs more than the instructions it skips:

    * a word is counted once by a mark per graph node (the board's generation in
      ``buffers.marks``), tested and set without a branch: no hash set to probe or clear;
    * a path goes on to each neighbour cell without a branch: every neighbour's path is
      written on the stack, and kept (the stack top moved past it) if the cell is free and its
      letter continues the node;
    * a node none of whose child letters lies around its cell is not extended at all; nor,
      in a graph not checked, one whose children are not all in the graph.

    A path is 16 bytes (``Lean``): no steps, no sort keys, nothing to spell.
    """
    cdef Lean in_flight[IN_FLIGHT]
    cdef Lean item
    cdef Node node
    cdef Py_ssize_t head = 0, n_flying = 0, n_stack = 0, found = 0
    cdef Py_ssize_t nbr_width = board.nbr_width, cells = board.cells
    # Room for every start cell, and for all of a path's neighbours past the top.
    cdef Py_ssize_t max_stack = (
        buffers.stack_capacity * sizeof(Item) // sizeof(Lean) - max(cells, nbr_width)
    )
    cdef int64_t cell, child, total = 0, last = n_points - 1, letters, is_word, is_new
    cdef uint64_t mask, nodes = board.nodes
    cdef uint8_t mark, generation
    cdef Lean* stack = <Lean*>buffers.stack  # room for more of them than of Item
    cdef const int64_t* cell_length = board.length
    cdef const int64_t* nbr
    cdef uint64_t* letter_bit = buffers.letter_bit
    cdef uint64_t* reach = buffers.reach
    cdef uint8_t* marks
    cdef bint multi = False  # a cell of more than one letter (Qu)
    if next_generation(buffers, nodes) < 0:
        return OUT_OF_MEMORY
    generation = buffers.generation
    marks = buffers.marks
    for cell in range(cells):
        letter_bit[cell] = first_letter_bit(board, cell)
        multi |= cell_length[cell] > 1
    fill_reach(board, reach)
    for cell in range(cells - 1, -1, -1):  # the start cells, first cell on top
        child = walk(graph, ROOT, board, cell)
        if child >= 0:
            stack[n_stack].used = (<uint64_t>1) << cell
            stack[n_stack].node = child
            stack[n_stack].cell = cell
            stack[n_stack].letters = cell_length[cell]
            n_stack += 1
    while True:
        while n_flying < IN_FLIGHT and n_stack > 0:
            n_stack -= 1
            prefetch(&graph[stack[n_stack].node])
            prefetch(&marks[stack[n_stack].node])
            in_flight[(head + n_flying) & (IN_FLIGHT - 1)] = stack[n_stack]
            n_flying += 1
        if n_flying == 0:
            score[0] = total
            return found
        if n_stack >= max_stack:
            return BUFFERS_FULL
        item = in_flight[head]
        head = (head + 1) & (IN_FLIGHT - 1)
        n_flying -= 1
        node = graph[item.node]
        letters = item.letters
        is_word = (node.word >= 0) & (letters >= min_length)
        mark = marks[item.node]
        is_new = is_word & (mark != generation)
        marks[item.node] = generation if is_word else mark
        found += is_new
        total += points[min(letters, last)] & -is_new
        mask = node.mask
        cell = item.cell
        # No neighbour's letter continues the node, or (an unchecked graph) a child is off it.
        if mask & reach[cell] == 0 or <uint64_t>node.first + popcount(mask) > nodes:
            continue
        nbr = board.nbr + cell * nbr_width
        if multi:  # two copies of the loop: the one for boards without Qu has no call in it
            n_stack = extend(stack, n_stack, graph, board, nbr, board.nbr_count[cell], letter_bit,
                             node.mask, node.first, item.used, letters, True)
        else:
            n_stack = extend(stack, n_stack, graph, board, nbr, board.nbr_count[cell], letter_bit,
                             node.mask, node.first, item.used, letters, False)


# --- the best board: anneal -------------------------------------------------------------------


cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    """SplitMix64 (Steele, Lea, Flood 2014): the next 64 random bits of ``state``."""
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int64_t random_below(uint64_t* state, int64_t n) noexcept nogil:
    """A random integer in [0, n) (n < 2³²)."""
    return <int64_t>(((next_random(state) >> 32) * <uint64_t>n) >> 32)


cdef inline double random_unit(uint64_t* state) noexcept nogil:
    """A random double in [0, 1)."""
    return (next_random(state) >> 11) * (1.0 / 9007199254740992.0)


cdef struct Space:  # what a move may change: the cells' tokens, each from its die's faces
    const int64_t* token_letters  # token → its graph letters (width each, padded)
    const int64_t* token_len
    Py_ssize_t width
    const int64_t* face_start  # die d's faces are faces[face_start[d]:face_start[d + 1]]
    const int64_t* faces  # tokens
    Py_ssize_t cells


cdef void move(const Space* space, int64_t* tokens, int64_t* dice, uint64_t* rng,
               double swap_share) noexcept nogil:
    """One random move: swap two cells (tokens and dice) or turn one cell's die to another
    face; a few draws at most, so a board where nothing can change stays as it is."""
    cdef int64_t a, b, die, token, tries, n_faces
    for tries in range(16):
        if random_unit(rng) < swap_share:
            a = random_below(rng, space.cells)
            b = random_below(rng, space.cells)
            if tokens[a] != tokens[b]:
                tokens[a], tokens[b] = tokens[b], tokens[a]
                dice[a], dice[b] = dice[b], dice[a]
                return
        else:
            a = random_below(rng, space.cells)
            die = dice[a]
            n_faces = space.face_start[die + 1] - space.face_start[die]
            token = space.faces[space.face_start[die] + random_below(rng, n_faces)]
            if token != tokens[a]:
                tokens[a] = token
                return


cdef void lay_out(const Space* space, const int64_t* tokens, int64_t* letters,
                  int64_t* lengths) noexcept nogil:
    """The board's cells (letters, lengths) as the search reads them, from the cells' tokens."""
    cdef Py_ssize_t cell
    for cell in range(space.cells):
        memcpy(&letters[cell * space.width], &space.token_letters[tokens[cell] * space.width],
               space.width * sizeof(int64_t))
        lengths[cell] = space.token_len[tokens[cell]]


cdef inline uint64_t board_hash(const int64_t* tokens, Py_ssize_t cells,
                                uint64_t h) noexcept nogil:
    """A 64-bit hash of a board's tokens, from the starting value ``h``."""
    cdef Py_ssize_t cell
    for cell in range(cells):
        h = (h ^ <uint64_t>(tokens[cell] + 1)) * <uint64_t>0x100000001B3ULL  # FNV-1a's prime
        h ^= h >> 29
    h = (h ^ (h >> 31)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 32)


cdef extern from "<math.h>" nogil:
    double exp(double x)
    double pow(double x, double y)


def anneal(
    const Node[::1] graph,
    const int64_t[:, ::1] token_letters,
    const int64_t[::1] token_len,
    const int64_t[::1] face_start,
    const int64_t[::1] faces,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    int64_t min_length,
    const int64_t[::1] points,
    int64_t[:, ::1] tokens,
    int64_t[:, ::1] dice,
    int64_t[::1] scores,
    int64_t[::1] steps,
    uint64_t[::1] rng,
    int64_t[:, ::1] best_tokens,
    int64_t[::1] best_scores,
    int64_t[::1] best_words,
    uint64_t[:, ::1] cache,
    int64_t length,
    double t_start,
    double t_end,
    int64_t iterations,
    double swap_share,
    double more_moves,
    int64_t stop_at,
):
    """``iterations`` steps of simulated annealing on each chain (a row of ``tokens``: the
    token of each cell; of ``dice``: the die of each cell, whose faces the cell may turn to).

    A step makes a candidate from the chain's board by one random move, then while a draw is
    below ``more_moves`` one more (at most a move per cell): a move swaps two cells (a share
    ``swap_share`` of the draws) or turns a cell to another face of its die. The candidate is
    scored; it replaces the board if it scores as much or more, or else with probability
    exp(Δ/T) (Metropolis), the temperature T falling geometrically from ``t_start`` at a run's
    step 0 to ``t_end`` at step ``length`` (``steps`` counts each chain's steps; a chain past
    ``length`` goes on at ``t_end``). Each chain draws from its own SplitMix64 state in
    ``rng``, so its steps do not depend on the other chains or on threads.

    ``cache`` (a power of two rows of 4, zeros at first, kept from call to call) remembers the
    scores of recent candidates, by two independent 64-bit hashes of their tokens: late in a
    run most candidates are boards met before. One chain a call when it is given.

    ``scores`` holds each board's score (negative: not scored yet, it is scored first);
    ``best_tokens``, ``best_scores`` and ``best_words`` each chain's best board, its score and
    number of words. A chain stops early once its best reaches ``stop_at`` (if positive).
    Everything is updated in place; returns the number of boards scored.
    """
    cdef Py_ssize_t n_chains = tokens.shape[0], cells = tokens.shape[1], n_tokens
    cdef Py_ssize_t n_dice = face_start.shape[0] - 1, chain, i
    cdef int64_t it, candidate, current, words = 0, evaluations = 0
    cdef uint64_t first_hash, second_hash
    cdef Py_ssize_t slot, slot_mask = cache.shape[0] - 1
    cdef double temperature, ratio
    cdef Space space
    cdef Board board
    cdef Buffers buffers
    cdef int64_t* letters = NULL
    cdef int64_t* lengths = NULL
    cdef int64_t* trial = NULL
    cdef int64_t* trial_dice = NULL
    cdef bint failed = False
    n_tokens = token_len.shape[0]
    if cells < 1 or cells > 64:
        raise ValueError("a board of 1 to 64 cells")
    if token_letters.shape[1] > MAX_CELL_LETTERS:
        raise ValueError(f"a token of at most {MAX_CELL_LETTERS} letters")
    if (dice.shape[0] != n_chains or dice.shape[1] != cells or scores.shape[0] != n_chains
            or steps.shape[0] != n_chains or rng.shape[0] != n_chains
            or best_tokens.shape[0] != n_chains or best_tokens.shape[1] != cells
            or best_scores.shape[0] != n_chains or best_words.shape[0] != n_chains):
        raise ValueError("chain arrays of different shapes")
    if cache.shape[0] & (cache.shape[0] - 1) or cache.shape[1] != 4 or (
            cache.shape[0] > 1 and n_chains > 1):
        raise ValueError("a cache of 2ⁿ rows of 4 (of one chain), or of one row: none")
    if nbr.shape[0] != cells or nbr_count.shape[0] != cells:
        raise ValueError("the neighbour table must have a row per cell")
    if token_letters.shape[0] != n_tokens or n_tokens < 1 or n_dice < 1:
        raise ValueError("no tokens or no dice")
    if points.shape[0] == 0 or length < 1 or not (t_start > 0 and t_end > 0):
        raise ValueError("points, a run length and positive temperatures are needed")
    for i in range(n_tokens):
        if not 1 <= token_len[i] <= token_letters.shape[1]:
            raise ValueError(f"token {i}: {token_len[i]} letters")
        for it in range(token_letters.shape[1]):
            if not 0 <= token_letters[i, it] < 64:
                raise ValueError(f"token {i}: letter index outside 0–63")
    for i in range(n_dice):
        if not 0 <= face_start[i] < face_start[i + 1] <= faces.shape[0]:
            raise ValueError(f"die {i}: no faces")
    for i in range(faces.shape[0]):
        if not 0 <= faces[i] < n_tokens:
            raise ValueError("a face outside the tokens")
    for i in range(cells):
        if not 0 <= nbr_count[i] <= nbr.shape[1]:
            raise ValueError(f"cell {i}: {nbr_count[i]} neighbours")
        for it in range(nbr_count[i]):
            if not 0 <= nbr[i, it] < cells:
                raise ValueError(f"cell {i}: a neighbour outside the board")
    for chain in range(n_chains):
        for i in range(cells):
            if not (0 <= tokens[chain, i] < n_tokens and 0 <= dice[chain, i] < n_dice):
                raise ValueError(f"chain {chain}, cell {i}: token or die out of range")
    space.token_letters = &token_letters[0, 0]
    space.token_len = &token_len[0]
    space.width = token_letters.shape[1]
    space.face_start = &face_start[0]
    space.faces = &faces[0]
    space.cells = cells
    memset(&buffers, 0, sizeof(Buffers))
    try:
        letters = <int64_t*>malloc(cells * space.width * sizeof(int64_t))
        lengths = <int64_t*>malloc(cells * sizeof(int64_t))
        trial = <int64_t*>malloc(cells * sizeof(int64_t))
        trial_dice = <int64_t*>malloc(cells * sizeof(int64_t))
        if (letters == NULL or lengths == NULL or trial == NULL or trial_dice == NULL
                or init_buffers(&buffers, cells, space.width) < 0):
            raise MemoryError()
        board.letters = letters
        board.width = space.width
        board.length = lengths
        board.nbr = &nbr[0, 0]
        board.nbr_width = nbr.shape[1]
        board.nbr_count = &nbr_count[0]
        board.nbr_rows = cells
        board.cells = cells
        board.nodes = graph.shape[0]
        ratio = t_end / t_start
        with nogil:
            for chain in range(n_chains):
                current = scores[chain]
                if current < 0:
                    lay_out(&space, &tokens[chain, 0], letters, lengths)
                    current = board_score(&graph[0], &board, min_length, &points[0],
                                          points.shape[0], &buffers, &words)
                    if current < 0:
                        failed = True
                        break
                    evaluations += 1
                    scores[chain] = current
                    if current > best_scores[chain]:
                        best_scores[chain] = current
                        best_words[chain] = words
                        memcpy(&best_tokens[chain, 0], &tokens[chain, 0], cells * sizeof(int64_t))
                for it in range(iterations):
                    if 0 < stop_at <= best_scores[chain]:
                        break
                    memcpy(trial, &tokens[chain, 0], cells * sizeof(int64_t))
                    memcpy(trial_dice, &dice[chain, 0], cells * sizeof(int64_t))
                    move(&space, trial, trial_dice, &rng[chain], swap_share)
                    for i in range(1, cells):
                        if random_unit(&rng[chain]) >= more_moves:
                            break
                        move(&space, trial, trial_dice, &rng[chain], swap_share)
                    first_hash = board_hash(trial, cells, 0)
                    second_hash = board_hash(trial, cells, <uint64_t>0x9E3779B97F4A7C15ULL)
                    slot = first_hash & slot_mask
                    if slot_mask and cache[slot, 0] == first_hash and cache[slot, 1] == second_hash:
                        candidate = cache[slot, 2]
                        words = cache[slot, 3]
                    else:
                        lay_out(&space, trial, letters, lengths)
                        candidate = board_score(&graph[0], &board, min_length, &points[0],
                                                points.shape[0], &buffers, &words)
                        if candidate < 0:
                            failed = True
                            break
                        evaluations += 1
                        if slot_mask:
                            cache[slot, 0] = first_hash
                            cache[slot, 1] = second_hash
                            cache[slot, 2] = candidate
                            cache[slot, 3] = words
                    temperature = t_start * pow(ratio, min(steps[chain], length) / <double>length)
                    steps[chain] += 1
                    if candidate >= current or random_unit(&rng[chain]) < exp(
                        (candidate - current) / temperature
                    ):
                        current = candidate
                        memcpy(&tokens[chain, 0], trial, cells * sizeof(int64_t))
                        memcpy(&dice[chain, 0], trial_dice, cells * sizeof(int64_t))
                        if current > best_scores[chain]:
                            best_scores[chain] = current
                            best_words[chain] = words
                            memcpy(&best_tokens[chain, 0], trial, cells * sizeof(int64_t))
                scores[chain] = current
                if failed:
                    break
        if failed:
            raise MemoryError()
        return evaluations
    finally:
        free(letters)
        free(lengths)
        free(trial)
        free(trial_dice)
        free_buffers(&buffers)
