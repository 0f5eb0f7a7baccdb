"""Where lexicons are found, installed and cached.

A lexicon named ``NAME`` is the first ``<dir>/NAME/`` holding a ``manifest.json`` along the search
path: the directories of ``$LEXFORGE_PATH`` (``os.pathsep``-separated), then the user data
directory (``platformdirs.user_data_dir("lexforge")/lexicons``, where ``lexforge install`` puts
bundles), then ``./build`` (a repository checkout's own builds). ``-d WORDLIST`` caches its
compiled lexicons in ``$LEXFORGE_CACHE``, else ``platformdirs.user_cache_dir("lexforge")``.
On Linux both user directories are read here by platformdirs' own XDG rule (see ``user_dir``).
"""

from __future__ import annotations

import json
import os
import sys
from collections import namedtuple
from collections.abc import Callable
from pathlib import Path

from lexforge.errors import UserError, excerpt

PATH_VARIABLE = "LEXFORGE_PATH"
CACHE_VARIABLE = "LEXFORGE_CACHE"
BUILD_DIR = Path("build")
MANIFEST = "manifest.json"


APP_NAME = "lexforge"
#: The XDG variable of each user directory and its default under the home directory.
XDG_HOMES = {"data": ("XDG_DATA_HOME", "~/.local/share"), "cache": ("XDG_CACHE_HOME", "~/.cache")}


def data_dir() -> Path:
    """Where ``lexforge install`` puts lexicons (``<user data dir>/lexforge/lexicons``)."""
    return user_dir("data") / "lexicons"


def cache_dir() -> Path:
    """Where ``-d WORDLIST`` keeps compiled lexicons: ``$LEXFORGE_CACHE`` or the user cache."""
    if os.environ.get(CACHE_VARIABLE):
        return Path(os.environ[CACHE_VARIABLE])
    return user_dir("cache")


def user_dir(kind: str) -> Path:
    """``platformdirs.user_<kind>_dir("lexforge")`` (``kind``: data or cache).

    On Linux, platformdirs follows the XDG rule: the variable if it holds an absolute path, else
    the default under ``$HOME`` (or the password database's home when ``$HOME`` is unset). That
    plain case is read here, because importing platformdirs (with ``tempfile``, ``shutil`` and
    ``random``) took about a sixth of a one-shot query. Any other case (a relative ``$HOME``,
    Android, macOS, Windows) asks platformdirs. tests/test_paths.py holds both to one answer.
    """
    variable, default = XDG_HOMES[kind]
    home = os.environ.get("HOME")
    android = hasattr(sys, "getandroidapilevel") or "ANDROID_DATA" in os.environ
    if sys.platform == "linux" and not android and (home is None or os.path.isabs(home)):
        base = os.environ.get(variable, "")
        if not os.path.isabs(base):
            base = os.path.expanduser(default)
        if os.path.isabs(base):
            return Path(base, APP_NAME)
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME))


def build_command(name: str) -> str:
    """The command that builds (or repairs) lexicon ``name`` in a repository checkout."""
    return f"snakemake --cores 2 build/work/{excerpt(name)}/outputs/live.json"


def search_path() -> list[Path]:
    """The directories searched for lexicons, in order."""
    listed = [Path(p) for p in os.environ.get(PATH_VARIABLE, "").split(os.pathsep) if p]
    return [*listed, data_dir(), BUILD_DIR]


def is_path_spec(spec: str | Path) -> bool:
    """Whether ``--lexicon`` names a directory (has a separator) rather than a lexicon name."""
    text = str(spec)
    return isinstance(spec, Path) or "/" in text or os.sep in text or text in {".", ".."}


def find_lexicon_dir(spec: str | Path) -> Path:
    """The directory of a lexicon given by path or by name (first on the search path).

    A bare name that is no lexicon on the search path but a directory here is taken as a path.
    UserError listing where it looked when there is none.
    """
    if is_path_spec(spec):
        path = Path(spec)
        if not exists_safely(path, Path.is_dir):
            raise UserError(f"{excerpt(str(path))}: no such lexicon directory")
        return path
    name = str(spec)
    folders = search_path()
    for folder in folders:
        if exists_safely(folder / name / MANIFEST, Path.is_file):
            return folder / name
    if exists_safely(Path(name), Path.is_dir):
        return Path(name)
    looked = ", ".join(f"{folder}/" for folder in folders)
    raise UserError(
        f"no lexicon '{excerpt(name)}' (looked in {looked}); install a bundle with "
        f"'lexforge install BUNDLE.tar.gz' or, in the repository, build it with "
        f"'{build_command(name)}'"
    )


def exists_safely(path: Path, test: Callable[[Path], bool]) -> bool:
    """``test(path)``, False where the name cannot exist (too long, a NUL byte, no access)."""
    try:
        return test(path)
    except (OSError, ValueError):
        return False


class FoundLexicon(
    namedtuple("FoundLexicon", ["name", "language", "words", "version", "path", "shadowed"])
):
    """One lexicon on the search path, as its manifest describes it: ``name``, ``language``,
    ``words`` (how many), ``version`` and ``path``; ``shadowed`` (bool): an earlier directory
    on the search path has a lexicon of the same name. (A collections named tuple, not typing's:
    the search path is on every query's way, and importing typing took about a twelfth of one.)
    """

    __slots__ = ()


def list_lexicons() -> list[FoundLexicon]:
    """Every lexicon on the search path, in search order, each directory sorted by name."""
    found: list[FoundLexicon] = []
    seen: set[str] = set()
    for folder in search_path():
        if not folder.is_dir():
            continue
        for manifest_path in sorted(folder.glob(f"*/{MANIFEST}")):
            name = manifest_path.parent.name
            found.append(describe_lexicon(manifest_path.parent, shadowed=name in seen))
            seen.add(name)
    return found


def describe_lexicon(path: Path, *, shadowed: bool = False) -> FoundLexicon:
    """The lexicon in directory ``path``, as its manifest describes it; UserError if unreadable."""
    manifest_path = path / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        entry = (str(manifest["language"]), int(manifest["words"]))
        version = str(manifest.get("version", ""))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UserError(
            f"{manifest_path}: unreadable manifest ({excerpt(str(error))}); "
            "check it with: lexforge verify"
        ) from None
    return FoundLexicon(path.name, *entry, version, path, shadowed)
