"""Scanning in worker processes, with the records of the sequential run, in its order.

Units are cut into pieces that can be scanned independently (:mod:`.cut`), gathered
into tasks that the workers decode and scan (:mod:`.task`), and the results are turned
back into records in input order (:mod:`.order`). The pool itself, and how it is always
stopped, is :mod:`urimine.workers`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from urimine.errors import SourceError
from urimine.parallel.cut import Item, Rest, TaskSizes, items
from urimine.parallel.order import Ordered
from urimine.pipeline import Options, Record, Stats
from urimine.sources import Unit

__all__ = ["TaskSizes", "parallel_records"]


def parallel_records(
    units: Iterable[Unit],
    options: Options,
    jobs: int,
    stats: Stats | None = None,
    *,
    unique: bool = False,
    seen: set[str] | None = None,
    on_error: Callable[[SourceError], None] | None = None,
    sizes: TaskSizes | None = None,
) -> Iterator[Record]:
    """Scan ``units`` with ``jobs`` worker processes; the records of the sequential run.

    A unit carrying a raw mail message (``Unit.raw``) is decoded in the worker too, and
    a unit with a ``file_range`` is read by the workers. The first task is done in this
    process, and the workers are started with the second (:mod:`.order`). With
    ``unique`` only the first record of each key comes (``seen``: the keys already
    given, which it adds to). An input error met in a worker (a range that cannot be
    read, a file that shrank) is passed to ``on_error`` in its place in the order, the
    rest of its unit dropped, and the run goes on; without ``on_error`` it is raised.
    However the generator ends (exhausted or closed, an error or a signal's exception
    raised in it or in its consumer), the workers are stopped and reaped before it
    returns.
    """
    if unique and seen is None:
        seen = set()
    queue = Ordered(
        jobs,
        options,
        sizes or TaskSizes(),
        stats=stats,
        seen=seen if unique else None,
        on_error=on_error,
    )
    try:
        yield from _pooled_records(queue, units)
    finally:
        queue.stop()


def _pooled_records(queue: Ordered, units: Iterable[Unit]) -> Iterator[Record]:
    """The records of ``units``, their pieces scanned by the workers, in input order."""
    for unit in units:
        for item in _items(unit, queue):
            if isinstance(item, Rest):  # no blank line for too long: scanned here
                yield from queue.rest(item)
                break
            queue.add(item)
            yield from queue.ready()
    yield from queue.drain()


def _items(unit: Unit, queue: Ordered) -> Iterator[Item | Rest]:
    """The pieces of ``unit``; an error met while cutting it (it cannot be opened or
    read) is queued for its place in the order."""
    try:
        yield from items(unit, queue.sizes)
    except SourceError as err:
        queue.fail(err)
