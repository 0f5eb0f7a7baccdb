"""Running the app: uvicorn in this process, or in ``workers`` forked processes on one socket.

Forked workers share the lexicons' memory maps (opened before the fork) page for page; each
answers on its own core, so racks, whose search is plain Python, scale with the workers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from typing import Any

from lexforge.errors import UserError

BACKLOG = 2048  # uvicorn's default


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; UserError in one line when there can be none."""
    try:
        family, kind, _, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UserError(f"cannot listen on {host}:{port} ({reason})") from None
    return sock


def run(app: Any, sock: socket.socket, workers: int = 1) -> None:
    """Serve ``app`` on ``sock`` until interrupted (SIGINT or SIGTERM)."""
    import uvicorn

    # No proxy in front (the server binds where it is asked, localhost by default): trust no
    # X-Forwarded-* header, and skip that middleware's work on every request.
    config = uvicorn.Config(app, log_level="warning", access_log=False, proxy_headers=False)
    if workers == 1:
        uvicorn.Server(config).run(sockets=[sock])
        return
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:  # a worker: serve until told to stop, never return into the caller
            try:
                uvicorn.Server(config).run(sockets=[sock])
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
