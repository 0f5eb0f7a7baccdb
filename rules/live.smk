# Stage 4b: a validated lexicon goes live. The steps above build into build/stage/<lexicon>/;
# pipeline.live hard-links it into build/versions/<lexicon>/<id>/ and swaps the link
# build/<lexicon> to it in one rename, so queries during a rebuild read the old or the new
# lexicon, never a half-built one. A lexicon that fails validation never goes live.


rule live:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        validation="build/stage/{lexicon}/validation.json",
    output:
        record="build/work/{lexicon}/outputs/live.json",
    params:
        code=code_hash("pipeline.live"),
    priority: lexicon_priority
    log:
        "build/logs/live/{lexicon}.log",
    shell:
        "{PYTHON} -m pipeline.live --stage build/stage/{wildcards.lexicon} --build build"
        " --record {output.record} 2> {log}"
