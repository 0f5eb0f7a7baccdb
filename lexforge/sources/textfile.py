"""Strict reading of line-oriented text files, shared by the plain-list readers."""

from __future__ import annotations

from pathlib import Path

from lexforge.errors import EncodingError, UserError, excerpt


def read_lines(path: Path, encoding: str) -> list[str]:
    """Decode ``path`` strictly and return its lines without line endings (LF or CRLF, BOM dropped).

    Raises UserError, naming the file, for a missing, unreadable, empty, binary or wrongly
    encoded file.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, expected a word list file") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read ({error.strerror})") from None
    except ValueError:  # a NUL byte in the name
        raise UserError(f"{excerpt(repr(str(path)))}: not a valid file name") from None
    if not data.strip():
        raise UserError(f"{path}: empty word list")
    if b"\0" in data:
        offset = data.index(b"\0")
        raise UserError(f"{path}: binary data (NUL byte at offset {offset}), not a word list")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = data[error.start]
        raise EncodingError(
            f"{path}: not valid {encoding} at line {line} (byte 0x{byte:02X})",
            "set the source's 'encoding' in config/config.yaml",
        ) from None
    except LookupError:
        raise UserError(f"{path}: unknown encoding '{encoding}'") from None
    if _is_single_byte(encoding) and not data.isascii() and _is_utf8(data):
        raise EncodingError(
            f"{path}: declared {encoding}, but the file is UTF-8 (its accented letters would be "
            "read as two characters each)",
            "remove the source's 'encoding'",
        )
    lines = text.removeprefix("\ufeff").split("\n")
    if "\r" in text:
        return [line.removesuffix("\r") for line in lines]
    return lines


def _is_single_byte(encoding: str) -> bool:
    """Whether (nearly) every byte decodes to a character of its own (ISO-8859-*, Windows-125*)."""
    try:
        return len(bytes(range(256)).decode(encoding, errors="ignore")) > 200
    except LookupError:
        return False


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
