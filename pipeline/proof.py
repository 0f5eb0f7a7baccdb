"""The best-board proof in shards (rules/proof.smk): ranges of top-level board classes, one job
each, merged into one certificate (lexforge.boardclass).

    python -m pipeline.proof shard --word-list W --language en --size 4x4 --classes SPEC \\
        --threshold 3625 --shards 4096 --shard 7 --out build/proof/NAME/shards/7.json.gz
    python -m pipeline.proof merge --out build/proof/NAME/certificate.json.gz SHARD...

Shard ``i`` of ``n`` takes the top-level classes ``i·T // n`` to ``(i + 1)·T // n`` (``T`` of
them in all), so any set of consecutive shards merges into the certificate of one range, and
all of them into the whole proof; ``lexforge best-board --check`` verifies either.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lexforge.boardclass import (
    Space,
    merge_certificates,
    parse_classes,
    read_certificate,
    run_proof,
    write_certificate,
)
from lexforge.errors import UserError, report_user_errors
from lexforge.wordlist import lexicon_from_wordlist


def shard_range(space: Space, shards: int, shard: int) -> tuple[int, int]:
    """The top-level classes of shard ``shard`` of ``shards``."""
    if not 0 <= shard < shards:
        raise UserError(f"shard {shard}: not in 0…{shards - 1}")
    total = space.top_classes
    return shard * total // shards, (shard + 1) * total // shards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    shard = commands.add_parser("shard", help="prove one shard's range of classes")
    shard.add_argument("--word-list", type=Path, required=True)
    shard.add_argument("--language", required=True)
    shard.add_argument("--size", required=True, help="RxC")
    shard.add_argument("--classes", required=True)
    shard.add_argument("--threshold", type=int, required=True)
    shard.add_argument("--min-length", type=int, default=3)
    shard.add_argument("--shards", type=int, required=True)
    shard.add_argument("--shard", type=int, required=True)
    shard.add_argument("--threads", type=int, default=1)
    merged = commands.add_parser("merge", help="merge shards' certificates")
    merged.add_argument("shards", type=Path, nargs="+")
    for command in (shard, merged):
        command.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "merge":
        parts = [read_certificate(path) for path in args.shards]
        write_certificate(merge_certificates(parts), args.out)
        return 0
    lexicon = lexicon_from_wordlist(args.word_list, "ods", args.language, None, None, print, False)
    rows, _, cols = args.size.partition("x")
    classes, corner = parse_classes(args.classes, lexicon)
    space = Space(int(rows), int(cols), classes, corner, args.min_length)
    lo, hi = shard_range(space, args.shards, args.shard)
    certificate = run_proof(lexicon, space, args.threshold, lo, hi, threads=args.threads)
    write_certificate(certificate, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
