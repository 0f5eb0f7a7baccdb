# Shared by every rule: the validated build configuration, wildcard constraints, code hashes.
import hashlib
import json
import os
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from lexforge.atomic import atomic_open, remove_stale_temporaries
from lexforge.errors import UserError
from lexforge.language import read_yaml
from pipeline.codedeps import code_hash as derived_code_hash
from pipeline.config import SCHEMA_FILE, WORKFLOW_CONFIG, resolve_config, schema_error_line
from pipeline.corpusconfig import corpus_config
from pipeline.leavesconfig import leaves_config
from pipeline.outputs import forget, remove_retired_records, stale_records
from pipeline.scheduling import single_reevaluation_timer
from pipeline.licenses import source_entries


# The file named in messages and that languages_dir is relative to: the last --configfile.
CONFIG_PATH = Path(workflow.configfiles[-1]) if workflow.configfiles else Path("config/config.yaml")
try:
    read_yaml(CONFIG_PATH)  # broken YAML or a duplicated key: one line, before Snakemake reads it
except UserError as error:
    sys.exit(f"lexforge: {error}")


configfile: "config/config.yaml"


try:
    validate(config, str(SCHEMA_FILE))
    BUILD = resolve_config(config, CONFIG_PATH)
    CORPUS = corpus_config(config.get("corpus", {}), BUILD)
    LEAVES = leaves_config(config.get("leaves", {}), BUILD)
except WorkflowError as error:
    sys.exit(f"lexforge: {CONFIG_PATH}: {schema_error_line(str(error))}")
except UserError as error:
    sys.exit(f"lexforge: {error}")

# The steps read the configuration as Snakemake resolved it (config file, --configfile and
# --config overrides): written beside Snakemake's own state when it changes, never an input
# (spec_hash reruns what a change affects).
CONFIG_FILE = str(WORKFLOW_CONFIG)
_effective = json.dumps(
    {**config, "languages_dir": str((CONFIG_PATH.parent / config.get("languages_dir", "languages")).resolve())},
    indent=1,
    sort_keys=True,
    ensure_ascii=False,
)
# Only the Snakemake that plans the run writes and repairs; each cluster job (a Snakemake of
# its own on a node, which reads this file again) leaves that alone: another job may be
# writing a temporary file whose process another node runs, and the plan is already made.
if workflow.is_main_process:
    single_reevaluation_timer()
    if not Path(CONFIG_FILE).is_file() or Path(CONFIG_FILE).read_text(encoding="utf-8") != _effective:
        Path(CONFIG_FILE).parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(Path(CONFIG_FILE)) as out:
            out.write(_effective)

    # Temporary files of killed jobs (lexforge.atomic) are deleted, so none outlives the next run.
    for _leftover in remove_stale_temporaries(Path("build")):
        print(f"lexforge: removed {_leftover}, left by an interrupted job", file=sys.stderr)

    # A built file that is missing or changed since its job recorded it (pipeline/outputs.py): its
    # job and everything after it are rerun. Records of steps merged into others go first.
    remove_retired_records(Path("build/work"))
    for _record, _problem in stale_records(Path("build/work")).items():
        print(f"lexforge: {_problem}: rebuilding", file=sys.stderr)
        forget(_record)

LEXICONS = list(BUILD.lexicons)
DEFAULT_LEXICONS = list(BUILD.default)
PYTHON = sys.executable
# The steps are `python -m pipeline.<step>` run from the working directory: the project's own
# tree must be importable wherever that is.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [workflow.basedir, *filter(None, [os.environ.get("PYTHONPATH")])]
)
# Every job is single-threaded and none does linear algebra, but numpy's OpenBLAS starts one
# thread per core at import: 0.1 CPU-s per job (6 s of a default build), for nothing.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


wildcard_constraints:
    lexicon="|".join(re.escape(name) for name in LEXICONS),


# Cluster resources (profiles/slurm): each rule declares mem_mb and runtime (minutes); jobs are
# single-threaded. They were sized from a full build's timings by scripts/size-resources.py:
# the largest max_rss of build/benchmarks/<rule>/*.tsv over every lexicon × 1.5, rounded up to
# 256 MB, and ten times the longest run, at least 10 minutes. A job that still runs out of
# either is retried (the profile's `retries`) with the same request: raise the rule's figure.
# Putting a lexicon live is a few renames: done by the Snakemake that plans, not as a job.
localrules:
    live,


def code_hash(module):
    """A hash of every project file ``python -m module`` imports: editing any reruns the step."""
    return derived_code_hash(module, Path(workflow.basedir))


def spec_hash(lexicon):
    """What of the configuration a lexicon depends on: a change reruns it, and only it."""
    spec = BUILD.lexicons[lexicon]
    text = repr((spec.sources, spec.min_sources, sorted(spec.reject.items()), sorted(spec.language_data.items()),
                 spec.refuse_affixes, spec.refuse_in_lists))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def lexicon_priority(wildcards):
    """A lexicon's configured ``priority``: when jobs compete for cores, those of a lexicon with a
    longer chain of steps (Italian's 3 M words) start first, instead of last."""
    return BUILD.lexicons[wildcards.lexicon].priority


def source_files(wildcards):
    return [str(p) for s in BUILD.lexicons[wildcards.lexicon].sources for p in s.files()]


def language_file(wildcards):
    return str(BUILD.lexicons[wildcards.lexicon].language_file)


def provenance_files(wildcards):
    """The SOURCES files naming a lexicon's raw files and their packages' licence texts."""
    files = [p for s in BUILD.lexicons[wildcards.lexicon].sources for p in s.files()]
    entries, _ = source_entries(files)
    found = {entry.sources_file for entry in entries}
    found |= {entry.text_file for entry in entries if entry.text_file.is_file()}
    return sorted(str(p) for p in found)


# Stage 4 (rules/validate.smk): the reference cases of a lexicon.
def reference_dir(wildcards):
    return str(BUILD.lexicons[wildcards.lexicon].reference_dir)


def reference_files(wildcards):
    folder = BUILD.lexicons[wildcards.lexicon].reference_dir
    patterns = ("*.grid", "*.board", "racks.txt", f"expected/{wildcards.lexicon}.json")
    return sorted(str(p) for pattern in patterns for p in folder.glob(pattern))


# Board corpora (rules/corpus.smk).
def corpus_params(kind):
    """What a shard's boards depend on besides its number and the lexicon: a change reruns it."""
    return repr((CORPUS.seed, CORPUS.boards_per_shard, CORPUS.kinds[kind]))


def corpus_files(lexicon):
    return [
        f"build/corpus/{lexicon}/{kind}.parquet"
        for kind in CORPUS.kinds_of(BUILD.lexicons[lexicon])
    ]


def shard_files(wildcards):
    return [
        f"build/work/{wildcards.lexicon}/corpus/{wildcards.kind}/{shard}.parquet"
        for shard in range(CORPUS.shards)
    ]


# Leave values (rules/leaves.smk).
def leave_shards(wildcards):
    return [
        f"build/work/{wildcards.lexicon}/leaves/{shard}.json"
        for shard in range(LEAVES.shards_of(wildcards.lexicon))
    ]


def player_leaves(wildcards):
    """The values the equity player plays a lexicon's games with (none: greedy plays)."""
    path = LEAVES.player_leaves_of(wildcards.lexicon)
    return [path] if path else []


# Release bundles (rules/publish.smk).
def shipped_leaves(wildcards):
    path = Path(workflow.basedir) / "leaves" / f"{wildcards.lexicon}.json.gz"
    return [str(path)] if path.is_file() else []
