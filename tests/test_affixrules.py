"""Affix rules as data: the aspell and hunspell readers tell which affix entries made each form
(checked against the real binaries), and the `enclitic` classes of the Spanish and Italian
language files refuse verb + pronoun forms while keeping the words the federations keep, on the
real raw dictionaries."""

from __future__ import annotations

import os
import shutil
import subprocess
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from lexforge.errors import UserError
from lexforge.language import load_language_data
from lexforge.sources.affixrules import AffixRefusal, AffixRule, RefusedForms
from lexforge.sources.aspell import _Expander, _load_language, read_aspell, read_aspell_rules
from lexforge.sources.hunspell import read_hunspell, read_hunspell_forms, read_hunspell_rules
from lexforge.sources.read import read_entries
from pipeline.config import load_config

ROOT = Path(__file__).resolve().parent.parent
RAW = ROOT / "raw"
LANGUAGES = ROOT / "lexforge" / "languages"


def enclitic(lang: str) -> AffixRefusal:
    """The refusal of the language file's enclitic class."""
    data = load_language_data(LANGUAGES / f"{lang}.yaml")
    return AffixRefusal.from_config(data["affix_classes"], ["enclitic"])


def fold(word: str) -> str:
    """A form as the lexicon spells it (accents off, uppercase; Ñ is not needed here)."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).upper()


def real_dictionary(tmp_path: Path, dic: Path, roots: set[str]) -> Path:
    """A hunspell dictionary of the real affix file and the real word list lines of `roots`."""
    lines = [
        line
        for line in dic.read_text(encoding="utf-8").splitlines()[1:]
        if line.split("/")[0] in roots
    ]
    assert {line.split("/")[0] for line in lines} == roots, "a root is not in the word list"
    small = tmp_path / dic.name
    small.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    shutil.copy(dic.with_suffix(".aff"), small.with_suffix(".aff"))
    return small


def kept_and_refused(dic: Path, refusal: AffixRefusal) -> tuple[set[str], set[str], int]:
    """The folded words the refusal keeps, those the full expansion adds, and the refused count."""
    full = {fold(form) for form, _ in read_hunspell_forms(dic)}
    refused = RefusedForms()
    kept = {fold(form) for form in read_hunspell(dic, refusal=refusal, refused=refused)}
    return kept, full - kept, refused.count


# --- configuration ---------------------------------------------------------------------------


def test_unknown_class_and_bad_pattern_are_one_line_errors():
    classes = {"enclitic": {"patterns": [{"add": "(lo"}]}}
    with pytest.raises(UserError, match=r"^here: unknown affix class 'clitic' \(the language"):
        AffixRefusal.from_config(classes, ["clitic"], where="here")
    with pytest.raises(UserError, match=r"affix class 'enclitic', pattern 1: bad regular"):
        AffixRefusal.from_config(classes, ["enclitic"], where="here")


def test_reason_by_flag_and_by_class():
    classes = {"pronoun": {"patterns": [{"strip": "r?", "add": "(?:lo|la)"}]}}
    refusal = AffixRefusal.from_config(classes, ["pronoun"], ["X"])
    assert refusal.reason(AffixRule("SFX", "X", "", "s")) == "flag X"
    assert refusal.reason(AffixRule("SFX", "A", "", "lo")) == "pronoun"
    assert refusal.reason(AffixRule("SFX", "A", "r", "la")) == "pronoun"
    assert refusal.reason(AffixRule("SFX", "A", "ar", "la")) is None  # strip must match whole
    assert refusal.reason(AffixRule("PFX", "A", "", "lo")) is None  # SFX by default
    assert not AffixRefusal() and refusal


def test_the_shipped_config_refuses_enclitics_in_es_and_it():
    config = load_config(ROOT / "config" / "config.yaml", check_files=False)
    for name in ("es", "es-scrabble", "it"):
        spec = config.lexicons[name]
        assert spec.refuse_affixes[-1] == "enclitic"
        for source in spec.sources:
            refusal = spec.affix_refusal(source)
            assert bool(refusal) == (source.format in ("aspell", "hunspell"))


def test_config_errors_name_the_lexicon(tmp_path):
    config = (ROOT / "config" / "config.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "config.yaml"
    bad.write_text(config.replace("refuse_affixes: [enclitic]", "refuse_affixes: [clitics]", 1))
    with pytest.raises(UserError, match="lexicons/es: unknown affix class 'clitics'"):
        load_config(bad, check_files=False)
    bad.write_text(
        config.replace(
            "- {format: dict, path: raw/es/dict/spanish}",
            "- {format: dict, path: raw/es/dict/spanish, refuse_flags: [A]}",
            1,
        )
    )
    with pytest.raises(UserError, match="refuse_flags are for an aspell or hunspell source"):
        load_config(bad, check_files=False)
    bad.write_text(config.replace("refuse_affixes: [enclitic]", "refuse_affixes: enclitic", 1))
    with pytest.raises(UserError, match="refuse_affixes"):
        load_config(bad, check_files=False)
    bad.write_text(config.replace("refuse_in_lists: [enclitic-nonfinite]", "refuse_in_lists: [x]"))
    with pytest.raises(UserError, match="lexicons/it: refuse_in_lists: 'x' is not in refuse_aff"):
        load_config(bad, check_files=False)


# --- Spanish (hunspell-es, the es source) ------------------------------------------------------

ES_HUNSPELL = RAW / "es" / "hunspell" / "es_ES.dic"
ES_ROOTS = {
    "amar", "apartar", "arrepentir", "colar", "comprar", "da", "dar", "ama", "amaos", "caos",
    "echar", "echaos", "vela", "ángulo", "insolentar",
}  # fmt: skip


@pytest.mark.skipif(not ES_HUNSPELL.is_file(), reason="no Spanish hunspell")
def test_spanish_enclitic_forms_go_and_the_plain_forms_stay(tmp_path):
    dic = real_dictionary(tmp_path, ES_HUNSPELL, ES_ROOTS)
    kept, gone, count = kept_and_refused(dic, enclitic("es"))
    # FISE: "not DAME, COMPRÁNDOLA, AMAOS" (DAME is a root of its own: raw/es/curation/deny.txt)
    assert {"COMPRANDOLA", "AMAOS", "APARTENLOS", "AMARSE", "COLARSE", "ECHAOS"} <= gone
    assert {
        "AMARLO",
        "AMANDOSE",
        "APARTADLO",
        "APARTEMONOS",
        "ARREPENTIRSE",
        "ARREPINTIENDOSE",
    } <= gone
    # the plain forms, the -SE subjunctive, and words that only end like a pronoun
    stay = {"DA", "DAR", "COMPRANDO", "AMAD", "ARREPENTIR", "AMASE", "AMASEN", "AMASES"}
    assert stay | {"AMAMOS", "AMASTE", "AMABAIS", "COLASE", "CAOS", "VELA", "ANGULO"} <= kept
    assert count >= len(gone)


@pytest.mark.skipif(not (RAW / "es" / "dict" / "spanish").is_file(), reason="no wspanish")
def test_wspanish_writes_pronominal_verbs_with_se_only():
    """Why es keeps wspanish: it holds ARREPENTIRSE (a pronominal entry, valid with and without
    SE) but not AMARSE or COLARSE, which the hunspell source refuses."""
    words = set(read_entries("dict", RAW / "es" / "dict" / "spanish"))
    assert "arrepentirse" in words and "abarraganarse" in words
    assert not {"amarse", "colarse", "comprándola", "dame", "amaos"} & words


# --- Italian (aspell-it, the it source; hunspell-it has the same affix classes) ---------------

IT_HUNSPELL = RAW / "it" / "hunspell" / "it_IT.dic"
IT_ROOTS = {
    "riaccasare", "scapolare", "tassellare", "infurbire", "sospendere", "mangiare", "dare",
    "pettinare", "cavallo", "eclissi", "amico", "pentirsi", "finire", "lavare",
}  # fmt: skip
IT_GONE = {
    "RIACCASATICELI", "SCAPOLAGLI", "TASSELLARVISI", "INFURBIAMOMELO", "SOSPENDETECELO",
    "MANGIARLO", "PETTINANDOSI", "DARMI", "LAVARSI", "MANGIATECI", "FINISCIMI",
}  # fmt: skip
IT_STAY = {
    "MANGIARE", "MANGIAVI", "MANGIATI", "MANGIANDO", "FINITI", "FINISCI", "SOSPENDETE",
    "CAVALLO", "ECLISSI", "AMICI", "AMICO", "PENTIRSI", "PETTINARE", "DARE",
}  # fmt: skip


@pytest.mark.skipif(not IT_HUNSPELL.is_file(), reason="no Italian hunspell")
def test_italian_enclitic_forms_go_and_the_plain_forms_stay(tmp_path):
    dic = real_dictionary(tmp_path, IT_HUNSPELL, IT_ROOTS)
    kept, gone, _ = kept_and_refused(dic, enclitic("it"))
    assert IT_GONE - {"PETTINANDOSI", "RIACCASATICELI"} <= gone  # aspell-it makes those two
    assert IT_STAY - {"MANGIANDO", "AMICI"} <= kept  # hunspell-it makes neither of those two


@pytest.mark.slow
@pytest.mark.skipif(not (RAW / "it" / "aspell" / "it.multi").is_file(), reason="no aspell-it")
def test_italian_aspell_source_refuses_the_examples():
    refused = RefusedForms()
    words = {
        fold(form)
        for form in read_aspell(
            RAW / "it" / "aspell" / "it.multi", frozenset("'"), None, enclitic("it"), refused
        )
    }
    assert not IT_GONE & words
    assert IT_STAY - {"AMICO"} <= words  # AMICO: aspell-it lists the noun too, AMICI stays
    assert {"TAVOLA", "ECLISSI", "AMICI", "CAVALLO"} <= words
    assert refused.count > 2_000_000 and len(refused.examples) == 5


# --- the rules the readers report, against the real binaries ----------------------------------


@pytest.fixture
def tools() -> None:
    """Skip (or, with LEXFORGE_REQUIRE_HUNSPELL=1, fail) without aspell and hunspell."""
    missing = [tool for tool in ("aspell", "hunspell") if shutil.which(tool) is None]
    if missing:
        message = f"{' and '.join(missing)} not installed"
        if os.environ.get("LEXFORGE_REQUIRE_HUNSPELL") == "1":
            pytest.fail(message)
        pytest.skip(message)


def apply(root: str, rules: tuple[AffixRule, ...]) -> str | None:
    """The form the rules make of `root` (suffixes first, then the prefix), None if a strip
    does not match."""
    form = root
    for rule in rules:
        if rule.kind == "SFX":
            if not form.endswith(rule.strip):
                return None
            form = form[: len(form) - len(rule.strip)] + rule.add
    for rule in rules:
        if rule.kind == "PFX":
            if not form.startswith(rule.strip):
                return None
            form = rule.add + form[len(rule.strip) :]
    return form


@pytest.mark.skipif(not ES_HUNSPELL.is_file(), reason="no Spanish hunspell")
def test_hunspell_rules_remake_each_form_and_hunspell_accepts_them(tmp_path, tools):
    dic = real_dictionary(tmp_path, ES_HUNSPELL, ES_ROOTS)
    annotated = list(read_hunspell_rules(dic))
    assert Counter(form for form, _ in annotated) == Counter(f for f, _ in read_hunspell_forms(dic))
    roots = {line.split("/")[0] for line in dic.read_text(encoding="utf-8").splitlines()[1:]}
    for form, rules in annotated:
        assert form in roots if not rules else any(apply(r, rules) == form for r in roots)
    forms = {form for form, _ in annotated}
    result = subprocess.run(
        ["hunspell", "-i", "UTF-8", "-d", str(dic.with_suffix("")), "-G"],
        input="".join(f"{form}\n" for form in sorted(forms)).encode(),
        capture_output=True,
        env={**os.environ, "LC_ALL": "C"},
        check=True,
    )
    assert set(result.stdout.decode().split()) == forms


@pytest.mark.skipif(not (RAW / "es" / "aspell" / "es.multi").is_file(), reason="no aspell-es")
def test_aspell_rules_equal_aspell_expand_root_by_root(tools):
    """``aspell expand`` of the installed aspell-es (the raw files' Debian package) prints the
    forms of each root; the rules give the same forms, each remade from the root."""
    multi = RAW / "es" / "aspell" / "es.multi"
    language = _load_language(multi.with_name("es.cwl.gz"))
    expander = _Expander(language.affixes, lambda rule: True)
    roots = [
        "abandónalo/BDPS", "dame/AC", "amar/HLOPQRSTVWXrt", "comprar/LOPQRSTUVWXrtu",
        "arrepentir/IOWYo", "apartar/IOPQRSTUVWXrtu", "casa/S", "feliz/JMP",
    ]  # fmt: skip
    expected = run_aspell_expand(roots)
    for line, printed in zip(roots, expected, strict=True):
        root, flags = line.split("/")
        annotated = expander.expand_rules(root, flags)
        assert Counter(form for form, _ in annotated) == Counter(printed), line
        assert all(apply(root, rules) == form for form, rules in annotated)


def run_aspell_expand(lines: list[str]) -> list[list[str]]:
    """The forms ``aspell -l es expand`` prints for each root/flags line."""
    result = subprocess.run(
        ["aspell", "-l", "es", "--encoding=utf-8", "expand"],
        input="".join(f"{line}\n" for line in lines).encode(),
        capture_output=True,
        check=True,
    )
    return [line.split() for line in result.stdout.decode().splitlines()]


@pytest.mark.slow
@pytest.mark.skipif(not (RAW / "es" / "aspell" / "es.multi").is_file(), reason="no aspell-es")
def test_aspell_rules_annotate_the_whole_stream():
    multi = RAW / "es" / "aspell" / "es.multi"
    assert Counter(form for form, _ in read_aspell_rules(multi)) == Counter(read_aspell(multi))


@pytest.mark.skipif(not ES_HUNSPELL.is_file(), reason="no Spanish hunspell")
def test_the_words_step_counts_refused_forms_as_affix_rule(tmp_path):
    from pipeline.words import collect_words

    dic = real_dictionary(tmp_path, ES_HUNSPELL, ES_ROOTS)
    config = tmp_path / "config.yaml"
    config.write_text(
        'version: "0"\nlexicons:\n'
        f"  small:\n    language: es\n    refuse_affixes: [enclitic]\n"
        f"    sources:\n      - {{format: hunspell, path: {dic}}}\n",
        encoding="utf-8",
    )
    words, _, stats = collect_words(load_config(config).lexicons["small"])
    refused = RefusedForms()
    expected = {fold(form) for form in read_hunspell(dic, refusal=enclitic("es"), refused=refused)}
    assert set(words) == expected
    assert stats[0]["rejected"]["affix-rule"] == refused.count > 0
    assert stats[0]["examples"]["affix-rule"] == refused.examples == sorted(refused.examples)
    assert len(refused.examples) == 5
    assert stats[0]["read"] == stats[0]["kept"] + sum(stats[0]["rejected"].values())
    assert "COMPRANDOLA" not in words and "COMPRANDO" in words


@pytest.mark.skipif(not IT_HUNSPELL.is_file(), reason="no Italian hunspell")
def test_refuse_in_lists_removes_a_plain_list_word_only_a_refused_rule_made(tmp_path):
    from pipeline.words import collect_words

    dic = real_dictionary(tmp_path, IT_HUNSPELL, {"mangiare", "lavare", "pentirsi"})
    words_list = tmp_path / "italian"
    words_list.write_text(
        "deh\nlavarsi\nmangiarlo\nmangiavi\npentirsi\nmangiali\n", encoding="utf-8"
    )

    def build(in_lists: bool) -> tuple[list[str], list[dict]]:
        config = tmp_path / "config.yaml"
        config.write_text(
            'version: "0"\nlexicons:\n'
            f"  small:\n    language: it\n    refuse_affixes: [enclitic-nonfinite, enclitic]\n"
            f"    refuse_in_lists: [{'enclitic-nonfinite' if in_lists else ''}]\n"
            f"    sources:\n      - {{format: dict, path: {words_list}}}\n"
            f"      - {{format: hunspell, path: {dic}}}\n",
            encoding="utf-8",
        )
        words, _, stats = collect_words(load_config(config).lexicons["small"])
        return words, stats

    words, stats = build(True)
    assert {"DEH", "MANGIAVI", "PENTIRSI", "MANGIARE", "MANGIALI"} <= set(words)  # imperative
    assert not {"LAVARSI", "MANGIARLO"} & set(words)
    assert stats[0]["removed"]["affix-rule"] == 2
    assert stats[0]["examples"]["affix-rule"] == ["LAVARSI", "MANGIARLO"]
    words, stats = build(False)  # the list is taken as it is
    assert {"LAVARSI", "MANGIARLO"} <= set(words) and stats[0]["removed"]["affix-rule"] == 0
