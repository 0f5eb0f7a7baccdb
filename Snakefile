# lexforge: raw word lists → game-ready lexicons → validated reference grids.
# See README.md ("Architecture") and rules/*.smk, one file per stage.
from snakemake.utils import min_version

min_version("9.0")

# The configuration (config/config.yaml, or the file given with --configfile) is loaded and
# validated against config/schema/ by rules/common.smk, which reports any mistake in one line.


include: "rules/common.smk"
include: "rules/words.smk"
include: "rules/compile.smk"
include: "rules/tables.smk"
include: "rules/validate.smk"
include: "rules/live.smk"
include: "rules/corpus.smk"
include: "rules/leaves.smk"
include: "rules/publish.smk"


rule all:
    default_target: True
    input:
        expand("build/work/{lexicon}/outputs/live.json", lexicon=DEFAULT_LEXICONS),
