"""report.html from a report (``pipeline.report``): one static page, inline CSS and SVG, no
script and nothing fetched; the same input gives the same bytes."""

from __future__ import annotations

from html import escape

from lexforge.report import sole_sources

#: Colours of the histogram: words in several sources, then each source's own words.
SHARED_COLOUR = "#9aa5b1"
SOURCE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2")
STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222;
       padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { padding: .15em .7em; text-align: right; border-bottom: 1px solid #eee;
         vertical-align: top; }
th { background: #f4f4f4; } td.text, th.text { text-align: left; }
.words { font-family: ui-monospace, monospace; font-size: 13px; word-spacing: .4em;
         line-height: 1.6; }
td p { margin: 0; }
.note { color: #666; } .jump { color: #b00; font-weight: bold; } .large { font-weight: bold; }
.key { display: inline-block; width: .9em; height: .9em; margin: 0 .3em 0 1em;
       vertical-align: -.1em; }
"""


def render_html(report: dict) -> str:
    """The whole page."""
    title = f"Quality report: lexicon {report['lexicon']}"
    body = [
        f"<h1>{escape(title)}</h1>",
        _summary(report),
        _lengths(report),
        _word_list("Two-letter words", report["two_letter"]),
        _word_list("Three-letter words", report["three_letter"]),
        _only_one_source(report),
        _suspicious(report),
        _rejections(report),
        _change(report),
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def _words(words: list[str]) -> str:
    return f'<p class="words">{escape(" ".join(words))}</p>' if words else "<p>(none)</p>"


def _table(header: list[str], rows: list[list[str]], text_columns: set[int] = frozenset()) -> str:
    """A table of already-escaped cells; the columns of ``text_columns`` are left-aligned."""

    def cell(tag: str, index: int, value: str) -> str:
        kind = ' class="text"' if index in text_columns else ""
        return f"<{tag}{kind}>{value}</{tag}>"

    head = "".join(cell("th", i, escape(h)) for i, h in enumerate(header))
    body = "".join(
        "<tr>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>\n" for row in rows
    )
    return f"<table>\n<tr>{head}</tr>\n{body}</table>"


def _summary(report: dict) -> str:
    rows = [
        [
            escape(s["id"]),
            f"{s.get('read', 0):,}",
            f"{s.get('kept', 0):,}",
            f"{s.get('words', 0):,}",
        ]
        for s in report["sources"]
    ]
    return (
        f"<p><b>{report['words']:,}</b> words, language <b>{escape(report['language'])}</b>, "
        f"from {len(report['sources'])} sources:</p>\n"
        + _table(["source", "entries read", "kept", "distinct words"], rows, {0})
    )


def _lengths(report: dict) -> str:
    sources = sole_sources(report)
    rows = [
        [
            str(r["length"]),
            f"{r['words']:,}",
            f"{r['shared']:,}",
            *(f"{r['only'][s]:,}" for s in sources),
        ]
        for r in report["lengths"]
    ]
    header = ["length", "words", "in several sources", *(f"only in {s}" for s in sources)]
    return (
        "<h2>Words by length and source</h2>\n"
        + histogram(report["lengths"], sources)
        + "\n"
        + _table(header, rows)
    )


def histogram(rows: list[dict], sources: list[str]) -> str:
    """Stacked bars per word length: the words several sources hold, then each source's own."""
    width, height, left, bottom, top = 1000, 300, 70, 40, 20
    plot_width, plot_height = width - left - 20, height - bottom - top
    peak = max((r["words"] for r in rows), default=0) or 1
    step = _tick_step(peak)
    scale = plot_height / (step * -(-peak // step))
    slot = plot_width / max(len(rows), 1)
    bar = slot * 0.8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>words by length: {len(rows)} lengths, at most {peak:,} words</title>",
    ]
    for tick in range(0, peak + step, step):
        y = top + plot_height - tick * scale
        if y < top - 0.5:
            break
        parts.append(
            f'<line x1="{left}" x2="{width - 20}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e5e5e5"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:,}</text>'
        )
    colours = [
        SHARED_COLOUR,
        *(SOURCE_COLOURS[i % len(SOURCE_COLOURS)] for i in range(len(sources))),
    ]
    for index, row in enumerate(rows):
        x = left + index * slot + (slot - bar) / 2
        y = top + plot_height
        pieces = [row["shared"], *(row["only"][s] for s in sources)]
        for count, colour in zip(pieces, colours, strict=True):
            if count:
                h = count * scale
                y -= h
                parts.append(
                    f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                    f'fill="{colour}"><title>{row["length"]} letters: {count:,}</title></rect>'
                )
        parts.append(
            f'<text x="{x + bar / 2:.1f}" y="{top + plot_height + 16}" '
            f'text-anchor="middle">{row["length"]}</text>'
        )
    parts.append(
        f'<text x="{left + plot_width / 2:.0f}" y="{height - 4}" text-anchor="middle">'
        "letters per word</text></svg>"
    )
    keys = [("in several sources", SHARED_COLOUR)] + [
        (f"only in {s}", c) for s, c in zip(sources, colours[1:], strict=True)
    ]
    legend = "".join(
        f'<span class="key" style="background:{c}"></span>{escape(label)}' for label, c in keys
    )
    return f"<div>{''.join(parts)}</div>\n<p>{legend}</p>"


def _tick_step(peak: int) -> int:
    """A round step (1, 2 or 5 × 10ⁿ) giving at most eight gridlines up to ``peak``."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            if peak <= 8 * factor * magnitude:
                return factor * magnitude
        magnitude *= 10


def _word_list(title: str, words: list[str]) -> str:
    return f"<h2>{escape(title)} ({len(words):,})</h2>\n{_words(words)}"


def _only_one_source(report: dict) -> str:
    rows = [
        [escape(r["source"]), str(r["length"]), f"{r['count']:,}", _words(r["sample"])]
        for r in report["only_one_source"]
    ]
    title = "<h2>Words found in one source only</h2>\n"
    if not rows:
        return title + "<p>(none: every word is in several sources)</p>"
    note = '<p class="note">Per source and length, a sample spread evenly over the sorted list.</p>'
    return title + note + "\n" + _table(["source", "length", "words", "sample"], rows, {0, 3})


def _suspicious(report: dict) -> str:
    parts = ["<h2>Suspicious words</h2>"]
    if not report["vowels"]:
        parts.append(
            '<p class="note">The language file lists no vowels (<code>classify.vowels</code>): '
            "no vowel check.</p>"
        )
    for kind in report["suspicious"]:
        shown = "" if kind["count"] <= len(kind["words"]) else f", {len(kind['words'])} shown"
        parts.append(f"<h3>{escape(kind['title'])}: {kind['count']:,}{shown}</h3>")
        parts.append(_words(kind["words"]))
    return "\n".join(parts)


def _rejections(report: dict) -> str:
    rows = []
    for r in report["rejections"]:
        if not r["count"] and not r["previous"]:
            continue
        count = f"{r['count']:,}"
        if r["jump"]:
            count = f'<span class="jump">{count} ▲</span>'
        share = f"{r['share']:.2%}"
        if r["large"]:
            share = f'<span class="large">{share}</span>'
        previous = "" if r["previous"] is None else f"{r['previous']:,}"
        rows.append(
            [
                escape(r["source"]),
                escape(f"{r['kind']}: {r['reason']}"),
                count,
                share,
                previous,
                _words(r["examples"]) if r["examples"] else "",
                "yes" if r.get("listed") else "no",
            ]
        )
    removed = escape(report.get("removed_file", "removed.tsv"))
    note = (
        '<p class="note">Entries each source lost, by reason; share of its entries read (bold: 1% '
        "or more); ▲ a count that jumped since the previous build. Every entry of a reason marked "
        f'"listed" is in <a href="{removed}">{removed}</a> beside this page (one per line: '
        "source, kind, reason, entry); the character classes (apostrophe, hyphen, space, dot, "
        "digit) only by example.</p>"
    )
    header = ["source", "reason", "entries", "share", "previous build", "examples", "listed"]
    table = _table(header, rows, {0, 1, 5})
    return "<h2>Rejections by reason</h2>\n" + note + "\n" + (table if rows else "<p>(none)</p>")


def _change(report: dict) -> str:
    change = report["change"]
    title = "<h2>Change since the previous build</h2>"
    if change is None:
        return title + "\n<p>(no previous build recorded)</p>"
    return "\n".join(
        [
            title,
            f"<p>Previous build: {change['previous_words']:,} words; now {report['words']:,}: "
            f"<b>{change['added']:,}</b> added, <b>{change['removed']:,}</b> removed.</p>",
            f"<h3>Added ({change['added']:,})</h3>",
            _words(change["added_sample"]),
            f"<h3>Removed ({change['removed']:,})</h3>",
            _words(change["removed_sample"]),
        ]
    )
