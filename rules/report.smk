# Stage 3b: the quality report a person reads to review a lexicon (listed in the manifest).
# The previous build's words stay in build/work/<lexicon>/history/ for the "change" section.


rule report:
    input:
        words="build/stage/{lexicon}/words.txt",
        words_tsv="build/work/{lexicon}/words.tsv",
        stats="build/stage/{lexicon}/stats.parquet",
    output:
        html="build/stage/{lexicon}/report.html",
        json="build/stage/{lexicon}/report.json",
        record="build/work/{lexicon}/outputs/report.json",
    params:
        code=code_hash("pipeline.report"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
    resources:
        mem_mb=1024,
        runtime=10,
    priority: lexicon_priority
    log:
        "build/logs/report/{lexicon}.log",
    benchmark:
        "build/benchmarks/report/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.report --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {input.words} --words-tsv {input.words_tsv} --stats {input.stats}"
        " --history build/work/{wildcards.lexicon}/history --out build/stage/{wildcards.lexicon}"
        " --record {output.record} {output} 2> {log}"
