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

from urimine.sources.compress import BLOCK, MAGIC, CorruptStream, Gap, sniff_compression

SNIFF_SIZE = 1 << 16
"""How much of the head the magic/markup checks look at."""

_HEADER_LINE = re.compile(rb"[!-9;-~]+:")
_KNOWN_FIELDS = re.compile(
    rb"(?im)^(?:from|date|subject|message-id|received|return-path|mime-version|to|"
    rb"delivered-to|newsgroups|path|x-[a-z-]+|content-type|in-reply-to|references):"
)
_JSON_HEAD = re.compile(rb'\s*(?:\{\s*"|\[\s*[\[{"])')
"""A JSON text, or JSON Lines, starts with an object and its first key, or an array of
objects, arrays or strings."""
_HTML_HEAD = re.compile(rb"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S)
_MARKUP = re.compile(rb"[\xef\xbb\xbf]*\s*[<{\[]")
"""What an HTML or JSON head starts with (after a byte-order mark): the rest is text."""
_NAME_KINDS = {
    **dict.fromkeys((".warc", ".wet", ".arc"), "warc"),
    **dict.fromkeys((".mbox", ".mbx"), "mbox"),
    **dict.fromkeys((".eml", ".msg", ".mail"), "eml"),
    **dict.fromkeys((".html", ".htm", ".xhtml", ".shtml"), "html"),
    **dict.fromkeys((".json", ".jsonl", ".ndjson"), "json"),
}
"""The kind a file name's last extension says (``.warc.wet`` ends in ``.wet``)."""
_COMPRESSED_SUFFIXES = frozenset((".gz", ".bz2", ".xz", ".zst", ".zstd", ".tgz"))


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
    an I/O error) is held back in :attr:`error` until the caller reaches the end of
    the good data, so everything readable is handed out first; ``peek``, ``read``,
    ``readline`` and ``skip`` never raise it (they return less than asked), and
    :meth:`blocks` raises it at its end. A :class:`~urimine.sources.compress.Gap`
    in the stream (data lost, reading went on after it) stops ``read`` and
    ``readline`` like an end, with :attr:`gap` set, until :meth:`resume`.
    """

    def __init__(self, blocks: Iterator[bytes | Gap]) -> None:
        self._blocks = self._guard(blocks)
        self._buf = b""
        self._pos = 0
        self.error: BaseException | None = None
        """The stream error met at the end of the good data, if any."""
        self._gap: Gap | None = None  # met ahead, maybe with data before it in the buffer
        self.offset = 0
        """Bytes handed out so far (position in the decompressed stream)."""

    def _guard(self, blocks: Iterator[bytes | Gap]) -> Iterator[bytes | Gap]:
        """Pass *blocks* through, parking a stream error instead of raising it."""
        try:
            yield from blocks
        except (CorruptStream, OSError, EOFError) as exc:
            self.error = exc

    @property
    def gap(self) -> Gap | None:
        """The gap the reader stands before (all data before it read), if any."""
        return self._gap if self._pos >= len(self._buf) else None

    def _next(self) -> bytes | None:
        """The next block, or None at the end of input or at a gap."""
        if self._gap is not None:
            return None
        for block in self._blocks:
            if isinstance(block, Gap):
                self._gap = block
                return None
            return block
        return None

    def _raise_pending(self) -> None:
        """At the end of the good data: raise the parked stream error, if any."""
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def _fill(self) -> bool:
        """Append the next block to the buffer; False at end of input or at a gap."""
        block = self._next()
        if block is None:
            return False
        self._buf = self._buf[self._pos :] + block
        self._pos = 0
        return True

    def peek(self, n: int) -> bytes:
        """Up to *n* bytes from the current position, without consuming them."""
        have = len(self._buf) - self._pos
        if have < n:
            parts = [self._buf[self._pos :]]
            while have < n and (block := self._next()) is not None:
                parts.append(block)
                have += len(block)
            self._buf, self._pos = b"".join(parts), 0
        return self._buf[self._pos : self._pos + n]

    def read(self, n: int) -> bytes:
        """Up to *n* bytes; fewer only at the end of input or at a gap."""
        data = self.peek(n)
        self._pos += len(data)
        self.offset += len(data)
        return data

    def readline(self, limit: int = 1 << 16) -> bytes:
        """One line including its ``\\n`` (at most *limit* bytes); ``b""`` at the end."""
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

    def resume(self) -> None:
        """Past a gap: drop what is left before it and read on after it."""
        self.offset += len(self._buf) - self._pos
        self._buf, self._pos = b"", 0
        self._gap = None

    def skip_to_gap(self) -> bool:
        """Discard everything up to the next gap (True) or the end of input (False)."""
        while self.skip(BLOCK):
            pass
        return self._gap is not None

    def blocks(self) -> Iterator[bytes]:
        """The rest of the input as blocks (first the buffered remainder); a gap or a
        stream error is raised as :class:`CorruptStream` once the blocks before it
        are out."""
        if self._pos < len(self._buf):
            rest = self._buf[self._pos :]
            self._buf, self._pos = b"", 0
            self.offset += len(rest)
            yield rest
        while (block := self._next()) is not None:
            self.offset += len(block)
            yield block
        if self._gap is not None:
            raise CorruptStream(self._gap.reason)
        self._raise_pending()


def _looks_like_mail(head: bytes) -> bool:
    """True if *head* opens with an RFC 5322 header block naming a known field."""
    if not _HEADER_LINE.match(head):  # the first line (a field name holds no line break)
        return False
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
    dot = lower.rfind(".")
    if dot >= 0 and lower[dot:] in _COMPRESSED_SUFFIXES:
        lower = lower[:dot]
        dot = lower.rfind(".")
    return _NAME_KINDS.get(lower[dot:]) if dot >= 0 else None


_BINARY_MAGIC = (
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",  # JPEG
    b"GIF87a",
    b"GIF89a",
    b"%PDF-",
    b"PK\x03\x04",  # zip, and the formats built on it (docx, jar, epub...)
    b"PK\x05\x06",
    b"\x7fELF",
    b"\xca\xfe\xba\xbe",  # Java class, Mach-O universal
    b"\xfe\xed\xfa\xce",  # Mach-O
    b"\xfe\xed\xfa\xcf",
    b"\xce\xfa\xed\xfe",
    b"\xcf\xfa\xed\xfe",
    b"\x00asm",  # WebAssembly
    b"SQLite format 3\x00",
    b"7z\xbc\xaf\x27\x1c",
    b"Rar!\x1a\x07",
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",  # OLE2: .doc, .xls, .msg
    b"OggS",
    b"fLaC",
    b"ID3",  # MP3
    b"\x1a\x45\xdf\xa3",  # Matroska, WebM
    b"II*\x00",  # TIFF
    b"MM\x00*",
    b"wOFF",
    b"wOF2",
    b"\x04\x22\x4d\x18",  # LZ4 frame
)
"""Magic numbers of common binary formats (a file starting with one is never read)."""
_CONTROLS = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)])
"""C0 control bytes that text does not hold: all but TAB, LF, VT, FF, CR and ESC (the
escape sequences of terminal logs)."""
BINARY_SHARE = 16
"""A head with more than one byte in this many from :data:`_CONTROLS` is binary. Data
that looks random (compressed, encrypted) has 26 in 256 of them, one in 10; executables,
images and databases far more, mostly NULs; text with a stray NUL or a few control
characters (common in mail dumps and logs) far fewer. One in 16 lies between."""


def is_binary(head: bytes) -> bool:
    """Whether *head*, the first bytes of a file or payload, is binary: a known binary
    magic number, or a share of control bytes over one in :data:`BINARY_SHARE`."""
    if head.startswith(_BINARY_MAGIC) or head[4:8] == b"ftyp":  # (ISO media: MP4, HEIF)
        return True
    if head[257:262] == b"ustar":  # tar
        return True
    sample = head[:SNIFF_SIZE]
    controls = len(sample) - len(sample.translate(None, _CONTROLS))
    return controls * BINARY_SHARE > len(sample)


_MAGIC_KINDS = (*MAGIC.values(), b"WARC/1.", b"WARC/0.", b"From ", b"\xff\xfe", b"\xfe\xff")
"""The heads :func:`sniff` knows a kind by alone (compressions, WARC, mbox, UTF-16)."""


def sniff(head: bytes, name: str, nuls: bool = False) -> str:
    """Kind of an input from its first bytes, then its name.

    One of ``gzip``, ``bzip2``, ``xz``, ``zstd``, ``warc``, ``mbox``, ``eml``,
    ``html``, ``json``, ``binary``, ``text``. With *nuls* (a UTF-16 or UTF-32 encoding was
    named), control bytes do not make an input binary.
    """
    if head.startswith(_MAGIC_KINDS):
        compression = sniff_compression(head)
        if compression:
            return compression
        if head.startswith((b"WARC/1.", b"WARC/0.")):
            return "warc"
        if head.startswith(b"From "):
            return "mbox"
        if head.startswith((b"\xff\xfe", b"\xfe\xff")):
            return "text"  # UTF-16 with a byte-order mark: NULs are expected
    if head.startswith(_BINARY_MAGIC) if nuls else is_binary(head):
        return "binary"
    sample = head[:SNIFF_SIZE]
    if _HEADER_LINE.match(sample) and _looks_like_mail(sample):  # (its first test, first)
        return "eml"
    by_name = _kind_by_name(name)
    if by_name in ("eml", "html", "mbox", "json"):
        return by_name
    return _markup_kind(sample.lstrip(b"\xef\xbb\xbf")) if _MARKUP.match(sample) else "text"


def _markup_kind(head: bytes) -> str:
    """``html`` or ``json`` for a text that starts as one does, else ``text``."""
    if _HTML_HEAD.match(head):
        return "html"
    if _JSON_HEAD.match(head):
        return "json"
    return "text"
