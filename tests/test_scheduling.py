"""pipeline.scheduling: Snakemake's scheduler keeps one reevaluation timer pending, not a chain
per finished job (snakemake/snakemake#3744)."""

from __future__ import annotations

import threading
import time

from snakemake.scheduling.job_scheduler import JobScheduler

from pipeline.scheduling import single_reevaluation_timer


class Scheduler:
    """What ``_schedule_reevalutation`` uses of a JobScheduler: the semaphore waking its loop."""

    def __init__(self) -> None:
        self._open_jobs = threading.Semaphore(0)


def wake_ups(scheduler: Scheduler) -> int:
    count = 0
    while scheduler._open_jobs.acquire(blocking=False):
        count += 1
    return count


def test_one_timer_pending_at_a_time():
    assert single_reevaluation_timer()
    scheduler = Scheduler()
    for _ in range(5):  # five rounds of the loop (finished jobs) within one timespan
        JobScheduler._schedule_reevalutation(scheduler, 0.05)
    assert scheduler._lexforge_timer.daemon  # Snakemake does not wait for it to exit
    time.sleep(0.3)
    assert wake_ups(scheduler) == 1  # Snakemake's own method: 5 (one timer per round)
    JobScheduler._schedule_reevalutation(scheduler, 0.05)  # once it has fired, a new one
    time.sleep(0.3)
    assert wake_ups(scheduler) == 1
