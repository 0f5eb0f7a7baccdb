# The best-board proof in shards: `snakemake -s rules/proof.smk` (a workflow of its own, not
# part of the lexicon build's `all`). config/proof.yaml says which board space, threshold and
# shards; `--config first=A last=B` runs the slice of shards A…B−1. Each shard is one job
# (python -m pipeline.proof shard), their certificates merge into
# build/proof/<name>/certificate-<first>-<last>.json.gz, which `lexforge best-board --check`
# re-verifies. On a cluster: add `--profile profiles/slurm`.
import os
import sys
from pathlib import Path


configfile: "config/proof.yaml"


PYTHON = sys.executable
# the jobs' `python -m pipeline.proof` finds this repository's pipeline/ from any --directory
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(Path(workflow.basedir).parent), *filter(None, [os.environ.get("PYTHONPATH")])]
)
NAME = config["name"]
FIRST, LAST = int(config["first"]), int(config["last"])
if not 0 <= FIRST < LAST <= int(config["shards"]):
    sys.exit(f"lexforge: proof shards {FIRST}…{LAST}: not within 0…{config['shards']}")


rule proof:
    default_target: True
    input:
        f"build/proof/{NAME}/certificate-{FIRST}-{LAST}.json.gz",


rule proof_shard:
    input:
        config["word_list"],
    output:
        f"build/proof/{NAME}/shards/{{shard}}.json.gz",
    wildcard_constraints:
        shard=r"\d+",
    params:
        run=repr((config["size"], config["classes"], config["threshold"], config["shards"])),
    threads: int(config["threads"])
    resources:
        mem_mb=2048,  # the orderly tree of one top-level class, and the word list's graph
        runtime=60,  # minutes
    log:
        f"build/logs/proof/{NAME}/{{shard}}.log",
    benchmark:
        f"build/benchmarks/proof/{NAME}/{{shard}}.tsv"
    shell:
        "{PYTHON} -m pipeline.proof shard --word-list {input} --language {config[language]}"
        " --size {config[size]} --classes '{config[classes]}' --threshold {config[threshold]}"
        " --shards {config[shards]} --shard {wildcards.shard} --threads {threads}"
        " --out {output} 2> {log}"


rule proof_merge:
    input:
        [f"build/proof/{NAME}/shards/{shard}.json.gz" for shard in range(FIRST, LAST)],
    output:
        f"build/proof/{NAME}/certificate-{FIRST}-{LAST}.json.gz",
    threads: 1
    resources:
        mem_mb=4096,
        runtime=30,
    log:
        f"build/logs/proof/{NAME}/merge-{FIRST}-{LAST}.log",
    shell:
        "{PYTHON} -m pipeline.proof merge --out {output} {input} 2> {log}"
