"""Streaming decompression of gzip, bzip2, xz and zstd as an iterator of byte blocks.

All four formats go through one loop: feed raw blocks to a decompressor object,
start a new one on ``unused_data`` (multi-member gzip, concatenated bzip2/xz
streams, several zstd frames), and at end of input check that the last stream
reached its end marker. The check is ours, not the library's, because some
decompressors (zstandard in particular) return the data of a cut-off frame
without complaint. Output per call is bounded (``max_length``) where the
library allows it, so a highly compressible input does not blow up memory.

A gzip stream whose content starts with a given prefix (``WARC/``: the per-record
gzip layout of crawls, ISO 28500 annex D) can be read past a corrupt or cut member:
the reader looks for the next member header whose first decompressed bytes start
with that prefix again, marks the lost stretch with a :class:`Gap`, and goes on.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from typing import Any, NamedTuple

from urimine.errors import MissingExtraError

BLOCK = 1 << 20
"""Raw read size."""
OUT_CAP = 8 << 20
"""Cap on decompressed output per call: bounds memory on highly compressible input
while keeping zlib's ``unconsumed_tail`` re-copying rare."""
_ZSTD_FEED = 1 << 14
"""zstandard's decompressobj has no output cap; feed it small pieces instead."""

MAGIC: dict[str, bytes] = {
    "gzip": b"\x1f\x8b",
    "bzip2": b"BZh",
    "xz": b"\xfd7zXZ\x00",
    "zstd": b"\x28\xb5\x2f\xfd",
}


_KEEP = 16 << 20
"""Raw bytes of the current gzip member kept for finding the next member after it
breaks (a per-record member is rarely larger; past this the search starts later)."""
_TRIAL = 1 << 16
"""Raw bytes a candidate member header is given to show its first decompressed bytes."""
_GZIP_HEADER = re.compile(rb"\x1f\x8b\x08[\x00-\x1f]")
"""A gzip member header (RFC 1952 section 2.3): magic, deflate, flags with the reserved
bits clear."""


class CorruptStream(Exception):
    """A compressed stream is truncated or damaged; ``str()`` is the human reason."""


class Gap(NamedTuple):
    """In a stream of decompressed blocks: data was lost here (a corrupt or cut member)
    and reading went on at the next good member."""

    reason: str
    """Why, and where the stream went on, in words."""


class _Member:
    """One gzip member / bzip2, xz or zstd stream being decompressed.

    ``pieces(data)`` yields output in capped pieces; afterwards ``eof`` says whether
    the end marker was seen and ``leftover`` holds input past it (the next member).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.leftover = b""
        self._obj: Any
        if kind == "gzip":
            gzip = _gzip_module()
            self._obj = gzip.decompressobj(16 + gzip.MAX_WBITS)
        elif kind == "bzip2":
            import bz2

            self._obj = bz2.BZ2Decompressor()
        elif kind == "xz":
            import lzma

            self._obj = lzma.LZMADecompressor()
        else:
            self._obj = _zstd_module().ZstdDecompressor().decompressobj()

    @property
    def eof(self) -> bool:
        """True once the stream's end marker has been decoded."""
        return bool(self._obj.eof)

    def pieces(self, data: bytes) -> Iterator[bytes]:
        """Decompress *data*, at most about ``OUT_CAP`` bytes per yielded piece."""
        obj = self._obj
        if self.kind == "zstd":
            yield from self._zstd_pieces(data)
        elif self.kind == "gzip":
            yield obj.decompress(data, OUT_CAP)
            while obj.unconsumed_tail and not obj.eof:
                yield obj.decompress(obj.unconsumed_tail, OUT_CAP)
        else:
            yield obj.decompress(data, OUT_CAP)
            while not obj.eof and not obj.needs_input:
                yield obj.decompress(b"", OUT_CAP)
        if self.kind != "zstd":
            self.leftover = obj.unused_data if obj.eof else b""

    def _zstd_pieces(self, data: bytes) -> Iterator[bytes]:
        obj = self._obj
        for i in range(0, len(data), _ZSTD_FEED):
            yield obj.decompress(data[i : i + _ZSTD_FEED])
            if obj.eof:
                self.leftover = obj.unused_data + data[i + _ZSTD_FEED :]
                return
        self.leftover = b""


