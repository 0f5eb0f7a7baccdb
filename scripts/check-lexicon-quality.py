"""Print the game-grade figures of the built default lexicons (issue 8's targets).

Per lexicon: words, two-letter words (and whether the words of each exact list's lengths equal
the list: the published two-letter lists, FISE-2's two- and three-tile lists), three-letter
words, and entries the language's shape rules flag (unit, Roman numeral, no vowel): the target
is zero. ENABLE2K coverage for English. Exit status 1 when a target is missed.

    PYTHONPATH=. .venv/bin/python scripts/check-lexicon-quality.py [--build build]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from lexforge.classify import Classifier
from lexforge.normalize import Normalizer
from lexforge.sources.curation import read_curation
from pipeline.config import load_config

ROOT = Path(__file__).resolve().parent.parent


def fixed(words: list[str], path: Path, normalize: Normalizer) -> bool:
    """Whether the lexicon's words of the lengths an exact list holds are that list's words."""
    listed = {normalize(word.lower()) for word in read_curation(ROOT / path)}
    lengths = {len(word) for word in listed if word}
    return {word for word in words if len(word) in lengths} == listed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build")
    args = parser.parse_args()
    config = load_config(ROOT / "config/config.yaml", check_files=False)
    ok = True
    print("lexicon        words  2-letter  = list  3-letter  flagged")
    for name in config.default:
        spec = config.lexicons[name]
        words = (args.build / name / "words.txt").read_text(encoding="utf-8").split()
        two = {word for word in words if len(word) == 2}
        exact = [s.path for s in spec.sources if s.role == "exact"]
        normalize = Normalizer(spec.language, case_sensitive=False, classify=False)
        equal = "-" if not exact else str(all(fixed(words, path, normalize) for path in exact))
        rules = Classifier.for_language(spec.language)
        spelled = [spec.language.spell(word) for word in words]  # PCHS, not PÇS
        flagged = Counter(rules.reason(word) for word in spelled) if rules else Counter()
        flagged.pop(None, None)
        ok &= equal != "False" and not flagged
        three = sum(len(word) == 3 for word in words)
        print(
            f"{name:12} {len(words):9,} {len(two):9} {equal:>6} {three:9}  "
            f"{sum(flagged.values())} {dict(flagged) if flagged else ''}"
        )
    enable = (ROOT / "raw/en/enable2k/enable2k.txt").read_text(encoding="ascii").split()
    wanted = {word.upper() for word in enable if 2 <= len(word) <= 15}
    english = set((args.build / "en/words.txt").read_text(encoding="utf-8").split())
    missing = len(wanted - english)
    ok &= missing == 0
    print(f"en: {len(wanted):,} ENABLE2K words of 2-15 letters, {missing} missing")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
