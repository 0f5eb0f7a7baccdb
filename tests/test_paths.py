"""The user directories: lexforge.paths reads Linux's plain XDG case itself; platformdirs, the
library every other case asks, is the oracle for all of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from lexforge import paths

HOMES = [None, "/home/ana", "/home/ana/", "/", "relative/home"]
XDG_VALUES = [None, "", "   ", "/srv/xdg", "/srv/xdg/", "/srv//xdg/./x", "relative/xdg"]


@pytest.mark.parametrize("kind", ["data", "cache"])
@pytest.mark.parametrize("home", HOMES)
@pytest.mark.parametrize("xdg", XDG_VALUES)
def test_user_dirs_are_platformdirs_own(monkeypatch, kind, home, xdg):
    variable = paths.XDG_HOMES[kind][0]
    for name, value in ((variable, xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    expected = Path(getattr(platformdirs, f"user_{kind}_dir")("lexforge"))
    assert paths.user_dir(kind) == expected


def test_search_path_and_cache_are_in_the_user_dirs(monkeypatch, tmp_path):
    monkeypatch.delenv(paths.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert paths.data_dir() == Path(platformdirs.user_data_dir("lexforge")) / "lexicons"
    assert paths.search_path()[-2:] == [tmp_path / "data/lexforge/lexicons", paths.BUILD_DIR]
    assert paths.cache_dir() == tmp_path / "cache/lexforge"
    monkeypatch.setenv(paths.CACHE_VARIABLE, str(tmp_path / "elsewhere"))
    assert paths.cache_dir() == tmp_path / "elsewhere"


@pytest.mark.skipif(sys.platform != "linux", reason="the plain XDG case is Linux's")
def test_plain_case_does_not_import_platformdirs(tmp_path):
    """Importing platformdirs took about a sixth of a one-shot rack query."""
    code = (
        "import sys; from lexforge import paths; paths.search_path(); paths.cache_dir();"
        " print('platformdirs' in sys.modules)"
    )
    environment = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    assert done.stdout.strip() == "False"
