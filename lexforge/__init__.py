"""lexforge solver: answers word-game queries from lexicons built by the pipeline.

The query path reads artifacts only (memory-mapped marisa tries and a node-array letter graph);
it never imports the pipeline, pandas, pyarrow or snakemake.
"""

from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.lexicon import Lexicon

__all__ = ["Language", "Lexicon", "UserError"]
