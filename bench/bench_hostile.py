"""Hostile load on ``lexforge serve``: one client floods the worst queries while others send racks.

Starts ``lexforge serve`` on 127.0.0.1 (a free port) over one lexicon. For ``--seconds``, one
client (source address 127.0.0.2) keeps ``--flood-connections`` connections busy with the most
expensive queries the API accepts, in turn: a rack of 20 characters with 3 jokers, a pattern
with the most '*' allowed, 100 boards of 20×20 redrawn until each holds 1,000 words, 16 Boggle
grids of 400 cells with paths; meanwhile ``--racks`` other clients (each its own source address,
127.0.0.3 onward: the server limits each client address) each send a rack of 7–8 letters (a
tenth with a joker) every 1/``--rate`` s on a fixed schedule (an open loop: latency counts from
the time a request was due). Prints the racks' latency percentiles and errors (any status but
200, any broken connection or an answer later than 30 s), what the flood got, and the server's
resident memory (its process and its workers) before, during (peak) and a few seconds after.
Every request is on the loopback; the run stops by itself after ``--seconds`` plus at most 30 s.
Asserts nothing. With ``--flood cheap`` the flood is of 8-letter racks with a joker, which the
server answers in its own loop; ``--flood-connections 0``: no flood, for comparison.

    .venv/bin/python bench/bench_hostile.py --lexicon it --seconds 20
    .venv/bin/python bench/bench_hostile.py --lexicon it --seconds 20 --flood cheap
    .venv/bin/python bench/bench_hostile.py --lexicon it --seconds 20 --flood-connections 0
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

from bench_serve import percentile, queries, rss_kib, running_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexforge.lexicon import Lexicon  # noqa: E402

ANSWER_SECONDS = 30  # an answer later than this is an error (and the connection is dropped)


def worst_queries(lexicon: str) -> list[str]:
    """The most expensive queries within the API's limits."""
    base = f"/api/lexicons/{lexicon}"
    grids = "\n".join(["/".join(["SERATINLCD" * 2] * 20)] * 16)
    return [
        f"{base}/anagram?{urlencode({'letters': 'AEIOUAEIORSTNLCDM***'})}",
        f"{base}/pattern?{urlencode({'pattern': '*?*?*?*?' + '?' * 24})}",
        f"{base}/generate?rows=20&cols=20&count=100&min_words=1000",
        f"{base}/boggle?{urlencode({'grid': grids, 'paths': 'true'}, safe='/')}",
    ]


async def request(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, target: str, port: int
) -> int:
    """One GET on a keep-alive connection: its status."""
    writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    await reader.readexactly(length)
    return int(head.split(b" ", 2)[1])


async def client(
    port: int,
    address: str,
    targets: list[str],
    end: float,
    results: list,
    schedule: tuple[float, float] | None = None,
) -> None:
    """One connection from ``address``: a request, its answer, the next until ``end``; with
    ``schedule`` (first, interval) each request is due at a fixed time, latency counted from
    it. A broken connection is opened again."""
    rng = random.Random(address)
    connection = None
    due = schedule[0] if schedule else 0.0
    while (due if schedule else time.perf_counter()) < end:
        if schedule:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            start, due = due, due + schedule[1]
        else:
            start = time.perf_counter()
        try:
            if connection is None:
                connection = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(address, 0)
                )
            target = targets[rng.randrange(len(targets))]
            status = await asyncio.wait_for(request(*connection, target, port), ANSWER_SECONDS)
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError, StopIteration):
            status = 0
            if connection is not None:
                connection[1].close()
            connection = None
            await asyncio.sleep(0.05)  # a refused connection is not tried again at once
        results.append((time.perf_counter() - start, status))
    if connection is not None:
        connection[1].close()


