"""Peekable block reader and the content sniffer that picks an input's kind.

Inputs are handled as iterators of byte blocks so that files, stdin and
decompressed streams look alike and nothing needs ``seek``. :class:`BlockReader`
adds what the format readers need on top: peeking at the head for magic bytes,
``readline`` and exact ``read`` for WARC, and plain block iteration for mbox and
text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import BinaryIO

from urimine.sources.compress import BLOCK, CorruptStream, sniff_compression

SNIFF_SIZE = 1 << 16
"""How much of the head the magic/markup checks look at."""

_HEADER_LINE = re.compile(rb"[!-9;-~]+:")
_KNOWN_FIELDS = re.compile(
    rb"(?im)^(?:from|date|subject|message-id|received|return-path|mime-version|to|"
    rb"delivered-to|newsgroups|path|x-[a-z-]+|content-type|in-reply-to|references):"
)
_HTML_HEAD = re.compile(rb"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S)
_NAME_KINDS = (
    ((".warc", ".wet", ".warc.wet", ".arc"), "warc"),
    ((".mbox", ".mbx"), "mbox"),
    ((".eml", ".msg", ".mail"), "eml"),
    ((".html", ".htm", ".xhtml", ".shtml"), "html"),
)
_COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst", ".zstd", ".tgz")


def raw_blocks(
    fileobj: BinaryIO, progress: Callable[[int], None] | None = None, size: int = BLOCK
) -> Iterator[bytes]:
    """Read *fileobj* in blocks of *size*, reporting each block's length to *progress*."""
    while True:
        block = fileobj.read(size)
        if not block:
            return
        if progress is not None:
            progress(len(block))
        yield block


class BlockReader:
    """A pull reader over an iterator of byte blocks, with peek, readline and read.

    Memory stays bounded by one block plus whatever the caller asks for in one
    ``read``/``readline``. A stream error (truncated or corrupt compressed data,
    an I/O error) is held back until the caller reaches the end of the good
    data, so everything readable is handed out first; ``peek`` never raises it.
    """

    def __init__(self, blocks: Iterator[bytes]) -> None:
        self._blocks = self._guard(blocks)
        self._buf = b""
        self._pos = 0
        self._error: BaseException | None = None
        self.offset = 0
        """Bytes handed out so far (position in the decompressed stream)."""

    def _guard(self, blocks: Iterator[bytes]) -> Iterator[bytes]:
        """Pass *blocks* through, parking a stream error instead of raising it."""
        try:
            yield from blocks
        except (CorruptStream, OSError, EOFError) as exc:
            self._error = exc

    def _raise_pending(self) -> None:
        """At the end of the good data: raise the parked stream error, if any."""
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _fill(self) -> bool:
        """Append the next block to the buffer; False at end of input."""
        for block in self._blocks:
            self._buf = self._buf[self._pos :] + block
            self._pos = 0
            return True
        return False

    def peek(self, n: int) -> bytes:
        """Up to *n* bytes from the current position, without consuming them."""
        have = len(self._buf) - self._pos
        if have < n:
            parts = [self._buf[self._pos :]]
            for block in self._blocks:
                parts.append(block)
                have += len(block)
                if have >= n:
                    break
            self._buf, self._pos = b"".join(parts), 0
        return self._buf[self._pos : self._pos + n]

    def read(self, n: int) -> bytes:
        """Up to *n* bytes; fewer only at end of input."""
        data = self.peek(n)
        self._pos += len(data)
        self.offset += len(data)
        if len(data) < n:
            self._raise_pending()
        return data

    def readline(self, limit: int = 1 << 16) -> bytes:
        """One line including its ``\\n`` (at most *limit* bytes); ``b""`` at end."""
        scanned = 0
        while True:
            avail = len(self._buf) - self._pos
            nl = self._buf.find(b"\n", self._pos + scanned, self._pos + min(avail, limit))
            if nl >= 0:
                return self.read(nl + 1 - self._pos)
            if avail >= limit:
                return self.read(limit)
            scanned = avail
            if not self._fill():
                return self.read(avail)

    def skip(self, n: int) -> int:
        """Discard *n* bytes without holding them; returns how many were skipped."""
        done = 0
        while done < n:
            got = len(self.read(min(n - done, BLOCK)))
            if not got:
                break
            done += got
        return done

    def blocks(self) -> Iterator[bytes]:
        """The rest of the input as blocks (first the buffered remainder)."""
        if self._pos < len(self._buf):
            rest = self._buf[self._pos :]
            self._buf, self._pos = b"", 0
            self.offset += len(rest)
            yield rest
        for block in self._blocks:
            self.offset += len(block)
            yield block
        self._raise_pending()


def _looks_like_mail(head: bytes) -> bool:
    """True if *head* opens with an RFC 5322 header block naming a known field."""
    end = head.find(b"\n\n")
    end2 = head.find(b"\r\n\r\n")
    cut = min(x for x in (end, end2, len(head)) if x >= 0)
    lines = head[:cut].splitlines()
    if len(lines) < 2 or not _HEADER_LINE.match(lines[0]):
        return False
    for line in lines[:-1]:  # the last line may be cut by the head size
        if not (line[:1] in (b" ", b"\t") or _HEADER_LINE.match(line)):
            return False
    return _KNOWN_FIELDS.search(head[:cut]) is not None


def _kind_by_name(name: str) -> str | None:
    """The kind an input's file name suggests, ignoring a compression suffix."""
    lower = name.lower()
    for suffix in _COMPRESSED_SUFFIXES:
        if lower.endswith(suffix):
            lower = lower[: -len(suffix)]
            break
    for suffixes, kind in _NAME_KINDS:
        if lower.endswith(suffixes):
            return kind
    return None


def sniff(head: bytes, name: str) -> str:
    """Kind of an input from its first bytes, then its name.

    One of ``gzip``, ``bzip2``, ``xz``, ``zstd``, ``warc``, ``mbox``, ``eml``,
    ``html``, ``binary``, ``text``.
    """
    compression = sniff_compression(head)
    if compression:
        return compression
    if head.startswith((b"WARC/1.", b"WARC/0.")):
        return "warc"
    if head.startswith(b"From "):
        return "mbox"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "text"  # UTF-16 with a byte-order mark: NULs are expected
    if b"\x00" in head:
        return "binary"
    if _looks_like_mail(head[:SNIFF_SIZE]):
        return "eml"
    by_name = _kind_by_name(name)
    if by_name in ("eml", "html", "mbox"):
        return by_name
    if _HTML_HEAD.match(head[:SNIFF_SIZE].lstrip(b"\xef\xbb\xbf")):
        return "html"
    return "text"
