"""Input adapters: turn files, archives and streams into :class:`Unit` s of text.

The scanner is sans-IO; everything that reads bytes lives here. ``open_units``
sniffs each input by magic bytes first and by name second, peels off any
compression, and hands the stream to the mail, WARC, HTML or plain-text
reader. Reading is streaming: memory is bounded by the largest single message,
record or HTML document, never by the file.

Errors: :func:`open_units` raises :class:`~urimine.errors.SourceError` (after
yielding everything readable) for unreadable, truncated or corrupt input, and
:class:`~urimine.errors.ConfigError` for an unknown ``encoding`` name. Any other
exception escaping it is a bug.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

from urimine.errors import ConfigError, MissingExtraError, SourceError
from urimine.sources.compress import BLOCK, CorruptStream, decompress_blocks
from urimine.sources.detect import BlockReader, raw_blocks, sniff
from urimine.sources.html import html_to_text
from urimine.sources.mail import message_units
from urimine.sources.mbox import is_maildir, maildir_messages, mbox_batches, mbox_messages
from urimine.sources.text import check_encoding, decode_blocks, decode_bytes, pick_encoding
from urimine.sources.unit import Unit
from urimine.sources.walk import iter_inputs
from urimine.sources.warc import warc_units

__all__ = ["Unit", "iter_inputs", "open_units"]

MBOX_BATCH = 1 << 21
"""Bytes of whole mbox messages per unit handed to workers (``raw_mail``)."""

_MAX_NESTING = 3
"""Compression layers peeled at most (``.gz`` inside ``.xz`` ...)."""

Progress = Callable[[int], None]
Notice = Callable[[str], None]


def open_units(
    path: str,
    *,
    encoding: str | None = None,
    progress: Progress | None = None,
    notice: Notice | None = None,
    raw_mail: bool = False,
    file_ranges: bool = False,
) -> Iterator[Unit]:
    """Yield the units of one input (a file, a Maildir directory, or ``-`` for stdin).

    With ``raw_mail`` each mail message comes as one undecoded unit (``Unit.raw``), and
    an mbox as stretches of whole undecoded messages (``Unit.raw_mbox``), so that mbox
    splitting and MIME decoding can run in worker processes (:mod:`urimine.parallel`). With
    ``file_ranges`` an uncompressed UTF-8 text file's unit carries its byte range
    (``Unit.file_range``), so that workers can read parts of it themselves.

    ``progress(n)`` gets the number of raw input bytes consumed since its last
    call (compressed bytes for compressed input); ``notice(msg)`` gets
    non-error notes such as skipped binary files. *encoding* overrides the
    UTF-8 default for plain text and HTML files.
    """
    if encoding is not None and not check_encoding(encoding):
        raise ConfigError(f"unknown text encoding: {encoding!r}")
    try:
        yield from _open(path, encoding, progress, notice, raw_mail, file_ranges)
    except SourceError:
        raise
    except (CorruptStream, MissingExtraError, EOFError) as exc:
        raise SourceError(path, str(exc)) from exc
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc


def _open(
    path: str,
    encoding: str | None,
    progress: Progress | None,
    notice: Notice | None,
    raw_mail: bool = False,
    file_ranges: bool = False,
) -> Iterator[Unit]:
    if path == "-":
        yield from _from_stream(sys.stdin.buffer, path, encoding, progress, notice, raw_mail)
    elif os.path.isdir(path):
        if not is_maildir(path):
            raise SourceError(path, "is a directory (not a Maildir)")
        for index, message in enumerate(maildir_messages(path, progress)):
            yield from _message(message, path, index, raw_mail)
    else:
        with open(path, "rb") as fh:
            yield from _from_stream(fh, path, encoding, progress, notice, raw_mail, file_ranges)


def _from_stream(  # noqa: C901
    fh: BinaryIO,
    source: str,
    encoding: str | None,
    progress: Progress | None,
    notice: Notice | None,
    raw_mail: bool = False,
    file_ranges: bool = False,
) -> Iterator[Unit]:
    reader = BlockReader(raw_blocks(fh, progress))
    compressed = False
    for _ in range(_MAX_NESTING + 1):
        kind = sniff(reader.peek(BLOCK), source)
        if kind not in ("gzip", "bzip2", "xz", "zstd"):
            break
        compressed = True
        reader = BlockReader(decompress_blocks(kind, reader.blocks()))
    else:
        raise SourceError(source, f"more than {_MAX_NESTING} nested compression layers")
    if kind == "binary":
        if notice is not None:
            notice(f"{source}: binary file skipped")
        return
    if kind == "warc":
        yield from warc_units(reader, source)
    elif kind == "mbox" and raw_mail:
        # For workers: stretches of whole messages, split and decoded there; of a plain
        # file only its byte range, which they read themselves.
        span = _byte_range(fh, "utf-8") if file_ranges and not compressed else None
        if span is not None:
            yield Unit(source, (), 0, is_mail=True, raw_mbox=True, file_range=(0, span[1]))
            return
        for n, batch in enumerate(mbox_batches(reader.blocks(), MBOX_BATCH)):
            yield Unit(source, (), 0 if n == 0 else -1, is_mail=True, raw=batch, raw_mbox=True)
    elif kind == "mbox":
        for index, message in enumerate(mbox_messages(reader.blocks())):
            yield from _message(message, source, index, raw_mail)
    elif kind == "eml":
        yield from _message(b"".join(reader.blocks()), source, 0, raw_mail)
    elif kind == "html":
        data = b"".join(reader.blocks())
        text, _ = decode_bytes(data, encoding)
        yield Unit(source, [html_to_text(text, None)])
    else:
        chosen = pick_encoding(reader.peek(4), encoding)
        span = _byte_range(fh, chosen) if file_ranges and not compressed else None
        yield from _text_unit(reader, source, chosen, span)


def _byte_range(fh: BinaryIO, encoding: str) -> tuple[int, int] | None:
    """The byte range of a regular UTF-8 file's text (after any BOM), else None."""
    if encoding not in ("utf-8", "utf-8-sig"):
        return None
    try:
        st = os.fstat(fh.fileno())
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (3 if encoding == "utf-8-sig" else 0), st.st_size


def _message(raw: bytes, source: str, index: int, raw_mail: bool) -> Iterator[Unit]:
    """The units of one mail message, or the message itself undecoded."""
    if raw_mail:
        yield Unit(source, (), index, is_mail=True, raw=raw)
    else:
        yield from message_units(raw, source, index)


def _text_unit(
    reader: BlockReader, source: str, encoding: str, file_range: tuple[int, int] | None = None
) -> Iterator[Unit]:
    """One lazily decoded unit; a stream error met while decoding is raised afterwards.

    The unit's chunks read the file as the consumer iterates them. If the
    stream breaks (truncated gzip, I/O error) the chunks simply end, and the
    error is raised from :func:`open_units` once the unit has been consumed,
    so that callers always get the readable text first.
    """
    failure: list[BaseException] = []

    def good_blocks() -> Iterator[bytes]:
        try:
            yield from reader.blocks()
        except (CorruptStream, OSError, EOFError) as exc:
            failure.append(exc)

    unit = Unit(source, decode_blocks(good_blocks(), encoding), file_range=file_range)
    yield unit
    for _ in unit.chunks:
        pass  # drain what the consumer left, so the error (if any) is found
    if failure:
        raise failure[0]
