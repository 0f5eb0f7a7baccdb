"""A one-node SLURM cluster on localhost, for tests/test_slurm.py and bench/bench_corpus.py.

Debian's ``slurm-wlm`` and ``munge``: a munge key generated into a temporary directory, munged
on a socket there, and slurmctld and slurmd (as root, the user jobs run as) configured by a
generated ``slurm.conf`` on free ports, with no accounting database (``squeue`` keeps finished
jobs for ``MinJobAge`` seconds: the executor's status command), process tracking by
``/proc`` (``proctrack/linuxproc``) and no task plugin (``task/none``), so no cgroup is needed.
The node advertises ``cpus`` CPUs whatever the machine has (``config_overrides``): jobs are
single-threaded and mostly wait on start-up, so a small machine runs several at once.
Every daemon is stopped by the process id it wrote, and only those.

The cluster's commands find it through ``SLURM_CONF``. Snakemake's job-step plugin removes the
``SLURM_*`` variables before the ``srun`` that runs a job's command (a real cluster keeps its
configuration in /etc/slurm or serves it to its nodes, "configless"), so ``bin/srun`` here sets
it again and calls the real one; the yielded environment puts ``bin/`` first in ``PATH``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

DAEMONS = ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "srun")


class ClusterUnavailable(Exception):
    """SLURM cannot start here; the message says why."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _memory_mb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) // 1024
    return 4096


def _config(folder: Path, host: str, cpus: int) -> str:
    ports = _free_port(), _free_port()
    return f"""ClusterName=lexforge
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ports[0]}
SlurmdPort={ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={folder}/run/munge.socket
CredType=cred/munge
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/run/slurmctld.pid
SlurmdPidFile={folder}/run/slurmd.pid
SlurmctldLogFile={folder}/log/slurmctld.log
SlurmdLogFile={folder}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
MinJobAge=600
ReturnToService=2
MpiDefault=none
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={_memory_mb() * 3 // 4} State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


def _stop(pid_file: Path) -> None:
    with suppress(OSError, ValueError):
        pid = int(pid_file.read_text().strip())
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.1)


def _log_tail(folder: Path) -> str:
    lines = []
    for log in sorted((folder / "log").glob("*.log")):
        lines += [f"{log.name}: {line}" for line in log.read_text(errors="replace").splitlines()]
    errors = [line for line in lines if "error" in line.lower() or "fatal" in line.lower()]
    return "; ".join((errors or lines)[-3:])


@contextmanager
def local_cluster(folder: Path, cpus: int = 4) -> Iterator[dict[str, str]]:
    """Start the cluster in ``folder``; yield the environment its commands need (SLURM_CONF),
    stop it on exit. ClusterUnavailable when it cannot start, with the reason."""
    missing = [name for name in DAEMONS if shutil.which(name) is None]
    if missing:
        raise ClusterUnavailable(f"not installed: {', '.join(missing)} (Debian slurm-wlm, munge)")
    if os.geteuid() != 0:
        raise ClusterUnavailable("slurmd must run as root (it starts jobs as their user)")
    for sub in ("key", "run", "state", "spool", "log"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    (folder / "key").chmod(0o700)
    (folder / "run").chmod(0o755)
    conf = folder / "slurm.conf"
    host = socket.gethostname().split(".")[0]
    conf.write_text(_config(folder, host, cpus))
    srun = folder / "bin/srun"
    srun.parent.mkdir(exist_ok=True)
    srun.write_text(f'#!/bin/sh\nSLURM_CONF={conf} exec {shutil.which("srun")} "$@"\n')
    srun.chmod(0o755)
    path = f"{srun.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "SLURM_CONF": str(conf), "PATH": path}
    started: list[Path] = []
    try:
        _start(folder, conf, env, started)
    except (OSError, subprocess.CalledProcessError, ClusterUnavailable) as error:
        for pid_file in reversed(started):
            _stop(pid_file)
        reason = error if isinstance(error, ClusterUnavailable) else f"cannot start: {error}"
        raise ClusterUnavailable(str(reason)) from None
    try:
        yield env
    finally:
        for pid_file in reversed(started):
            _stop(pid_file)


def _start(folder: Path, conf: Path, env: dict[str, str], started: list[Path]) -> None:
    """Generate the munge key, start munged, slurmctld and slurmd (each pid file appended to
    ``started`` once running) and wait for the node."""
    key = folder / "key/munge.key"
    subprocess.run(["mungekey", "--create", "--keyfile", str(key)], check=True, capture_output=True)
    munged = [
        "munged",
        "--force",
        f"--socket={folder}/run/munge.socket",
        f"--key-file={key}",
        f"--log-file={folder}/log/munged.log",
        f"--pid-file={folder}/run/munged.pid",
        f"--seed-file={folder}/run/munged.seed",
    ]
    for command, pid in (
        (munged, "munged.pid"),
        (["slurmctld", "-f", str(conf)], "slurmctld.pid"),
        (["slurmd", "-f", str(conf)], "slurmd.pid"),
    ):
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode:
            raise ClusterUnavailable(f"{command[0]} failed: {done.stderr.strip()[-300:]}")
        started.append(folder / "run" / pid)
    _wait_until_idle(env, folder)


def _wait_until_idle(env: dict[str, str], folder: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = subprocess.run(
            ["sinfo", "--noheader", "--format=%t"], env=env, capture_output=True, text=True
        )
        if state.stdout.strip() == "idle":
            return
        time.sleep(0.5)
    raise ClusterUnavailable(f"the node never became idle: {_log_tail(folder)}")
