"""``-d WORDLIST``: a user's own word list, read, normalized and compiled once, then cached.

The list is read by a source reader and normalized with the language's default rules, then
compiled into the artifacts the pipeline writes for the solver (``words.marisa``,
``anagrams.txt``, ``language.json``, ``graph.npy``, ``anagram-graph.npy``,
``anagram-classes.npy``) plus a
``manifest.json``, in a cache directory keyed by the sha256 of the list (of every file of an
aspell dictionary), its format, whether it is cleaned and the language file
(``lexforge.paths.cache_dir()``). The directory is built under a temporary name and renamed
when complete, so a later query maps it like any built lexicon, in milliseconds.

A plain list (``ods``, ``freelang``) is a game list: taken whole, each entry only folded (case,
accents as the language folds them, tiles) and refused only if the language cannot spell it (a
character outside the alphabet: apostrophe, hyphen, digit…; a length outside its bounds). A
spell-checker list (``dict``, ``aspell``, ``hunspell``: ``lexforge.sources.CLEANED``), or any
list with ``clean``, also goes through the junk rules: capitals mark names and abbreviations,
and the language's shape rules (``lexforge.classify``) refuse words with no vowel, Roman
numerals and unit symbols. Entries refused are counted by reason in the manifest's source and,
when the list is compiled, in one line on stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lexforge.anagramindex import anagram_index
from lexforge.errors import EncodingError, UserError, excerpt
from lexforge.language import Language, find_language_file, load_language_data
from lexforge.lexicon import Lexicon, word_trie
from lexforge.paths import MANIFEST, cache_dir
from lexforge.verify import sha256_file

#: Bump when the cached layout or the way a list is compiled changes: old entries are ignored.
CACHE_FORMAT = 4  # 4: plain lists taken whole, the junk rules on request (``clean``)
#: An aspell dictionary spans its directory: these files are part of the key.
ASPELL_PATTERNS = ("*.multi", "*.cwl.gz", "*.dat")


#: A list compiles in about a second per this many bytes: above it, say so before compiling.
ANNOUNCE_BYTES = 1_000_000
#: Otherwise say so if compiling takes longer than this many seconds.
ANNOUNCE_AFTER = 1.0


def lexicon_from_wordlist(
    path: Path,
    fmt: str,
    language_spec: str,
    clean: bool | None = None,
    encoding: str | None = None,
    say: Callable[[str], None] | None = None,
    progress: bool = False,
) -> Lexicon:
    """The lexicon of ``path`` read as ``fmt`` (in ``encoding``, UTF-8 by default) with the
    language's rules, cleaned if ``clean`` (None: if ``fmt`` is a spell-checker format), from
    the cache (built there on first use). A compile that is long (a list of ANNOUNCE_BYTES, or
    one taking ANNOUNCE_AFTER seconds) is told to ``say`` with ``progress`` (default: a
    ``lexforge:`` line on stderr): what it does, where it caches, and when done, the cache's
    size. The entries left out are told in any case."""
    from lexforge.sources import CLEANED

    if say is None:
        say = print_line
    check_wordlist_path(path)
    if clean is None:
        clean = fmt in CLEANED
    language_file = find_language(language_spec)
    folder = cache_dir() / f"wordlist-{cache_key(path, fmt, language_file, clean, encoding)}"
    if not (folder / MANIFEST).is_file():  # only now is the language file parsed and validated
        with announced(path, folder, say if progress else None):
            data = load_language_data(language_file)
            language = Language.from_dict(data)
            language_text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
            words, source = normalized_words(path, fmt, language, clean, encoding)
            build_cached(folder, words, language, language_text, source)
        if source["rejected"]:
            say(refusals_line(path, source))
    lexicon = Lexicon.open(folder)
    lexicon.name = path.name
    return lexicon


def check_wordlist_path(path: Path) -> None:
    """UserError, saying what it is, unless ``path`` is a regular file: missing, a directory,
    or a device or pipe (``/dev/null``, ``<(command)``: a list is read twice, once for its
    cache key and once to compile it)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        raise UserError(f"{excerpt(str(path))}: cannot read ({error})") from None
    if stat.S_ISDIR(mode):
        raise UserError(f"{path}: is a directory, expected a word list file")
    if stat.S_ISCHR(mode) and path.resolve() == Path(os.devnull).resolve():
        raise UserError(f"{path}: empty word list (nothing can be read from {os.devnull})")
    if not stat.S_ISREG(mode):
        raise UserError(
            f"{path}: not a regular file (a device or a pipe): a word list is read twice, "
            "to find it in the cache and to compile it; save it to a file first"
        )


@contextmanager
def announced(path: Path, folder: Path, say: Callable[[str], None] | None) -> Iterator[None]:
    """Tell ``say`` about the compile in the block if it is long: at once for a large list,
    else after ANNOUNCE_AFTER seconds; then, if told, how long it took and the cache's size."""
    if say is None:
        yield
        return
    import threading

    size = path.stat().st_size
    told = threading.Event()

    def tell() -> None:
        told.set()
        say(
            f"compiling {path.name} ({megabytes(size)}) into the word-list cache, once: "
            f"{folder} (later queries on this file read it there)"
        )

    start = time.monotonic()
    timer = threading.Timer(ANNOUNCE_AFTER, tell)
    timer.daemon = True
    if size >= ANNOUNCE_BYTES:
        tell()
    else:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()
    if told.is_set():
        cached = sum(f.stat().st_size for f in folder.iterdir())
        say(
            f"compiled {path.name} in {time.monotonic() - start:.1f} s: {megabytes(cached)} "
            f"cached in {folder} (the whole cache: {folder.parent}; to free it: rm -r it)"
        )


