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
import sys
import tempfile
from collections import Counter
from pathlib import Path

from lexforge.anagramindex import anagram_index
from lexforge.errors import UserError
from lexforge.language import Language, find_language_file, load_language_data
from lexforge.lexicon import Lexicon, word_trie
from lexforge.paths import MANIFEST, cache_dir
from lexforge.verify import sha256_file

#: Bump when the cached layout or the way a list is compiled changes: old entries are ignored.
CACHE_FORMAT = 4  # 4: plain lists taken whole, the junk rules on request (``clean``)
#: An aspell dictionary spans its directory: these files are part of the key.
ASPELL_PATTERNS = ("*.multi", "*.cwl.gz", "*.dat")


def lexicon_from_wordlist(
    path: Path, fmt: str, language_spec: str, clean: bool | None = None
) -> Lexicon:
    """The lexicon of ``path`` read as ``fmt`` with the language's rules, cleaned if ``clean``
    (None: if ``fmt`` is a spell-checker format), from the cache (built there on first use)."""
    from lexforge.sources import CLEANED

    if not path.is_file():
        raise UserError(f"{path}: file not found")
    if clean is None:
        clean = fmt in CLEANED
    language_file = find_language(language_spec)
    folder = cache_dir() / f"wordlist-{cache_key(path, fmt, language_file, clean)}"
    if not (folder / MANIFEST).is_file():  # only now is the language file parsed and validated
        data = load_language_data(language_file)
        language = Language.from_dict(data)
        language_text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        words, source = normalized_words(path, fmt, language, clean)
        build_cached(folder, words, language, language_text, source)
        if source["rejected"]:
            print(f"lexforge: {refusals_line(path, source)}", file=sys.stderr)
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


def cache_key(path: Path, fmt: str, language_file: Path, clean: bool) -> str:
    """Hex digest of the format, the cleaning, the language file and every file the list is
    read from."""
    files = [path]
    if fmt == "aspell":
        files = sorted({path, *(p for pat in ASPELL_PATTERNS for p in path.parent.glob(pat))})
    rules = f"{CACHE_FORMAT}\0{fmt}\0clean={int(clean)}\0{sha256_file(language_file)}"
    digest = hashlib.sha256(rules.encode())
    for file in files:
        digest.update(f"\0{file.name}\0{sha256_file(file)}".encode())
    return digest.hexdigest()[:32]


def normalized_words(
    path: Path, fmt: str, language: Language, clean: bool
) -> tuple[list[str], dict]:
    """The list's words normalized with the language's default rules (the junk rules too if
    ``clean``), sorted, unique; and the source's record: file, format, cleaning, entries read,
    refused by reason, the first refused entries of each reason."""
    from lexforge.normalize import Normalizer  # the readers: only when the cache misses
    from lexforge.sources import CASE_SENSITIVE
    from lexforge.sources.read import read_entries

    normalizer = Normalizer(language, case_sensitive=CASE_SENSITIVE[fmt] and clean, classify=clean)
    pruned: Counter[frozenset[str]] = Counter()
    entries = read_entries(fmt, path, reject_chars=normalizer.reject_chars(), pruned=pruned)
    words = normalizer.normalize_distinct(entries)
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
