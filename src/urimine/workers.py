"""Worker processes for :mod:`urimine.parallel`: started, watched, and always stopped.

``multiprocessing.Pool`` alone can hang a run for good in three ways, each guarded here:

- A worker that dies (the OOM killer, a signal sent to it alone) takes its task with it,
  and that task's result never comes: results are awaited in slices, and between them
  the workers are checked (:class:`~urimine.errors.WorkerError`).
- ``Pool.terminate()`` joins its task-feeding thread, which may be blocked writing a
  large task into the pipe of workers it has just stopped, and it takes the lock of the
  task pipe, which a worker killed while reading it holds for good: it runs in a daemon
  thread for a bounded time, and the workers still alive after that are killed and
  reaped here.
- A generator closed while the interpreter shuts down cannot start that thread (a new
  thread never runs then): the workers are killed directly.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.pool import AsyncResult, Pool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from urimine.errors import WorkerError

__all__ = ["Workers"]

T = TypeVar("T")

_POLL = 0.5  # seconds between checks of the workers while a result is awaited
_STOP_WAIT = 2.0  # seconds Pool.terminate() is given before the workers are killed
_REAP_WAIT = 5.0  # seconds to wait for killed workers to be reaped


class Workers:
    """A pool of ``jobs`` worker processes, started by :meth:`start`; :meth:`stop` must
    end every use of it. Made first and started second, so that whoever keeps it can
    stop it whenever a signal's exception comes: before, during or after the start."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: Pool | None = None
        self.processes: list[BaseProcess] = []

    def start(self) -> None:
        """Start the worker processes; the ones started are killed again if the start is
        interrupted (a signal's exception)."""
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        before = set(multiprocessing.active_children())
        with _signals_held():  # a signal's exception comes once the pool can be stopped
            try:
                self._pool = ctx.Pool(self.jobs, initializer=_worker_init)
            except BaseException:
                _kill([p for p in multiprocessing.active_children() if p not in before])
                raise
            # The pool starts its workers before it returns; no worker ends on its own
            # during a run (no maxtasksperchild), so any of them ending means it was killed.
            self.processes = [p for p in multiprocessing.active_children() if p not in before]

    @property
    def pool(self) -> Pool:
        assert self._pool is not None, "Workers.start() first"
        return self._pool

    def submit(self, func: Callable[..., T], args: tuple[Any, ...]) -> AsyncResult[T]:
        """Queue ``func(*args)`` for a worker."""
        return self.pool.apply_async(func, args)

    def result(self, task: AsyncResult[T]) -> T:
        """The task's result, or the exception it raised in the worker; a
        :class:`WorkerError` instead of waiting for good when a worker has died."""
        while not task.ready():
            task.wait(_POLL)
            if not task.ready():
                self._check()
        return task.get()

    def _check(self) -> None:
        for process in self.processes:
            code = process.exitcode
            if code is not None:
                raise WorkerError(f"a worker process {_ended(code)}; the run cannot complete")

    def stop(self) -> None:
        """Stop and reap every worker, in bounded time whatever state the pool is in."""
        if self._pool is None:
            return
        if not sys.is_finalizing():
            stopper = threading.Thread(
                target=self._pool.terminate, name="urimine-pool-stop", daemon=True
            )
            stopper.start()
            stopper.join(_STOP_WAIT)
        _kill([p for p in self._workers() if p.exitcode is None])

    def _workers(self) -> list[BaseProcess]:
        """The workers this pool started: the first ones, and any that replaced one that
        died (``Pool._pool``, read only where the standard library has it)."""
        current = getattr(self._pool, "_pool", [])
        return self.processes + [p for p in current if p not in self.processes]


def _kill(processes: list[BaseProcess]) -> None:
    """Kill and reap ``processes``, waiting a bounded time."""
    for process in processes:
        process.kill()
    deadline = time.monotonic() + _REAP_WAIT
    for process in processes:
        process.join(max(deadline - time.monotonic(), 0.0))


def _ended(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


_HELD = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that end a run, held while the pool starts: a pool interrupted in its
constructor is out of reach, and its thread that replaces dead workers goes on."""


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Block :data:`_HELD` in this thread (the workers forked meanwhile inherit the
    mask, :func:`_worker_init` lifts it); a signal that came is delivered at the end."""
    held = {getattr(signal, name) for name in _HELD if hasattr(signal, name)}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _worker_init() -> None:
    """Ctrl-C is left to the parent, which stops the workers and reports once. A
    handler the parent set for SIGTERM or SIGHUP (which raises there) is reset to the
    default, so that these signals end a worker at once and without a traceback
    (``Pool.terminate`` stops workers with SIGTERM); an ignored signal stays ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and callable(signal.getsignal(signum)):
            signal.signal(signum, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # held while the pool started (_signals_held)
        held = {getattr(signal, name) for name in _HELD if hasattr(signal, name)}
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
