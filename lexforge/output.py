"""The shapes and formats of the command's answers.

Every query answers an ``Answer``: which command, which lexicon, the query's parameters, and rows
of results with named columns (the same in every format). Machine formats:

* ``json``: one object, ``{"schema": "lexforge/1", "command", "lexicon", "query", "results":
  [row objects], ...}`` plus command-specific summaries (e.g. ``grids`` for Boggle);
* ``jsonl``: one row object per line (no envelope), for streaming and ``jq``;
* ``tsv``: a header line of the column names, then one line per row.

Multi-input commands (many grids, many racks) carry the input's number (from 1, as in error
messages) in a column of every row, so a row always maps back to its input. Encoding goes
through the C JSON encoder (compact separators): 1,000 boards of JSON cost about what the text
costs. Rows are written in chunks of ``CHUNK`` as they come, so an answer whose rows are a
generator (``generate --count``) streams in bounded memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from json.encoder import encode_basestring

TYPE_CHECKING = False  # typing's constant, without importing typing (a faster start)
if TYPE_CHECKING:
    from typing import Any, TextIO

SCHEMA = "lexforge/1"
FORMATS = ("text", "json", "jsonl", "tsv")
CHUNK = 4096  # rows encoded together (column by column) and written at once

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class Answer:
    """One command's answer: rows of ``columns`` plus summaries for the JSON envelope. (A plain
    class: importing ``dataclasses`` took 7–9 ms of every one-shot query.)"""

    def __init__(
        self,
        command: str,
        lexicon: str | None,  # None for commands over no one lexicon (``lexicons``)
        query: dict[str, Any],
        columns: tuple[str, ...],
        rows: Iterable[Sequence[Any]],  # read once, when written (may be a generator)
        summary: dict[str, Any] | None = None,
    ) -> None:
        self.command = command
        self.lexicon = lexicon
        self.query = query
        self.columns = columns
        self.rows = rows
        self.summary = summary if summary is not None else {}

    def records(self) -> list[dict[str, Any]]:
        """The rows as objects keyed by column."""
        columns = self.columns
        return [dict(zip(columns, row, strict=True)) for row in self.rows]

    def envelope(self, *, records: bool = True) -> dict[str, Any]:
        """The ``json`` format's object (``results`` left empty without ``records``)."""
        return {
            "schema": SCHEMA,
            "command": self.command,
            "lexicon": self.lexicon,
            "query": self.query,
            "results": self.records() if records else [],
            **self.summary,
        }


def write(answer: Answer, fmt: str, out: TextIO, text: Callable[[TextIO], None]) -> None:
    """Write ``answer`` in format ``fmt``; ``text`` writes the human format."""
    if fmt == "text":
        text(out)
    else:
        _write_chunks(answer, fmt, out, _chunks(answer.rows), None, flush=False)


def _chunks(rows: Iterable[Sequence[Any]]) -> Iterator[list[Sequence[Any]]]:
    """The rows in lists of at most ``CHUNK``."""
    iterator = iter(rows)
    while chunk := list(islice(iterator, CHUNK)):
        yield chunk


def write_streamed(
    answer: Answer,
    fmt: str,
    out: TextIO,
    chunks: Iterable[Sequence[Sequence[Any]]],
    text: Callable[[Sequence[Sequence[Any]]], str],
) -> None:
    """Write ``answer`` (its own rows unused) with the rows of ``chunks``, each chunk as soon as
    it comes (flushed): ``json`` is still one envelope, opened before the first row and closed
    after the last; ``text`` renders a chunk in the human format."""
    _write_chunks(answer, fmt, out, chunks, text, flush=True)


def _write_chunks(
    answer: Answer,
    fmt: str,
    out: TextIO,
    chunks: Iterable[Sequence[Sequence[Any]]],
    text: Callable[[Sequence[Sequence[Any]]], str] | None,
    *,
    flush: bool,
) -> None:
    """The rows of ``chunks`` in format ``fmt`` (``text`` renders a chunk as text), with the
    format's header and envelope; ``flush`` after every chunk."""
    if fmt == "json":
        head = _ENCODER.encode({**answer.envelope(records=False), "results": None})
        before, _, after = head.partition('"results":null')
        out.write(before + '"results":[')
        separator = ""
    elif fmt == "tsv":
        out.write("\t".join(answer.columns) + "\n")
    elif fmt not in FORMATS or (fmt == "text" and text is None):
        raise ValueError(f"unknown format {fmt!r}")
    for rows in chunks:
        if not rows:
            continue
        if fmt == "text":
            out.write(text(rows))
        elif fmt == "json":
            out.write(separator + json_objects(answer.columns, rows, ","))
            separator = ","
        elif fmt == "jsonl":
            out.write(json_objects(answer.columns, rows, "\n") + "\n")
        else:
            out.writelines(tsv_lines(rows))
        if flush:
            out.flush()
    if fmt == "json":
        out.write("]" + after + "\n")


def tsv_lines(rows: Sequence[Sequence[Any]]) -> list[str]:
    """The TSV lines of ``rows`` (no header)."""
    columns = (_column(values, tsv_field, plain=True) for values in zip(*rows, strict=True))
    return ["\t".join(row) + "\n" for row in zip(*columns, strict=True)]


def json_objects(columns: Sequence[str], rows: Sequence[Sequence[Any]], separator: str) -> str:
    """The rows as JSON objects (the same text as the encoder's) joined by ``separator``, built
    column by column: strings and integers (nearly every value) without a call of the encoder
    per value, then every row's template filled by one ``%`` over all the values."""
    template = (
        "{" + ",".join(encode_basestring(c).replace("%", "%%") + ":%s" for c in columns) + "}"
    )
    encoded = (_column(values, _ENCODER.encode, plain=False) for values in zip(*rows, strict=True))
    values = tuple(chain.from_iterable(zip(*encoded, strict=True)))
    return separator.join([template] * len(rows)) % values


def _column(values: tuple[Any, ...], encode: Callable[[Any], str], *, plain: bool) -> list[str]:
    """A column's values as text: strings as they are (``plain``) or JSON-quoted, integers in
    decimal, anything else through ``encode``."""
    kinds = set(map(type, values))
    if kinds == {str}:
        return list(values) if plain else list(map(encode_basestring, values))
    if kinds == {int}:
        return list(map(str, values))
    return list(map(encode, values))


def tsv_field(value: Any) -> str:
    """A TSV cell: paths and placed tiles as space-separated comma tuples (``0,1 1,2``),
    booleans as ``true``/``false``, None as empty, lists of names comma-separated."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        if value and isinstance(value[0], (list, tuple)):
            return " ".join(",".join(map(str, item)) for item in value)
        return ",".join(map(str, value))
    return str(value)


def format_path(path: Sequence[Sequence[int]]) -> str:
    """A path as the text format shows it: ``(0,1) (1,2)``; n-D cells ``(0,1,2)``."""
    return " ".join(f"({','.join(map(str, cell))})" for cell in path)
