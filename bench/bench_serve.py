"""Load on ``lexforge serve``: N keep-alive clients for T seconds, a mix of queries.

Starts ``lexforge serve`` on 127.0.0.1 (a free port) over one lexicon, then drives it from this
process with ``--clients`` concurrent HTTP/1.1 connections (plain asyncio, a request at a time
on each, each from its own loopback address 127.0.0.2 onward) for ``--seconds``, each picking
its next query from the mix: racks (7–8 letters from shuffled lexicon words, a tenth with a
joker), 4×4 Boggle grids (lexforge.generate) and Scrabble racks on the French mid-game board.
Prints throughput, latency percentiles per kind and overall, errors (any status but 200, any
broken connection) and the server's resident memory (peak, and at a quarter and at the end of
the run: flat means no growth), and the CPU time each request cost the server and this client
(steadier than throughput on a shared machine). Asserts nothing.

By default each client sends its next request as soon as the last is answered (a closed loop:
the server runs flat out, and latency is the queue 64 clients keep full, about clients ÷
throughput). With ``--rate R`` the clients together offer R requests a second on a fixed
schedule, each client every clients ÷ R seconds (an open loop, as wrk2 does): latency is then
counted from the time a request was due, so a server that falls behind is charged for the
wait, and the figures tell the latency at that load.

    .venv/bin/python bench/bench_serve.py --clients 64 --seconds 30
    .venv/bin/python bench/bench_serve.py --mix rack=1 --clients 64 --seconds 30
    .venv/bin/python bench/bench_serve.py --mix rack=1 --clients 64 --seconds 30 --rate 1000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexforge.generate import generate_boards  # noqa: E402
from lexforge.grid import format_grid_line  # noqa: E402
from lexforge.lexicon import Lexicon  # noqa: E402

MIDGAME = ROOT / "tests/fixtures/scrabble/fr-midgame.board"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_server(lexicon: str, workers: int) -> Iterator[tuple[int, int]]:
    """``lexforge serve`` for ``lexicon`` on a free port of 127.0.0.1, answering: (port, pid)."""
    port = free_port()
    command = [sys.executable, "-m", "lexforge.cli", "serve", "--port", str(port)]
    command += ["--lexicon", lexicon, "--workers", str(workers)]
    server = subprocess.Popen(command, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lexicons").close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)


def queries(lexicon: Lexicon, kind: str, count: int, rng: random.Random) -> list[str]:
    """``count`` request targets of one kind."""
    base = f"/api/lexicons/{lexicon.name}"
    if kind == "rack":
        words = [w for w in lexicon.words.iterkeys() if len(w) in (7, 8)]
        targets = []
        for word in rng.sample(words, count):
            letters = list(word)
            rng.shuffle(letters)
            if rng.random() < 0.1:
                letters[-1] = "*"
            targets.append(f"{base}/anagram?{urlencode({'letters': ''.join(letters)})}")
        return targets
    if kind == "boggle":
        boards = generate_boards(lexicon, rows=4, cols=4, count=count, seed=rng.randrange(1 << 30))
        return [f"{base}/boggle?{urlencode({'grid': format_grid_line(b)})}" for b in boards]
    if kind == "scrabble":
        board = "/".join(line.replace(" ", "") for line in MIDGAME.read_text().splitlines())
        bag = "".join(letter * n for letter, n in lexicon.language.tile_counts.items())
        racks = ["".join(rng.sample(bag, 7)).replace("?", "*") for _ in range(count)]
        return [
            f"{base}/scrabble?{urlencode({'board': board, 'rack': r, 'top': 10})}" for r in racks
        ]
    raise SystemExit(f"unknown kind {kind!r} (rack, boggle, scrabble)")


async def client(
    port: int,
    plan: list[tuple[str, str]],
    deadline: float,
    seed: int,
    results: list,
    schedule: tuple[float, float] | None = None,
) -> None:
    """One keep-alive connection: a request, its whole answer, the next, until the deadline.
    With ``schedule`` (first, interval), a request is due at first, first + interval, …: the
    client waits for that time, or sends at once when late, and counts latency from it."""
    rng = random.Random(seed)
    # each client from its own loopback address, as distinct clients (the server limits the
    # queries of one address)
    source = (f"127.0.0.{2 + seed % 250}", 0)
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=source)
    due = schedule[0] if schedule else 0.0
    try:
        while (due if schedule else time.perf_counter()) < deadline:
            kind, target = plan[rng.randrange(len(plan))]
            request = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            if schedule:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                start, due = due, due + schedule[1]
            else:
                start = time.perf_counter()
            try:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                await reader.readexactly(length)
            except (OSError, asyncio.IncompleteReadError, ValueError, StopIteration):
                results.append((kind, time.perf_counter() - start, 0))
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=source)
                continue
            results.append((kind, time.perf_counter() - start, status))
    finally:
        writer.close()


def processes(pid: int) -> list[int]:
    """The server's process and all its descendants (its worker processes, and theirs)."""
    found = [pid]
    for process in found:
        with contextlib.suppress(FileNotFoundError):  # one that ended meanwhile
            for task in Path(f"/proc/{process}/task").iterdir():
                found += map(int, (task / "children").read_text().split())
    return found


