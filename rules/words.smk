# Stage 1: read every source of a lexicon in its format, normalize, merge.


rule words:
    input:
        sources=source_files,
        language=language_file,
    output:
        words="build/work/{lexicon}/words.tsv",
        sources="build/work/{lexicon}/sources.json",
        removed="build/work/{lexicon}/removed.tsv",
        record="build/work/{lexicon}/outputs/words.json",
    params:
        code=code_hash("pipeline.words"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
    resources:
        mem_mb=1280,
        runtime=10,
    priority: lexicon_priority
    log:
        "build/logs/words/{lexicon}.log",
    benchmark:
        "build/benchmarks/words/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.words --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {output.words} --sources {output.sources} --removed {output.removed}"
        " --record {output.record} {output} 2> {log}"
