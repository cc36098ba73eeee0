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

from urimine.model import Hit, Rejection
from urimine.pipeline import Options, Record, _record
from urimine.sources import Unit

__all__ = ["parallel_records"]

_PIECE_TARGET = 1 << 20  # characters of text per task
_PIECE_LIMIT = 1 << 24  # look this far for a blank line before scanning in-process

# One task: a list of (unit without its chunks, text, char_base, line_base).
_Item = tuple[Unit, str, int, int]


def _scan_chunks(options: Options, chunks: Iterable[str]) -> Iterator[Hit | Rejection]:
    scanner = options.scanner()
    for chunk in chunks:
        yield from scanner.feed(chunk)
    yield from scanner.close()


def _shifted_hits(
    options: Options, chunks: Iterable[str], char_base: int, line_base: int
) -> Iterator[Hit]:
    """Hits of text that starts at ``char_base`` (a line start, ``line_base`` lines in)."""
    for hit in _scan_chunks(options, chunks):
        if not isinstance(hit, Hit):
            continue
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


# What a worker sends back per hit: the index of its piece in the task, then the Hit
# fields. Plain tuples pickle several times faster than dataclass instances.
_Row = tuple[int, str, str, int, int, int, int, str, str, str, str, str | None]


def _scan_items(texts: list[tuple[str, int, int]], options: Options) -> list[_Row]:
    """Worker side: scan each piece with a fresh scanner."""
    out: list[_Row] = []
    for n, (text, char_base, line_base) in enumerate(texts):
        for h in _shifted_hits(options, (text,), char_base, line_base):
            out.append(
                (
                    n,
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
            )
    return out


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

    def __init__(self, pool: Pool, options: Options, window: int) -> None:
        self.pool = pool
        self.options = options
        self.window = window
        self.inflight: deque[tuple[list[Unit], AsyncResult[list[_Row]]]] = deque()

    def submit(self, items: list[_Item]) -> Iterator[Record]:
        units = [item[0] for item in items]
        texts = [(text, char_base, line_base) for _, text, char_base, line_base in items]
        self.inflight.append((units, self.pool.apply_async(_scan_items, (texts, self.options))))
        while len(self.inflight) > self.window:
            yield from self._records(*self.inflight.popleft())

    def drain(self) -> Iterator[Record]:
        while self.inflight:
            yield from self._records(*self.inflight.popleft())

    @staticmethod
    def _records(units: list[Unit], result: AsyncResult[list[_Row]]) -> Iterator[Record]:
        for row in result.get():
            yield _record(units[row[0]], Hit(*row[1:]))


def _bare(unit: Unit) -> Unit:
    return dataclasses.replace(unit, chunks=(), defects=[])


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and reports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def parallel_records(units: Iterable[Unit], options: Options, jobs: int) -> Iterator[Record]:
    """Scan ``units`` with ``jobs`` worker processes; same records as sequentially."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(jobs, initializer=_worker_init) as pool:
        queue = _Ordered(pool, options, window=4 * jobs)
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
