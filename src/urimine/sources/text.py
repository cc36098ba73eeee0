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


_NOT_CHARSETS = frozenset(
    {"idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined", "charmap"}
)
"""Codecs that decode bytes to text without being character encodings: IDNA and
Punycode (RFC 3492; its decoder takes time quadratic in the length of a label), Python
string-literal escapes, and the placeholders ``undefined`` and ``charmap``. Codecs that
give bytes (``rot13``, ``hex``, ``base64``, ``zlib``, ``uu``...) are refused by
``bytes.decode`` itself."""


def text_codec(name: str) -> str | None:
    """The canonical name of the character encoding *name* labels, or None when it
    labels none (unknown, or a codec that is not a character encoding)."""
    try:
        codec = codecs.lookup(name)
    except (LookupError, ValueError):  # (a name with a NUL in it is a ValueError)
        return None
    try:
        b"a".decode(codec.name)  # refuses codecs that do not make text (zlib, rot13 ...)
    except LookupError:
        return None
    except ValueError:
        pass  # a real codec that merely dislikes this byte
    return None if codec.name in _NOT_CHARSETS else codec.name


def check_encoding(encoding: str) -> bool:
    """Whether *encoding* names a character encoding usable on bytes."""
    return text_codec(encoding) is not None


class DecodeError(ValueError):
    """Bytes the chosen encoding cannot decode at all (UTF-16 or UTF-32 without a
    byte-order mark, for one); ``str()`` is the human reason."""


def decode_blocks(blocks: Iterable[bytes], encoding: str = "utf-8") -> Iterator[str]:
    """Decode byte *blocks* to text chunks of about ``CHUNK_CHARS`` characters.

    Invalid bytes become U+FFFD; a multibyte character split across blocks is
    decoded whole. A codec that gives up instead (``utf-16`` on bytes without a
    byte-order mark) raises :class:`DecodeError` after the text decoded before.
    """
    try:
        yield from _decoded(blocks, encoding)
    except UnicodeError as exc:
        raise DecodeError(f"cannot decode as {encoding}: {exc}") from exc


def _decoded(blocks: Iterable[bytes], encoding: str) -> Iterator[str]:
    """:func:`decode_blocks` without the translation of a codec's error."""
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
    character encodings are accepted (:func:`text_codec`): a hostile charset label
    cannot trigger decompression (``zlib``) or a quadratic decoder (``punycode``).
    """
    defect = None
    name = (charset or "").strip().strip("\"'").lower()
    if name and name not in ("us-ascii", "ascii", "utf-8", "utf8", "unknown-8bit", "x-unknown"):
        codec = text_codec(name)
        if codec is None:
            defect = f"unknown charset {name!r}"
        else:
            try:
                return data.decode(codec), None
            except (UnicodeError, ValueError):
                defect = f"text does not match charset {name!r}"
    try:
        return data.decode("utf-8"), defect
    except UnicodeDecodeError:
        return data.decode("windows-1252", errors="replace"), defect
