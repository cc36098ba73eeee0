"""Mailbox containers: mbox streams split on ``\\nFrom ``, and Maildir directories.

An mbox is read in large blocks and cut at every line that starts with
``From `` (mboxo and mboxrd agree on that). Inside a message, lines matching
``^>+From `` lose one ``>``: this is mboxrd unescaping, and for mboxo it undoes
the only escaping there is. Memory holds one message plus one block.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator

from urimine.sources.compress import BLOCK

_SEPARATOR = b"\nFrom "
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.M)


def split_mbox(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """Yield the raw messages of an mbox stream, each still with its ``From `` line."""
    parked: list[bytes] = []
    rest = b""
    for block in blocks:
        data = rest + block
        start = 0
        while True:
            cut = data.find(_SEPARATOR, start)
            if cut < 0:
                break
            message = data[start : cut + 1]
            if parked:
                message = b"".join([*parked, message])
                parked = []
            if message.strip():
                yield message
            start = cut + 1
        rest = data[start:]
        if len(rest) > BLOCK:
            # A long message: set most of it aside so it is not searched again.
            parked.append(rest[:-5])
            rest = rest[-5:]
    message = b"".join([*parked, rest])
    if message.strip():
        yield message


def unescape_message(raw: bytes) -> bytes:
    """Drop the envelope ``From `` line and undo ``>From `` quoting."""
    if raw.startswith(b"From "):
        nl = raw.find(b"\n")
        raw = raw[nl + 1 :] if nl >= 0 else b""
    if b">From " in raw:
        raw = _ESCAPED_FROM.sub(rb"\1", raw)
    return raw


def mbox_messages(blocks: Iterable[bytes]) -> Iterator[bytes]:
    """The messages of an mbox stream, envelope removed and unescaped."""
    for raw in split_mbox(blocks):
        yield unescape_message(raw)


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
