# Stage 5: deterministic release bundles (`snakemake dist`), uploaded by CI on tags: the lexicons
# (with their learned leave values where leaves/<lexicon>.json.gz is committed: a copy of a
# `snakemake leaves` result, never trained here) and the puzzle packs (rules/corpus.smk).


rule bundle:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        validation="build/stage/{lexicon}/validation.json",
        provenance=provenance_files,
        leaves=shipped_leaves,
    output:
        "build/dist/{lexicon}-{version}.tar.gz",
    wildcard_constraints:
        version=re.escape(BUILD.version),
    resources:
        mem_mb=512,
        runtime=10,
    log:
        "build/logs/bundle/{lexicon}-{version}.log",
    benchmark:
        "build/benchmarks/bundle/{lexicon}-{version}.tsv"
    params:
        code=code_hash("pipeline.publish"),
        leaves=lambda wildcards, input: f" --leaves {input.leaves}" if input.leaves else "",
    shell:
        "{PYTHON} -m pipeline.publish bundle --version {wildcards.version} --out {output}"
        "{params.leaves} build/stage/{wildcards.lexicon} 2> {log}"


rule puzzle_bundle:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        pack="build/puzzles/{lexicon}/puzzles.jsonl",
        provenance=provenance_files,
    output:
        "build/dist/{lexicon}-puzzles-{version}.tar.gz",
    wildcard_constraints:
        version=re.escape(BUILD.version),
    params:
        code=code_hash("pipeline.publish"),
    resources:
        mem_mb=256,
        runtime=10,
    log:
        "build/logs/bundle/{lexicon}-puzzles-{version}.log",
    shell:
        "{PYTHON} -m pipeline.publish puzzles --version {wildcards.version} --out {output}"
        " --lexicon-dir build/stage/{wildcards.lexicon} {input.pack} 2> {log}"


rule dist:
    input:
        expand("build/dist/{lexicon}-{version}.tar.gz", lexicon=DEFAULT_LEXICONS, version=BUILD.version),
        expand(
            "build/dist/{lexicon}-puzzles-{version}.tar.gz",
            lexicon=CORPUS.lexicons,
            version=BUILD.version,
        ),
    output:
        "build/dist/SHA256SUMS",
    params:
        code=code_hash("pipeline.publish"),
    resources:
        mem_mb=256,
        runtime=10,
    log:
        "build/logs/dist/SHA256SUMS.log",
    benchmark:
        "build/benchmarks/dist/SHA256SUMS.tsv"
    shell:
        "{PYTHON} -m pipeline.publish sums --out {output} {input} 2> {log}"
