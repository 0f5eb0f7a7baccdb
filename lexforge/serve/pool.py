"""Queries that may run long, in worker processes that can be stopped.

A thread cannot be stopped from outside, and the compiled searches hold no cancel point: a
query past its time budget in a thread runs on, and its memory with it. Here each such query
runs in a worker process forked from the server (it shares the lexicons' memory maps page for
page, and starts in a millisecond or two); past the budget the worker is killed (SIGKILL) and
its memory returns to the system; a new one is forked when next needed. Workers run at a lower
priority (nice), so the server's own loop, which answers the cheap queries itself, keeps its
core under a flood of expensive ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import socket
import stat
import struct
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

HEADER = struct.Struct("!Q")
NICE = 10  # workers' priority below the server's loop
PR_SET_PDEATHSIG = 1  # prctl(2)


class WorkerDied(Exception):
    """A worker ended without answering (killed from outside, or crashed)."""


def _send(sock: socket.socket, value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(HEADER.pack(len(data)) + data)


def _receive_exactly(sock: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            raise EOFError
        chunks += chunk
    return bytes(chunks)


def _receive(sock: socket.socket) -> Any:
    (size,) = HEADER.unpack(_receive_exactly(sock, HEADER.size))
    return pickle.loads(_receive_exactly(sock, size))


async def _exchange(sock: socket.socket, request: Any) -> Any:
    """Send ``request`` on the server's end of a worker's socket and read the reply, without
    blocking the loop (a large answer comes in pieces, as the worker writes them)."""
    loop = asyncio.get_running_loop()
    data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
    await loop.sock_sendall(sock, HEADER.pack(len(data)) + data)
    (size,) = HEADER.unpack(await _read(loop, sock, HEADER.size))
    return pickle.loads(await _read(loop, sock, size))


async def _read(loop: asyncio.AbstractEventLoop, sock: socket.socket, size: int) -> bytes:
    data = bytearray(size)
    view = memoryview(data)
    got = 0
    while got < size:
        count = await loop.sock_recv_into(sock, view[got:])
        if not count:
            raise EOFError
        got += count
    return bytes(data)


def _serve(sock: socket.socket, job: Callable[[Any], Any]) -> None:
    """A worker's life: answer each request with ``("ok", job(request))`` or, when ``job``
    raised (a bug: ``job`` answers the errors it expects), ``("raised", exception)``, until the
    server closes its end."""
    while True:
        try:
            request = _receive(sock)
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", job(request))
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            try:
                pickle.dumps(error)
            except Exception:
                error = RuntimeError(type(error).__name__)
            reply = ("raised", error)
        _send(sock, reply)


class Worker:
    """One forked worker and the server's end of its socket."""

    def __init__(self, job: Callable[[Any], Any]) -> None:
        mine, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the server's code
            code = 0
            try:
                _become_worker(keep=theirs.fileno())
                _serve(theirs, job)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        theirs.close()
        mine.setblocking(False)
        self.pid = pid
        self.sock = mine

    def kill(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Stop the worker now, and reap it: at once, or with ``loop`` once it has ended (the
        system may take tens of milliseconds to take back a large worker's memory; the loop
        answers other clients meanwhile)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.sock.close()
        try:
            ended = os.pidfd_open(self.pid) if loop is not None else None
        except (OSError, AttributeError):  # no pidfd (not Linux 5.3+): wait here
            ended = None
        if ended is None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            return

        def reap() -> None:
            loop.remove_reader(ended)
            os.close(ended)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)

        loop.add_reader(ended, reap)


def _become_worker(keep: int) -> None:
    """Drop what the worker inherited from the server but must not hold: the server's sockets
    (a client's connection would stay open as long as a worker holds it), its signal handlers
    (the server stops the workers itself) and its priority; and end with the server, even
    killed."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd == keep:
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.close(fd)
    os.nice(NICE)
    with contextlib.suppress(OSError, AttributeError):  # Linux: die with the server
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Pool:
    """At most ``size`` workers running ``job``; ``run`` hands one a request and waits for its
    answer until a deadline, killing the worker if the deadline comes first."""

    def __init__(self, size: int, job: Callable[[Any], Any]) -> None:
        self.job = job
        self.idle: list[Worker] = []
        self.free = size  # workers that may still be forked
        self.waiters: list[asyncio.Future] = []
        self.busy: set[Worker] = set()

    async def run(self, request: Any, deadline: float) -> Any:
        """``job(request)`` as a worker computed it (its exception raised again here);
        TimeoutError when the deadline (``time.monotonic``) passes first, waiting for a worker
        included; WorkerDied if the worker ended without answering."""
        worker = await self._acquire(deadline)
        try:
            remaining = max(0.0, deadline - time.monotonic())
            kind, value = await asyncio.wait_for(_exchange(worker.sock, request), remaining)
        except BaseException as error:  # the deadline, a cancelled request, a dead worker
            self._discard(worker)
            if isinstance(error, (EOFError, OSError)) and not isinstance(error, TimeoutError):
                raise WorkerDied from None
            raise
        self._release(worker)
        if kind == "raised":
            raise value
        return value

    async def _acquire(self, deadline: float) -> Worker:
        while not self.idle and not self.free:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, max(0.0, deadline - time.monotonic()))
            except BaseException:
                if self.idle or self.free:  # a wake-up this waiter had no use for: pass it on
                    self._wake()
                raise
            finally:
                if waiter in self.waiters:
                    self.waiters.remove(waiter)
        if self.idle:
            worker = self.idle.pop()
        else:
            self.free -= 1
            try:
                worker = Worker(self.job)
            except OSError:
                self.free += 1
                raise
        self.busy.add(worker)
        return worker

    def _release(self, worker: Worker) -> None:
        self.busy.discard(worker)
        self.idle.append(worker)
        self._wake()

    def _discard(self, worker: Worker) -> None:
        self.busy.discard(worker)
        worker.kill(asyncio.get_running_loop())
        self.free += 1
        self._wake()

    def _wake(self) -> None:
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(None)
                return

    def pids(self) -> list[int]:
        """The workers alive."""
        return [worker.pid for worker in [*self.idle, *self.busy]]

    def close(self) -> None:
        """Stop every worker."""
        for worker in [*self.idle, *self.busy]:
            worker.kill()
        self.free += len(self.idle) + len(self.busy)
        self.idle.clear()
        self.busy.clear()
