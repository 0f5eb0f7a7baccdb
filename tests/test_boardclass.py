"""Board-class bounds, the branch-and-bound proof and its certificates, against lexforge's own
Boggle scorer (``lexforge.boggle.score_batch``) on every board of a class, and an exhaustive
search of a whole space small enough to enumerate."""

from __future__ import annotations

import copy
import gzip
import json
import random
import subprocess
import sys
from functools import cache
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from solver_fixtures import ROOT, language

from lexforge import boggle
from lexforge.boardclass import (
    Bounder,
    CertificateError,
    Space,
    canonical_indices,
    check_certificate,
    default_classes,
    merge_certificates,
    parse_classes,
    run_proof,
    symmetries,
)
from lexforge.boggle import _neighbour_table
from lexforge.errors import UserError
from lexforge.grid import Grid
from lexforge.lexicon import Lexicon

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
ENABLE = ROOT / "raw" / "en" / "enable2k" / "enable2k.txt"
#: The classes of danvk/hybrid-boggle's 3×3 proof (its README, ``break_all``).
HYBRID_3X3 = ("BDFGJQVWXZ", "AEIOU", "LNRSY", "CHKMPT")
#: Letters frequent in ENABLE2K: classes drawn from them have many words.
COMMON = "AEIOSRTLNDPCGM"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@cache
def enable() -> Lexicon:
    words = ENABLE.read_text(encoding="ascii").upper().split()
    return Lexicon.from_words(words, language("en"), name="enable2k")


@cache
def letters_lexicon(letters: str) -> Lexicon:
    """The ENABLE2K words spelled with ``letters`` only."""
    words = ENABLE.read_text(encoding="ascii").upper().split()
    return Lexicon.from_words([w for w in words if set(w) <= set(letters)], language("en"))


def space(rows: int, cols: int, classes: tuple[str, ...] = HYBRID_3X3) -> Space:
    return Space(rows, cols, classes, classes)


def boards_of(cells: list[str], cols: int) -> list[Grid]:
    """Every board of a class."""
    return [
        Grid.from_rows([list(choice[r : r + cols]) for r in range(0, len(cells), cols)])
        for choice in product(*cells)
    ]


def random_class(rng: random.Random, n: int, choices: tuple[int, ...]) -> list[str]:
    return ["".join(sorted(rng.sample(COMMON, rng.choice(choices)))) for _ in range(n)]


@pytest.mark.parametrize(
    ("rows", "cols", "choices", "count"), [(3, 3, (2, 3), 12), (4, 4, (1, 2), 6)]
)
def test_every_bound_is_at_least_the_best_board_of_the_class(rows, cols, choices, count):
    lexicon = enable()
    bounder = Bounder(lexicon, space(rows, cols))
    rng = random.Random(rows * 100 + cols)
    classes = [random_class(rng, rows * cols, choices) for _ in range(count)]
    found = bounder.bounds(classes)
    for cells, (nomark, union, orderly) in zip(classes, found.tolist(), strict=True):
        boards = boards_of(cells, cols)
        assert len(boards) > 1
        best = max(score for score, _ in boggle.score_batch(lexicon, boards))
        assert best > 0
        assert nomark >= best and union >= best and orderly >= best, (cells, best)
        top = bounder.masks(cells)
        assert bounder.proof_bounds(top, top.reshape(1, -1))[0] == orderly
    # the bounds are not trivially loose: the orderly tree is far below max/no-mark
    assert (found[:, 2] < found[:, 0]).all()


def test_the_bounds_of_hybrid_boggles_example_class():
    """hybrid-boggle's README: ``ibucket_solver`` on this class gives max=9359, sum=106383."""
    cells = ["LNRSY", "AEIOU", "CHKMPT", "CHKMPT", "AEIOU", "LNRSY", "LNRSY", "AEIOU", "BDFGJVWXZ"]
    nomark, union, orderly = Bounder(enable(), space(3, 3)).bounds([cells])[0].tolist()
    assert (nomark, union) == (9359, 106383)
    assert orderly < nomark // 5


def test_a_single_board_bound_is_its_score():
    lexicon = enable()
    rng = random.Random(7)
    bounder = Bounder(lexicon, space(3, 3))
    cells = [random_class(rng, 9, (1,)) for _ in range(40)] + [list("STREAEDLP")]
    found = bounder.bounds(cells)
    scores = boggle.score_batch(lexicon, [boards_of(c, 3)[0] for c in cells])
    for (nomark, union, orderly), (score, _) in zip(found.tolist(), scores, strict=True):
        assert union == score and nomark >= score and orderly >= score
    assert scores[-1][0] == 545  # hybrid-boggle's 3×3 optimum, STREAEDLP
    singles = [bounder.masks(c) for c in cells]
    proof = [int(bounder.proof_bounds(m, m.reshape(1, -1))[0]) for m in singles]
    assert proof == [score for score, _ in scores]


