# Stage 2: the solver-ready artifacts, in one job per lexicon: the words (list, trie, letter
# graph) and the anagram index (text, key graph, class offsets) from one read of words.tsv.


rule compile:
    input:
        words="build/work/{lexicon}/words.tsv",
        sources="build/work/{lexicon}/sources.json",
    output:
        words="build/stage/{lexicon}/words.txt",
        words_trie="build/stage/{lexicon}/words.marisa",
        graph="build/stage/{lexicon}/graph.npy",
        word_sources="build/stage/{lexicon}/word-sources.npy",
        source_names="build/stage/{lexicon}/sources.json",
        language="build/stage/{lexicon}/language.json",
        anagrams="build/stage/{lexicon}/anagrams.txt",
        anagram_graph="build/stage/{lexicon}/anagram-graph.npy",
        anagram_classes="build/stage/{lexicon}/anagram-classes.npy",
        record="build/work/{lexicon}/outputs/compile.json",
    params:
        code=code_hash("pipeline.compile"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
    resources:
        mem_mb=2560,
        runtime=10,
    priority: lexicon_priority
    log:
        "build/logs/compile/{lexicon}.log",
    benchmark:
        "build/benchmarks/compile/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.compile --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {input.words} --sources {input.sources} --out build/stage/{wildcards.lexicon}"
        " --record {output.record} {output} 2> {log}"
