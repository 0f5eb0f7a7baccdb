"""Running the app: uvicorn in this process, or in ``workers`` forked processes on one socket.

Forked workers share the lexicons' memory maps (opened before the fork) page for page; each
answers on its own core, so racks, whose search is plain Python, scale with the workers.
"""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Any


def run(app: Any, host: str, port: int, workers: int = 1) -> None:
    """Serve ``app`` on ``host:port`` until interrupted (SIGINT or SIGTERM)."""
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    if workers == 1:
        uvicorn.Server(config).run()
        return
    sock = config.bind_socket()
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