def every_2x2_score(lexicon: Lexicon) -> dict[str, int]:
    """The score of each of the 26⁴ 2×2 boards, by lexforge's scorer (encoded at once)."""
    nbr, count = _neighbour_table((2, 2), 8)
    codes = np.array(list(product(range(26), repeat=4)), dtype=np.int64).reshape(-1)
    boards = boggle.Boards(
        board_start=np.arange(26**4 + 1, dtype=np.int64) * 4,
        cell_letters=codes.reshape(-1, 1),
        cell_len=np.ones(len(codes), dtype=np.int64),
        nbr=nbr,
        nbr_count=count,
    )
    totals, _ = boggle.score_boards(lexicon, boards)
    names = ["".join(ALPHABET[c] for c in codes[i : i + 4]) for i in range(0, len(codes), 4)]
    return dict(zip(names, totals.tolist(), strict=True))


def test_the_proof_finds_what_an_exhaustive_search_finds():
    """Every 2×2 board scored: the proof's boards at the threshold are exactly the best ones,
    up to the grid's symmetries."""
    lexicon = letters_lexicon("AEILNPRST")
    scores = every_2x2_score(lexicon)
    assert scores["SEAT"] == sum(boggle.score_batch(lexicon, [Grid.from_rows(["SE", "AT"])])[0][:1])
    threshold = sorted(set(scores.values()))[-3]  # the three best scores
    top = {board for board, score in scores.items() if score >= threshold}
    certificate = run_proof(lexicon, space(2, 2, default_classes(lexicon)), threshold, threads=2)
    found = {b["board"].replace("/", "") for b in certificate["boards"]}
    assert certificate["boards"][0]["score"] == max(scores.values())
    assert all(scores[b["board"].replace("/", "")] == b["score"] for b in certificate["boards"])
    perms = symmetries(2, 2)

    def orbit(board: str) -> str:
        return min("".join(board[p.index(i)] for i in range(4)) for p in perms)

    assert {orbit(board) for board in found} == {orbit(board) for board in top}
    assert found <= top
    assert check_certificate(certificate, lexicon).best == certificate["boards"][0]


def test_canonical_classes_cover_every_class_under_symmetry():
    s = space(3, 3, (*HYBRID_3X3[:2], "".join(HYBRID_3X3[2:])))
    canonical = set(canonical_indices(s, 0, s.top_classes))
    # Burnside: (3⁹ + 2·3³ (quarter turns) + 3⁵ (half turn) + 4·3⁶ (reflections)) / 8
    assert len(canonical) == (3**9 + 2 * 3**3 + 3**5 + 4 * 3**6) // 8 == 2862
    perms = symmetries(3, 3)
    for index in random.Random(3).sample(range(s.top_classes), 300):
        digits = s.digits(index)
        images = {s.index([digits[p.index(c)] for c in range(9)]) for p in perms}
        assert s.canonical(index) == (index in canonical)
        assert len(images & canonical) == 1


def test_the_3x3_optimum_is_in_its_class_proof():
    """The top-level class of STREAEDLP (hybrid-boggle's 3×3 optimum, 545), as a slice."""
    lexicon = enable()
    s = space(3, 3)
    index = s.index([next(i for i, c in enumerate(HYBRID_3X3) if ch in c) for ch in "DESLATPER"])
    certificate = run_proof(lexicon, s, 545, index, index + 1)
    assert certificate["boards"] == [{"board": "DES/LAT/PER", "score": 545}]
    verdict = check_certificate(certificate, lexicon)
    assert not verdict.complete and verdict.best == {"board": "DES/LAT/PER", "score": 545}


@pytest.fixture(scope="module")
def small_certificate() -> dict:
    """The whole 2×3 proof on the ENABLE2K words of AELRST, at threshold 100."""
    lexicon = letters_lexicon("AELRST")
    return run_proof(lexicon, space(2, 3, default_classes(lexicon)), 100, threads=2)


def test_a_whole_proof_checks(small_certificate):
    verdict = check_certificate(small_certificate, letters_lexicon("AELRST"))
    assert verdict.complete and verdict.best["score"] == 112  # test_bestboard's optimum
    assert len({b["score"] for b in small_certificate["boards"]}) > 1


def tampered(certificate: dict, change) -> dict:
    bad = copy.deepcopy(certificate)
    change(bad)
    return bad


def lower_a_bound(cert: dict) -> None:
    index, text = next(e for e in cert["processed"] if e[1].startswith("s"))
    tokens = text.split()
    at = next(i for i, t in enumerate(tokens) if t.startswith("e") and int(t[1:]) > 0)
    tokens[at] = f"e{int(tokens[at][1:]) - 1}"
    cert["processed"] = [[i, " ".join(tokens) if i == index else t] for i, t in cert["processed"]]


