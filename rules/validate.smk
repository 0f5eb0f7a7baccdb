# Stage 4: solve the reference grids, boards and racks with the fresh lexicon; check them against
# the committed expected results and a brute-force oracle. Refresh after an intended change:
#   python -m pipeline.validate --lexicon build/stage/<lexicon> --reference raw/<lang>/reference --refresh


rule validate:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        cases=reference_files,
    output:
        main="build/stage/{lexicon}/validation.json",
        record="build/work/{lexicon}/outputs/validate.json",
    params:
        code=code_hash("pipeline.validate"),
        reference=reference_dir,
    resources:
        mem_mb=1280,
        runtime=10,
    priority: lexicon_priority
    log:
        "build/logs/validate/{lexicon}.log",
    benchmark:
        "build/benchmarks/validate/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.validate --lexicon build/stage/{wildcards.lexicon}"
        " --reference {params.reference} --out {output.main}"
        " --record {output.record} {output} 2> {log}"
