"""Scanning in worker processes with output identical to the sequential run.

Units are cut into pieces that can be scanned independently: whole small units (mail
parts, WARC records) and, for large texts, pieces that end just after a blank line,
which no candidate spans (rules._angle_multiline, rules._hyphen_gap). A text with no
blank line for ``_PIECE_LIMIT`` characters is scanned in this process, streaming, so
memory stays bounded. Results are yielded strictly in input order.

A plain UTF-8 file (``Unit.file_range``) is not read here at all: this process only
looks for blank lines near every ``_RANGE_TARGET`` bytes, and each worker reads and
decodes its own byte range. The workers report how many characters and lines their
range held, and offsets are made absolute here, in order.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import chain
from multiprocessing.pool import AsyncResult
from typing import BinaryIO, NamedTuple

from urimine.errors import SourceError
from urimine.model import Hit
from urimine.pipeline import Options, Record, Stats, _record, records_of, text_hits, unit_hits
from urimine.sources import Unit
from urimine.sources.mail import message_units
from urimine.sources.mbox import mbox_messages
from urimine.sources.text import decode_blocks
from urimine.sources.unit import Ending
from urimine.workers import Workers

__all__ = ["parallel_records"]

_PIECE_TARGET = 1 << 21  # characters of text (or bytes of mbox) sent to a worker per task
# Bytes of a file range per task: the worker reads them itself, so this process holds
# none of it, and larger tasks cost this process less (it shares the cores with them);
# the worker holds the range and its text at once (8 MiB ranges: 96 MB peak RSS).
_RANGE_TARGET = 1 << 22
_PIECE_LIMIT = 1 << 24  # look this far for a blank line before scanning in-process

_RANGE_BLOCK = 1 << 16  # bytes read at a time when looking for a blank line

# A byte range of a plain UTF-8 file that the worker reads itself: (path, start, end).
_Range = tuple[str, int, int]


class _Mbox(NamedTuple):
    """A stretch of whole mbox messages, split and decoded by the worker."""

    data: bytes


class _MboxRange(NamedTuple):
    """Bytes [start, end) of an uncompressed mbox, whole messages: read by the worker."""

    path: str
    start: int
    end: int


# One task: a list of (unit without its chunks, text, char_base, line_base). For a
# _Range the bases are unknown here: char_base is 0 for a unit's first range (the bases
# restart) and -1 for the next ones (they go on from the previous range).
_Item = tuple[Unit, str | bytes | _Range | _Mbox | _MboxRange, int, int]


def _shifted_hits(
    options: Options,
    chunks: Iterable[str],
    char_base: int,
    line_base: int,
    ending: Ending | None = None,
) -> Iterator[Hit]:
    """Hits of text that starts at ``char_base`` (a line start, ``line_base`` lines in);
    with ``ending``, of the end of a unit that may be cut short (``text_hits``)."""
    scanner = options.scanner()
    found = scanner.hits(chunks) if ending is None else text_hits(scanner, chunks, ending)
    for hit in found:
        if char_base or line_base:
            hit = hit._replace(
                start=hit.start + char_base, end=hit.end + char_base, line=hit.line + line_base
            )
        yield hit


def _scan_stream(
    unit: Unit, chunks: Iterable[str], char_base: int, line_base: int, queue: _Ordered
) -> Iterator[Record]:
    """Scan the rest of a unit in this process."""
    hits = _shifted_hits(queue.options, chunks, char_base, line_base, unit.ending)
    return records_of(unit, hits, queue.stats, queue.seen)


# What a worker sends back per hit: the index of its piece in the task, the index of the
# unit decoded from a raw mail message (-1 for a text piece), then the Hit fields. Plain
# tuples pickle several times faster than dataclass instances.
_Row = tuple[int, int, str, str, int, int, int, int, str, str, str, str, str | None, str | None]
# Per unit decoded from a raw message: piece index, unit index, part, message id, defects,
# and the message's number within its piece (0 for a single message).
_Meta = tuple[int, int, str | None, str | None, list[str], int]
# Per file range: piece index, characters and lines it held, or an error message.
_Size = tuple[int, int, int, str | None]
# One piece of a task: text, raw message bytes or a file range; char base, line base,
# source, doc index.
_Piece = tuple[str | bytes | _Range | _Mbox | _MboxRange, int, int, str, int]
# Per mbox stretch: piece index, messages, messages that gave units (documents), units.
_Batch = tuple[int, int, int, int]
# Rows, metas, sizes, batches, and how many hits the task had (rows may leave duplicates
# out).
_Result = tuple[list[_Row], list[_Meta], list[_Size], list[_Batch], int]

# Worker side, with ``unique``: the keys this worker has already sent. A worker takes its
# tasks in input order, so a key it sent before can never be a first occurrence again.
_SENT: set[str] = set()


def _scan_items(pieces: list[_Piece], options: Options, unique: bool) -> _Result:
    """Worker side: read file ranges, split mbox stretches, decode raw mail messages,
    scan each text with a fresh scanner."""
    task = _Task(options, _SENT if unique else None)
    for n, (payload, char_base, line_base, source, doc_index) in enumerate(pieces):
        if isinstance(payload, bytes):
            task.message(n, 0, payload, source, doc_index, 0)
        elif isinstance(payload, _Mbox | _MboxRange):
            stretch = payload.data if isinstance(payload, _Mbox) else task.read(n, payload)
            if stretch is None:
                break
            task.mbox(n, stretch, source)
        elif isinstance(payload, tuple):
            data = task.read(n, payload)
            if data is None:
                break
            text = data.decode("utf-8", errors="replace")
            scanner = options.scanner()
            task.take(n, -1, scanner.hits((text,)))
            # The scanner counted the lines up to its last hit: count only the rest.
            counted, lines = scanner.newlines_counted
            task.sizes.append((n, len(text), lines + text.count("\n", counted), None))
        else:
            task.take(n, -1, _shifted_hits(options, (payload,), char_base, line_base))
    return task.rows, task.metas, task.sizes, task.batches, task.counted[0]


class _Task:
    """What a worker gathers for one task (see :data:`_Result`)."""

    def __init__(self, options: Options, sent: set[str] | None) -> None:
        self.options = options
        self.sent = sent
        self.rows: list[_Row] = []
        self.metas: list[_Meta] = []
        self.sizes: list[_Size] = []
        self.batches: list[_Batch] = []
        self.counted = [0]

    def read(self, n: int, where: tuple[str, int, int]) -> bytes | None:
        """Bytes of a file range; None after noting the error as piece ``n``'s size."""
        try:
            return _read_range(*where)
        except OSError as exc:
            self.sizes.append((n, 0, 0, exc.strerror or str(exc)))
            return None

    def take(self, n: int, k: int, hits: Iterable[Hit]) -> bool:
        """Rows of hits; whether there were any."""
        found = _rows(n, k, hits, self.sent, self.counted)
        self.rows.extend(found)
        return bool(found)

    def message(self, n: int, k: int, raw: bytes, source: str, doc_index: int, number: int) -> int:
        """The units of one raw message, numbered from ``k``; returns the next number. A
        unit no row refers to needs no meta, unless it has defects."""
        for unit in message_units(raw, source, doc_index):
            if self.take(n, k, unit_hits(self.options, unit)) or unit.defects:
                self.metas.append((n, k, unit.part, unit.message_id, unit.defects, number))
            k += 1
        return k

    def mbox(self, n: int, stretch: bytes, source: str) -> None:
        """The messages of an mbox stretch, numbered from 0 within it."""
        k = messages = documents = 0
        for messages, message in enumerate(mbox_messages((stretch,)), 1):
            first = k
            k = self.message(n, k, message, source, messages - 1, messages - 1)
            documents += k > first  # as Stats.note_unit counts: messages with units
        self.batches.append((n, messages, documents, k))


