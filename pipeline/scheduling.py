"""A workaround for Snakemake's scheduler, which wakes up more and more often as a build goes on.

With a job rate limit (``--max-jobs-per-timespan``, by default 100 jobs a second), every round of
Snakemake's scheduling loop starts a timer that runs another round one timespan later
(``JobScheduler._schedule_reevalutation``), and that round starts another timer. Each finished
job also runs a round, so each one adds a chain of timers that lasts to the end of the build:
about 1,000 rounds in a default build instead of about 100, each sizing every input of every
ready job and setting up their params again (Snakemake 9.27; upstream: snakemake/snakemake#3744).
The timers are not daemon threads, so Snakemake also waits for the last ones before it exits.

``single_reevaluation_timer`` keeps one such timer pending at a time, as a daemon thread: a round
still runs within one timespan of any other, as the rate limit needs, and the jobs run in the
same order.
"""

from __future__ import annotations

import threading

from snakemake.scheduling.job_scheduler import JobScheduler


def single_reevaluation_timer() -> bool:
    """Make Snakemake's scheduler keep at most one reevaluation timer pending; False (and nothing
    changed) if this Snakemake has no such method."""
    if not hasattr(JobScheduler, "_schedule_reevalutation"):
        return False

    def schedule_reevaluation(self: JobScheduler, delay: float) -> None:
        pending = getattr(self, "_lexforge_timer", None)
        if pending is not None and pending.is_alive():
            return
        timer = threading.Timer(delay, self._open_jobs.release)
        timer.daemon = True
        timer.start()
        self._lexforge_timer = timer

    JobScheduler._schedule_reevalutation = schedule_reevaluation
    return True
