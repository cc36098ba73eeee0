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

import codecs
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from urimine.errors import ConfigError, MissingExtraError, SourceError
from urimine.sources.compress import BLOCK, CorruptStream, decompress_blocks
from urimine.sources.detect import BlockReader, raw_blocks, sniff
from urimine.sources.html import META_PRESCAN, html_chunks, meta_charset
from urimine.sources.json import json_chunks
from urimine.sources.limits import MAX_MESSAGE
from urimine.sources.mail import message_units
from urimine.sources.mbox import is_maildir, maildir_messages, mbox_batches, mbox_messages
from urimine.sources.text import DecodeError, decode_blocks, pick_encoding, text_codec
from urimine.sources.unit import CutBytes, Ending, Unit
from urimine.sources.walk import iter_inputs
from urimine.sources.warc import warc_units

__all__ = ["Unit", "iter_inputs", "open_units"]

MBOX_BATCH = 1 << 21
"""Bytes of whole mbox messages per unit handed to workers (``raw_mail``)."""

_MAX_NESTING = 3
"""Compression layers peeled at most (``.gz`` inside ``.xz`` ...)."""
_COMPRESSIONS = ("gzip", "bzip2", "xz", "zstd")
_RESYNC = b"WARC/"
"""A gzip stream whose content starts so is read on past a broken member (see
:mod:`urimine.sources.compress`): per-record gzip, the layout of WARC files."""

Progress = Callable[[int], None]
Notice = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class _Reading:
    """How to read the inputs (the options of :func:`open_units`)."""

    encoding: str | None
    progress: Progress | None
    notice: Notice | None
    raw_mail: bool
    file_ranges: bool
    skipped: Notice | None

    def note(self, message: str) -> None:
        if self.notice is not None:
            self.notice(message)


def open_units(
    path: str,
    *,
    encoding: str | None = None,
    progress: Progress | None = None,
    notice: Notice | None = None,
    raw_mail: bool = False,
    file_ranges: bool = False,
    skipped: Notice | None = None,
) -> Iterator[Unit]:
    """Yield the units of one input (a file, a Maildir directory, or ``-`` for stdin).

    With ``raw_mail`` each mail message comes as one undecoded unit (``Unit.raw``), and
    an mbox as stretches of whole undecoded messages (``Unit.raw_mbox``), so that mbox
    splitting and MIME decoding can run in worker processes (:mod:`urimine.parallel`). With
    ``file_ranges`` an uncompressed UTF-8 text file's unit carries its byte range
    (``Unit.file_range``), so that workers can read parts of it themselves.

    ``progress(n)`` gets the number of raw input bytes consumed since its last
    call (compressed bytes for compressed input); ``notice(msg)`` gets
    non-error notes such as skipped binary files; ``skipped(path)`` is called when the
    whole input is skipped as binary (:func:`urimine.sources.detect.is_binary`).
    *encoding* overrides the UTF-8 default for plain text and HTML files.
    """
    if encoding is not None and text_codec(encoding) is None:
        raise ConfigError(f"unknown text encoding: {encoding!r}")
    how = _Reading(encoding, progress, notice, raw_mail, file_ranges, skipped)
    try:
        yield from _open(path, how)
    except SourceError:
        raise
    except (CorruptStream, DecodeError, MissingExtraError, EOFError) as exc:
        raise SourceError(path, str(exc)) from exc
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc


def _open(path: str, how: _Reading) -> Iterator[Unit]:
    if path == "-":
        yield from _from_stream(
            sys.stdin.buffer, path, how, raw_blocks(sys.stdin.buffer, how.progress)
        )
    elif os.path.isdir(path):
        if not is_maildir(path):
            raise SourceError(path, "is a directory (not a Maildir)")
        yield from _maildir(path, how)
    else:
        with open(path, "rb") as fh:
            yield from _from_stream(fh, path, how, _whole(fh, how.progress))


def _whole(fh: BinaryIO, progress: Progress | None) -> Iterator[bytes]:
    """The blocks of a file; for a regular file, an error at the end if it ended before
    the size it had when it was opened (it was cut short while being read)."""
    st = os.fstat(fh.fileno())
    if not stat.S_ISREG(st.st_mode):
        yield from raw_blocks(fh, progress)
        return
    size, got = st.st_size, 0
    for block in raw_blocks(fh, progress):
        got += len(block)
        yield block
    if got < size:
        raise CorruptStream(f"file shrank while being read: got {got} of {size} bytes")


def _maildir(path: str, how: _Reading) -> Iterator[Unit]:
    """The messages of a Maildir; one that cannot be read is named (the first in the
    error at the end, each in a notice) and the others are read all the same."""
    failed: list[SourceError] = []
    for number, name, data in maildir_messages(path, how.progress):
        if isinstance(data, OSError):
            failed.append(SourceError(name, data.strerror or str(data)))
            how.note(str(failed[-1]))
            continue
        yield from _message(data, path, number, how.raw_mail)
    if failed:
        first = failed[0]
        more = f" (and {len(failed) - 1} more unreadable messages in {path})" if failed[1:] else ""
        raise SourceError(first.source, first.reason + more)