def _read_range(path: str, start: int, end: int) -> bytes:
    """Bytes [start, end) of a file. The ranges start and end at line starts, so decoding
    one alone gives what decoding the whole UTF-8 file gives there. A file that ends
    before (it shrank since it was opened) is an error."""
    with open(path, "rb") as fh:
        fh.seek(start)
        data = fh.read(end - start)
    if len(data) < end - start:
        raise OSError(0, f"file shrank while being read: it ends before byte {end}")
    return data


def _range_chunks(path: str, start: int, end: int) -> Iterator[str]:
    """The text of bytes [start, end) of a UTF-8 file as chunks, read a block at a time;
    a file that ends before (it shrank since it was opened) is an error."""

    def blocks() -> Iterator[bytes]:
        with open(path, "rb") as fh:
            fh.seek(start)
            left = end - start
            while left > 0:
                block = fh.read(min(left, 1 << 20))
                if not block:
                    reason = f"file shrank while being read: it ends before byte {end}"
                    raise SourceError(path, reason)
                left -= len(block)
                yield block

    return decode_blocks(blocks(), "utf-8")


# Where a piece may end: just after a blank line (rules: no candidate spans one), and
# for an mbox just before a "From " line (RFC 4155). A needle found at k cuts at k + offset.
_BLANK_LINE = ((b"\n\n", 2), (b"\n\r\n", 3))
_FROM_LINE = ((b"\nFrom ", 1),)


