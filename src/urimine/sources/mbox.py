"""Mailbox containers: mbox streams split on ``\\nFrom ``, and Maildir directories.

An mbox is read in large blocks and cut at every line that starts with
``From `` (RFC 4155 section 2: mboxo and mboxrd agree on that). Inside a
message, lines matching ``^>+From `` lose one ``>``: this is mboxrd
unescaping, and for mboxo it undoes the only escaping there is. Memory holds
one message plus one block, and a message is held up to a cap only
(:data:`~urimine.sources.limits.MAX_MESSAGE`; the rest of it is skipped, and
:func:`~urimine.sources.mail.message_units` reports it). When the stream breaks, the
message it broke in comes out as :class:`~urimine.sources.unit.CutBytes` before the
error.

The splitter hands out each message as a span of the buffer it was found in,
so that the envelope line can be dropped with the one slice that copies the
message out, instead of one copy to cut the message and a second to drop it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator

from urimine.sources._heap import release
from urimine.sources.compress import BLOCK
from urimine.sources.limits import MAX_MESSAGE
from urimine.sources.unit import CutBytes

_FROM = b"From "
_FROM_SEARCH = re.compile(re.escape(_FROM)).search
"""``bytes.find`` for ``From ``, about twice as fast on mail: ``find`` keys its skips
on the last byte, a space, which text is full of; the regex engine scans for ``F``."""
_ESCAPED_FROM = re.compile(rb"\n>(>*From )")
"""A quoted ``From `` line with the line break before it: a literal start, which the
regex engine looks for quickly, where ``^`` in multiline mode is tried at every byte."""
_LF, _GT = 0x0A, 0x3E
_HELD = MAX_MESSAGE + (1 << 16)
"""Bytes of one message held at most: over the cap however long its ``From `` line."""


def _has_text(data: bytes, start: int, end: int) -> bool:
    """Whether ``data[start:end]`` holds anything but ASCII white space, without copying it."""
    # bytes.isspace() knows the same six characters as bytes.strip(); it stops at the
    # first other byte, where strip() would copy the whole message first.
    if start >= end:
        return False
    if not data[start : start + 1].isspace() or not data[end - 1 : end].isspace():
        return True
    return not data[start:end].isspace()


def _mbox_spans(blocks: Iterable[bytes]) -> Iterator[tuple[bytes, int, int, bool, bool]]:
    """Yield ``(buffer, start, end, quoted, cut)`` for each raw message, ``From `` line
    included; *cut* for the last one when the stream broke in it (or its last block is
    :class:`CutBytes`).

    One search pass over the stream looks for ``From ``: after a line break
    it starts a new message (RFC 4155 section 2), after ``>`` it is a quoted
    ``From `` line, so *quoted* tells whether the message may need unescaping
    without a second search through it. ``scan`` is where the search resumes;
    the last four bytes of a block are searched again with the next block, in
    case a ``From `` straddles the two. A long message is set aside in ``parked``
    up to ``_HELD`` bytes; the rest of it is only searched.
    """
    parked: list[bytes] = []
    held = 0
    data = b""
    start = scan = 0
    quoted = cut = False
    try:
        for block in blocks:
            cut = isinstance(block, CutBytes)
            data = data[start:] + block if data else block
            scan -= start
            start = 0
            while (hit := _FROM_SEARCH(data, scan)) is not None:
                i = hit.start()
                scan = i + 1
                before = data[i - 1] if i else -1
                if before == _LF:
                    if parked:
                        yield from _parked_span(parked, data[start:i][: _HELD - held], quoted)
                        parked, held = [], 0
                    elif _has_text(data, start, i):
                        yield data, start, i, quoted, False
                    start = i
                    quoted = False
                elif before == _GT:
                    quoted = True
            scan = max(len(data) - len(_FROM) + 1, start)
            if len(data) - start > BLOCK:
                # A long message: set most of it aside so it is not searched again.
                keep = len(data) - len(_FROM)
                if held < _HELD:
                    parked.append(data[start:keep][: _HELD - held])
                    held += len(parked[-1])
                data = data[keep:]
                scan -= keep
                start = 0
    except Exception:
        # The stream broke: the message it broke in comes out before the error.
        yield from _last_span(parked, held, data, start, quoted, True)
        raise
    yield from _last_span(parked, held, data, start, quoted, cut)


def _parked_span(
    parked: list[bytes], rest: bytes, quoted: bool
) -> Iterator[tuple[bytes, int, int, bool, bool]]:
    """The span of a long message set aside in ``parked``, if it holds any text."""
    message = b"".join([*parked, rest])
    if _has_text(message, 0, len(message)):
        yield message, 0, len(message), quoted, False


def _last_span(
    parked: list[bytes], held: int, data: bytes, start: int, quoted: bool, cut: bool
) -> Iterator[tuple[bytes, int, int, bool, bool]]:
    """The span of the last message of :func:`_mbox_spans`, if it holds any text."""
    message = b"".join([*parked, data[start:][: _HELD - held]]) if parked else data
    first = 0 if parked else start
    if _has_text(message, first, len(message)):
        yield message, first, len(message), quoted, cut


def split_mbox(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """Yield the raw messages of an mbox stream, each still with its ``From `` line."""
    for data, start, end, _, _ in _mbox_spans(blocks):
        yield data if start == 0 and end == len(data) else data[start:end]


def _unescape(raw: bytes) -> bytes:
    """Undo ``>From `` quoting (RFC 4155 section 2, mboxrd).

    A line break put in front lets the first line match like the others.
    """
    return _ESCAPED_FROM.sub(rb"\n\1", b"\n" + raw)[1:]


def unescape_message(raw: bytes) -> bytes:
    """Drop the envelope ``From `` line and undo ``>From `` quoting."""
    if raw.startswith(_FROM):
        nl = raw.find(b"\n")
        raw = raw[nl + 1 :] if nl >= 0 else b""
    return _unescape(raw) if b">From " in raw else raw


def mbox_messages(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """The messages of an mbox stream, envelope removed and unescaped; one the stream
    broke in as :class:`CutBytes`."""
    for data, start, end, quoted, cut in _mbox_spans(blocks):
        if data.startswith(_FROM, start, end):
            nl = data.find(b"\n", start, end)
            start = nl + 1 if nl >= 0 else end
        raw = data[start:end]
        if quoted:
            raw = _unescape(raw)
        yield CutBytes(raw) if cut else raw


def mbox_batches(blocks: Iterable[bytes], target: int) -> Iterator[bytes]:
    """Cut an mbox stream into stretches of whole messages, each at least ``target``
    bytes (but the last), for worker processes: every cut is just before a ``From ``
    line (RFC 4155 section 2), so :func:`mbox_messages` gives, batch after batch, the
    messages it gives on the whole stream. A message over the cap is a stretch of its
    own, its first ``_HELD`` bytes (the rest is skipped, as :func:`mbox_messages` does);
    when the stream breaks, the message it broke in is the last stretch, as
    :class:`CutBytes`. Memory: one batch plus one message up to the cap."""
    batcher = _Batcher(target)
    try:
        for block in blocks:
            yield from batcher.add(block)
    except Exception:
        # The stream broke (truncated, corrupt): the messages before the last "From "
        # line are whole; the one after it was cut. Both go out before the error.
        yield from batcher.broken()
        raise
    if batcher.buf:
        yield batcher.buf


class _Batcher:
    """The state of :func:`mbox_batches`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.buf = b""
        self.last = -1  # start of the last "From " line seen in buf (never 0)
        self.batches = 0
        self.skipping = False  # in the rest of a message over the cap
        self.tail = b""  # the last bytes skipped, in case a "From " line straddles

    def add(self, block: bytes) -> Iterator[bytes]:
        if self.skipping:
            data = self.tail + block
            k = data.find(b"\n" + _FROM)
            if k < 0:
                self.tail = data[-len(_FROM) :]
                return
            self.skipping, block = False, data[k + 1 :]
        seen = len(self.buf)
        self.buf += block
        k = self.buf.rfind(b"\n" + _FROM, max(seen - len(_FROM), 0))
        if k >= 0:
            self.last = k + 1
        if len(self.buf) >= self.target and self.last > 0:
            yield from self._cut(self.last)
        opened = max(self.last, 0)
        if len(self.buf) - opened > _HELD:  # the open message is over the cap
            if opened:
                yield from self._cut(opened)
            yield self.buf[:_HELD]
            self.tail = self.buf[-len(_FROM) :]
            self.buf, self.last, self.skipping = b"", -1, True

    def _cut(self, at: int) -> Iterator[bytes]:
        yield self.buf[:at]
        self.buf = self.buf[at:]
        k = self.buf.rfind(b"\n" + _FROM)
        self.last = k + 1 if k >= 0 else -1
        self.batches += 1
        if self.batches % 16 == 0:
            release()  # large buffers come and go: keep resident memory flat

    def broken(self) -> Iterator[bytes]:
        cut = max(self.last, 0)
        whole, rest = self.buf[:cut], self.buf[cut:]
        if whole:
            yield whole
        if _has_text(rest, 0, len(rest)):
            yield CutBytes(rest)