def _from_stream(fh: BinaryIO, source: str, how: _Reading, raw: Iterator[bytes]) -> Iterator[Unit]:
    reader, kind, compressed = _peeled(BlockReader(raw), source, how.encoding)
    if kind == "binary":
        how.note(f"{source}: binary file skipped")
        if how.skipped is not None:
            how.skipped(source)
    elif kind == "warc":
        yield from warc_units(reader, source)
    elif kind == "mbox" and how.raw_mail:
        yield from _raw_mbox(reader, fh, source, how.file_ranges and not compressed)
    elif kind == "mbox":
        for index, message in enumerate(mbox_messages(reader.blocks())):
            yield from _message(message, source, index, how.raw_mail)
    elif kind == "eml":
        yield from _eml(reader, source, how.raw_mail)
    elif kind == "html":
        chosen = _html_encoding(reader.peek(BLOCK), how.encoding)
        yield from _text_unit(reader, source, chosen, html=True)
    elif kind == "json":  # (issue 30 item 7: its strings decoded)
        yield from _text_unit(
            reader, source, pick_encoding(reader.peek(4), how.encoding), json=True
        )
    else:
        chosen = pick_encoding(reader.peek(4), how.encoding)
        span = _byte_range(fh, chosen) if how.file_ranges and not compressed else None
        yield from _text_unit(reader, source, chosen, span)


def _peeled(
    reader: BlockReader, source: str, encoding: str | None
) -> tuple[BlockReader, str, bool]:
    """The reader of the content under any compression layers, the content's kind, and
    whether there was any compression."""
    codec = text_codec(encoding) if encoding else None
    wide = codec is not None and codec.startswith(("utf-16", "utf-32"))
    for layer in range(_MAX_NESTING + 1):
        kind = sniff(reader.peek(BLOCK), source, nuls=wide)
        if kind not in _COMPRESSIONS:
            return reader, kind, layer > 0
        reader = BlockReader(decompress_blocks(kind, reader.blocks(), resync=_RESYNC))
    raise SourceError(source, f"more than {_MAX_NESTING} nested compression layers")


def _raw_mbox(reader: BlockReader, fh: BinaryIO, source: str, ranges: bool) -> Iterator[Unit]:
    """For workers: stretches of whole messages, split and decoded there; of a plain
    file (with *ranges*) only its byte range, which they read themselves."""
    span = _byte_range(fh, "utf-8") if ranges else None
    if span is not None:
        yield Unit(source, (), 0, is_mail=True, raw_mbox=True, file_range=(0, span[1]))
        return
    for n, batch in enumerate(mbox_batches(reader.blocks(), MBOX_BATCH)):
        yield Unit(source, (), 0 if n == 0 else -1, is_mail=True, raw=batch, raw_mbox=True)


def _eml(reader: BlockReader, source: str, raw_mail: bool) -> Iterator[Unit]:
    """One message file: read up to a little over the cap (the rest is not read, and
    :func:`message_units` reports it), cut short if the stream broke first."""
    data = reader.read(MAX_MESSAGE + 1)
    if reader.error is not None:
        data = CutBytes(data)
    yield from _message(data, source, 0, raw_mail)
    if reader.error is not None:
        raise reader.error


def _html_encoding(head: bytes, encoding: str | None) -> str:
    """The encoding of an HTML file, as HTML's encoding sniffing picks it (WHATWG HTML,
    "determining the character encoding"): a byte-order mark, else the one the user
    named, else a ``<meta>`` charset in the first 1024 bytes (the prescan, UTF-16
    labels meaning UTF-8), else UTF-8 if the head decodes as UTF-8, else Windows-1252."""
    if head.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return pick_encoding(head, None)
    if encoding:
        return encoding
    declared = meta_charset(head, META_PRESCAN)
    chosen = text_codec(declared) if declared else None
    if chosen is not None and not chosen.startswith(("utf-16", "utf-32")):
        return chosen
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head)  # a cut last character is fine
    except UnicodeDecodeError:
        return "windows-1252"
    return "utf-8"


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
    reader: BlockReader,
    source: str,
    encoding: str,
    file_range: tuple[int, int] | None = None,
    *,
    html: bool = False,
    json: bool = False,
) -> Iterator[Unit]:
    """One lazily decoded unit; a stream error met while decoding is raised afterwards.

    The unit's chunks read the file as the consumer iterates them. If the
    stream breaks (truncated gzip, I/O error, bytes the encoding cannot decode) the
    chunks simply end, the unit is marked as cut there (:attr:`Unit.ending`), and the
    error is raised from :func:`open_units` once the unit has been consumed,
    so that callers always get the readable text first.
    """
    failure: list[BaseException] = []
    ending = Ending()

    def good_blocks() -> Iterator[bytes]:
        try:
            yield from reader.blocks()
        except (CorruptStream, OSError, EOFError) as exc:
            failure.append(exc)
            ending.cut = True

    def text() -> Iterator[str]:
        try:
            yield from decode_blocks(good_blocks(), encoding)
        except DecodeError as exc:
            failure.append(exc)
            ending.cut = True

    defects: list[str] = []
    chunks = html_chunks(text(), None) if html else json_chunks(text(), defects) if json else text()
    unit = Unit(source, chunks, file_range=file_range, ending=ending, defects=defects)
    yield unit
    for _ in unit.chunks:
        pass  # drain what the consumer left, so the error (if any) is found
    if failure:
        raise failure[0]
