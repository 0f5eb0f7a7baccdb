# Leave values (`snakemake leaves`; not part of `all`): self-play games per lexicon (greedy, or
# the equity player with `player_leaves`: a next generation) in shards (one job each) and a
# shard of held-out games, merged per lexicon into the learned leave values
# build/leaves/<lexicon>/leaves.json.gz and its manifest. config.yaml's `leaves` says how
# many and which; docs/scrabble.md, "Leave values". The values shipped (leaves/<lexicon>.json.gz,
# in the bundles) are a copy of a run's result: `dist` never trains.


rule leaves_shard:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        validation="build/stage/{lexicon}/validation.json",
        player_leaves=player_leaves,
    output:
        "build/work/{lexicon}/leaves/{shard}.json",
    wildcard_constraints:
        shard=r"\d+|holdout",
    params:
        code=code_hash("pipeline.leaves"),
        run=lambda wildcards: repr(
            (LEAVES.seed, LEAVES.holdout_games, LEAVES.player)
            if wildcards.shard == "holdout"
            else (LEAVES.seed, LEAVES.games_per_shard, LEAVES.player)
        ),
        player=lambda wildcards, input: (
            f" --player-leaves {input.player_leaves}" if input.player_leaves else ""
        ),
    threads: 1
    resources:
        mem_mb=512,  # max_rss 52–127 MB (it the most): rows are summed game by game
        runtime=30,  # minutes: 13–21 s per 1,000 games (build/benchmarks/leaves/)
    log:
        "build/logs/leaves/{lexicon}/{shard}.log",
    benchmark:
        "build/benchmarks/leaves/{lexicon}/{shard}.tsv"
    shell:
        "{PYTHON} -m pipeline.leaves shard --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --shard {wildcards.shard} --lexicon-dir build/stage/{wildcards.lexicon} --out {output}"
        "{params.player} 2> {log}"


rule leaves_merge:
    input:
        manifest="build/stage/{lexicon}/manifest.json",
        shards=leave_shards,
        holdout="build/work/{lexicon}/leaves/holdout.json",
    output:
        model="build/leaves/{lexicon}/leaves.json.gz",
        manifest="build/leaves/{lexicon}/manifest.json",
    params:
        code=code_hash("pipeline.leaves"),
        run=lambda wildcards: repr(
            (LEAVES.seed, LEAVES.games_per_shard, LEAVES.shards_of(wildcards.lexicon))
            + (LEAVES.holdout_games, LEAVES.ridge, LEAVES.min_observations, LEAVES.player)
        ),
    threads: 1
    resources:
        mem_mb=2048,  # every leave seen (a few hundred thousand) and its sums
        runtime=30,
    log:
        "build/logs/leaves/{lexicon}.log",
    benchmark:
        "build/benchmarks/leaves/{lexicon}.tsv"
    shell:
        "{PYTHON} -m pipeline.leaves merge --config {CONFIG_FILE} --lexicon {wildcards.lexicon}"
        " --lexicon-dir build/stage/{wildcards.lexicon} --out {output.model}"
        " --manifest {output.manifest} --holdout {input.holdout} {input.shards} 2> {log}"


rule leaves:
    input:
        expand("build/leaves/{lexicon}/leaves.json.gz", lexicon=LEAVES.lexicons),
