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
* ``boggle_chunk`` finds only the words of many boards, breadth-first (see ``board_words``);
  ``boggle_scores`` only their total scores and word counts (nothing sorted or spelled).

They release the GIL while they search, so ``lexforge.boggle.solve_batch`` runs them on all cores
in threads. The plain-Python searches of lexforge.reference are the oracle they are tested against.
"""

from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memcmp, memcpy, memset

import numpy as np

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long value) nogil


cdef packed struct Node:  # one record of lexforge.graph.NODE_DTYPE
    uint64_t mask
    int32_t first
    int32_t word


cdef struct Board:  # one board's cells, as lexforge.boggle.encode_boards lays them out
    const int64_t* letters  # cells × width graph letter indices
    Py_ssize_t width
    const int64_t* length  # letters per cell
    const int64_t* nbr  # cells × nbr_width neighbour cells, ascending
    Py_ssize_t nbr_width  # 8 for a 2-D grid, up to 3ⁿ − 1 for an n-D one
    const int64_t* nbr_count
    Py_ssize_t cells
    uint64_t nodes  # of the graph searched: ``walk`` never follows an index beyond it


cdef enum:
    ROOT = 0
    WORD_SEPARATOR = 10  # "\n"
    LENGTH_SHIFT = 32  # Worddle sort key: (MAX_SORT_LENGTH − letters) << 32 | node


cdef int64_t MAX_SORT_LENGTH = 1 << 20
cdef int64_t NODE_MASK = ((<int64_t>1) << LENGTH_SHIFT) - 1  # a sort key's node bits
cdef int64_t KNUTH = 2654435761  # multiplier of Knuth's multiplicative hash


cdef inline int64_t walk(const Node* graph, int64_t node, const Board* board, int64_t cell) noexcept nogil:
    """Follow the letters of ``cell`` from ``node``; -1 if the graph has no such path.

    Every child index comes from the graph file. ``Lexicon`` checks each graph once at load
    (lexforge._nodecheck); the bound here keeps even an unchecked graph from leading a read
    outside it (an index out of range ends the path), at no measurable cost (callgrind: 237 M
    instructions for 1,000 fr 4×4 boards, 239 M without the bound).
    """
    cdef int64_t i
    cdef uint64_t mask, bit
    cdef const int64_t* letters = board.letters + cell * board.width
    for i in range(board.length[cell]):
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
    if not (cell_letters.shape[0] == cell_len.shape[0] == nbr.shape[0] == nbr_count.shape[0]):
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
    board.cells = cell_len.shape[0]
    board.nodes = nodes
    return board


cdef Board board_of_chunk(const Board* all_cells, const int64_t* board_start, Py_ssize_t board) noexcept nogil:
    """The cells of the ``board``-th board of a chunk (its neighbours are numbered within it)."""
    cdef Board cells = all_cells[0]
    cells.letters += board_start[board] * cells.width
    cells.length += board_start[board]
    cells.nbr += board_start[board] * cells.nbr_width
    cells.nbr_count += board_start[board]
    cells.cells = board_start[board + 1] - board_start[board]
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
        most_cells = max(most_cells, board_start[board + 1] - board_start[board])
        cells = board_of_chunk(all_cells, &board_start[0], board)
        check_board(&cells)
    return most_cells


cdef check_board(const Board* board):
    """ValueError unless every cell has 1..width letters of 0–63 and neighbours on the board:
    the searches trust these indices."""
    cdef Py_ssize_t cell, i
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


# --- many boards, words only: boggle_chunk ----------------------------------------------------


cdef struct Path:  # a partial path of board_words
    int64_t node
    int64_t cell
    int64_t letters
    int64_t parent  # index of the path it extends, -1 for a start cell
    uint64_t mask  # its node's child letters


cdef struct Key:  # a word of a board: its Worddle sort key and the path that spelled it
    int64_t key
    int64_t path


cdef struct Buffers:  # board_words' working memory, reused from board to board
    Key* keys
    int64_t* slots  # hash set of the nodes found on the board
    Path* paths
    uint64_t* used  # the cells of each path, as bits: used_words 64-bit words a path
    Py_ssize_t used_words
    Py_ssize_t capacity  # words; room for 8 times as many paths
    uint64_t* reach  # one entry per cell of the largest board


cdef int grow(void** array, Py_ssize_t* capacity, Py_ssize_t needed, size_t item) noexcept nogil:
    """Make ``array`` hold at least ``needed`` items (doubling); 0 on success, -1 out of memory."""
    cdef Py_ssize_t size = capacity[0]
    cdef void* bigger
    if needed <= size:
        return 0
    while size < needed:
        size *= 2
    bigger = realloc(array[0], size * item)
    if bigger == NULL:
        return -1
    array[0] = bigger
    capacity[0] = size
    return 0


cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const Key*>a).key, y = (<const Key*>b).key
    return (x > y) - (x < y)


cdef struct Chunk:  # boggle_chunk's output and working memory
    int32_t* index  # graph node → position of its word in text, -1 if not there yet
    char* text
    Py_ssize_t text_size
    Py_ssize_t text_capacity
    int32_t* indices
    Py_ssize_t n_words
    Py_ssize_t indices_capacity
    int64_t* path  # one word's cells, while it is spelled
    Buffers buffers


def boggle_chunk(
    const Node[::1] graph,
    const int64_t[::1] board_start,
    const int64_t[:, ::1] cell_letters,
    const int64_t[::1] cell_len,
    const int64_t[:, ::1] nbr,
    const int64_t[::1] nbr_count,
    int64_t min_length,
    const uint8_t[:, ::1] letter_bytes,
    const int64_t[::1] letter_nbytes,
):
    """Solve consecutive boards for ``solve_batch``.

    Returns ``(indices, board_end, text)``: ``text`` (bytes) holds each distinct word of the
    chunk once (UTF-8, each followed by ``\\n``); ``indices[board_end[b - 1] : board_end[b]]``
    are the positions in that list of the words of board ``b``, in Worddle order.
    """
    cdef Board all_cells = as_board(cell_letters, cell_len, nbr, nbr_count, graph.shape[0])
    cdef Py_ssize_t n_boards = board_start.shape[0] - 1
    cdef Py_ssize_t most_cells = check_chunk(&all_cells, board_start)
    board_end = np.empty(n_boards, np.int64)
    cdef int64_t[::1] board_end_view = board_end
    cdef int32_t[::1] indices_view
    cdef Chunk chunk
    cdef int status
    memset(&chunk, 0, sizeof(Chunk))
    try:
        with nogil:
            status = solve_chunk(
                &graph[0], graph.shape[0], &board_start[0], n_boards, most_cells, &all_cells,
                min_length, &letter_bytes[0, 0], letter_bytes.shape[1], &letter_nbytes[0],
                &board_end_view[0] if n_boards else NULL, &chunk,
            )
        if status < 0:
            raise MemoryError()
        indices = np.empty(chunk.n_words, np.int32)
        if chunk.n_words:
            indices_view = indices
            memcpy(&indices_view[0], chunk.indices, chunk.n_words * sizeof(int32_t))
        return indices, board_end, chunk.text[:chunk.text_size] if chunk.text_size else b""
    finally:
        free(chunk.index)
        free(chunk.text)
        free(chunk.indices)
        free(chunk.path)
        free_buffers(&chunk.buffers)


cdef int solve_chunk(
    const Node* graph,
    Py_ssize_t n_nodes,
    const int64_t* board_start,
    Py_ssize_t n_boards,
    Py_ssize_t most_cells,
    const Board* all_cells,
    int64_t min_length,
    const uint8_t* letter_bytes,
    Py_ssize_t max_letter_bytes,
    const int64_t* letter_nbytes,
    int64_t* board_end,
    Chunk* chunk,
) noexcept nogil:
    """The work of ``boggle_chunk``, into ``chunk``: 0, or -1 out of memory."""
    cdef Py_ssize_t board, rank, n_keys, n_distinct = 0, depth, i, needed
    cdef int64_t j, b, path, letter, cell, letters
    cdef Board cells
    cdef Buffers* buffers = &chunk.buffers
    cdef Key* key
    cdef int32_t* known
    chunk.index = <int32_t*>malloc(n_nodes * sizeof(int32_t))
    chunk.text_capacity = 1 << 16
    chunk.text = <char*>malloc(chunk.text_capacity)
    chunk.indices_capacity = 1 << 12
    chunk.indices = <int32_t*>malloc(chunk.indices_capacity * sizeof(int32_t))
    chunk.path = <int64_t*>malloc(most_cells * sizeof(int64_t))
    buffers.used_words = (most_cells + 63) // 64
    buffers.reach = <uint64_t*>malloc(most_cells * sizeof(uint64_t))
    if not (chunk.index and chunk.text and chunk.indices and chunk.path and buffers.reach):
        return -1
    memset(chunk.index, 0xFF, n_nodes * sizeof(int32_t))
    if set_capacity(buffers, 512) < 0:  # words per board (and 8 times as many paths)
        return -1
    for board in range(n_boards):
        cells = board_of_chunk(all_cells, board_start, board)
        while True:  # retry the board with more room if it has more words than the buffers hold
            n_keys = board_words(graph, &cells, min_length, buffers)
            if n_keys >= 0:
                break
            if set_capacity(buffers, 4 * buffers.capacity) < 0:
                return -1
        needed = chunk.n_words + n_keys
        if grow(<void**>&chunk.indices, &chunk.indices_capacity, needed, sizeof(int32_t)) < 0:
            return -1
        qsort(buffers.keys, n_keys, sizeof(Key), compare_keys)
        # All the (cache-missing) loads of index[] at once, before any decision.
        known = chunk.indices + chunk.n_words
        for rank in range(n_keys):
            known[rank] = chunk.index[buffers.keys[rank].key & NODE_MASK]
        for rank in range(n_keys):
            if known[rank] >= 0:
                continue
            # New to the chunk (a board finds a node once): spell it from its path.
            key = &buffers.keys[rank]
            known[rank] = chunk.index[key.key & NODE_MASK] = n_distinct
            n_distinct += 1
            letters = MAX_SORT_LENGTH - (key.key >> LENGTH_SHIFT)
            needed = chunk.text_size + letters * max_letter_bytes + 1
            if grow(<void**>&chunk.text, &chunk.text_capacity, needed, 1) < 0:
                return -1
            depth = 0
            path = key.path
            while path >= 0:  # the path's cells, last first
                chunk.path[depth] = buffers.paths[path].cell
                depth += 1
                path = buffers.paths[path].parent
            for i in range(depth - 1, -1, -1):
                cell = chunk.path[i]
                for j in range(cells.length[cell]):
                    letter = cells.letters[cell * cells.width + j]
                    for b in range(letter_nbytes[letter]):
                        chunk.text[chunk.text_size] = letter_bytes[letter * max_letter_bytes + b]
                        chunk.text_size += 1
            chunk.text[chunk.text_size] = WORD_SEPARATOR
            chunk.text_size += 1
        chunk.n_words += n_keys
        board_end[board] = chunk.n_words
    return 0


cdef int set_capacity(Buffers* buffers, Py_ssize_t capacity) noexcept nogil:
    """(Re)allocate ``buffers`` for ``capacity`` words; 0, or -1 out of memory."""
    free(buffers.keys)
    free(buffers.slots)
    free(buffers.paths)
    free(buffers.used)
    buffers.keys = <Key*>malloc(capacity * sizeof(Key))
    buffers.slots = <int64_t*>malloc(2 * capacity * sizeof(int64_t))
    buffers.paths = <Path*>malloc(8 * capacity * sizeof(Path))
    buffers.used = <uint64_t*>malloc(8 * capacity * buffers.used_words * sizeof(uint64_t))
    buffers.capacity = capacity
    return 0 if buffers.keys and buffers.slots and buffers.paths and buffers.used else -1


cdef void free_buffers(Buffers* buffers) noexcept nogil:
    free(buffers.keys)
    free(buffers.slots)
    free(buffers.paths)
    free(buffers.used)
    free(buffers.reach)


cdef Py_ssize_t board_words(
    const Node* graph, const Board* board, int64_t min_length, Buffers* buffers
) noexcept nogil:
    """The lean search of one board for ``boggle_chunk``: breadth-first, nothing but words.

    Partial paths are expanded in the order they are found (a queue) rather than depth-first.
    Each new path loads its graph node's mask when it is created, and since nothing waits for
    that load until the path's turn comes, the processor overlaps many of these cache misses
    (faster than the depth-first walk on a 10 MB graph).

    Writes the Worddle sort key ``(−letters, node)`` of each word found into ``buffers.keys``
    (once: ``slots`` is a hash set of the nodes found), with the path that spelled it first.
    Returns the number of words, or -1 if the buffers are full.
    """
    cdef Py_ssize_t n_keys = 0, n_paths = 0, max_paths = 8 * buffers.capacity, current, k, w
    cdef Py_ssize_t table_mask = 2 * buffers.capacity - 1, slot, used_words = buffers.used_words
    cdef int64_t node, cell, next_cell, child, letters, start
    cdef uint64_t candidates, bit
    cdef uint64_t* used
    cdef uint64_t* child_used
    cdef const int64_t* around
    cdef Path* path
    cdef Path* extended
    fill_reach(board, buffers.reach)
    memset(buffers.slots, 0xFF, 2 * buffers.capacity * sizeof(int64_t))
    for start in range(board.cells):
        node = walk(graph, ROOT, board, start)
        if node < 0:
            continue
        if n_paths == max_paths:
            return -1
        buffers.paths[n_paths] = Path(node, start, board.length[start], -1, graph[node].mask)
        used = buffers.used + n_paths * used_words
        memset(used, 0, used_words * sizeof(uint64_t))
        used[start >> 6] = (<uint64_t>1) << (start & 63)
        n_paths += 1
    current = 0
    while current < n_paths:
        path = &buffers.paths[current]
        used = buffers.used + current * used_words
        node = path.node
        cell = path.cell
        letters = path.letters
        if graph[node].word >= 0 and letters >= min_length:
            slot = hash_slot(node, table_mask)
            while buffers.slots[slot] >= 0 and buffers.slots[slot] != node:
                slot = (slot + 1) & table_mask
            if buffers.slots[slot] < 0:  # new on this board
                if n_keys == buffers.capacity:
                    return -1
                buffers.slots[slot] = node
                buffers.keys[n_keys] = Key((MAX_SORT_LENGTH - letters) << LENGTH_SHIFT | node,
                                           current)
                n_keys += 1
        candidates = path.mask & buffers.reach[cell]
        if candidates == 0:
            current += 1
            continue
        around = board.nbr + cell * board.nbr_width  # a local: no reload per neighbour
        for k in range(board.nbr_count[cell]):
            next_cell = around[k]
            bit = (<uint64_t>1) << (next_cell & 63)
            if candidates & first_letter_bit(board, next_cell) == 0 or used[next_cell >> 6] & bit:
                continue
            child = walk(graph, node, board, next_cell)
            if child < 0:
                continue
            if n_paths == max_paths:
                return -1
            extended = &buffers.paths[n_paths]
            extended[0] = Path(child, next_cell, letters + board.length[next_cell], current,
                               graph[child].mask)
            child_used = buffers.used + n_paths * used_words
            for w in range(used_words):
                child_used[w] = used[w]
            child_used[next_cell >> 6] |= bit
            n_paths += 1
        current += 1
    return n_keys


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
    """The score-only search of consecutive boards: the same walk as ``boggle_chunk``, but
    nothing is sorted or spelled. A word of ``n`` letters scores ``points[min(n, len - 1)]``.

    Returns ``(totals, counts)``: each board's total score and number of distinct words.
    """
    cdef Board all_cells = as_board(cell_letters, cell_len, nbr, nbr_count, graph.shape[0])
    cdef Py_ssize_t n_boards = board_start.shape[0] - 1
    cdef Py_ssize_t most_cells = check_chunk(&all_cells, board_start)
    if points.shape[0] == 0:
        raise ValueError("points needs at least one entry")
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
    cdef Py_ssize_t board, rank, n_keys
    cdef int64_t letters, total
    cdef Board cells
    buffers.used_words = (most_cells + 63) // 64
    buffers.reach = <uint64_t*>malloc(most_cells * sizeof(uint64_t))
    if buffers.reach == NULL or set_capacity(buffers, 512) < 0:
        return -1
    for board in range(n_boards):
        cells = board_of_chunk(all_cells, board_start, board)
        while True:  # retry the board with more room if it has more words than the buffers hold
            n_keys = board_words(graph, &cells, min_length, buffers)
            if n_keys >= 0:
                break
            if set_capacity(buffers, 4 * buffers.capacity) < 0:
                return -1
        total = 0
        for rank in range(n_keys):
            letters = MAX_SORT_LENGTH - (buffers.keys[rank].key >> LENGTH_SHIFT)
            total += points[min(letters, n_points - 1)]
        totals[board] = total
        counts[board] = n_keys
    return 0
