"""Strength of the Scrabble players by self-play: two players, seats alternating, seeded games.

Players (lexforge.players): ``greedy``, ``equity`` (leave values, the endgame searched; with
``--adjust``'s corrections, default none), ``equity-static`` (the equity player without the
endgame search: the best score once the bag is empty, as before the search existed) and
``simulation`` (``--samples`` deals a turn, or ``--seconds`` a turn; ``--plies``,
``--candidates``, ``--margin``, ``--switch-z``). Prints each player's wins with the 95 %
Wilson interval, mean score and spread, and the time per game; ``--seed S`` plays seeds S,
S+1, … (a run splits between processes by seed ranges). Leave values: ``--leaves`` (default:
the lexicon's learned values); ``--opponent-leaves`` gives the second player others, so that
one kind can play itself with two sets of values. ``--adjust`` (``opening``, ``pre-endgame``,
``endgame``, comma-separated, or ``all``) gives the first player's equity the static
corrections (lexforge.players.Adjusters), ``--opponent-adjust`` the second's (default none:
today's plain equity player), so that each is measured alone.

    python bench/bench_players.py --lexicon en --players simulation,equity --games 200
    python bench/bench_players.py --lexicon en --players equity,equity --games 1000 \
        --opponent-leaves bench/leaves-linear-en.json
    python bench/bench_players.py --lexicon en --players equity,equity --games 1000 \
        --adjust pre-endgame --opponent-adjust none
"""

from __future__ import annotations

import argparse
import statistics
import time

from lexforge.errors import UserError
from lexforge.game import play_game, wilson
from lexforge.leaves import LeaveTable, check_leaves, default_leaves, load_leaves
from lexforge.lexicon import Lexicon
from lexforge.players import SIM_MARGIN, SWITCH_Z, Adjusters, Equity, Greedy, Simulation


def make(kind: str, leaves, adjust: Adjusters, args: argparse.Namespace, seed: int, name: str):
    if kind == "greedy":
        return Greedy(name)
    if kind == "equity":
        return Equity(name, leaves, adjust=adjust)
    if kind == "equity-static":
        return Equity(name, leaves, endgame_positions=0, adjust=adjust)
    if kind == "simulation":
        return Simulation(
            name,
            leaves,
            seconds=args.seconds,
            iterations=None if args.seconds else args.samples,
            candidates=args.candidates,
            plies=args.plies,
            margin=args.margin,
            switch_z=args.switch_z,
            seed=seed,
        )
    raise SystemExit(f"bench_players: unknown player {kind!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--leaves", help="leave values (default: the lexicon's learned values)")
    parser.add_argument(
        "--opponent-leaves", help="the second player's leave values (default: as --leaves)"
    )
    parser.add_argument("--players", default="simulation,equity", help="two kinds, comma-separated")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=24, help="simulation deals a turn")
    parser.add_argument("--seconds", type=float, help="simulation seconds a turn (not --samples)")
    parser.add_argument("--plies", type=int, default=2, help="simulation plies: 2 or 3")
    parser.add_argument("--candidates", type=int, default=8, help="simulation candidates")
    parser.add_argument("--adjust", default="none", help="the first player's equity corrections")
    parser.add_argument("--opponent-adjust", default="none", help="the second player's")
    parser.add_argument(
        "--margin",
        type=float,
        default=SIM_MARGIN,
        help="simulate only the candidates this close to the best equity (points)",
    )
    parser.add_argument(
        "--switch-z",
        type=float,
        default=SWITCH_Z,
        help="play another candidate than the best by equity only when it is ahead by this "
        "many standard errors (0: the best simulated)",
    )
    args = parser.parse_args()
    try:
        adjust = [Adjusters.parse(args.adjust), Adjusters.parse(args.opponent_adjust)]
    except UserError as error:
        raise SystemExit(f"bench_players: {error}") from None
    lexicon = Lexicon.open(args.lexicon)
    leaves = [load_leaves(args.leaves) if args.leaves else default_leaves(lexicon)] * 2
    if args.opponent_leaves:
        leaves[1] = load_leaves(args.opponent_leaves)
    for given, path in zip(leaves, (args.leaves, args.opponent_leaves), strict=True):
        if given is not None and path:
            check_leaves(given, lexicon.language, path)
    leaves = [given or LeaveTable({}) for given in leaves]
    kinds = args.players.split(",")
    same = args.opponent_leaves or adjust[0] != adjust[1]
    if len(kinds) != 2 or (kinds[0] == kinds[1] and not same):
        raise SystemExit(
            "bench_players: --players takes two kinds (the same: --opponent-leaves or --adjust)"
        )
    names = kinds
    if kinds[0] == kinds[1]:
        names = [f"{kinds[0]} (first)", f"{kinds[1]} (second)"]
    wins, scores, spreads, times = [0.0, 0.0], [[], []], [], []
    for i in range(args.games):
        seats = [0, 1] if i % 2 == 0 else [1, 0]  # seats[k]: the player moving k-th
        players = [
            make(kinds[s], leaves[s], adjust[s], args, args.seed + i, names[s]) for s in seats
        ]
        start = time.perf_counter()
        result = play_game(lexicon, players, args.seed + i)
        times.append(time.perf_counter() - start)
        by_kind = {seats[k]: result.scores[k] for k in range(2)}
        for s in (0, 1):
            scores[s].append(by_kind[s])
        spreads.append(by_kind[0] - by_kind[1])
        winners = result.winners()
        for k in winners:
            wins[seats[k]] += 1 / len(winners)
        if (i + 1) % 10 == 0 or i + 1 == args.games:
            low, high = wilson(wins[0], i + 1)
            print(
                f"{i + 1} games: {names[0]} {wins[0]:g} wins ({wins[0] / (i + 1):.1%}, 95 % "
                f"{low:.1%}–{high:.1%}), mean spread {statistics.mean(spreads):+.1f}",
                flush=True,
            )
    for s in (0, 1):
        print(f"{names[s]}: mean score {statistics.mean(scores[s]):.1f}")
    print(f"time per game: median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
