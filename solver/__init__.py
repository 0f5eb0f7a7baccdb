"""lexforge solver: answers word-game queries from lexicons built by the pipeline.

The query path reads artifacts only (memory-mapped marisa tries and a node-array letter graph);
it never imports the pipeline, pandas or pyarrow.
"""

from solver.errors import UserError
from solver.language import Language
from solver.lexicon import Lexicon

__all__ = ["Language", "Lexicon", "UserError"]
