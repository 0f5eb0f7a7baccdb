"""A built lexicon's quality report (``report.json``, written by the pipeline's tables step),
read and printed as text for ``lexforge report``: no table library on this path."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from lexforge.errors import UserError
from lexforge.paths import build_command

#: ``format`` of report.json; bumped when its shape changes.
FORMAT = "lexforge-report/1"
WIDTH = 100
BAR = 40  # characters of the longest histogram bar


def load_report(lexicon_dir: Path) -> dict:
    """``report.json`` of a built lexicon; UserError naming the command that builds it."""
    path = lexicon_dir / "report.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(
            f"{path}: no quality report; build it with: {build_command(lexicon_dir.name)}"
        ) from None
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: cannot read the report ({error})") from None
    if not isinstance(report, dict) or report.get("format") != FORMAT:
        raise UserError(f"{path}: not a {FORMAT} report; rebuild it")
    return report


def render_text(report: dict) -> str:
    """The report as plain text, section by section (the same content as report.html)."""
    parts = [_summary(report), _lengths(report)]
    for title, words in (
        ("Two-letter words", report["two_letter"]),
        ("Three-letter words", report["three_letter"]),
    ):
        parts.append(_heading(f"{title} ({len(words):,})") + _wrap(words))
    parts += [_only_one_source(report), _suspicious(report), _rejections(report), _change(report)]
    return "\n\n".join(parts) + "\n"


def _heading(title: str) -> str:
    return f"{title}\n{'=' * len(title)}\n"


def _wrap(words: list[str], indent: str = "") -> str:
    if not words:
        return indent + "(none)"
    return textwrap.fill(" ".join(words), WIDTH, initial_indent=indent, subsequent_indent=indent)


def _summary(report: dict) -> str:
    lines = [f"Quality report of lexicon {report['lexicon']} (language {report['language']})"]
    lines.append(f"{report['words']:,} words from {len(report['sources'])} sources:")
    for source in report["sources"]:
        lines.append(
            f"  {source['id']}: {source.get('read', 0):,} entries read, "
            f"{source.get('kept', 0):,} kept, {source.get('words', 0):,} distinct words"
        )
    return "\n".join(lines)


def sole_sources(report: dict) -> list[str]:
    """The sources that hold some word alone, in order (a deny list or a names source never
    does: its column would be zeros)."""
    return [
        source["id"]
        for source in report["sources"]
        if any(row["only"][source["id"]] for row in report["lengths"])
    ]


def _lengths(report: dict) -> str:
    sources = sole_sources(report)
    rows = report["lengths"]
    top = max((row["words"] for row in rows), default=1)
    header = ["length", "words", "shared", *(f"only {s}" for s in sources)]
    widths = [max(len(h), 9) for h in header]
    lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True))]
    for row in rows:
        cells = [row["length"], row["words"], row["shared"], *(row["only"][s] for s in sources)]
        text = "  ".join(f"{c:,}".rjust(w) for c, w in zip(cells, widths, strict=True))
        lines.append(f"{text}  {'#' * round(BAR * row['words'] / top)}")
    return _heading("Words by length and source") + "\n".join(lines)


def _only_one_source(report: dict) -> str:
    lines = []
    for row in report["only_one_source"]:
        lines.append(f"{row['source']}, {row['length']} letters: {row['count']:,}")
        lines.append(_wrap(row["sample"], "    "))
    return _heading("Words found in one source only (an even sample)") + (
        "\n".join(lines) or "(none: every word is in several sources)"
    )


def _suspicious(report: dict) -> str:
    lines = []
    if not report["vowels"]:
        lines.append("(the language file lists no vowels: classify.vowels; no vowel check)")
    for kind in report["suspicious"]:
        lines.append(f"{kind['title']}: {kind['count']:,}")
        if kind["words"]:
            lines.append(_wrap(kind["words"], "    "))
    return _heading("Suspicious words") + "\n".join(lines)


def _rejections(report: dict) -> str:
    lines = []
    for row in report["rejections"]:
        if not row["count"] and not row["previous"]:
            continue
        marks = " ".join(
            mark for flag, mark in ((row["jump"], "JUMP"), (row["large"], "large")) if flag
        )
        before = "" if row["previous"] is None else f" (previous build: {row['previous']:,})"
        lines.append(
            f"{row['source']} {row['kind']} {row['reason']}: {row['count']:,} "
            f"= {row['share']:.2%} of entries{before}{'  ' + marks if marks else ''}"
        )
        if row["examples"]:
            lines.append(_wrap(row["examples"], "    e.g. "))
    if lines and report.get("removed_file"):
        lines.append(
            f"Every entry of each reason, but those of the character classes, is listed in "
            f"{report['removed_file']} beside report.json (source, kind, reason, entry)."
        )
    return _heading("Rejections by reason") + ("\n".join(lines) or "(none)")


def _change(report: dict) -> str:
    change = report["change"]
    if change is None:
        return _heading("Change since the previous build") + "(no previous build recorded)"
    lines = [
        f"previous build: {change['previous_words']:,} words; now {report['words']:,}: "
        f"{change['added']:,} added, {change['removed']:,} removed"
    ]
    for label, key in (("added", "added_sample"), ("removed", "removed_sample")):
        if change[key]:
            lines += [f"{label}:", _wrap(change[key], "    ")]
    return _heading("Change since the previous build") + "\n".join(lines)