def print_line(message: str) -> None:
    """A ``lexforge:`` line on stderr (callers that know their command give their own)."""
    print(f"lexforge: {message}", file=sys.stderr)


def megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def find_language(spec: str) -> Path:
    """The file of ``--language``: a code's YAML file, or the file given."""
    path = Path(spec)
    if not path.suffix:
        return find_language_file(spec)
    if not path.is_file():
        raise UserError(f"{path}: language file not found")
    return path


def cache_key(
    path: Path, fmt: str, language_file: Path, clean: bool, encoding: str | None = None
) -> str:
    """Hex digest of the format, the cleaning, the encoding, the language file and every file
    the list is    read from."""
    files = [path]
    if fmt == "aspell":
        files = sorted({path, *(p for pat in ASPELL_PATTERNS for p in path.parent.glob(pat))})
    rules = f"{CACHE_FORMAT}\0{fmt}\0clean={int(clean)}\0{sha256_file(language_file)}"
    if encoding is not None:  # (no encoding keeps the keys lists had before --encoding)
        rules += f"\0{encoding}"
    digest = hashlib.sha256(rules.encode())
    for file in files:
        digest.update(f"\0{file.name}\0{sha256_file(file)}".encode())
    return digest.hexdigest()[:32]


def normalized_words(
    path: Path, fmt: str, language: Language, clean: bool, encoding: str | None = None
) -> tuple[list[str], dict]:
    """The list's words normalized with the language's default rules (the junk rules too if
    ``clean``), sorted, unique; and the source's record: file, format, cleaning, entries read,
    refused by reason, the first refused entries of each reason. The file is read in
    ``encoding`` (default UTF-8)."""
    from lexforge.normalize import Normalizer  # the readers: only when the cache misses
    from lexforge.sources import CASE_SENSITIVE
    from lexforge.sources.read import read_entries

    normalizer = Normalizer(language, case_sensitive=CASE_SENSITIVE[fmt] and clean, classify=clean)
    pruned: Counter[frozenset[str]] = Counter()
    try:  # (a reader may read the whole file when called, or as it is iterated)
        entries = read_entries(
            fmt, path, encoding, reject_chars=normalizer.reject_chars(), pruned=pruned
        )
        words = normalizer.normalize_distinct(entries)
    except EncodingError as error:
        if encoding is None:
            advice = (
                "give its encoding, e.g. --encoding latin-1 "
                f"(or convert it: iconv -f latin1 -t utf-8 {path} > {path.stem}-utf8.txt)"
            )
        else:
            advice = "give its encoding with --encoding (or none if it is UTF-8)"
        raise UserError(f"{error.problem}; {advice}") from None
    normalizer.count_pruned(pruned)
    source = {
        "file": path.name,
        "format": fmt,
        "clean": clean,
        "read": normalizer.read,
        "rejected": dict(sorted(normalizer.rejected.items())),
        "examples": dict(sorted(normalizer.examples.items())),
    }
    if not words:
        raise UserError(
            f"{path}: no word of this list is valid in {language.name} "
            f"(alphabet {language.alphabet}, length {language.min_length}"
            f"–{language.max_length})"
        )
    return sorted(words), source


def refusals_line(path: Path, source: dict) -> str:
    """One line: how many entries of the list were refused, by reason, with examples."""
    counts = sorted(source["rejected"].items(), key=lambda item: (-item[1], item[0]))
    reasons = []
    for reason, count in counts:
        examples = source["examples"].get(reason, [])[:3]
        reasons.append(f"{count} {reason}" + (f" ({', '.join(examples)})" if examples else ""))
    refused = sum(source["rejected"].values())
    return f"{path}: {refused} of {source['read']} entries left out: {', '.join(reasons)}"


def build_cached(
    folder: Path, words: list[str], language: Language, language_text: str, source: dict
) -> None:
    """Compile ``words`` into ``folder`` atomically (built beside it, then renamed)."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    except OSError as error:
        raise UserError(f"{folder.parent}: cannot write the word-list cache ({error})") from None
    try:
        write_artifacts(staging, words, language, language_text, source)
        staging.chmod(0o755)
        try:
            os.rename(staging, folder)
        except OSError:  # another process finished the same list first: keep its copy
            if not (folder / MANIFEST).is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_artifacts(
    out: Path, words: list[str], language: Language, language_text: str, source: dict
) -> None:
    """The solver's artifacts of sorted unique ``words``, as the pipeline writes them."""
    import numpy as np

    from lexforge import graph

    words_trie = word_trie(words)
    words_trie.save(str(out / "words.marisa"))
    anagram_index(words, language.alphabet).write(out)
    np.save(out / graph.GRAPH_FILE, graph.build_graph(words_trie, language.alphabet))
    (out / "language.json").write_text(language_text, encoding="utf-8")
    names = sorted(p.name for p in out.iterdir())
    manifest = {
        "lexicon": source["file"],
        "language": language.code,
        "version": "",
        "words": len(words),
        "sources": [source],
        "artifacts": [
            {"name": name, "bytes": (out / name).stat().st_size, "sha256": sha256_file(out / name)}
            for name in names
        ],
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
