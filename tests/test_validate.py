"""Reference validation follows what the language file gives: a language without Ruzzle values."""

from __future__ import annotations

import json
import shutil

import pytest

from lexforge.errors import UserError
from pipeline import validate


@pytest.fixture
def no_ruzzle(build_dir, tmp_path):
    """A copy of the built en lexicon whose language gives no Ruzzle values (or only some), and
    a copy of en's reference cases."""
    lexicon = tmp_path / "en"
    shutil.copytree(build_dir / "en", lexicon)
    reference = tmp_path / "reference"
    shutil.copytree(build_dir.parent / "raw/en/reference", reference)
    (reference / "expected/en.json").unlink()
    return lexicon, reference


def set_ruzzle_values(lexicon, values) -> None:
    path = lexicon / "language.json"
    language = json.loads(path.read_text())
    if values is None:
        del language["ruzzle"]
    else:
        language["ruzzle"]["values"] = values
    path.write_text(json.dumps(language))


def test_refresh_and_validation_skip_ruzzle_boards_saying_so(no_ruzzle, capsys, caplog):
    lexicon, reference = no_ruzzle
    set_ruzzle_values(lexicon, None)
    args = ["--lexicon", str(lexicon), "--reference", str(reference)]
    assert validate.main([*args, "--refresh"]) == 0
    expected = json.loads((reference / "expected/en.json").read_text())
    assert expected and not any(name.endswith(".board") for name in expected)
    boards = sorted(reference.glob("*.board"))
    assert boards
    skipped = [f"{board}: skipped: language en gives no Ruzzle values" for board in boards]
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == skipped
    assert validate.main([*args, "--out", str(lexicon / "validation.json")]) == 0
    result = json.loads((lexicon / "validation.json").read_text())
    assert result["ok"] and result["skipped"] == skipped
    assert {case["kind"] for case in result["cases"]} == {"boggle", "rack"}


def test_a_missing_letter_value_names_the_board(no_ruzzle):
    lexicon, reference = no_ruzzle
    set_ruzzle_values(lexicon, {"A": 1})
    with pytest.raises(UserError) as error:
        validate.main(["--lexicon", str(lexicon), "--reference", str(reference), "--refresh"])
    message = str(error.value)
    assert message.startswith(f"{reference}/ruzzle-4x4.board: no Ruzzle value for letter ")
    assert "(language en lists none; lexforge ruzzle takes them with --values" in message
    assert "\n" not in message
