"""Every raw file a configured lexicon reads has its line in a ``SOURCES`` file (its content's
sha256 as recorded, its licence text beside it), so ``snakemake dist`` can publish it; a file
without one, or changed since, is named with the exact line to write."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from build_helpers import ROOT

from lexforge.errors import UserError
from pipeline.config import load_config
from pipeline.licenses import missing_line, source_entries, stale_lines
from pipeline.publish import provenance

CONFIG = load_config(ROOT / "config/config.yaml", check_files=False)


def raw_files(lexicon: str) -> list[Path]:
    return [
        file.relative_to(ROOT) if file.is_absolute() else file
        for source in CONFIG.lexicons[lexicon].sources
        for file in source.files()
    ]


@pytest.mark.parametrize("lexicon", sorted(CONFIG.lexicons))
def test_every_raw_file_has_its_sources_line_and_licence(lexicon, monkeypatch):
    monkeypatch.chdir(ROOT)  # SOURCES paths are the build's, relative to the repository
    entries, unknown = source_entries(raw_files(lexicon))
    assert unknown == [], [missing_line(file) for file in unknown]
    assert stale_lines(entries) == []
    for entry in entries:
        assert entry.text_file.is_file(), entry.text_file
        assert entry.license not in ("", "unknown")


def test_a_file_without_a_line_is_told_the_line_to_add(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lists = Path("raw/xx/curation")
    lists.mkdir(parents=True)
    new = lists / "shortwords.txt"
    new.write_text("# Source: the lexforge authors\nAB\treason\n", encoding="utf-8")
    manifest = {"lexicon": "xx", "sources": [{"files": {str(new): "-"}}]}
    with pytest.raises(UserError) as refused:
        provenance(tmp_path / "build/xx", manifest)
    message = str(refused.value)
    digest = hashlib.sha256(new.read_bytes()).hexdigest()  # the oracle: hashlib
    line = f"shortwords.txt\\tlexforge\\tin-tree\\tMIT\\t{digest}"
    command = f"printf '{line}\\n' >> {lists / 'SOURCES'}"
    assert f"{new} has no line in a SOURCES file" in message
    assert message.endswith(f"): {command}")
    assert f", and the project's licence as {lists / 'licenses/lexforge.copyright'})" in message

    (lists / "SOURCES").write_text("# path\tpackage\tversion\tlicense\tsha256\n")
    subprocess.run(["bash", "-c", command], check=True)  # the advice, as given
    (lists / "licenses").mkdir()
    (lists / "licenses/lexforge.copyright").write_text((ROOT / "LICENSE").read_text())
    sources, texts, records = provenance(tmp_path / "build/xx", manifest)  # the advice works
    assert f"{new}\tlexforge\tin-tree\tMIT\t{digest}\n" in sources
    assert texts == {"licenses/lexforge.copyright": lists / "licenses/lexforge.copyright"}
    assert [(r["package"], r["license"], r["files"]) for r in records] == [
        ("lexforge", "MIT", [str(new)])
    ]

    new.write_text("# Source: the lexforge authors\nAB\treason\nCD\treason\n", encoding="utf-8")
    with pytest.raises(UserError) as stale:
        provenance(tmp_path / "build/xx", manifest)
    digest = hashlib.sha256(new.read_bytes()).hexdigest()
    assert f"{new}: changed since its line in {lists / 'SOURCES'}" in str(stale.value)
    assert f"'shortwords.txt\tlexforge\tin-tree\tMIT\t{digest}'" in str(stale.value)


def test_the_built_manifests_name_every_licence(build_dir):
    for lexicon in CONFIG.default:
        manifest = json.loads((build_dir / lexicon / "manifest.json").read_text())
        assert all(record["package"] for record in manifest["licenses"]), lexicon
        assert all(Path(record["text"]).parts[0] == "licenses" for record in manifest["licenses"])
