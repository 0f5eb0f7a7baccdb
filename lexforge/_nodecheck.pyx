# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The structural check of a node-array letter graph (lexforge.graph's layout), run when a
lexicon first uses a version of its graph file (then remembered with the file's sha256, see
lexforge.lexicon; a graph the manifest does not list is checked at every use), before any
search relies on its indices. The searches bound every index they follow as well, so a graph
damaged after its check cannot lead them outside it. When this check changes, give
lexforge.lexicon.NODE_CHECK a new name.

Kept apart from the search module so that checking a graph imports no numpy (the rack search
reads its graph without it). Linear in the nodes: about a millisecond per million.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long value) nogil


def check_nodes(const uint64_t[::1] words, int64_t n_ids, int n_letters):
    """The first problem of the graph held in ``words`` (two 64-bit words per node: the child mask;
    the first child in the low 32 bits and the id in the high 32), or None if it is sound.

    Sound means what the searches rely on: every mask bit is a letter of the alphabet; nodes are
    numbered breadth-first, so each node's children are the next unclaimed block of nodes after
    it (hence every child index is in range and greater than its parent's, and walks end); a leaf
    has no child index and ends a word; ids are -1 or a permutation of ``0 .. n_ids - 1``
    (``n_ids`` < 0: of as many ids as there are word nodes).
    """
    cdef int64_t n_nodes = words.shape[0] // 2
    cdef int64_t node, next_free = 1, children, first, ident, n_word_nodes = 0, top_id = -1
    cdef int64_t id_bound = n_ids if n_ids >= 0 else n_nodes
    cdef uint64_t mask
    cdef uint64_t letters_mask = (<uint64_t>-1) if n_letters >= 64 else ((<uint64_t>1 << n_letters) - 1)
    cdef uint8_t* seen
    if words.shape[0] % 2 or n_nodes == 0:
        return "no nodes"
    if n_nodes >= 1 << 31:
        return f"{n_nodes} nodes: more than the 32-bit child index holds"
    seen = <uint8_t*>calloc(id_bound + 1, 1)
    if seen == NULL:
        raise MemoryError()
    try:
        for node in range(n_nodes):
            mask = words[2 * node]
            first = <int32_t><uint32_t>words[2 * node + 1]
            ident = <int32_t>(words[2 * node + 1] >> 32)
            if mask & ~letters_mask:
                return f"node {node}: a child for a letter beyond the alphabet's {n_letters}"
            children = popcount(mask)
            if children:
                if first != next_free or first <= node:
                    return f"node {node}: first child {first}, expected {next_free}"
                next_free += children
                if next_free > n_nodes:
                    return f"node {node}: children beyond the last node ({n_nodes})"
            elif first != 0:
                return f"node {node}: a leaf with a child index ({first})"
            elif ident < 0 and node != 0:
                return f"node {node}: a leaf that ends no word"
            if ident < -1 or ident >= id_bound:
                return f"node {node}: id {ident} out of range"
            if ident >= 0:
                if seen[ident]:
                    return f"node {node}: id {ident} twice"
                seen[ident] = 1
                n_word_nodes += 1
                top_id = max(top_id, ident)
        if next_free != n_nodes:
            return f"{n_nodes - next_free} nodes are no node's child"
        # Distinct ids below a bound: a permutation iff as many as the bound (or the largest + 1).
        if n_word_nodes != (n_ids if n_ids >= 0 else top_id + 1):
            return f"{n_word_nodes} word nodes for {n_ids if n_ids >= 0 else top_id + 1} ids"
    finally:
        free(seen)
    return None
