"""The worker side of parallel scanning: a task of pieces in, plain rows out.

A piece is a text, a raw mail message, a stretch of mbox messages, or a byte range of a
file that the worker reads itself. The worker decodes and scans each with a fresh
scanner and sends back plain tuples (they pickle several times faster than objects),
which :mod:`urimine.parallel.order` turns into records in input order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from urimine.model import Hit
from urimine.pipeline import Options, Stats, text_hits, unit_hits
from urimine.sources._heap import release
from urimine.sources.mail import message_units
from urimine.sources.mbox import mbox_messages
from urimine.sources.unit import CutBytes, Ending

__all__ = [
    "FileRange",
    "Mbox",
    "MboxRange",
    "Piece",
    "Result",
    "read_range",
    "scan_pieces",
    "shifted_hits",
]


class FileRange(NamedTuple):
    """Bytes [start, end) of a plain UTF-8 file, from a line start to a line start: read
    and decoded by the worker."""

    path: str
    start: int
    end: int


class Mbox(NamedTuple):
    """A stretch of whole mbox messages, split and decoded by the worker."""

    data: bytes


class MboxRange(NamedTuple):
    """Bytes [start, end) of an uncompressed mbox, whole messages: read by the worker."""

    path: str
    start: int
    end: int


Payload = str | bytes | FileRange | Mbox | MboxRange
"""A text, a raw mail message (``bytes``), or one of the above."""
Piece = tuple[Payload, int, int, str, int]
"""One piece of a task: payload, character base, line base, source, document index."""
Row = tuple[
    int, int, str, str, int, int, int, int, str, str, str, str, str | None, bool, str | None
]
"""Per hit: the index of its piece in the task, the index of the unit decoded from a raw
message (-1 for a text), then the fields of the :class:`Hit`."""
Meta = tuple[int, int, str | None, str | None, list[str], int]
"""Per unit decoded from a raw message: piece index, unit index, part, message id,
defects, and the number of its message within its piece (0 for a single message)."""
Size = tuple[int, int, int]
"""Per file range: piece index, characters and lines it held."""
Failure = tuple[int, str]
"""Per piece that could not be read, or not completely: piece index, the reason."""
Batch = tuple[int, int, int, int]
"""Per mbox stretch: piece index, messages, messages that gave units, units."""
Result = tuple[list[Row], list[Meta], list[Size], list[Batch], list[Failure], int, int]
"""Rows, metas, sizes, batches, failures, how many hits there were (rows may leave
repeated keys out), and how many characters of text were scanned."""

RELEASE_EVERY = 32 << 20
"""Characters a worker scans between two hand-backs of its freed heap pages
(:func:`urimine.sources._heap.release`, as the main process does every 32 chunks): tasks
of large texts free megabyte strings of varying sizes, which fragment the heap of a
long-lived worker. Each hand-back costs the pages touched again after it, so not after
every task."""
_SCANNED = [0]
"""Worker side: characters scanned since the last hand-back."""

# Worker side, with ``unique``: the keys this worker has already sent. A worker takes its
# tasks in input order, so a key it sent before can never be a first occurrence again.
_SENT: set[str] = set()


def scan_pieces(pieces: list[Piece], options: Options, unique: bool) -> Result:
    """Read file ranges, split mbox stretches, decode raw mail messages, and scan each
    text with a fresh scanner (runs in a worker)."""
    task = _Task(options, _SENT if unique else None)
    for n, (payload, char_base, line_base, source, doc_index) in enumerate(pieces):
        if isinstance(payload, str):
            task.stats.chars += len(payload)
            task.take(n, -1, shifted_hits(options, (payload,), char_base, line_base))
        elif isinstance(payload, bytes):
            task.message(n, 0, payload, source, doc_index, 0)
        elif isinstance(payload, FileRange):
            task.file_range(n, payload)
        else:
            task.mbox(n, payload, source)
    _SCANNED[0] += task.stats.chars
    if _SCANNED[0] >= RELEASE_EVERY:
        _SCANNED[0] = 0
        release()  # a worker lives for the whole run: its heap must not creep up
    return (
        task.rows,
        task.metas,
        task.sizes,
        task.batches,
        task.failures,
        task.counted,
        task.stats.chars,
    )


class _Task:
    """What a worker gathers for one task (see :data:`Result`)."""

    def __init__(self, options: Options, sent: set[str] | None) -> None:
        self.options = options
        self.sent = sent
        self.rows: list[Row] = []
        self.metas: list[Meta] = []
        self.sizes: list[Size] = []
        self.batches: list[Batch] = []
        self.failures: list[Failure] = []
        self.counted = 0
        self.stats = Stats()

    def take(self, n: int, k: int, hits: Iterable[Hit]) -> bool:
        """Rows of hits (keys already sent left out); whether there were any."""
        head = (n, k)
        sent = self.sent
        before = len(self.rows)
        total = 0
        if sent is None:
            found: list[Row] = [head + h for h in hits]
            total = len(found)
            self.rows.extend(found)
        else:
            for h in hits:
                total += 1
                if h.key not in sent:
                    sent.add(h.key)
                    self.rows.append(head + h)
        self.counted += total
        return len(self.rows) > before

    def file_range(self, n: int, where: FileRange) -> None:
        """Scan a byte range of a file. A range that ends early (the file shrank) is
        scanned as a text cut short, and the error noted with its size."""
        data, error = read_range(where)
        text = data.decode("utf-8", errors="replace")
        self.stats.chars += len(text)
        scanner = self.options.scanner()
        if error is None:
            self.take(n, -1, scanner.hits((text,)))
        else:
            self.take(n, -1, text_hits(scanner, (text,), Ending(cut=True)))
        # The scanner counted the lines up to its last hit: count only the rest.
        counted, lines = scanner.newlines_counted
        self.sizes.append((n, len(text), lines + text.count("\n", counted)))
        if error is not None:
            self.failures.append((n, error))

    def message(self, n: int, k: int, raw: bytes, source: str, doc_index: int, number: int) -> int:
        """The units of one raw message, numbered from ``k``; returns the next number. A
        unit no row refers to needs no meta, unless it has defects."""
        for unit in message_units(raw, source, doc_index):
            if self.take(n, k, unit_hits(self.options, unit, self.stats)) or unit.defects:
                self.metas.append((n, k, unit.part, unit.message_id, unit.defects, number))
            k += 1
        return k

    def mbox(self, n: int, payload: Mbox | MboxRange, source: str) -> None:
        """The messages of an mbox stretch, numbered from 0 within it; of a range that
        ends early, the last message is cut short and the error noted."""
        if isinstance(payload, Mbox):
            stretch, error = payload.data, None
        else:
            stretch, error = read_range(payload)
            if error is not None:
                stretch = CutBytes(stretch)
                self.failures.append((n, error))
        k = messages = documents = 0
        for messages, message in enumerate(mbox_messages((stretch,)), 1):
            first = k
            k = self.message(n, k, message, source, messages - 1, messages - 1)
            documents += k > first  # as Stats.note_unit counts: messages with units
        self.batches.append((n, messages, documents, k))


def read_range(where: FileRange | MboxRange) -> tuple[bytes, str | None]:
    """Bytes [start, end) of a file, and None; or what could be read and why not all of
    it (the file shrank since it was opened, or cannot be read)."""
    path, start, end = where
    try:
        with open(path, "rb") as fh:
            fh.seek(start)
            data = fh.read(end - start)
    except OSError as exc:
        return b"", exc.strerror or str(exc)
    if len(data) < end - start:
        return data, f"file shrank while being read: it ends before byte {end}"
    return data, None


def shifted_hits(
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
    if not (char_base or line_base):
        yield from found
        return
    for hit in found:
        start, end, line = hit[2:5]
        yield Hit(hit[0], hit[1], start + char_base, end + char_base, line + line_base, *hit[5:])
