# The letter graph's node record, as lexforge.graph.NODE_DTYPE lays it out (little-endian
# hosts): one declaration for every compiled module that walks graph.npy.
from libc.stdint cimport int32_t, uint64_t


cdef packed struct Node:
    uint64_t mask  # the child letters, a bit per letter code
    int32_t first  # the index of the first child
    int32_t word  # the word's marisa id, or -1
