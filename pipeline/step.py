"""What every per-lexicon build step shares: its command line and the lexicon it builds."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from lexforge.errors import UserError
from pipeline.config import BuildConfig, LexiconSpec, load_config
from pipeline.outputs import add_record_option


def step_parser(doc: str) -> argparse.ArgumentParser:
    """A parser with the ``--config`` and ``--lexicon`` options every step takes, and
    ``--record`` (``pipeline.outputs.add_record_option``)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--config", type=Path, default=Path("config/config.yaml"))
    parser.add_argument("--lexicon", required=True)
    add_record_option(parser)
    return parser


def step_config(args: argparse.Namespace, *, check_files: bool = False) -> BuildConfig:
    """The validated configuration, which must name ``--lexicon`` (the only lexicon resolved);
    logging set up for the step."""
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    config = load_config(args.config, check_files=check_files, only=(args.lexicon,))
    if args.lexicon not in config.lexicons:
        raise UserError(f"{args.config}: no lexicon '{args.lexicon}'")
    return config


def lexicon_spec(args: argparse.Namespace, *, check_files: bool = False) -> LexiconSpec:
    """The spec of ``--lexicon`` (see ``step_config``)."""
    return step_config(args, check_files=check_files).lexicons[args.lexicon]