def _blank_line_after(fh: BinaryIO, pos: int, end: int) -> int:
    """The first offset at or after ``pos`` that follows a blank line, ``end`` when the
    file ends first, or -1 when there is none within ``_PIECE_LIMIT`` bytes."""
    return _cut_after(fh, pos, end, _BLANK_LINE, _PIECE_LIMIT)


def _cut_after(
    fh: BinaryIO, pos: int, end: int, marks: tuple[tuple[bytes, int], ...], limit: int | None
) -> int:
    """The first cut at or after ``pos`` that ``marks`` give, ``end`` when the file ends
    first, or -1 when there is none within ``limit`` bytes. Reads a block at a time, so
    memory stays bounded; a needle cut by a block boundary is found with the next."""
    if pos >= end:
        return end
    overlap = max(len(needle) for needle, _ in marks) - 1
    at = max(pos - max(offset for _, offset in marks), 0)
    fh.seek(at)
    tail = b""
    while at < end:
        if limit is not None and at - pos >= limit:
            return -1
        block = fh.read(min(_RANGE_BLOCK, end - at))
        if not block:
            return end
        data = tail + block
        base = at - len(tail)
        cuts = [
            base + k + offset
            for needle, offset in marks
            for k in (data.find(needle, max(pos - offset - base, 0)),)
            if k >= 0
        ]
        if cuts:
            return min(cuts)
        at += len(block)
        tail = data[-overlap:]
    return end


