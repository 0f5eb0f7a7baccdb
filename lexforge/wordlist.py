"""``-d WORDLIST``: a user's own word list, read, normalized and compiled once, then cached.

The list is read by a source reader and normalized with the language's default rules, then
compiled into the artifacts the pipeline writes for the solver (``words.marisa``,
``anagrams.txt``, ``language.json``, ``graph.npy``, ``anagram-graph.npy``,
``anagram-classes.npy``) plus a
``manifest.json``, in a cache directory keyed by the sha256 of the list (of every file of an
aspell dictionary), its format and the language file (``lexforge.paths.cache_dir()``). The
directory is built under a temporary name and renamed when complete, so a later query maps it
like any built lexicon, in milliseconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
import time
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
CACHE_FORMAT = 3  # 3: no anagrams.marisa, the word trie in label order
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
    encoding: str | None = None,
    say: Callable[[str], None] | None = None,
) -> Lexicon:
    """The lexicon of ``path`` read as ``fmt`` (in ``encoding``, UTF-8 by default) with the
    language's rules, from the cache (built there on first use). A compile that is long (a list
    of ANNOUNCE_BYTES, or one taking ANNOUNCE_AFTER seconds) is told to ``say``: what it does,
    where it caches, and when done, the cache's size."""
    check_wordlist_path(path)
    language_file = find_language(language_spec)
    folder = cache_dir() / f"wordlist-{cache_key(path, fmt, language_file, encoding)}"
    if (folder / MANIFEST).is_file():
        lexicon = Lexicon.open(folder)
    else:  # only now is the language file parsed and validated
        with announced(path, folder, say):
            data = load_language_data(language_file)
            language = Language.from_dict(data)
            language_text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
            words = normalized_words(path, fmt, language, encoding)
            source = {"file": path.name, "format": fmt}
            build_cached(folder, words, language, language_text, source)
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


def cache_key(path: Path, fmt: str, language_file: Path, encoding: str | None = None) -> str:
    """Hex digest of the format, the encoding, the language file and every file the list is
    read from."""
    files = [path]
    if fmt == "aspell":
        files = sorted({path, *(p for pat in ASPELL_PATTERNS for p in path.parent.glob(pat))})
    head = f"{CACHE_FORMAT}\0{fmt}\0{sha256_file(language_file)}"
    if encoding is not None:  # (no encoding keeps the keys lists had before --encoding)
        head += f"\0{encoding}"
    digest = hashlib.sha256(head.encode())
    for file in files:
        digest.update(f"\0{file.name}\0{sha256_file(file)}".encode())
    return digest.hexdigest()[:32]


def normalized_words(
    path: Path, fmt: str, language: Language, encoding: str | None = None
) -> list[str]:
    """The list's words normalized with the language's default rules, sorted, unique."""
    from lexforge.normalize import Normalizer  # the readers: only when the cache misses
    from lexforge.sources import CASE_SENSITIVE
    from lexforge.sources.read import read_entries

    normalizer = Normalizer(language, case_sensitive=CASE_SENSITIVE[fmt])
    try:
        words = normalizer.normalize_distinct(
            read_entries(fmt, path, encoding, reject_chars=normalizer.reject_chars())
        )
    except EncodingError as error:
        if encoding is None:
            advice = (
                "give its encoding, e.g. --encoding latin-1 "
                f"(or convert it: iconv -f latin1 -t utf-8 {path} > {path.stem}-utf8.txt)"
            )
        else:
            advice = "give its encoding with --encoding (or none if it is UTF-8)"
        raise UserError(f"{error.problem}; {advice}") from None
    if not words:
        raise UserError(
            f"{path}: no word of this list is valid in {language.name} "
            f"(alphabet {language.alphabet}, length {language.min_length}"
            f"–{language.max_length})"
        )
    return sorted(words)


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
