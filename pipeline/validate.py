"""Step ``validate``: solve the reference grids, boards and racks with a freshly built lexicon.

Cases live in the lexicon's reference directory (default ``raw/<language>/reference/``):
``*.grid`` Boggle grids (3+ letters, 8 neighbours), ``*.board`` Ruzzle boards (elzzur format with
multipliers; skipped, and listed as such, when the language file gives no Ruzzle values),
``racks.txt`` racks with jokers (one per line). Each case is solved by the fast
solver and checked twice: against the expected results committed in ``expected/<lexicon>.json``
and against an independent brute-force oracle (every lexicon word tested against the grid or rack).
Any mismatch fails the step with a readable diff; otherwise ``validation.json`` is written.

    python -m pipeline.validate --lexicon build/fr --reference raw/fr/reference \
        --out build/fr/validation.json
    python -m pipeline.validate --lexicon build/fr --reference raw/fr/reference --refresh

``--refresh`` rewrites ``expected/<lexicon>.json`` from the current results (after an intended
change of sources), and refuses to while the solver and the oracle disagree.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lexforge import boggle, reference, ruzzle
from lexforge.anagram import anagram
from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon
from pipeline.outputs import add_record_option, record_outputs

log = logging.getLogger("pipeline.validate")
SHOWN = 12  # words listed per side of a diff line


@dataclass
class Case:
    """One solved case: what the fast solver found and what the oracle found."""

    name: str
    kind: str
    found: dict[str, int]  # word → score (0 where the game has no score)
    oracle: dict[str, int]
    expected: dict[str, int] | None = None
    problems: list[str] = field(default_factory=list)


def solve_cases(lexicon: Lexicon, folder: Path) -> tuple[list[Case], list[str]]:
    """Every case of ``folder`` solved, and the files skipped (each with why)."""
    if not folder.is_dir():
        raise UserError(f"{folder}: no reference directory for lexicon '{lexicon.name}'")
    cases: list[Case] = []
    skipped: list[str] = []
    for path in sorted(folder.glob("*.grid")):
        for i, grid in enumerate(_grids(path, lexicon, multipliers=False), 1):
            found = {w.word: w.score for w in boggle.solve(lexicon, grid)}
            oracle = {w.word: w.score for w in reference.boggle_brute_force(lexicon, grid)}
            cases.append(Case(_name(path, i), "boggle", found, oracle))
    for path in sorted(folder.glob("*.board")):
        if not lexicon.language.ruzzle_values:
            skipped.append(
                f"{path}: skipped: language {lexicon.language.code} gives no Ruzzle values"
            )
            continue
        for i, board in enumerate(_grids(path, lexicon, multipliers=True), 1):
            try:
                found = {w.word: w.score for w in ruzzle.solve(lexicon, board)}
            except UserError as error:
                raise UserError(f"{path.parent / _name(path, i)}: {error}") from None
            oracle = {w.word: w.score for w in reference.ruzzle_brute_force(lexicon, board)}
            cases.append(Case(_name(path, i), "ruzzle", found, oracle))
    racks = folder / "racks.txt"
    if racks.is_file():
        spell = lexicon.language.spell  # multi-letter tiles as people write them (CH)
        for rack in _racks(racks):
            found = {spell(m.shown): m.score for m in anagram(lexicon, rack)}
            oracle = {spell(m.shown): m.score for m in reference.rack_brute_force(lexicon, rack)}
            cases.append(Case(f"racks.txt:{rack}", "rack", found, oracle))
    if not cases:
        raise UserError(f"{folder}: no reference cases (*.grid, *.board, racks.txt)")
    return cases, skipped


def _name(path: Path, index: int) -> str:
    return path.name if index == 1 else f"{path.name}#{index}"


def _grids(path: Path, lexicon: Lexicon, multipliers: bool) -> list:
    return parse_grids(
        path.read_text(encoding="utf-8"),
        lexicon.language,
        source=str(path),
        multipliers=multipliers,
    )


def _racks(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _diff(what: str, have: dict[str, int], want: dict[str, int]) -> list[str]:
    """Readable differences between two word → score maps."""
    problems = []
    missing = sorted(set(want) - set(have))
    extra = sorted(set(have) - set(want))
    rescored = sorted(w for w in set(have) & set(want) if have[w] != want[w])
    for label, words in (("missing", missing), ("unexpected", extra)):
        if words:
            more = f" … (+{len(words) - SHOWN})" if len(words) > SHOWN else ""
            problems.append(f"{what}: {len(words)} {label}: {' '.join(words[:SHOWN])}{more}")
    if rescored:
        shown = " ".join(f"{w} {have[w]}≠{want[w]}" for w in rescored[:SHOWN])
        problems.append(f"{what}: {len(rescored)} scored differently: {shown}")
    return problems


def check(cases: list[Case], expected: dict[str, dict[str, int]] | None) -> None:
    for case in cases:
        case.problems += _diff("solver vs oracle", case.found, case.oracle)
        if expected is not None:
            case.expected = expected.get(case.name)
            if case.expected is None:
                case.problems.append("no expected result committed (run --refresh)")
            else:
                case.problems += _diff("solver vs expected", case.found, case.expected)


def report(lexicon: Lexicon, cases: list[Case], skipped: list[str]) -> dict:
    return {
        "lexicon": lexicon.name,
        "ok": not any(case.problems for case in cases),
        "skipped": skipped,
        "cases": [
            {
                "case": case.name,
                "kind": case.kind,
                "words": len(case.found),
                "total_score": sum(case.found.values()),
                "oracle_words": len(case.oracle),
                "expected_words": None if case.expected is None else len(case.expected),
                "ok": not case.problems,
                "problems": case.problems,
            }
            for case in cases
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, required=True, help="built lexicon directory")
    parser.add_argument("--reference", type=Path, required=True, help="reference cases directory")
    parser.add_argument("--out", type=Path, help="validation.json to write")
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="rewrite expected/<lexicon>.json from the current results",
    )
    add_record_option(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    lexicon = Lexicon.open(args.lexicon)
    expected_path = args.reference / "expected" / f"{lexicon.name}.json"
    cases, skipped = solve_cases(lexicon, args.reference)
    for line in skipped:
        log.warning("%s", line)
    if args.refresh:
        check(cases, None)
        if any(case.problems for case in cases):
            for case in cases:
                for problem in case.problems:
                    print(f"lexforge: {case.name}: {problem}", file=sys.stderr)
            raise UserError(f"{expected_path}: not refreshed: the solver disagrees with the oracle")
        with atomic_open(expected_path) as out:
            json.dump(
                {case.name: case.found for case in cases},
                out,
                indent=1,
                sort_keys=True,
                ensure_ascii=False,
            )
            out.write("\n")
        log.info("%s: %d expected results written", expected_path, len(cases))
        return 0
    if not expected_path.is_file():
        raise UserError(
            f"{expected_path}: no expected results for lexicon '{lexicon.name}'; "
            f"create them with: python -m pipeline.validate --lexicon {args.lexicon} "
            f"--reference {args.reference} --refresh"
        )
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    check(cases, expected)
    result = report(lexicon, cases, skipped)
    for case in result["cases"]:
        log.info("%s: %s (%d words)", case["case"], "ok" if case["ok"] else "FAILED", case["words"])
    if not result["ok"]:
        lines = [f"{c['case']}: {p}" for c in result["cases"] for p in c["problems"]]
        raise UserError(f"{lexicon.name}: reference validation failed:\n  " + "\n  ".join(lines))
    if args.out is None:
        raise UserError("--out is required unless --refresh is given")
    with atomic_open(args.out) as out:
        json.dump(result, out, indent=1, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    record_outputs(args)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
