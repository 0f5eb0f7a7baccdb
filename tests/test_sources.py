"""The plain-list readers (dict, ods, freelang) and the `python -m pipeline.read` command."""

import subprocess
import sys
from pathlib import Path

import pytest

from lexforge.errors import UserError
from lexforge.sources.dict import read_dict
from lexforge.sources.freelang import read_freelang
from lexforge.sources.ods import read_ods
from lexforge.sources.read import read_entries

FIXTURES = Path(__file__).parent / "fixtures" / "sources"
ROOT = Path(__file__).parent.parent


def test_freelang_is_windows_1252_with_crlf_and_no_final_newline():
    raw = (FIXTURES / "freelang-cp1252.txt").read_bytes()
    assert b"\x9c" in raw and raw.count(b"\r\n") == 6 and not raw.endswith(b"\n")
    entries = list(read_freelang(FIXTURES / "freelang-cp1252.txt"))
    # 0x9C is œ in Windows-1252 (ISO-8859-1 would give a C1 control character).
    assert entries == ["abaisser", "abaissé", "cœur", "mœurs", "à la carte", "abbaye", "œuvre"]


def test_latin1_would_corrupt_what_freelang_reads_right():
    raw = (FIXTURES / "freelang-cp1252.txt").read_bytes()
    assert "œ" not in raw.decode("latin-1")


def test_ods_accepts_bom_crlf_and_either_case():
    assert list(read_ods(FIXTURES / "ods-bom-crlf.txt")) == ["AA", "AALENIEN", "abaca", "ZYTHUMS"]
    assert list(read_ods(FIXTURES / "ods-lf.txt")) == ["AA", "AALENIENNE", "ABACA", "zythum"]


def test_dict_keeps_entries_as_written():
    entries = list(read_dict(FIXTURES / "dict-sample.txt"))
    assert entries[:4] == ["A", "Aachen", "AC", "aardvark"]
    assert "aardvark's" in entries and entries.count("zebra") == 2


def test_real_debian_list_reads_completely():
    path = ROOT / "raw/en/dict/american-english"
    entries = list(read_dict(path))
    assert len(entries) == path.read_bytes().count(b"\n")
    assert "zebra" in entries and "Zachary" in entries and "zebra's" in entries


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty word list"),
        (b"\n\n  \n", "empty word list"),
        (b"abc\x00def\n", "binary data"),
        (b"caf\xe9\n", "not valid utf-8 at line 1 (byte 0xE9)"),
        (b"ok\nfine\ncaf\xe9\n", "at line 3"),
    ],
)
def test_bad_files_give_one_line_naming_the_file(tmp_path, content, message):
    path = tmp_path / "words.txt"
    path.write_bytes(content)
    with pytest.raises(UserError) as error:
        list(read_dict(path))
    assert str(path) in str(error.value) and message in str(error.value)
    assert "\n" not in str(error.value)


def test_missing_and_directory(tmp_path):
    with pytest.raises(UserError, match="file not found"):
        list(read_ods(tmp_path / "nope.txt"))
    with pytest.raises(UserError, match="is a directory"):
        list(read_ods(tmp_path))


def test_undefined_windows_1252_byte_is_an_error(tmp_path):
    path = tmp_path / "liste.txt"
    path.write_bytes(b"abc\r\nde\x81f")
    with pytest.raises(UserError, match="not valid cp1252 at line 2"):
        list(read_freelang(path))


def test_a_declared_8_bit_encoding_of_a_utf8_file_is_refused(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("café\nmaïs\n", encoding="utf-8")
    with pytest.raises(UserError, match="declared iso-8859-1, but the file is UTF-8"):
        list(read_dict(path, "iso-8859-1"))
    assert list(read_dict(path)) == ["café", "maïs"]


def test_encoding_override(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9\n")
    assert list(read_entries("dict", path, "latin-1")) == ["café"]


def test_read_command_prints_entries_and_fails_in_one_line(tmp_path):
    run = [
        sys.executable,
        "-m",
        "pipeline.read",
        "--format",
        "freelang",
        str(FIXTURES / "freelang-cp1252.txt"),
    ]
    done = subprocess.run(run, capture_output=True, cwd=ROOT, check=True)
    assert done.stdout.decode("utf-8").splitlines()[2] == "cœur"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01")
    done = subprocess.run([*run[:-1], str(bad)], capture_output=True, cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr.decode().count("\n") == 1 and "Traceback" not in done.stderr.decode()
