# Stage 3: letter table, tidy statistics and the quality report made from them, then the manifest
# of every artifact (one job: the statistics handed over in memory, one process start).


rule tables:
    input:
        words="build/work/{lexicon}/words.tsv",
        sources="build/work/{lexicon}/sources.json",
        removed="build/work/{lexicon}/removed.tsv",
        anagrams="build/stage/{lexicon}/anagrams.txt",
        classes="build/stage/{lexicon}/anagram-classes.npy",
        words_txt="build/stage/{lexicon}/words.txt",
        artifacts=multiext(
            "build/stage/{lexicon}/",
            "words.txt",
            "words.marisa",
            "anagrams.txt",
            "graph.npy",
            "anagram-graph.npy",
            "anagram-classes.npy",
            "word-sources.npy",
            "sources.json",
            "language.json",
        ),
        records=multiext("build/work/{lexicon}/outputs/", "words.json", "compile.json"),
        provenance=provenance_files,
    output:
        letters="build/stage/{lexicon}/letters.parquet",
        stats="build/stage/{lexicon}/stats.parquet",
        html="build/stage/{lexicon}/report.html",
        json="build/stage/{lexicon}/report.json",
        removed="build/stage/{lexicon}/removed.tsv",
        manifest="build/stage/{lexicon}/manifest.json",
        record="build/work/{lexicon}/outputs/tables.json",
    params:
        code=code_hash("pipeline.tables"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
        version=BUILD.version,  # a version bump rewrites the manifest, then the bundle
    resources:
        mem_mb=1280,
        runtime=10,
    priority: lexicon_priority
    log:
        "build/logs/tables/{lexicon}.log",
    benchmark:
        "build/benchmarks/tables/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.tables --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {input.words} --sources {input.sources} --removed {input.removed}"
        " --anagrams {input.anagrams}"
        " --classes {input.classes} --words-txt {input.words_txt}"
        " --history build/work/{wildcards.lexicon}/history --records {input.records}"
        " --artifacts {input.artifacts} --out build/stage/{wildcards.lexicon}"
        " --record {output.record} {output} 2> {log}"
