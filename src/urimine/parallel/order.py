"""The parent side of parallel scanning: tasks in flight, their records in input order.

Pieces are gathered into tasks of about :attr:`TaskSizes.text`; at most a window of
tasks is in flight. The first task is scanned here, and the worker processes are started
after it, with the second: they are forked from this process, so they start with the
tables its scanner built in the first task instead of each building them again (and a
run of a single task starts none). Each task's rows become records once every task
before it has been turned into records, so the output is the sequential run's. An input
error (a file range that cannot be read, a file that shrank) takes its place in that
order too: it is reported after the records read before it, the rest of its unit is
dropped, and the run goes on with the next input, as in one process.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.pool import AsyncResult

from urimine.errors import SourceError
from urimine.model import Hit
from urimine.parallel.cut import Item, Rest, TaskSizes, bare, payload_size
from urimine.parallel.task import Batch, Failure, Meta, Result, Size, scan_pieces, shifted_hits
from urimine.pipeline import Options, Record, Stats, count_chars, record, records_of
from urimine.sources import Unit
from urimine.workers import Workers

__all__ = ["Ordered"]

_Task = tuple[list[Item], "AsyncResult[Result] | Result"]


class Ordered:
    """Tasks in flight and input errors, turned into records in submission order."""

    def __init__(
        self,
        jobs: int,
        options: Options,
        sizes: TaskSizes,
        *,
        stats: Stats | None,
        seen: set[str] | None,
        on_error: Callable[[SourceError], None] | None,
    ) -> None:
        self.jobs = jobs
        self.workers: Workers | None = None  # started with the second task
        self.options = options
        self.sizes = sizes
        self.window = 4 * jobs
        self.stats = stats
        self.seen = seen
        self.on_error = on_error
        self.inflight: deque[_Task | SourceError] = deque()
        self.batch: list[Item] = []
        self.batch_size = 0
        self.failed: Unit | None = None  # the unit an error was reported for
        self.started = False  # whether a task was scanned or submitted
        # Where the next file range of the current unit starts: characters, lines; and
        # the number of the next message of the current mbox.
        self.char_base = 0
        self.line_base = 0
        self.doc_base = 0

    def add(self, item: Item) -> None:
        """Queue a piece; a full batch goes to the workers."""
        self.batch.append(item)
        self.batch_size += payload_size(item[1])
        if self.batch_size >= self.sizes.text:
            self._submit()

    def fail(self, err: SourceError) -> None:
        """Report ``err`` once the pieces queued before it have given their records."""
        self._submit()
        self.inflight.append(err)

    def ready(self) -> Iterator[Record]:
        """The records of the oldest tasks as soon as they are in (output, and any write
        error, come without waiting), and until the window is no longer over-full."""
        inflight = self.inflight
        while inflight and (len(inflight) > self.window or _done(inflight[0])):
            yield from self._next()

    def drain(self) -> Iterator[Record]:
        """The records of everything queued."""
        self._submit()
        while self.inflight:
            yield from self._next()

    def rest(self, rest: Rest) -> Iterator[Record]:
        """Scan the rest of a unit in this process, after everything queued."""
        yield from self.drain()
        char_base, line_base = rest.char_base, rest.line_base
        if char_base < 0:  # the rest of a file: after the ranges scanned
            if self.failed is rest.unit:
                return
            char_base, line_base = self.char_base, self.line_base
        unit = rest.unit
        chunks = rest.chunks if self.stats is None else count_chars(rest.chunks, self.stats)
        hits = shifted_hits(self.options, chunks, char_base, line_base, unit.ending)
        try:
            yield from records_of(unit, hits, self.stats, self.seen)
        except SourceError as err:
            self._report(unit, err)

    def stop(self) -> None:
        """Stop and reap the workers, if they were started."""
        if self.workers is not None:
            self.workers.stop()

    def _submit(self) -> None:
        if not self.batch:
            return
        items = self.batch
        pieces = [(payload, cb, lb, u.source, u.doc_index) for u, payload, cb, lb in items]
        if self.workers is None and not self.inflight and not self.started:
            # The first task, here (keys not noted as sent: this process has no workers'
            # state to keep, and its records are filtered by ``seen`` all the same).
            self.started = True
            self.inflight.append((items, scan_pieces(pieces, self.options, False)))
        else:
            if self.workers is None:
                self.workers = Workers(self.jobs)  # kept first: stop() may come any time
                self.workers.start()
            args = (pieces, self.options, self.seen is not None)
            self.inflight.append((items, self.workers.submit(scan_pieces, args)))
        self.batch, self.batch_size = [], 0

    def _next(self) -> Iterator[Record]:
        head = self.inflight.popleft()
        if isinstance(head, SourceError):
            self._report(None, head)
            return
        items, task = head
        if isinstance(task, tuple):
            yield from self._records(items, task)
        else:
            assert self.workers is not None
            yield from self._records(items, self.workers.result(task))

    def _report(self, unit: Unit | None, err: SourceError) -> None:
        """Report an input error (raise it without ``on_error``); the rest of ``unit`` is
        dropped."""
        if self.on_error is None:
            raise err
        if unit is not None:
            self.failed = unit
        self.on_error(err)

    def _records(self, items: list[Item], result: Result) -> Iterator[Record]:
        rows, metas, sizes, batches, failures, counted, chars = result
        if self.stats is not None:
            self.stats.hits += counted
            self.stats.chars += chars
        seen = self.seen
        decoded = self._decoded(items, metas, batches)
        bases = self._range_bases(items, sizes)
        failed = self.failed
        for row in rows:
            if seen is not None:  # another worker may have sent the same key
                if row[11] in seen:
                    continue
                seen.add(row[11])
            n, k = row[0], row[1]
            unit = items[n][0]
            if unit is failed:
                continue
            if k >= 0:
                yield record(decoded[(n, k)], Hit(*row[2:]))
            elif n in bases:
                cb, lb = bases[n]
                yield record(
                    unit, Hit(row[2], row[3], row[4] + cb, row[5] + cb, row[6] + lb, *row[7:])
                )
            else:
                yield record(unit, Hit(*row[2:]))
        self._failures(items, failures)

    def _failures(self, items: list[Item], failures: list[Failure]) -> None:
        for n, reason in failures:
            unit = items[n][0]
            if unit is not self.failed:  # one error per unit, the first
                self._report(unit, SourceError(unit.source, reason))

    def _decoded(
        self, items: list[Item], metas: list[Meta], batches: list[Batch]
    ) -> dict[tuple[int, int], Unit]:
        """The units the workers decoded from raw messages, by (piece, unit index); the
        messages of an mbox stretch numbered on from the stretches before it."""
        stats = self.stats
        first_message: dict[int, int] = {}
        for n, messages, documents, units in batches:
            if items[n][2] == 0:  # the first stretch of an mbox
                self.doc_base = 0
            first_message[n] = self.doc_base
            self.doc_base += messages
            if stats is not None:
                stats.documents += documents
                stats.units += units
        decoded: dict[tuple[int, int], Unit] = {}
        for n, k, part, message_id, defects, message in metas:
            base = first_message.get(n)
            number = None if base is None else base + message
            unit = bare(items[n][0], part, message_id, defects, number)
            decoded[(n, k)] = unit
            if stats is not None:
                stats.note_defects(unit)
        return decoded

    def _range_bases(self, items: list[Item], sizes: list[Size]) -> dict[int, tuple[int, int]]:
        """Where each file range starts, in characters and lines: the sums over the
        ranges of its file before it."""
        bases: dict[int, tuple[int, int]] = {}
        for n, chars, lines in sizes:
            if items[n][2] == 0:
                self.char_base = self.line_base = 0
            bases[n] = (self.char_base, self.line_base)
            self.char_base += chars
            self.line_base += lines
        return bases


def _done(head: _Task | SourceError) -> bool:
    return isinstance(head, SourceError) or isinstance(head[1], tuple) or head[1].ready()
