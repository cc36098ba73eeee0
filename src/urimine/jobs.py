"""How many worker processes a run uses (``-j``).

Workers pay for themselves on large inputs only: each is a process that builds its own
compiled tables (a few tenths of a second of CPU), every hit travels back through a
pipe, and this process still reads and cuts the input. Below some hundreds of megabytes
a run with workers takes more CPU time than one without, and on a busy machine no less
wall time. So by default a run scans in this process until the inputs it has opened
reach :data:`PER_WORKER` bytes for each of two workers, and from there on uses one
worker per :data:`PER_WORKER` bytes, at most one per CPU it may use
(:func:`workers_for`); a number given with ``-j`` is obeyed, up to the CPUs the process
may use.
"""

from __future__ import annotations

import os
from collections.abc import Callable

__all__ = ["PER_WORKER", "WorkerPlan", "requested_jobs", "usable_cpus", "workers_for"]

PER_WORKER = 256 << 20
"""Bytes of input (as stored: compressed input counts compressed) that each worker
process of the default ``-j`` takes to pay for its start."""


def workers_for(input_bytes: int, cpus: int | None = None) -> int:
    """The worker processes the default ``-j`` uses once the inputs opened so far hold
    ``input_bytes``: one per :data:`PER_WORKER` bytes, at most one per usable CPU
    (``cpus``, by default :func:`usable_cpus`), and 1 (none: this process scans) when
    that is less than two."""
    count = input_bytes // PER_WORKER
    if count < 2:
        return 1
    count = min(count, cpus if cpus is not None else usable_cpus())
    return count if count >= 2 else 1


class WorkerPlan:
    """Whether each input of a run goes to worker processes, asked with its size in
    bytes as it is opened (``plan(size)``). A fixed ``jobs`` decides once; None decides
    by the inputs opened so far (:func:`workers_for`), and once workers are chosen they
    take the rest of the run. :attr:`jobs` is the number chosen so far."""

    def __init__(self, jobs: int | None) -> None:
        self.auto = jobs is None
        self.jobs = 1 if jobs is None else max(jobs, 1)
        self.opened = 0

    def __call__(self, size: int) -> bool:
        if self.auto and self.jobs == 1:
            self.opened += max(size, 0)
            self.jobs = workers_for(self.opened)
        return self.jobs > 1


def requested_jobs(jobs: int | None, notice: Callable[[str], None] | None = None) -> int | None:
    """The ``-j`` of a run: None (not given) stays None, the default, which
    :func:`urimine.pipeline.iter_records` decides by the input's size as it goes; a given
    number is capped at the CPUs this process may use (``notice`` says so): the workers
    only compute, so more of them cannot be faster, and each costs memory."""
    if jobs is None or jobs <= 1:
        return jobs
    usable = usable_cpus()
    if jobs > usable:
        if notice is not None:
            notice(f"-j {jobs}: {usable} worker processes, one per usable CPU")
        return usable
    return jobs


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity mask (``os.process_cpu_count`` on
    Python 3.13+), lowered to its cgroup's CPU quota (a container's ``--cpus``)."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        cpus = counter() or 1
    elif hasattr(os, "sched_getaffinity"):
        cpus = len(os.sched_getaffinity(0)) or 1
    else:
        cpus = os.cpu_count() or 1
    quota = cgroup_cpu_quota()
    if quota is not None:
        cpus = min(cpus, max(int(quota + 0.5), 1))
    return max(cpus, 1)


_CGROUP_ROOT = "/sys/fs/cgroup"


def cgroup_cpu_quota() -> float | None:
    """The CPU time this process's cgroup may use, in CPUs (``cpu.max`` of cgroup v2,
    ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` of v1), or None when there is no
    quota or it cannot be read (not Linux, no cgroup file system)."""
    for folder in _cgroup_folders():
        quota = _v2_quota(folder) or _v1_quota(folder)
        if quota is not None:
            return quota
    return None


def _cgroup_folders() -> list[str]:
    """Where this process's CPU controller files may be: its own cgroup (from
    ``/proc/self/cgroup``), then the root of the mount (a container's own cgroup)."""
    folders = []
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        controllers, path = parts[1], parts[2].lstrip("/")
        if controllers == "":
            folders.append(os.path.join(_CGROUP_ROOT, path))
        elif "cpu" in controllers.split(","):
            folders.append(os.path.join(_CGROUP_ROOT, controllers, path))
            folders.append(os.path.join(_CGROUP_ROOT, "cpu", path))
    folders += [_CGROUP_ROOT, os.path.join(_CGROUP_ROOT, "cpu")]
    return folders


def _v2_quota(folder: str) -> float | None:
    fields = _read_fields(os.path.join(folder, "cpu.max"))
    if len(fields) != 2 or fields[0] == "max":
        return None
    return _ratio(fields[0], fields[1])


def _v1_quota(folder: str) -> float | None:
    quota = _read_fields(os.path.join(folder, "cpu.cfs_quota_us"))
    period = _read_fields(os.path.join(folder, "cpu.cfs_period_us"))
    if len(quota) != 1 or len(period) != 1:
        return None
    return _ratio(quota[0], period[0])


def _ratio(quota: str, period: str) -> float | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    return q / p if q > 0 and p > 0 else None


def _read_fields(path: str) -> list[str]:
    try:
        with open(path, encoding="ascii") as fh:
            return fh.read().split()
    except (OSError, ValueError):
        return []
