"""Plain text: bytes blocks to ``str`` chunks through an incremental decoder.

The decoder keeps the tail of a multibyte sequence that a block boundary cut,
so the text is the same however the bytes were split. Line ends are left as
they are (no ``\\r\\n`` translation), which keeps the decoding split-invariant
and the offsets true to the file.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator

from urimine.sources._heap import release

CHUNK_CHARS = 1 << 20
"""Target size of yielded chunks; small decompressor outputs are merged up to it."""
_RELEASE_EVERY = 32
"""Chunks between two hand-backs of freed heap memory (:func:`_heap.release`)."""


def pick_encoding(head: bytes, encoding: str | None) -> str:
    """The encoding to decode with: *encoding* if given, else by BOM, else UTF-8."""
    if encoding:
        return encoding
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8"


def check_encoding(encoding: str) -> bool:
    """Whether *encoding* names a text codec usable on bytes."""
    try:
        b"a".decode(encoding)  # empty bytes would skip the codec lookup
    except LookupError:
        return False
    except ValueError:
        pass  # a real codec that merely dislikes this byte
    return True


def decode_blocks(blocks: Iterable[bytes], encoding: str = "utf-8") -> Iterator[str]:
    """Decode byte *blocks* to text chunks of about ``CHUNK_CHARS`` characters.

    Invalid bytes become U+FFFD; a multibyte character split across blocks is
    decoded whole.
    """
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    pending: list[str] = []
    size = 0
    chunks = 0
    for block in blocks:
        text = decoder.decode(block)
        if not text:
            continue
        pending.append(text)
        size += len(text)
        if size >= CHUNK_CHARS:
            yield "".join(pending)
            pending, size = [], 0
            chunks += 1
            if chunks % _RELEASE_EVERY == 0:
                release()  # keeps resident memory flat on large files (see _heap)
    pending.append(decoder.decode(b"", final=True))
    tail = "".join(pending)
    if tail:
        yield tail


def decode_bytes(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode a whole body by its declared *charset*, falling back when it is wrong.

    Returns the text and a defect note (or None). Order: the declared charset
    (strict), then UTF-8 (strict), then Windows-1252 with replacement. Only
    text encodings are accepted: ``bytes.decode`` refuses codecs such as
    ``zlib_codec``, so a hostile charset label cannot trigger decompression.
    """
    defect = None
    name = (charset or "").strip().strip("\"'").lower()
    if name and name not in ("us-ascii", "ascii", "utf-8", "utf8", "unknown-8bit", "x-unknown"):
        try:
            return data.decode(name), None
        except LookupError:
            defect = f"unknown charset {name!r}"
        except (UnicodeError, ValueError):
            defect = f"text does not match charset {name!r}"
    try:
        return data.decode("utf-8"), defect
    except UnicodeDecodeError:
        return data.decode("windows-1252", errors="replace"), defect
