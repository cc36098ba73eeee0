"""Cutting units into pieces that workers can scan independently.

Whole small units (mail messages, WARC records) are one piece each. A large text is cut
just after a blank line, which no candidate spans (rules._angle_multiline,
rules._hyphen_gap); a text with no blank line for :attr:`TaskSizes.blank_line_limit`
characters is left to this process (:class:`Rest`), streaming, so memory stays bounded.
A plain UTF-8 file (``Unit.file_range``) is not read here at all: only the blank lines
near every :attr:`TaskSizes.file_range` bytes are looked for, and the workers read the
ranges between them. An uncompressed mbox is cut the same way, before ``From `` lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from typing import BinaryIO

from urimine.errors import SourceError
from urimine.parallel.task import FileRange, Mbox, MboxRange, Payload
from urimine.sources import Unit
from urimine.sources.text import decode_blocks

__all__ = [
    "Item",
    "Rest",
    "TaskSizes",
    "bare",
    "blank_line_after",
    "from_line_after",
    "items",
    "payload_size",
]


@dataclass(frozen=True)
class TaskSizes:
    """How large the tasks sent to worker processes are."""

    text: int = 1 << 21
    """Characters of text (or bytes of mbox) per task."""
    file_range: int = 1 << 22
    """Bytes of a plain file per task, read by the worker itself: this process holds
    none of it, and larger tasks cost it less (it shares the cores with the workers);
    a worker holds the range and its text at once."""
    blank_line_limit: int = 1 << 24
    """How far to look for a blank line before scanning the rest in this process."""


_READ_BLOCK = 1 << 16  # bytes read at a time when looking for a cut

Item = tuple[Unit, Payload, int, int]
"""One piece with its unit (without its text), its character base and its line base.
For a file range the bases are unknown here: the character base is 0 for a unit's first
range (the bases restart) and -1 for the next ones (they go on from the range before);
for an mbox stretch 0 marks the first stretch of an mbox."""


@dataclass
class Rest:
    """The remainder of a unit that has to be scanned in this process. A character base
    of -1 means: after the file ranges of this unit sent before it."""

    unit: Unit
    chunks: Iterator[str]
    char_base: int
    line_base: int


def items(unit: Unit, sizes: TaskSizes) -> Iterator[Item | Rest]:
    """The pieces of ``unit``; a :class:`Rest`, if any, comes last."""
    if unit.file_range is None:
        return _text_items(unit, sizes)
    if unit.raw_mbox:
        return _mbox_items(unit, sizes)
    return _file_items(unit, sizes)


def payload_size(payload: Payload) -> int:
    """The bytes or characters a piece's payload stands for."""
    if isinstance(payload, str | bytes):
        return len(payload)
    if isinstance(payload, Mbox):
        return len(payload.data)
    return payload.end - payload.start


def bare(
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


def _file_items(unit: Unit, sizes: TaskSizes) -> Iterator[Item | Rest]:
    """Byte ranges of a plain UTF-8 file, each ending just after a blank line."""
    assert unit.file_range is not None
    start, end = unit.file_range
    unit.chunks = ()  # taken over: the source must not read the file as well
    whole = bare(unit)
    path = unit.source
    with _opened(path) as fh:
        a = start
        while a < end:
            try:
                b = blank_line_after(fh, a + sizes.file_range, end, sizes.blank_line_limit)
            except OSError as exc:
                raise SourceError(path, exc.strerror or str(exc)) from exc
            base = 0 if a == start else -1
            if b < 0:
                yield Rest(whole, _range_chunks(path, a, end), base, base)
                return
            yield (whole, FileRange(path, a, b), base, 0)
            a = b


def _mbox_items(unit: Unit, sizes: TaskSizes) -> Iterator[Item]:
    """Byte ranges of an uncompressed mbox, each of whole messages (cut before a line
    that starts with ``From ``, RFC 4155 section 2), read by the workers."""
    assert unit.file_range is not None
    start, end = unit.file_range
    whole = bare(unit)
    path = unit.source
    with _opened(path) as fh:
        a = start
        while a < end:
            try:
                b = from_line_after(fh, a + sizes.file_range, end)
            except OSError as exc:
                raise SourceError(path, exc.strerror or str(exc)) from exc
            yield (whole, MboxRange(path, a, b), 0 if a == start else -1, 0)
            a = b


def _opened(path: str) -> BinaryIO:
    try:
        return open(path, "rb")  # the callers close it
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc


def _text_items(unit: Unit, sizes: TaskSizes) -> Iterator[Item | Rest]:
    """A unit's text cut just after blank lines, into pieces of about ``sizes.text``."""
    whole = bare(unit)
    if unit.raw is not None:
        if unit.raw_mbox:  # char_base 0 marks an mbox's first stretch
            yield (whole, Mbox(unit.raw), 0 if unit.doc_index == 0 else -1, 0)
        else:
            yield (whole, unit.raw, 0, 0)
        return
    chunks = iter(unit.chunks)
    pending = ""
    char_base = line_base = 0
    for chunk in chunks:
        pending += chunk
        if len(pending) < sizes.text:
            continue
        cut = last_blank_line_end(pending)
        if cut == 0:
            if len(pending) < sizes.blank_line_limit:
                continue
            yield Rest(whole, chain((pending,), chunks), char_base, line_base)
            return
        piece, pending = pending[:cut], pending[cut:]
        yield (whole, piece, char_base, line_base)
        char_base += len(piece)
        line_base += piece.count("\n")
    if unit.truncated:  # its end is not closed: scanned here (see unit_scan.text_hits)
        yield Rest(whole, iter((pending,)), char_base, line_base)
    elif pending or char_base == 0:
        yield (whole, pending, char_base, line_base)


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


def last_blank_line_end(text: str) -> int:
    """Index just after the last empty line (``\\n\\n`` or ``\\n\\r\\n``) in ``text``, or 0.
    Any blank line is a safe cut (rules: no candidate spans one); the plainest ones are
    found with ``str.rfind`` at C speed."""
    lf = text.rfind("\n\n")
    crlf = text.rfind("\n\r\n")
    return max(lf + 2 if lf >= 0 else 0, crlf + 3 if crlf >= 0 else 0)


# Where a piece may end: just after a blank line (rules: no candidate spans one), and
# for an mbox just before a "From " line (RFC 4155). A needle found at k cuts at k + offset.
_BLANK_LINE = ((b"\n\n", 2), (b"\n\r\n", 3))
_FROM_LINE = ((b"\nFrom ", 1),)


def blank_line_after(fh: BinaryIO, pos: int, end: int, limit: int) -> int:
    """The first offset at or after ``pos`` that follows a blank line, ``end`` when the
    file ends first, or -1 when there is none within ``limit`` bytes."""
    return _cut_after(fh, pos, end, _BLANK_LINE, limit)


def from_line_after(fh: BinaryIO, pos: int, end: int) -> int:
    """The first offset at or after ``pos`` where a ``From `` line starts, else ``end``."""
    return _cut_after(fh, pos, end, _FROM_LINE, None)


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
        block = fh.read(min(_READ_BLOCK, end - at))
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