def rss_kib(pid: int) -> int:
    """Resident memory of the server: its process and its descendants, summed (pages of the
    lexicons' maps that they share are counted in each)."""
    total = 0
    for process in processes(pid):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(f"/proc/{process}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of the server: its process and its descendants, summed (the
    ones alive, and those they reaped)."""
    ticks = 0
    for process in processes(pid):
        with contextlib.suppress(FileNotFoundError):
            fields = Path(f"/proc/{process}/stat").read_text().rpartition(")")[2].split()
            # utime, stime, cutime, cstime (fields 14 to 17)
            ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def sample_memory(pid: int, stop: threading.Event, samples: list) -> None:
    while not stop.is_set():
        samples.append((time.perf_counter(), rss_kib(pid)))
        stop.wait(0.2)


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 10) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="fr")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--mix", default="rack=8,boggle=1,scrabble=1", help="kind=weight,… (default: %(default)s)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server processes (default: 1)")
    parser.add_argument(
        "--rate", type=float, help="requests offered per second by all clients (an open loop)"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lexicon = Lexicon.open(args.lexicon)
    weights = {kind: int(weight) for kind, weight in (p.split("=") for p in args.mix.split(","))}
    plan = [
        (kind, target)
        for kind, weight in weights.items()
        for target in queries(lexicon, kind, 100 * weight, rng)
    ]

    load_before = Path("/proc/loadavg").read_text().split()[0]
    with running_server(args.lexicon, args.workers) as (port, pid):
        started_rss = rss_kib(pid)
        stop = threading.Event()
        samples: list[tuple[float, int]] = []
        sampler = threading.Thread(target=sample_memory, args=(pid, stop, samples))
        sampler.start()
        results: list[tuple[str, float, int]] = []

        async def run() -> float:
            start = time.perf_counter()
            end = start + args.seconds

            def schedule(i: int) -> tuple[float, float] | None:
                if not args.rate:
                    return None
                interval = args.clients / args.rate  # each client's; staggered by client
                return start + interval * i / args.clients, interval

            await asyncio.gather(
                *(
                    client(port, plan, end, args.seed + i, results, schedule(i))
                    for i in range(args.clients)
                )
            )
            return time.perf_counter() - start

        server_cpu = cpu_seconds(pid)
        client_cpu = time.process_time()
        elapsed = asyncio.run(run())
        server_cpu = cpu_seconds(pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        stop.set()
        sampler.join()

    offered = f"{args.rate:g} requests/s offered (open loop)" if args.rate else "closed loop"
    print(
        f"lexicon {args.lexicon}, {args.clients} clients, {offered}, {elapsed:.1f} s, "
        f"mix {args.mix}, "
        f"{args.workers} server process(es); load average (1 min) {load_before} before, "
        f"{Path('/proc/loadavg').read_text().split()[0]} after"
    )
    print(f"{'kind':<9} {'requests':>9} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for kind in [*weights, "all"]:
        rows = [r for r in results if kind in ("all", r[0])]
        if not rows:
            continue
        latencies = [r[1] * 1000 for r in rows]
        errors = sum(1 for r in rows if r[2] != 200)
        print(
            f"{kind:<9} {len(rows):>9} {len(rows) / elapsed:>8.0f} "
            f"{statistics.median(latencies):>8.1f} {percentile(latencies, 99):>8.1f} {errors:>7}"
        )
    print(
        f"CPU per request: server {server_cpu / len(results) * 1e3:.2f} ms, "
        f"this client {client_cpu / len(results) * 1e3:.2f} ms "
        f"(the machine has {os.cpu_count()} cores)"
    )
    quarter = next(rss for t, rss in samples if t >= samples[0][0] + args.seconds / 4)
    peak = max(rss for _, rss in samples)
    print(
        f"server RSS: {started_rss / 1024:.0f} MiB at start, {quarter / 1024:.0f} MiB after a "
        f"quarter of the run, {samples[-1][1] / 1024:.0f} MiB at the end, "
        f"peak {peak / 1024:.0f} MiB"
    )


if __name__ == "__main__":
    main()
