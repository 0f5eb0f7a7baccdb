# Stage 3: letter table, tidy statistics and the quality report made from them (one job: the
# statistics handed over in memory, pandas imported once), then the manifest of every artifact.


rule tables:
    input:
        words="build/work/{lexicon}/words.tsv",
        sources="build/work/{lexicon}/sources.json",
        anagrams="build/stage/{lexicon}/anagrams.txt",
        classes="build/stage/{lexicon}/anagram-classes.npy",
        words_txt="build/stage/{lexicon}/words.txt",
    output:
        letters="build/stage/{lexicon}/letters.parquet",
        stats="build/stage/{lexicon}/stats.parquet",
        html="build/stage/{lexicon}/report.html",
        json="build/stage/{lexicon}/report.json",
        record="build/work/{lexicon}/outputs/tables.json",
    params:
        code=code_hash("pipeline.tables"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
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
        " --words {input.words} --sources {input.sources} --anagrams {input.anagrams}"
        " --classes {input.classes} --words-txt {input.words_txt}"
        " --history build/work/{wildcards.lexicon}/history --out build/stage/{wildcards.lexicon}"
        " --record {output.record} {output} 2> {log}"


rule manifest:
    input:
        sources="build/work/{lexicon}/sources.json",
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
            "letters.parquet",
            "stats.parquet",
            "report.html",
            "report.json",
        ),
        records=multiext(
            "build/work/{lexicon}/outputs/",
            "words.json",
            "compile.json",
            "tables.json",
        ),
        provenance=provenance_files,
    output:
        main="build/stage/{lexicon}/manifest.json",
        record="build/work/{lexicon}/outputs/manifest.json",
    params:
        code=code_hash("pipeline.manifest"),
        version=BUILD.version,  # a version bump rewrites the manifest, then the bundle
    resources:
        mem_mb=256,
        runtime=10,
    priority: lexicon_priority
    log:
        "build/logs/manifest/{lexicon}.log",
    benchmark:
        "build/benchmarks/manifest/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.manifest --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --sources {input.sources} --records {input.records} --out {output.main}"
        " {input.artifacts} --record {output.record} {output} 2> {log}"
