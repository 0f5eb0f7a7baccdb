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
import tempfile
from pathlib import Path

from lexforge.anagramindex import anagram_index
from lexforge.errors import UserError
from lexforge.language import Language, find_language_file, load_language_data
from lexforge.lexicon import Lexicon, word_trie
from lexforge.paths import MANIFEST, cache_dir
from lexforge.verify import sha256_file

#: Bump when the cached layout or the way a list is compiled changes: old entries are ignored.
CACHE_FORMAT = 3  # 3: no anagrams.marisa, the word trie in label order
#: An aspell dictionary spans its directory: these files are part of the key.
ASPELL_PATTERNS = ("*.multi", "*.cwl.gz", "*.dat")


def lexicon_from_wordlist(path: Path, fmt: str, language_spec: str) -> Lexicon:
    """The lexicon of ``path`` read as ``fmt`` with the language's rules, from the cache (built
    there on first use)."""
    if not path.is_file():
        raise UserError(f"{path}: file not found")
    language_file = find_language(language_spec)
    folder = cache_dir() / f"wordlist-{cache_key(path, fmt, language_file)}"
    if not (folder / MANIFEST).is_file():  # only now is the language file parsed and validated
        data = load_language_data(language_file)
        language = Language.from_dict(data)
        language_text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        words = normalized_words(path, fmt, language)
        build_cached(folder, words, language, language_text, {"file": path.name, "format": fmt})
    lexicon = Lexicon.open(folder)
    lexicon.name = path.name
    return lexicon


def find_language(spec: str) -> Path:
    """The file of ``--language``: a code's YAML file, or the file given."""
    path = Path(spec)
    if not path.suffix:
        return find_language_file(spec)
    if not path.is_file():
        raise UserError(f"{path}: language file not found")
    return path


def cache_key(path: Path, fmt: str, language_file: Path) -> str:
    """Hex digest of the format, the language file and every file the list is read from."""
    files = [path]
    if fmt == "aspell":
        files = sorted({path, *(p for pat in ASPELL_PATTERNS for p in path.parent.glob(pat))})
    digest = hashlib.sha256(f"{CACHE_FORMAT}\0{fmt}\0{sha256_file(language_file)}".encode())
    for file in files:
        digest.update(f"\0{file.name}\0{sha256_file(file)}".encode())
    return digest.hexdigest()[:32]


def normalized_words(path: Path, fmt: str, language: Language) -> list[str]:
    """The list's words normalized with the language's default rules, sorted, unique."""
    from lexforge.normalize import Normalizer  # the readers: only when the cache misses
    from lexforge.sources import CASE_SENSITIVE
    from lexforge.sources.read import read_entries

    normalizer = Normalizer(language, case_sensitive=CASE_SENSITIVE[fmt])
    words = normalizer.normalize_distinct(
        read_entries(fmt, path, reject_chars=normalizer.reject_chars())
    )
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
