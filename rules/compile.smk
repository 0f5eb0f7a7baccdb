# Stage 2: the solver-ready artifacts: word list, anagram index, tries, letter graph.


rule compile:
    input:
        words="build/work/{lexicon}/words.tsv",
    output:
        words="build/{lexicon}/words.txt",
        words_trie="build/{lexicon}/words.marisa",
        anagrams="build/{lexicon}/anagrams.txt",
        anagrams_trie="build/{lexicon}/anagrams.marisa",
        graph="build/{lexicon}/graph.npy",
        anagram_graph="build/{lexicon}/anagram-graph.npy",
        language="build/{lexicon}/language.json",
    params:
        code=code_hash(*COMMON_CODE, "pipeline/compile.py", "solver/graph.py"),
        spec=lambda wildcards: spec_hash(wildcards.lexicon),
    log:
        "build/logs/compile/{lexicon}.log",
    benchmark:
        "build/benchmarks/compile/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.compile --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --words {input.words} --out build/{wildcards.lexicon} 2> {log}"