_GZIP: Any = None
"""The zlib-like module that inflates gzip members, once :func:`_gzip_module` chose it."""


def _gzip_module() -> Any:
    """The zlib-like module that inflates gzip members, imported at the first one: isal's
    zlib (ISA-L, the ``isal`` extra) where installed, the same interface and twice the
    stdlib's speed at inflating, the largest single cost of reading gzipped mail; else
    the stdlib's."""
    global _GZIP
    if _GZIP is None:
        try:
            from isal import isal_zlib

            _GZIP = isal_zlib
        except ImportError:
            import zlib

            _GZIP = zlib
    return _GZIP


def _zstd_module() -> Any:
    """Import zstandard lazily: it is an optional extra."""
    try:
        import zstandard
    except ImportError as exc:
        raise MissingExtraError("zstd input", "zstd") from exc
    return zstandard


_MAGICS = tuple(MAGIC.values())


def sniff_compression(head: bytes) -> str | None:
    """Name of the compression whose magic bytes start *head*, or None."""
    if not head.startswith(_MAGICS):  # one test for the common case: none
        return None
    for name, magic in MAGIC.items():
        if head.startswith(magic):
            return name
    return None


def _is_corruption(exc: Exception) -> bool:
    """Whether *exc* is a decompressor's complaint about its input."""
    import lzma
    import zlib

    if isinstance(exc, (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError)):
        return True
    # zstandard's and isal's errors have no stdlib base.
    return type(exc).__name__ in ("ZstdError", "IsalError")


def _stream(kind: str, raw: Iterator[bytes]) -> Iterator[bytes]:
    """Yield decompressed blocks of *raw*; raise CorruptStream at a bad or cut end."""
    consumed = 0
    member: _Member | None = None
    for block in raw:
        consumed += len(block)
        data = block
        while data:
            if member is None or member.eof:
                if member is not None and not data.strip(b"\x00"):
                    break  # zero padding after the last member
                if not data.startswith(MAGIC[kind][:2]):
                    raise CorruptStream(
                        f"trailing garbage after {kind} stream near byte {consumed}"
                    )
                member = _Member(kind)
            try:
                yield from member.pieces(data)
            except Exception as exc:
                if not _is_corruption(exc):
                    raise
                raise CorruptStream(f"corrupt {kind} stream near byte {consumed}: {exc}") from exc
            data = member.leftover
    if member is None or not member.eof:
        raise CorruptStream(f"truncated {kind} stream after {consumed} bytes")


def decompress_blocks(
    kind: str, raw: Iterator[bytes], resync: bytes | None = None
) -> Iterator[bytes | Gap]:
    """Decompress an iterator of raw blocks of format *kind*, skipping empty outputs.

    With *resync* (gzip only), a stream whose content starts with those bytes goes on
    after a corrupt or cut member at the next member whose content starts with them
    too, with a :class:`Gap` where data was lost; otherwise only ``bytes`` come.
    """
    stream = _resyncing(raw, resync) if resync and kind == "gzip" else _stream(kind, raw)
    for out in stream:
        if out:
            yield out


def _resyncing(raw: Iterator[bytes], prefix: bytes) -> Iterator[bytes | Gap]:
    """:func:`_stream` for gzip that resynchronises after a broken member (see the
    module docstring) once the content has been seen to start with *prefix*."""
    return _Resyncing(raw, prefix).run()


