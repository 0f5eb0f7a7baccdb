# Stage 2: the solver-ready artifacts, in two independent jobs per lexicon:
# the words (list, trie, letter graph) and the anagram index (text, trie, key graph).


rule compile:
    input:
        words="build/work/{lexicon}/words.tsv",
        sources="build/work/{lexicon}/sources.json",
    output:
        words="build/{lexicon}/words.txt",
        words_trie="build/{lexicon}/words.marisa",
        graph="build/{lexicon}/graph.npy",
        word_sources="build/{lexicon}/word-sources.npy",
        source_names="build/{lexicon}/sources.json",
        language="build/{lexicon}/language.json",
        record="build/work/{lexicon}/outputs/compile.json",
    params:
        code=code_hash("pipeline.compile"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
    log:
        "build/logs/compile/{lexicon}.log",
    benchmark:
        "build/benchmarks/compile/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.compile --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {input.words} --sources {input.sources} --out build/{wildcards.lexicon}"
        " 2> {log}"
        " && {PYTHON} -m pipeline.outputs record {output.record} {output}"


rule anagrams:
    input:
        words="build/work/{lexicon}/words.tsv",
    output:
        anagrams="build/{lexicon}/anagrams.txt",
        anagrams_trie="build/{lexicon}/anagrams.marisa",
        anagram_graph="build/{lexicon}/anagram-graph.npy",
        record="build/work/{lexicon}/outputs/anagrams.json",
    params:
        code=code_hash("pipeline.anagrams"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
    log:
        "build/logs/anagrams/{lexicon}.log",
    benchmark:
        "build/benchmarks/anagrams/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.anagrams --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {input.words} --out build/{wildcards.lexicon} 2> {log}"
        " && {PYTHON} -m pipeline.outputs record {output.record} {output}"
