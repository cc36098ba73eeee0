"""Streaming decompression of gzip, bzip2, xz and zstd as an iterator of byte blocks.

All four formats go through one loop: feed raw blocks to a decompressor object,
start a new one on ``unused_data`` (multi-member gzip, concatenated bzip2/xz
streams, several zstd frames), and at end of input check that the last stream
reached its end marker. The check is ours, not the library's, because some
decompressors (zstandard in particular) return the data of a cut-off frame
without complaint. Output per call is bounded (``max_length``) where the
library allows it, so a highly compressible input does not blow up memory.
"""

from __future__ import annotations

import bz2
import lzma
import zlib
from collections.abc import Iterator
from typing import Any

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


class CorruptStream(Exception):
    """A compressed stream is truncated or damaged; ``str()`` is the human reason."""


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
            self._obj = _GZIP.decompressobj(16 + _GZIP.MAX_WBITS)
        elif kind == "bzip2":
            self._obj = bz2.BZ2Decompressor()
        elif kind == "xz":
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


def _gzip_module() -> Any:
    """isal's zlib (ISA-L, the ``isal`` extra) where installed: the same interface and
    twice the stdlib's speed at inflating, the largest single cost of reading
    gzipped mail; else the stdlib's."""
    try:
        from isal import isal_zlib
    except ImportError:
        return zlib
    return isal_zlib


_GZIP: Any = _gzip_module()
"""The zlib-like module that inflates gzip members (see :func:`_gzip_module`)."""


def _zstd_module() -> Any:
    """Import zstandard lazily: it is an optional extra."""
    try:
        import zstandard
    except ImportError as exc:
        raise MissingExtraError("zstd input", "zstd") from exc
    return zstandard


def sniff_compression(head: bytes) -> str | None:
    """Name of the compression whose magic bytes start *head*, or None."""
    for name, magic in MAGIC.items():
        if head.startswith(magic):
            return name
    return None


def _is_corruption(exc: Exception) -> bool:
    """Whether *exc* is a decompressor's complaint about its input."""
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


def decompress_blocks(kind: str, raw: Iterator[bytes]) -> Iterator[bytes]:
    """Decompress an iterator of raw blocks of format *kind*, skipping empty outputs."""
    for out in _stream(kind, raw):
        if out:
            yield out
