"""Running the app: uvicorn in this process, or in ``workers`` forked processes.

Forked workers share the lexicons' memory maps (opened before the fork) page for page; each
answers on its own core. Each worker listens on its own socket bound to the same address
(``SO_REUSEPORT``), so the kernel spreads connections evenly among them: on one shared socket,
whichever worker woke first took most of a burst of connections (44 of 64 in the load bench),
and its clients waited twice as long as the other's.

A slow client cannot hold a connection: its request line and headers must arrive within
``HEADER_SECONDS`` and ``HEADER_BYTES`` (``GuardedProtocol``; else the connection is closed or
answered 400), an idle keep-alive connection is closed after ``KEEP_ALIVE_SECONDS``, a body must
arrive within the app's ``BODY_SECONDS``, and a process holds at most ``CONNECTIONS``
connections (uvicorn answers 503 beyond), ``CLIENT_CONNECTIONS`` of one client address.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from typing import Any

from lexforge.errors import UserError

BACKLOG = 2048  # uvicorn's default
HEADER_SECONDS = 10.0
HEADER_BYTES = 16_384  # request line and headers
KEEP_ALIVE_SECONDS = 5
CONNECTIONS = 1_000  # of one server process
CLIENT_CONNECTIONS = 16  # of one client address, in one server process


def listen(host: str, port: int, *, workers: int = 1) -> socket.socket:
    """A socket bound to ``host:port``, listening if one process serves; for several workers
    it only holds the address, which each worker binds again (``run``). UserError in one line
    when there can be none."""
    try:
        family, kind, _, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        if workers > 1:
            # SO_REUSEPORT would let this bind beside another server's shared sockets and
            # take half its connections: a plain bind first makes sure the address is free.
            with _bound(family, kind, address, shared=False) as probe:
                address = probe.getsockname()  # the port chosen, if the port asked was 0
        sock = _bound(family, kind, address, shared=workers > 1)
        if workers == 1:
            sock.listen(BACKLOG)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UserError(f"cannot listen on {host}:{port} ({reason})") from None
    return sock


def _bound(family: int, kind: int, address: Any, *, shared: bool) -> socket.socket:
    """A socket bound to ``address``; ``shared``: other sockets may bind it too."""
    sock = socket.socket(family, kind)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    return sock


def run(app: Any, sock: socket.socket, workers: int = 1) -> None:
    """Serve ``app`` on ``sock`` (from ``listen`` with the same ``workers``) until interrupted
    (SIGINT or SIGTERM)."""
    import uvicorn

    # No proxy in front (the server binds where it is asked, localhost by default): trust no
    # X-Forwarded-* header, and skip that middleware's work on every request.
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        http=guarded_protocol(),
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=CONNECTIONS,
        h11_max_incomplete_event_size=HEADER_BYTES,
    )
    if workers == 1:
        uvicorn.Server(config).run(sockets=[sock])
        return
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # a worker: serve until told to stop, never return into the caller
            try:
                own = _bound(sock.family, sock.type, sock.getsockname(), shared=True)
                own.listen(BACKLOG)
                sock.close()
                uvicorn.Server(config).run(sockets=[own])
            finally:
                os._exit(0)
        children.append(pid)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        for pid in children:
            os.waitpid(pid, 0)
    except KeyboardInterrupt:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        for pid in children:
            os.waitpid(pid, 0)


def guarded_protocol() -> type:
    """uvicorn's HTTP/1.1 protocol (httptools) with a deadline and a size for each request's
    head: a connection whose request line and headers take over ``HEADER_SECONDS`` is closed
    (the first from the connection's start, each next from its first byte), one whose head
    grows over ``HEADER_BYTES`` is answered 400 and closed; and at most
    ``CLIENT_CONNECTIONS`` connections of one client address (the next ones are closed at
    once)."""
    import httptools
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    open_connections: dict[str, int] = {}  # client address: its connections open

    class GuardedProtocol(HttpToolsProtocol):
        head_timer: Any = None
        head_bytes = 0
        address: str | None = None  # counted in open_connections

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if open_connections.get(address, 0) >= CLIENT_CONNECTIONS:
                transport.close()
                return
            open_connections[address] = open_connections.get(address, 0) + 1
            self.address = address
            self._start_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_head()
            if self.address is not None:
                open_connections[self.address] -= 1
                if not open_connections[self.address]:
                    del open_connections[self.address]
                self.address = None
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.head_timer is None:
                self._start_head()

        def on_url(self, url: bytes) -> None:
            self._count(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._stop_head()
            super().on_headers_complete()

        def _count(self, size: int) -> None:
            self.head_bytes += size
            if self.head_bytes > HEADER_BYTES:
                raise httptools.HttpParserError(f"request head over {HEADER_BYTES} bytes")

        def _start_head(self) -> None:
            self.head_bytes = 0
            self.head_timer = self.loop.call_later(HEADER_SECONDS, self._head_late)

        def _stop_head(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            self.head_bytes = 0

        def _head_late(self) -> None:
            self.head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return GuardedProtocol
