"""Builds the compiled searches (lexforge/_search.pyx, _scrabble.pyx, the board-class bounds
_bound.pyx, _nodecheck.pyx,
_phrase.pyx, _rack.pyx), the crossword pattern scan (_pattern.pyx), normalization's plain
path (_normalize.pyx), the letter codes of words (_letters.pyx), the anagram index
(_anagramindex.pyx), the sort of words (_wordsort.pyx), words.tsv's lines (_wordstsv.pyx),
aspell's compressed word lists (_prezip.pyx) and its suffix forms (_affixforms.pyx) with
Cython; the rest of the project's metadata is in pyproject.toml."""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# POPCNT (x86-64 processors since 2008) makes a letter-graph step one instruction; without the
# flag GCC calls a slower libgcc routine.
POPCNT = ["-mpopcnt"] if platform.machine().lower() in {"x86_64", "amd64"} else []

SEARCH = Extension(
    "lexforge._search", ["lexforge/_search.pyx"], extra_compile_args=["-O3", *POPCNT]
)

SCRABBLE = Extension(
    "lexforge._scrabble", ["lexforge/_scrabble.pyx"], extra_compile_args=["-O3", *POPCNT]
)

# Upper bounds on board classes and the branch-and-bound of the best-board proof.
BOUND = Extension("lexforge._bound", ["lexforge/_bound.pyx"], extra_compile_args=["-O3", *POPCNT])

# The graph check imports no numpy, so the rack search can run it on a graph it maps without numpy.
NODECHECK = Extension(
    "lexforge._nodecheck", ["lexforge/_nodecheck.pyx"], extra_compile_args=["-O3", *POPCNT]
)

# Phrase anagrams: no numpy either, for the same reason.
PHRASE = Extension(
    "lexforge._phrase", ["lexforge/_phrase.pyx"], extra_compile_args=["-O3", *POPCNT]
)

# Crossword patterns over words.txt: no numpy either.
PATTERN = Extension("lexforge._pattern", ["lexforge/_pattern.pyx"], extra_compile_args=["-O3"])

# The rack search: no numpy either.
RACK = Extension("lexforge._rack", ["lexforge/_rack.pyx"], extra_compile_args=["-O3", *POPCNT])

# Normalization's plain path (ASCII entries), for the pipeline's words step.
NORMALIZE = Extension(
    "lexforge._normalize", ["lexforge/_normalize.pyx"], extra_compile_args=["-O3"]
)

# Words as rows of letter codes, for the pipeline's graphs and tables.
LETTERS = Extension("lexforge._letters", ["lexforge/_letters.pyx"], extra_compile_args=["-O3"])

# The anagram index's keys, sort and lines, for the pipeline's compile step.
ANAGRAM_INDEX = Extension(
    "lexforge._anagramindex", ["lexforge/_anagramindex.pyx"], extra_compile_args=["-O3"]
)

# Sorting millions of words, for the pipeline's words step.
WORD_SORT = Extension("lexforge._wordsort", ["lexforge/_wordsort.pyx"], extra_compile_args=["-O3"])

# The words step's words.tsv: each word's sources and its line.
WORDS_TSV = Extension("lexforge._wordstsv", ["lexforge/_wordstsv.pyx"], extra_compile_args=["-O3"])

# aspell's compressed word lists, for the aspell reader.
PREZIP = Extension("lexforge._prezip", ["lexforge/_prezip.pyx"], extra_compile_args=["-O3"])

# The forms of aspell's suffix entries, for the aspell reader.
AFFIX_FORMS = Extension(
    "lexforge._affixforms", ["lexforge/_affixforms.pyx"], extra_compile_args=["-O3"]
)

setup(
    ext_modules=cythonize(
        [
            SEARCH,
            BOUND,
            SCRABBLE,
            NODECHECK,
            PHRASE,
            PATTERN,
            RACK,
            NORMALIZE,
            LETTERS,
            ANAGRAM_INDEX,
            WORD_SORT,
            WORDS_TSV,
            PREZIP,
            AFFIX_FORMS,
        ],
        compiler_directives={"language_level": 3},
    ),
    # setuptools' own scratch space; its default, build/, is where the lexicons are built.
    options={"build": {"build_base": ".setuptools-build"}},
)
