"""The output writer against the standard library's JSON encoder and csv reader."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import given
from hypothesis import strategies as st

from lexforge.output import Answer, write

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.text(alphabet=st.characters(blacklist_characters="\t\n\r"), max_size=8),
    st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63)), max_size=4),
    st.lists(st.text(alphabet="abc:", min_size=1, max_size=4), max_size=3),
)


def answer(rows: list[tuple]) -> Answer:
    return Answer("x", "fr", {"q": 'é"%s'}, ("a", "b%", "c"), rows, {"grids": [{"grid": 1}]})


@given(st.lists(st.tuples(VALUES, VALUES, VALUES), max_size=20))
def test_json_and_jsonl_are_the_standard_encoding(rows):
    out = io.StringIO()
    write(answer(rows), "json", out, print)
    expected = json.dumps(answer(rows).envelope(), ensure_ascii=False, separators=(",", ":"))
    assert out.getvalue() == expected + "\n"
    out = io.StringIO()
    write(answer(rows), "jsonl", out, print)
    lines = out.getvalue().split("\n")[:-1]  # not splitlines(): U+0085 may sit in a string
    assert [json.loads(line) for line in lines] == json.loads(json.dumps(answer(rows).records()))


@given(
    st.lists(st.tuples(st.integers(1, 9), st.text("ABCÉ", min_size=1), st.integers()), max_size=20)
)
def test_tsv_reads_back(rows):
    out = io.StringIO()
    write(answer(rows), "tsv", out, print)
    header, *read = csv.reader(io.StringIO(out.getvalue()), delimiter="\t")
    assert header == ["a", "b%", "c"]
    assert read == [[str(a), b, str(c)] for a, b, c in rows]