def is_maildir(path: str) -> bool:
    """A directory with ``cur/`` and/or ``new/`` is a Maildir."""
    return os.path.isdir(os.path.join(path, "cur")) or os.path.isdir(os.path.join(path, "new"))


def maildir_files(path: str) -> list[str]:
    """Entries of a Maildir's ``cur/`` then ``new/``, each sorted by name (dot files
    left out): every one should be a message file."""
    files: list[str] = []
    for sub in ("cur", "new"):
        folder = os.path.join(path, sub)
        if not os.path.isdir(folder):
            continue
        names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
        files.extend(os.path.join(folder, n) for n in names)
    return files


def maildir_messages(
    path: str, progress: Callable[[int], None] | None = None
) -> Iterator[tuple[int, str, bytes | OSError]]:
    """Each Maildir message as ``(number, file, bytes)``, read whole (up to a little over
    the cap: a message is the unit of memory anyway), or with the error that kept it
    from being read instead of its bytes; the others are read all the same."""
    for number, name in enumerate(maildir_files(path)):
        try:
            yield number, name, _read_message(name, progress)
        except OSError as exc:
            yield number, name, exc


def _read_message(name: str, progress: Callable[[int], None] | None) -> bytes:
    """The bytes of one message file; only a regular file is opened (a FIFO would
    block the run)."""
    if not stat.S_ISREG(os.stat(name).st_mode):
        raise OSError(errno.EINVAL, "not a regular file")
    with open(name, "rb") as fh:
        data = fh.read(_HELD)
    if progress is not None:
        progress(len(data))
    return data
