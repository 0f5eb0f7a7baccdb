# cython: language_level=3, boundscheck=False, wraparound=False
"""The suffix forms of aspell roots in C, for ``lexforge.sources.aspell``: the Python list
comprehension that made them was a third of Italian's expansion (3.3 million forms).

A form is the root without its last ``strip`` characters, then the entry's ``add``. Each form is
made in one allocation, in the narrowest string kind that holds it, as Python's own slicing and
concatenation would make it."""

from libc.stdlib cimport free, malloc


cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    Py_ssize_t PyUnicode_CopyCharacters(
        object to, Py_ssize_t to_start, object source, Py_ssize_t from_start, Py_ssize_t how_many
    ) except -1


cdef Py_UCS4 largest(str text, Py_ssize_t size):
    """The largest code point of the first ``size`` characters of ``text`` (0 if none)."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_UCS4 found = 0, code
    cdef Py_ssize_t i
    for i in range(size):
        code = PyUnicode_READ(kind, data, i)
        if code > found:
            found = code
    return found


def add_suffix_forms(list forms, str root, entries):
    """Append to ``forms`` ``root[: len(root) - strip] + add`` for each ``(strip, add, _)`` of
    ``entries`` whose strip is shorter than the root, in their order."""
    cdef Py_ssize_t size = PyUnicode_GET_LENGTH(root)
    cdef Py_ssize_t keep, strip, add_size, i
    cdef Py_UCS4 code, most
    cdef Py_UCS4 *stem_largest = <Py_UCS4 *>malloc((size + 1) * sizeof(Py_UCS4))
    cdef int kind = PyUnicode_KIND(root)
    cdef void *data = PyUnicode_DATA(root)
    cdef str add
    if stem_largest == NULL:
        raise MemoryError()
    try:
        # stem_largest[k]: the largest code point of the root's first k characters.
        stem_largest[0] = 0
        for i in range(size):
            code = PyUnicode_READ(kind, data, i)
            stem_largest[i + 1] = code if code > stem_largest[i] else stem_largest[i]
        for entry in entries:
            strip = entry[0]
            if strip >= size:
                continue
            add = entry[1]
            keep = size - strip
            add_size = PyUnicode_GET_LENGTH(add)
            most = largest(add, add_size)
            if stem_largest[keep] > most:
                most = stem_largest[keep]
            form = PyUnicode_New(keep + add_size, most)
            PyUnicode_CopyCharacters(form, 0, root, 0, keep)
            PyUnicode_CopyCharacters(form, keep, add, 0, add_size)
            forms.append(form)
    finally:
        free(stem_largest)
