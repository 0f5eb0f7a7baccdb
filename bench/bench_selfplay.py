"""Self-play benchmark: whole greedy-vs-greedy games per second, per language. Prints figures,
asserts nothing.

    .venv/bin/python bench/bench_selfplay.py [--lexicons en fr ...] [--games 20] [--runs 3]

Each run plays ``--games`` seeded games (seeds 0…games-1, lexforge.game.play_game, two greedy
players, in-process, lexicon loaded) and times them; the figures are the medians over
``--runs`` runs of games/s and moves/s (tile plays per second), with the mean number of turns
and the first player's win rate (as a sanity check that games are whole).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexforge.game import play_game  # noqa: E402
from lexforge.lexicon import Lexicon  # noqa: E402
from lexforge.players import Greedy  # noqa: E402

DEFAULT = ("en", "fr", "de", "it", "es", "nl", "pt")


def run(lexicon: Lexicon, games: int) -> tuple[float, int, int, float]:
    """Seconds, turns and tile plays for ``games`` games, and player 1's wins."""
    start = time.perf_counter()
    turns = moves = 0
    wins = 0.0
    for seed in range(games):
        result = play_game(lexicon, [Greedy("one"), Greedy("two")], seed)
        turns += result.turns
        moves += result.moves
        winners = result.winners()
        wins += (0 in winners) / len(winners)
    return time.perf_counter() - start, turns, moves, wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", nargs="+", default=list(DEFAULT))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| lexicon | games/s | moves/s | turns/game | player 1 wins |")
    print("|---|---|---|---|---|")
    for name in args.lexicons:
        lexicon = Lexicon.open(name)
        runs = [run(lexicon, args.games) for _ in range(args.runs)]
        games_s = statistics.median(args.games / seconds for seconds, *_ in runs)
        moves_s = statistics.median(moves / seconds for seconds, _, moves, _ in runs)
        _, turns, _, wins = runs[0]
        print(
            f"| {name} | {games_s:.1f} | {moves_s:.0f} | {turns / args.games:.1f} | "
            f"{wins / args.games:.0%} |"
        )


if __name__ == "__main__":
    main()
