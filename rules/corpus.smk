# Board corpora and puzzle packs (`snakemake corpus`, `snakemake puzzles`; not part of `all`):
# seeded boards per lexicon and kind solved in shards (one job each), merged per lexicon and
# kind; then a daily pack per lexicon, bundled by `snakemake dist`. config.yaml's `corpus` says
# how many and which; README, "Board corpora and puzzle packs".


rule corpus_shard:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        validation="build/stage/{lexicon}/validation.json",
    output:
        "build/work/{lexicon}/corpus/{kind}/{shard}.parquet",
    wildcard_constraints:
        kind="|".join(re.escape(kind) for kind in CORPUS.kinds),
        shard=r"\d+",
    params:
        code=code_hash("pipeline.corpus"),
        corpus=lambda wildcards: corpus_params(wildcards.kind),
    resources:
        mem_mb=1024,  # max_rss 190 MB (it, ruzzle-4x4, 1,000 boards)
        runtime=10,
    log:
        "build/logs/corpus/{lexicon}/{kind}-{shard}.log",
    benchmark:
        "build/benchmarks/corpus/{lexicon}/{kind}-{shard}.tsv"
    shell:
        "{PYTHON} -m pipeline.corpus shard --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --kind {wildcards.kind} --shard {wildcards.shard} --lexicon-dir build/stage/{wildcards.lexicon}"
        " --out {output} 2> {log}"


rule corpus_merge:
    input:
        shard_files,
    output:
        "build/corpus/{lexicon}/{kind}.parquet",
    wildcard_constraints:
        kind="|".join(re.escape(kind) for kind in CORPUS.kinds),
    params:
        code=code_hash("pipeline.corpus"),
        shards=CORPUS.shards,
    resources:
        mem_mb=512,
        runtime=10,
    log:
        "build/logs/corpus/{lexicon}/{kind}.log",
    benchmark:
        "build/benchmarks/corpus/{lexicon}/{kind}.tsv"
    shell:
        "{PYTHON} -m pipeline.corpus merge --out {output} {input} 2> {log}"


rule corpus:
    input:
        [file for lexicon in CORPUS.lexicons for file in corpus_files(lexicon)],


rule puzzle_pack:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        validation="build/stage/{lexicon}/validation.json",
        corpus=f"build/corpus/{{lexicon}}/{CORPUS.puzzle_kind}.parquet",
    output:
        "build/puzzles/{lexicon}/puzzles.jsonl",
    params:
        code=code_hash("pipeline.puzzles"),
        puzzles=repr((CORPUS.puzzle_kind, CORPUS.puzzle_count, CORPUS.puzzle_band)),
    resources:
        mem_mb=1024,
        runtime=10,
    log:
        "build/logs/puzzles/{lexicon}.log",
    benchmark:
        "build/benchmarks/puzzles/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.puzzles --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --lexicon-dir build/stage/{wildcards.lexicon} --corpus {input.corpus} --out {output}"
        " 2> {log}"


rule puzzles:
    input:
        expand("build/puzzles/{lexicon}/puzzles.jsonl", lexicon=CORPUS.lexicons),
