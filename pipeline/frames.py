"""Readers of step outputs into pandas frames, shared by the steps that analyse a lexicon."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def read_words_frame(path: Path) -> pd.DataFrame:
    """The words step's ``WORD<TAB>mask`` lines as columns ``word`` and ``mask`` (NA, NULL … stay
    words)."""
    return pd.read_csv(
        path,
        sep="\t",
        names=["word", "mask"],
        dtype={"word": str, "mask": "int64"},
        engine="pyarrow",
        keep_default_na=False,  # NA, NAN and NULL are words
        na_values=[],
    )
