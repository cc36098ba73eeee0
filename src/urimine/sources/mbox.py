"""Mailbox containers: mbox streams split on ``\\nFrom ``, and Maildir directories.

An mbox is read in large blocks and cut at every line that starts with
``From `` (RFC 4155 section 2: mboxo and mboxrd agree on that). Inside a
message, lines matching ``^>+From `` lose one ``>``: this is mboxrd
unescaping, and for mboxo it undoes the only escaping there is. Memory holds
one message plus one block.

The splitter hands out each message as a span of the buffer it was found in,
so that the envelope line can be dropped with the one slice that copies the
message out, instead of one copy to cut the message and a second to drop it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator

from urimine.sources._heap import release
from urimine.sources.compress import BLOCK

_FROM = b"From "
_FROM_SEARCH = re.compile(re.escape(_FROM)).search
"""``bytes.find`` for ``From ``, about twice as fast on mail: ``find`` keys its skips
on the last byte, a space, which text is full of; the regex engine scans for ``F``."""
_ESCAPED_FROM = re.compile(rb"\n>(>*From )")
"""A quoted ``From `` line with the line break before it: a literal start, which the
regex engine looks for quickly, where ``^`` in multiline mode is tried at every byte."""
_LF, _GT = 0x0A, 0x3E


def _has_text(data: bytes, start: int, end: int) -> bool:
    """Whether ``data[start:end]`` holds anything but ASCII white space, without copying it."""
    # bytes.isspace() knows the same six characters as bytes.strip(); it stops at the
    # first other byte, where strip() would copy the whole message first.
    if start >= end:
        return False
    if not data[start : start + 1].isspace() or not data[end - 1 : end].isspace():
        return True
    return not data[start:end].isspace()


def _mbox_spans(blocks: Iterable[bytes]) -> Iterator[tuple[bytes, int, int, bool]]:
    """Yield ``(buffer, start, end, quoted)`` for each raw message, ``From `` line included.

    One search pass over the stream looks for ``From ``: after a line break
    it starts a new message (RFC 4155 section 2), after ``>`` it is a quoted
    ``From `` line, so *quoted* tells whether the message may need unescaping
    without a second search through it. ``scan`` is where the search resumes;
    the last four bytes of a block are searched again with the next block, in
    case a ``From `` straddles the two.
    """
    parked: list[bytes] = []
    data = b""
    start = scan = 0
    quoted = False
    for block in blocks:
        data = data[start:] + block if data else block
        scan -= start
        start = 0
        while (hit := _FROM_SEARCH(data, scan)) is not None:
            i = hit.start()
            scan = i + 1
            before = data[i - 1] if i else -1
            if before == _LF:
                if parked:
                    message = b"".join([*parked, data[start:i]])
                    parked = []
                    if _has_text(message, 0, len(message)):
                        yield message, 0, len(message), quoted
                elif _has_text(data, start, i):
                    yield data, start, i, quoted
                start = i
                quoted = False
            elif before == _GT:
                quoted = True
        scan = max(len(data) - len(_FROM) + 1, start)
        if len(data) - start > BLOCK:
            # A long message: set most of it aside so it is not searched again.
            keep = len(data) - len(_FROM)
            parked.append(data[start:keep])
            data = data[keep:]
            scan -= keep
            start = 0
    message = b"".join([*parked, data[start:]]) if parked else data
    first = 0 if parked else start
    if _has_text(message, first, len(message)):
        yield message, first, len(message), quoted


def split_mbox(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """Yield the raw messages of an mbox stream, each still with its ``From `` line."""
    for data, start, end, _ in _mbox_spans(blocks):
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
    """The messages of an mbox stream, envelope removed and unescaped."""
    for data, start, end, quoted in _mbox_spans(blocks):
        if data.startswith(_FROM, start, end):
            nl = data.find(b"\n", start, end)
            start = nl + 1 if nl >= 0 else end
        raw = data[start:end]
        yield _unescape(raw) if quoted else raw


def mbox_batches(blocks: Iterable[bytes], target: int) -> Iterator[bytes]:
    """Cut an mbox stream into stretches of whole messages, each at least ``target``
    bytes (but the last), for worker processes: every cut is just before a ``From ``
    line (RFC 4155 section 2), so :func:`mbox_messages` gives, batch after batch, the
    messages it gives on the whole stream. Memory: one batch plus one message."""
    buf = b""
    last = -1  # start of the last "From " line seen in buf (never 0: nothing before it)
    batches = 0
    try:
        for block in blocks:
            seen = len(buf)
            buf += block
            k = buf.rfind(b"\n" + _FROM, max(seen - len(_FROM), 0))
            if k >= 0:
                last = k + 1
            if len(buf) >= target and last > 0:
                yield buf[:last]
                buf = buf[last:]
                k = buf.rfind(b"\n" + _FROM)
                last = k + 1 if k >= 0 else -1
                batches += 1
                if batches % 16 == 0:
                    release()  # large buffers come and go: keep resident memory flat
    except Exception:
        # The stream broke (truncated, corrupt): the messages before the last "From "
        # line are whole, and go out before the error, as mbox_messages has them.
        if last > 0:
            yield buf[:last]
        raise
    if buf:
        yield buf


def is_maildir(path: str) -> bool:
    """A directory with ``cur/`` and/or ``new/`` is a Maildir."""
    return os.path.isdir(os.path.join(path, "cur")) or os.path.isdir(os.path.join(path, "new"))


def maildir_files(path: str) -> list[str]:
    """Message files of a Maildir: ``cur/`` then ``new/``, each sorted by name."""
    files: list[str] = []
    for sub in ("cur", "new"):
        folder = os.path.join(path, sub)
        if not os.path.isdir(folder):
            continue
        names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
        files.extend(os.path.join(folder, n) for n in names)
    return [f for f in files if os.path.isfile(f)]


def maildir_messages(path: str, progress: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """Read each Maildir message whole (a message is the unit of memory anyway)."""
    for name in maildir_files(path):
        with open(name, "rb") as fh:
            data = fh.read()
        if progress is not None:
            progress(len(data))
        yield data
