"""Scanning in worker processes with output identical to the sequential run.

Units are cut into pieces that can be scanned independently: whole small units (mail
parts, WARC records) and, for large texts, pieces that end just after a blank line,
which no candidate spans (rules._angle_multiline, rules._hyphen_gap). A text with no
blank line for ``_PIECE_LIMIT`` characters is scanned in this process, streaming, so
memory stays bounded. Results are yielded strictly in input order.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import chain
from multiprocessing.pool import AsyncResult, Pool

from urimine.model import Hit
from urimine.pipeline import Options, Record, Stats, _record
from urimine.sources import Unit
from urimine.sources.mail import message_units

__all__ = ["parallel_records"]

_PIECE_TARGET = 1 << 20  # characters of text per task
_PIECE_LIMIT = 1 << 24  # look this far for a blank line before scanning in-process

# One task: a list of (unit without its chunks, text, char_base, line_base).
_Item = tuple[Unit, str | bytes, int, int]


def _shifted_hits(
    options: Options, chunks: Iterable[str], char_base: int, line_base: int
) -> Iterator[Hit]:
    """Hits of text that starts at ``char_base`` (a line start, ``line_base`` lines in)."""
    for hit in options.scanner().hits(chunks):
        if char_base or line_base:
            hit = Hit(
                hit.uri,
                hit.raw,
                hit.start + char_base,
                hit.end + char_base,
                hit.line + line_base,
                hit.column,
                hit.context,
                hit.kind,
                hit.scheme,
                hit.key,
                hit.alternative,
            )
        yield hit


def _scan_stream(
    unit: Unit, chunks: Iterable[str], options: Options, char_base: int, line_base: int
) -> Iterator[Record]:
    """Scan the rest of a unit in this process."""
    for hit in _shifted_hits(options, chunks, char_base, line_base):
        yield _record(unit, hit)


# What a worker sends back per hit: the index of its piece in the task, the index of the
# unit decoded from a raw mail message (-1 for a text piece), then the Hit fields. Plain
# tuples pickle several times faster than dataclass instances.
_Row = tuple[int, int, str, str, int, int, int, int, str, str, str, str, str | None]
# Per unit decoded from a raw message: piece index, unit index, part, message id, defects.
_Meta = tuple[int, int, str | None, str | None, list[str]]
# One piece of a task: text (or raw message bytes), char base, line base, source, doc index.
_Piece = tuple[str | bytes, int, int, str, int]


def _scan_items(pieces: list[_Piece], options: Options) -> tuple[list[_Row], list[_Meta]]:
    """Worker side: decode raw mail messages, scan each text with a fresh scanner."""
    rows: list[_Row] = []
    metas: list[_Meta] = []
    for n, (payload, char_base, line_base, source, doc_index) in enumerate(pieces):
        if isinstance(payload, bytes):
            for k, unit in enumerate(message_units(payload, source, doc_index)):
                rows.extend(_rows(n, k, _shifted_hits(options, unit.chunks, 0, 0)))
                metas.append((n, k, unit.part, unit.message_id, unit.defects))
        else:
            rows.extend(_rows(n, -1, _shifted_hits(options, (payload,), char_base, line_base)))
    return rows, metas


def _rows(n: int, k: int, hits: Iterable[Hit]) -> Iterator[_Row]:
    for h in hits:
        yield (
            n,
            k,
            h.uri,
            h.raw,
            h.start,
            h.end,
            h.line,
            h.column,
            h.context,
            h.kind,
            h.scheme,
            h.key,
            h.alternative,
        )


def _last_blank_line_end(text: str) -> int:
    """Index just after the last empty line (``\n\n`` or ``\n\r\n``) in ``text``, or 0.

    Any blank line is a safe cut (rules: no candidate spans one); the plainest ones are
    found with ``str.rfind`` at C speed.
    """
    lf = text.rfind("\n\n")
    crlf = text.rfind("\n\r\n")
    return max(lf + 2 if lf >= 0 else 0, crlf + 3 if crlf >= 0 else 0)


class _Ordered:
    """Tasks in flight, yielded in submission order; at most ``window`` at once."""

    def __init__(self, pool: Pool, options: Options, window: int, stats: Stats | None) -> None:
        self.pool = pool
        self.options = options
        self.window = window
        self.stats = stats
        self.inflight: deque[tuple[list[Unit], AsyncResult[tuple[list[_Row], list[_Meta]]]]]
        self.inflight = deque()

    def submit(self, items: list[_Item]) -> Iterator[Record]:
        units = [item[0] for item in items]
        pieces = [(payload, cb, lb, u.source, u.doc_index) for u, payload, cb, lb in items]
        self.inflight.append((units, self.pool.apply_async(_scan_items, (pieces, self.options))))
        while len(self.inflight) > self.window:
            yield from self._records(*self.inflight.popleft())

    def drain(self) -> Iterator[Record]:
        while self.inflight:
            yield from self._records(*self.inflight.popleft())

    def _records(
        self, units: list[Unit], result: AsyncResult[tuple[list[_Row], list[_Meta]]]
    ) -> Iterator[Record]:
        rows, metas = result.get()
        decoded: dict[tuple[int, int], Unit] = {}
        for n, k, part, message_id, defects in metas:
            unit = dataclasses.replace(
                units[n], part=part, message_id=message_id, defects=defects, raw=None
            )
            decoded[(n, k)] = unit
            if self.stats is not None:
                self.stats.note_defects(unit)
        for row in rows:
            n, k = row[0], row[1]
            unit = units[n] if k < 0 else decoded[(n, k)]
            yield _record(unit, Hit(*row[2:]))


def _bare(unit: Unit) -> Unit:
    return dataclasses.replace(unit, chunks=(), defects=[], raw=None)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and reports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def parallel_records(
    units: Iterable[Unit], options: Options, jobs: int, stats: Stats | None = None
) -> Iterator[Record]:
    """Scan ``units`` with ``jobs`` worker processes; same records as sequentially.

    A unit carrying a raw mail message (``Unit.raw``) is decoded in the worker too.
    """
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(jobs, initializer=_worker_init) as pool:
        queue = _Ordered(pool, options, window=4 * jobs, stats=stats)
        batch: list[_Item] = []
        batch_size = 0
        for unit in units:
            for item in _pieces(unit):
                if isinstance(item, _Rest):  # no blank line for too long: scan it here
                    if batch:
                        yield from queue.submit(batch)
                        batch, batch_size = [], 0
                    yield from queue.drain()
                    yield from _scan_stream(
                        item.unit, item.chunks, options, item.char_base, item.line_base
                    )
                    break
                batch.append(item)
                batch_size += len(item[1])
                if batch_size >= _PIECE_TARGET:
                    yield from queue.submit(batch)
                    batch, batch_size = [], 0
        if batch:
            yield from queue.submit(batch)
        yield from queue.drain()


@dataclasses.dataclass
class _Rest:
    """The remainder of a unit that has to be scanned sequentially."""

    unit: Unit
    chunks: Iterator[str]
    char_base: int
    line_base: int


def _pieces(unit: Unit) -> Iterator[_Item | _Rest]:
    """Cut a unit's text just after blank lines, into pieces of about _PIECE_TARGET."""
    bare = _bare(unit)
    if unit.raw is not None:
        yield (bare, unit.raw, 0, 0)
        return
    chunks = iter(unit.chunks)
    pending = ""
    char_base = line_base = 0
    for chunk in chunks:
        pending += chunk
        if len(pending) < _PIECE_TARGET:
            continue
        cut = _last_blank_line_end(pending)
        if cut == 0:
            if len(pending) < _PIECE_LIMIT:
                continue
            yield _Rest(bare, chain((pending,), chunks), char_base, line_base)
            return
        piece, pending = pending[:cut], pending[cut:]
        yield (bare, piece, char_base, line_base)
        char_base += len(piece)
        line_base += piece.count("\n")
    if pending or char_base == 0:
        yield (bare, pending, char_base, line_base)