class _Resyncing:
    """The state of :func:`_resyncing`."""

    def __init__(self, raw: Iterator[bytes], prefix: bytes) -> None:
        self.blocks = _Pending(raw)
        self.prefix = prefix
        self.member: _Member | None = None
        self.member_at = 0  # where the current member starts in the stream
        self.kept: deque[bytes] = deque()  # raw blocks from the current member's start on
        self.kept_size = 0
        self.head = b""  # the first bytes of the content, until they show the prefix

    def run(self) -> Iterator[bytes | Gap]:
        for data in self.blocks:
            self._keep(data)
            while data:
                try:
                    if not self._start(data):
                        break  # zero padding after the last member
                    yield from self._pieces(data)
                except Exception as exc:
                    if not (isinstance(exc, CorruptStream) or _is_corruption(exc)):
                        raise
                    yield self._gap(exc)
                    break
                assert self.member is not None
                data = self.member.leftover
        if self.member is None or not self.member.eof:
            raise CorruptStream(f"truncated gzip stream after {self.blocks.seen} bytes")

    def _keep(self, data: bytes) -> None:
        """Keep *data* for a search after a break, up to ``_KEEP`` bytes."""
        self.kept.append(data)
        self.kept_size += len(data)
        while self.kept_size - len(self.kept[0]) > _KEEP:
            self.kept_size -= len(self.kept.popleft())

    def _start(self, data: bytes) -> bool:
        """Start a member at *data* if the last one ended; False for zero padding."""
        if self.member is not None and not self.member.eof:
            return True
        if self.member is not None and not data.strip(b"\x00"):
            return False
        if not data.startswith(MAGIC["gzip"][:2]):
            seen = self.blocks.seen
            raise CorruptStream(f"trailing garbage after gzip stream near byte {seen}")
        self.member = _Member("gzip")
        self.member_at = self.blocks.seen - len(data)
        self.kept, self.kept_size = deque([data]), len(data)
        return True

    def _pieces(self, data: bytes) -> Iterator[bytes]:
        assert self.member is not None
        for piece in self.member.pieces(data):
            if len(self.head) < len(self.prefix):
                self.head += piece[: len(self.prefix)]
            yield piece

    def _gap(self, exc: Exception) -> Gap:
        """The gap after a broken member, the stream put back at the next good one; the
        error itself when the content is not of the kind, or no good member follows."""
        if isinstance(exc, CorruptStream):
            reason = str(exc)
        elif not self.head.startswith(self.prefix):
            reason = f"corrupt gzip stream near byte {self.blocks.seen}: {exc}"
        else:
            reason = f"corrupt gzip member at byte {self.member_at}: {exc}"
        if not self.head.startswith(self.prefix):
            raise CorruptStream(reason) from exc
        at = self.blocks.resume_at(b"".join(self.kept)[1:], self.prefix)
        if at < 0:
            raise CorruptStream(reason) from exc
        self.member, self.kept, self.kept_size = None, deque(), 0
        return Gap(f"{reason}; read on from byte {at}")


class _Pending:
    """Raw blocks with a push-back: after a broken member, the search for the next one
    takes blocks from here, and puts back the stretch that starts with it."""

    def __init__(self, raw: Iterator[bytes]) -> None:
        self._raw = raw
        self._back: list[bytes] = []
        self.seen = 0
        """Raw bytes taken from the stream so far."""

    def __iter__(self) -> Iterator[bytes]:
        while True:
            if self._back:
                yield self._back.pop()
                continue
            block = next(self._raw, None)
            if block is None:
                return
            self.seen += len(block)
            yield block

    def _more(self) -> bytes | None:
        block = next(self._raw, None)
        if block is not None:
            self.seen += len(block)
        return block

    def resume_at(self, window: bytes, prefix: bytes) -> int:
        """Find the next member in *window* (the raw bytes after a broken member's first
        byte) and the stream after it whose content starts with *prefix*; put it back to
        be read next and return its stream offset, or -1 when the stream ends first."""
        end = self.seen  # stream offset just after window
        pos = 0
        while True:
            match = _GZIP_HEADER.search(window, pos)
            if match is None:
                pos = max(len(window) - 3, 0)
            elif len(window) - match.start() < _TRIAL and (block := self._more()) is not None:
                window, pos, end = window[match.start() :] + block, 0, end + len(block)
                continue
            elif _starts_with(window[match.start() : match.start() + _TRIAL], prefix):
                self._back.append(window[match.start() :])
                return end - len(window) + match.start()
            else:
                pos = match.start() + 1
                continue
            block = self._more()
            if block is None:
                return -1
            window, pos, end = window[pos:] + block, 0, end + len(block)


def _starts_with(member: bytes, prefix: bytes) -> bool:
    """Whether the gzip member at the start of *member* decompresses to *prefix* first."""
    gzip = _gzip_module()
    try:
        out = gzip.decompressobj(16 + gzip.MAX_WBITS).decompress(member, len(prefix))
    except Exception as exc:
        if not _is_corruption(exc):
            raise
        return False
    return bool(out.startswith(prefix))