def run_flood(port: int, targets: list[str], end: float, connections: int) -> list:
    """The flooding client (127.0.0.2) on ``connections`` connections until ``end``
    (``time.time``): each answer's (seconds, status)."""
    results: list[tuple[float, int]] = []

    async def flood() -> None:
        finish = time.perf_counter() + (end - time.time())
        await asyncio.gather(
            *(client(port, "127.0.0.2", targets, finish, results) for _ in range(connections))
        )

    asyncio.run(flood())
    return results


def sample_memory(pid: int, stop: threading.Event, samples: list) -> None:
    while not stop.is_set():
        samples.append(rss_kib(pid))
        stop.wait(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="it")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--racks", type=int, default=32, help="rack clients (default: 32)")
    parser.add_argument("--rate", type=float, default=10, help="racks a second of each client")
    parser.add_argument("--flood-connections", type=int, default=8, help="0: no flood")
    parser.add_argument(
        "--flood",
        choices=("worst", "cheap"),
        default="worst",
        help="worst: the costliest queries; cheap: racks of 8 letters with a joker, answered "
        "in the server's loop (default: %(default)s)",
    )
    parser.add_argument("--workers", type=int, default=1, help="server processes (default: 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 0 < args.seconds <= 300 or not 0 < args.racks <= 200:
        raise SystemExit("--seconds: at most 300; --racks: at most 200")
    lexicon = Lexicon.open(args.lexicon)
    racks = queries(lexicon, "rack", 500, random.Random(args.seed))
    worst = worst_queries(lexicon.name)
    flood = worst if args.flood == "worst" else [rack for rack in racks if "%2A" in rack]

    with running_server(args.lexicon, args.workers) as (port, pid):
        # warm: every query once (the workers forked, the lexicon's pages read)
        for target in [racks[0], worst[3]]:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{target}", timeout=30):
                pass
        time.sleep(1)
        before = rss_kib(pid)
        stop = threading.Event()
        samples: list[int] = []
        sampler = threading.Thread(target=sample_memory, args=(pid, stop, samples))
        sampler.start()
        rack_results: list[tuple[float, int]] = []

        async def run() -> float:
            start = time.perf_counter()
            end = start + args.seconds
            interval = 1 / args.rate
            rackers = [
                client(
                    port,
                    f"127.0.0.{3 + i % 250}",
                    racks,
                    end,
                    rack_results,
                    (start + interval * i / args.racks, interval),
                )
                for i in range(args.racks)
            ]
            await asyncio.gather(*rackers)
            return time.perf_counter() - start

        # the flood from its own process: its work does not delay the rack clients' loop
        context = multiprocessing.get_context("fork")
        flood_end = time.time() + args.seconds + 0.5
        with context.Pool(1) as flooder:
            flooding = flooder.apply_async(
                run_flood, (port, flood, flood_end, args.flood_connections)
            )
            elapsed = asyncio.run(run())
            flood_results = flooding.get(timeout=ANSWER_SECONDS + 30)
        stop.set()
        sampler.join()
        time.sleep(3)
        after = rss_kib(pid)

    latencies = [seconds * 1000 for seconds, _ in rack_results]
    errors = sum(1 for _, status in rack_results if status != 200)
    print(
        f"lexicon {args.lexicon}, {elapsed:.1f} s, {args.workers} server process(es); "
        f"{args.racks} rack clients at {args.rate:g}/s each, one client flooding "
        f"{args.flood} queries on {args.flood_connections} connections"
    )
    print(
        f"racks: {len(latencies)} requests, p50 {statistics.median(latencies):.1f} ms, "
        f"p99 {percentile(latencies, 99):.1f} ms, max {max(latencies):.1f} ms, {errors} errors"
    )
    statuses = Counter(status for _, status in flood_results)
    got = ", ".join(f"{count} × {status or 'broken'}" for status, count in sorted(statuses.items()))
    print(f"flood: {len(flood_results)} requests: {got}")
    print(
        f"server RSS: {before / 1024:.0f} MiB before, peak {max(samples) / 1024:.0f} MiB "
        f"during, {after / 1024:.0f} MiB 3 s after"
    )


if __name__ == "__main__":
    main()