def _rows(
    n: int, k: int, hits: Iterable[Hit], sent: set[str] | None, counted: list[int]
) -> list[_Row]:
    """Rows of ``hits`` (the piece and unit indices, then the Hit's fields), counted in
    ``counted[0]``; keys in ``sent`` are left out (and added)."""
    head = (n, k)
    if sent is None:
        rows: list[_Row] = [head + h for h in hits]
        counted[0] += len(rows)
        return rows
    rows = []
    total = 0
    for h in hits:
        total += 1
        if h.key not in sent:
            sent.add(h.key)
            rows.append(head + h)
    counted[0] += total
    return rows


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

    def __init__(
        self, workers: Workers, options: Options, window: int, stats: Stats | None, unique: bool
    ) -> None:
        self.workers = workers
        self.options = options
        self.window = window
        self.stats = stats
        self.unique = unique
        self.seen: set[str] | None = set() if unique else None
        self.inflight: deque[tuple[list[_Item], AsyncResult[_Result]]] = deque()
        # Where the next file range of the current unit starts: characters, lines; and
        # the number of the next message of the current mbox.
        self.char_base = 0
        self.line_base = 0
        self.doc_base = 0

    def submit(self, items: list[_Item]) -> Iterator[Record]:
        pieces = [(payload, cb, lb, u.source, u.doc_index) for u, payload, cb, lb in items]
        task = self.workers.submit(_scan_items, (pieces, self.options, self.unique))
        self.inflight.append((items, task))
        # The oldest task's results go out as soon as they are in, not only when the
        # window is full: output (and any write error) comes without waiting.
        while len(self.inflight) > self.window or self.inflight[0][1].ready():
            yield from self._records(*self.inflight.popleft())
            if not self.inflight:
                break

    def drain(self) -> Iterator[Record]:
        while self.inflight:
            yield from self._records(*self.inflight.popleft())

    def _records(self, items: list[_Item], result: AsyncResult[_Result]) -> Iterator[Record]:
        rows, metas, sizes, batches, counted = self.workers.result(result)
        if self.stats is not None:
            self.stats.hits += counted
        seen = self.seen
        decoded = self._decoded(items, metas, batches)
        bases = self._range_bases(items, sizes)
        for row in rows:
            if seen is not None:  # another worker may have sent the same key
                if row[11] in seen:
                    continue
                seen.add(row[11])
            n, k = row[0], row[1]
            if k >= 0:
                yield _record(decoded[(n, k)], Hit(*row[2:]))
            elif n in bases:
                cb, lb = bases[n]
                yield _record(
                    items[n][0],
                    Hit(row[2], row[3], row[4] + cb, row[5] + cb, row[6] + lb, *row[7:]),
                )
            else:
                yield _record(items[n][0], Hit(*row[2:]))
        for n, _chars, _lines, error in sizes:
            if error is not None:
                raise SourceError(items[n][0].source, error)

    def _decoded(
        self, items: list[_Item], metas: list[_Meta], batches: list[_Batch]
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
            unit = _bare(items[n][0], part, message_id, defects, number)
            decoded[(n, k)] = unit
            if stats is not None:
                stats.note_defects(unit)
        return decoded

    def _range_bases(self, items: list[_Item], sizes: list[_Size]) -> dict[int, tuple[int, int]]:
        """Where each file range starts, in characters and lines: the sums over the
        ranges of its file before it."""
        bases: dict[int, tuple[int, int]] = {}
        for n, chars, lines, _error in sizes:
            if items[n][2] == 0:
                self.char_base = self.line_base = 0
            bases[n] = (self.char_base, self.line_base)
            self.char_base += chars
            self.line_base += lines
        return bases


def _bare(
    unit: Unit,
    part: str | None = None,
    message_id: str | None = None,
    defects: list[str] | None = None,
    doc_index: int | None = None,
) -> Unit:
    """``unit`` without its text (chunks, raw message); for a unit decoded from a raw
    message, with that unit's part, message id, defects (and number, from an mbox
    stretch). Built directly: this runs once per message, and ``dataclasses.replace``
    is several times slower."""
    return Unit(
        unit.source,
        (),
        unit.doc_index if doc_index is None else doc_index,
        part if defects is not None else unit.part,
        unit.base_uri,
        message_id if defects is not None else unit.message_id,
        unit.record_id,
        unit.target_uri,
        unit.is_mail,
        unit.is_warc,
        defects if defects is not None else [],
        None,
        False,
        unit.file_range,
        unit.ending,
    )


def parallel_records(
    units: Iterable[Unit],
    options: Options,
    jobs: int,
    stats: Stats | None = None,
    *,
    unique: bool = False,
) -> Iterator[Record]:
    """Scan ``units`` with ``jobs`` worker processes; same records as sequentially.

    A unit carrying a raw mail message (``Unit.raw``) is decoded in the worker too, and
    a unit with a ``file_range`` is read by the workers. However the generator ends (it
    is exhausted or closed, an error or a signal's exception is raised in it or in its
    consumer), the workers are stopped and reaped before it returns.
    """
    workers = Workers(jobs)
    try:
        yield from _pooled_records(workers, units, options, jobs, stats, unique)
    finally:
        workers.stop()


def _pooled_records(  # noqa: C901
    workers: Workers,
    units: Iterable[Unit],
    options: Options,
    jobs: int,
    stats: Stats | None,
    unique: bool,
) -> Iterator[Record]:
    """The records of ``units``, their pieces scanned by ``workers``, in input order."""
    queue = _Ordered(workers, options, window=4 * jobs, stats=stats, unique=unique)
    batch: list[_Item] = []
    batch_size = 0
    for unit in units:
        if unit.file_range is None:
            pieces = _pieces(unit)
        elif unit.raw_mbox:
            pieces = _mbox_pieces(unit)
        else:
            pieces = _file_pieces(unit)
        for item in pieces:
            if isinstance(item, _Rest):  # no blank line for too long: scan it here
                if batch:
                    yield from queue.submit(batch)
                    batch, batch_size = [], 0
                yield from queue.drain()
                char_base, line_base = item.char_base, item.line_base
                if char_base < 0:  # the rest of a file: after the ranges scanned
                    char_base, line_base = queue.char_base, queue.line_base
                yield from _scan_stream(item.unit, item.chunks, char_base, line_base, queue)
                break
            batch.append(item)
            payload = item[1]
            if isinstance(payload, _Mbox):
                batch_size += len(payload.data)
            elif isinstance(payload, _MboxRange):
                batch_size += payload.end - payload.start
            elif isinstance(payload, tuple):
                batch_size += payload[2] - payload[1]
            else:
                batch_size += len(payload)
            if batch_size >= _PIECE_TARGET:
                yield from queue.submit(batch)
                batch, batch_size = [], 0
    if batch:
        yield from queue.submit(batch)
    yield from queue.drain()


def _file_pieces(unit: Unit) -> Iterator[_Item | _Rest]:
    """Byte ranges of a plain UTF-8 file, each ending just after a blank line."""
    assert unit.file_range is not None
    start, end = unit.file_range
    unit.chunks = ()  # taken over: the source must not read the file as well
    bare = _bare(unit)
    path = unit.source
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below; the generator may pause
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc
    with fh:
        a = start
        while a < end:
            try:
                b = _blank_line_after(fh, a + _RANGE_TARGET, end)
            except OSError as exc:
                raise SourceError(path, exc.strerror or str(exc)) from exc
            if b < 0:
                base = 0 if a == start else -1  # -1: after the ranges before it
                yield _Rest(bare, _range_chunks(path, a, end), base, base)
                return
            yield (bare, (path, a, b), 0 if a == start else -1, 0)
            a = b


def _mbox_pieces(unit: Unit) -> Iterator[_Item]:
    """Byte ranges of an uncompressed mbox, each of whole messages (cut before a line
    that starts with ``From ``, RFC 4155 section 2), read by the workers."""
    assert unit.file_range is not None
    start, end = unit.file_range
    bare = _bare(unit)
    path = unit.source
    try:
        with open(path, "rb") as fh:
            a = start
            while a < end:
                b = _from_line_after(fh, a + _RANGE_TARGET, end)
                yield (bare, _MboxRange(path, a, b), 0 if a == start else -1, 0)
                a = b
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc


def _from_line_after(fh: BinaryIO, pos: int, end: int) -> int:
    """The first offset at or after ``pos`` where a ``From `` line starts, else ``end``."""
    return _cut_after(fh, pos, end, _FROM_LINE, None)


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
        if unit.raw_mbox:  # char_base 0 marks an mbox's first stretch
            yield (bare, _Mbox(unit.raw), 0 if unit.doc_index == 0 else -1, 0)
        else:
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
    if unit.truncated:  # its end is not closed: scanned here (see pipeline.text_hits)
        yield _Rest(bare, iter((pending,)), char_base, line_base)
    elif pending or char_base == 0:
        yield (bare, pending, char_base, line_base)
