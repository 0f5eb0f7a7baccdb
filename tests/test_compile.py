"""The compile step's word ids (pipeline.compile.trie_ids): read from the trie's iteration, they
must be each word's own id, whatever the UTF-8 length of its letters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.compile import save_trie, trie_ids

LETTERS = "AZÄÑŁẞ"  # one, two and three UTF-8 bytes: byte order must still be code-point order


@settings(max_examples=100, deadline=None)
@given(st.sets(st.text(alphabet=LETTERS, min_size=1, max_size=8), min_size=1, max_size=80))
def test_ids_by_iteration_are_the_ids_by_lookup(tmp_path_factory, words):
    words = sorted(words)
    trie = save_trie(words, tmp_path_factory.mktemp("trie") / "words.marisa")
    assert trie_ids(trie, words).tolist() == [trie[word] for word in words]