def drop_a_child(cert: dict) -> None:
    at = next(i for i, e in enumerate(cert["processed"]) if e[1].startswith("s"))
    cert["processed"][at][1] = cert["processed"][at][1].rsplit(" ", 1)[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lower_a_bound, "but its bound is"),
        (drop_a_child, "the tree ends early"),
        (lambda c: c["processed"].pop(0), "do not cover range"),
        (lambda c: c.update(threshold=c["threshold"] + 1), "against threshold"),
        (lambda c: c["boards"][0].update(score=600), "differs from the boards"),
        (lambda c: c.update(classes=["AEIOU", "BCD"], corner_classes=["AEIOU"]), "not a partition"),
        (lambda c: c.update(words_sha256="0" * 64), "other words"),
    ],
)
def test_a_tampered_certificate_fails(small_certificate, change, message):
    with pytest.raises(CertificateError, match=message):
        check_certificate(tampered(small_certificate, change), letters_lexicon("AELRST"))


def test_shards_merge_into_the_certificate_of_their_range(small_certificate):
    lexicon = letters_lexicon("AELRST")
    s = space(2, 3, default_classes(lexicon))
    middle = s.top_classes // 3
    parts = [run_proof(lexicon, s, 100, 0, middle), run_proof(lexicon, s, 100, middle, None)]
    assert merge_certificates(parts[::-1]) == small_certificate
    with pytest.raises(UserError, match="is not followed by"):
        merge_certificates([parts[0], run_proof(lexicon, s, 100, middle + 1, None)])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("AEIOU BCDFGHJKLMNPQRSTVWXY", "Z in no class"),
        ("AEIOU AEIOU BCDFGHJKLMNPQRSTVWXYZ", "AEIOU in two classes"),
        ("AEIOU BCDFGHJKLMNPQRSTVWXYZ7", "7 not in the alphabet"),
        ("AEIOU BCDFGHJKLMNPQRSTVWXYZ, edge:ABCDEFGHIJKLMNOPQRSTUVWXYZ", "'corner:'"),
    ],
)
def test_class_specs_must_partition_the_alphabet(spec, message):
    with pytest.raises(UserError, match=message):
        parse_classes(spec, enable())


def test_default_classes_partition_the_alphabet():
    classes = default_classes(enable())
    assert len(classes) == 4 and sorted("".join(classes)) == sorted(language("en").alphabet)


# --- the command ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def word_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("boardclass") / "words.txt"
    path.write_text("\n".join(letters_lexicon("AELRST").words.keys()) + "\n", encoding="ascii")
    return path


def lexforge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LEXFORGE, *args], capture_output=True, text=True)


def test_prove_writes_a_certificate_that_checks(word_list, tmp_path):
    cert = tmp_path / "proof.json.gz"
    common = ["best-board", "-d", str(word_list), "--size", "2x2", "--threads", "2"]
    done = lexforge(*common, "--restarts", "2", "--prove", str(cert), "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["proven"] and answer["boards_scored"] >= 1
    best = answer["results"][0]
    assert best["score"] == answer["threshold"]
    checked = lexforge(*common, "--check", str(cert))
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.splitlines()[:2] == [f"best\t{best['board']}", f"score\t{best['score']}"]
    data = json.loads(gzip.decompress(cert.read_bytes()))
    data["processed"][0][1] = "e0"
    cert.write_bytes(gzip.compress(json.dumps(data).encode()))
    bad = lexforge(*common, "--check", str(cert))
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "certificate" in bad.stderr, bad.stderr
    del data["threshold"]
    cert.write_bytes(gzip.compress(json.dumps(data).encode()))
    malformed = lexforge(*common, "--check", str(cert))
    assert malformed.returncode == 1 and malformed.stderr.count("\n") == 1, malformed.stderr
    assert "malformed" in malformed.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--prove", "c.json", "--letters", "AEL"], "not --dice or --letters"),
        (["--prove", "c.json", "--classes", "AEL RST"], "in no class"),
        (["--prove", "c.json", "--size", "6x6"], "at most 32 cells"),
        (["--check", "missing.json"], "missing.json"),
    ],
)
def test_prove_errors_in_one_line(word_list, tmp_path, args, message):
    done = subprocess.run(
        [LEXFORGE, "best-board", "-d", str(word_list), "--restarts", "1", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


@pytest.mark.proof
def test_the_3x3_enable2k_optimum_is_proven(tmp_path):
    """The whole 3×3 proof (tens of minutes on one core): STREAEDLP's 545 points, as
    hybrid-boggle proved (its README: 3x3 ``streaedlp``, 545)."""
    cert = tmp_path / "3x3.json.gz"
    done = lexforge(
        "best-board",
        "-d",
        str(ENABLE),
        "--size",
        "3x3",
        "--threshold",
        "545",
        "--classes",
        " ".join(HYBRID_3X3),
        "--prove",
        str(cert),
        "--json",
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["proven"] and {r["score"] for r in answer["results"]} == {545}
    checked = lexforge("best-board", "-d", str(ENABLE), "--size", "3x3", "--check", str(cert))
    assert checked.returncode == 0 and "score\t545" in checked.stdout, checked.stderr
