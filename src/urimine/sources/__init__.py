"""Input adapters: turn files, archives and streams into :class:`Unit` s of text.

The scanner is sans-IO; everything that reads bytes lives here. ``open_units``
sniffs each input by magic bytes first and by name second, peels off any
compression, and hands the stream to the mail, WARC, HTML or plain-text
reader. Reading is streaming: memory is bounded by the largest single message,
record or HTML document, never by the file. A small regular file (up to
:data:`SMALL_FILE`) is read whole in one call, and a plain-text one becomes its text
at once: most of the inputs of a large tree are such files, and the cost of reading
one is then mostly the cost of opening it. The readers of the other kinds are imported
when an input of their kind is met.

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
from itertools import chain
from typing import BinaryIO

from urimine.errors import ConfigError, MissingExtraError, SourceError
from urimine.sources.compress import BLOCK, CorruptStream
from urimine.sources.detect import BlockReader, raw_blocks
from urimine.sources.kinds import READERS, Reading, peeled, text_unit
from urimine.sources.text import DecodeError, text_codec
from urimine.sources.unit import Unit
from urimine.sources.walk import Unwalked, Walk, iter_inputs

__all__ = ["MBOX_BATCH", "SMALL_FILE", "Unit", "Walk", "iter_inputs", "open_stream", "open_units"]

MBOX_BATCH = 1 << 21
"""Bytes of whole mbox messages per unit handed to workers (``raw_mail``)."""
SMALL_FILE = BLOCK
"""Bytes of a regular file read whole, in one call."""

Progress = Callable[[int], None]
Notice = Callable[[str], None]

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def open_units(
    path: str,
    *,
    encoding: str | None = None,
    progress: Progress | None = None,
    notice: Notice | None = None,
    raw_mail: bool = False,
    file_ranges: bool = False,
    skipped: Notice | None = None,
    workers: Callable[[int], bool] | None = None,
) -> Iterator[Unit]:
    """Yield the units of one input (a file, a Maildir directory, or ``-`` for stdin).

    With ``raw_mail`` each mail message comes as one undecoded unit (``Unit.raw``), and
    an mbox as stretches of whole undecoded messages (``Unit.raw_mbox``), so that mbox
    splitting and MIME decoding can run in worker processes (:mod:`urimine.parallel`). With
    ``file_ranges`` a large uncompressed UTF-8 text file's unit carries its byte range
    (``Unit.file_range``), so that workers can read parts of it themselves. ``workers``,
    when given, decides both once the input is open: it is asked with the input's size
    in bytes (0 when unknown: stdin, a pipe, a Maildir), and not for a binary file.

    ``progress(n)`` gets the number of raw input bytes consumed since its last
    call (compressed bytes for compressed input); ``notice(msg)`` gets
    non-error notes such as skipped binary files; ``skipped(path)`` is called when the
    whole input is skipped as binary (:func:`urimine.sources.detect.is_binary`).
    *encoding* overrides the UTF-8 default for plain text and HTML files.
    """
    if encoding is not None and text_codec(encoding) is None:
        raise ConfigError(f"unknown text encoding: {encoding!r}")
    how = Reading(encoding, progress, notice, raw_mail, file_ranges, skipped, workers, MBOX_BATCH)
    try:
        yield from _open(path, how)
    except SourceError:
        raise
    except (CorruptStream, DecodeError, MissingExtraError, EOFError) as exc:
        raise SourceError(path, str(exc)) from exc
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc


def open_stream(
    stream: BinaryIO, source: str = "-", *, encoding: str | None = None
) -> Iterator[Unit]:
    """Yield the units of an open binary stream, as :func:`open_units` does for a file
    (sniffed, decompressed, split into messages or records); ``source`` names it in
    the units and in a :class:`SourceError`."""
    if encoding is not None and text_codec(encoding) is None:
        raise ConfigError(f"unknown text encoding: {encoding!r}")
    how = Reading(encoding, None, None, False, False, None, None, MBOX_BATCH)
    try:
        yield from _from_stream(BlockReader(raw_blocks(stream, None)), source, how, None)
    except SourceError:
        raise
    except (CorruptStream, DecodeError, MissingExtraError, EOFError) as exc:
        raise SourceError(source, str(exc)) from exc
    except OSError as exc:
        raise SourceError(source, exc.strerror or str(exc)) from exc


def _open(path: str, how: Reading) -> Iterator[Unit]:
    if isinstance(path, Unwalked):  # a folder the walk could not go into
        raise SourceError(path, path.reason)
    if path == "-":
        reader = BlockReader(raw_blocks(sys.stdin.buffer, how.progress))
        yield from _from_stream(reader, path, how, None)
        return
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        if not os.path.isdir(path):
            raise
        fd = -1
    try:
        st = os.fstat(fd) if fd >= 0 else None
    except OSError:
        os.close(fd)
        raise
    if st is None or stat.S_ISDIR(st.st_mode):
        if fd >= 0:
            os.close(fd)
        yield from _directory(path, how)
    elif stat.S_ISREG(st.st_mode) and st.st_size <= SMALL_FILE:
        yield from _small_file(fd, path, how, st.st_size)
    else:
        with open(fd, "rb") as fh:
            regular = stat.S_ISREG(st.st_mode)
            blocks = raw_blocks(fh, how.progress)
            if regular:
                blocks = _whole(blocks, st.st_size)
            yield from _from_stream(BlockReader(blocks), path, how, st.st_size if regular else None)


def _directory(path: str, how: Reading) -> Iterator[Unit]:
    from urimine.sources.mbox import is_maildir

    if not is_maildir(path):
        raise SourceError(path, "is a directory (not a Maildir)")
    how.decide(0)
    yield from _maildir(path, how)


def _small_file(fd: int, path: str, how: Reading, size: int) -> Iterator[Unit]:
    """A regular file of ``size`` bytes or less, read whole; one that grew since it was
    sized is read on as a stream, one that shrank is an error after its text."""
    try:
        data = _read_up_to(fd, size)
    except OSError:
        os.close(fd)
        raise
    if how.progress is not None:
        how.progress(len(data))
    if len(data) > size:
        with open(fd, "rb") as fh:
            blocks = chain((data,), raw_blocks(fh, how.progress))
            yield from _from_stream(BlockReader(blocks), path, how, size, ranges=False)
        return
    os.close(fd)
    shrank = None
    if len(data) < size:
        shrank = CorruptStream(f"file shrank while being read: got {len(data)} of {size} bytes")
    kind = how.sniff(data, path)
    if kind != "text":
        reader = BlockReader(iter((data,)))
        yield from _from_stream(reader, path, how, len(data), kind, ranges=False)
    else:  # plain text, the most common input by far: straight from the bytes
        how.decide(len(data))
        unit, error = text_unit(data, path, how.encoding, cut=shrank is not None)
        yield unit
        if error is not None:
            raise error
    if shrank is not None:
        raise shrank


def _read_up_to(fd: int, size: int) -> bytes:
    """The bytes of a regular file of ``size`` bytes: fewer if it ends before (it
    shrank), and one more if it does not end there (it grew). A read that returns all
    that was asked for is not followed by one that would find the end (a regular file
    gives fewer bytes than asked only at its end)."""
    data = os.read(fd, size + 1)
    if len(data) >= size:
        return data
    parts = [data]
    got = len(data)
    while got <= size and (more := os.read(fd, size + 1 - got)):
        parts.append(more)
        got += len(more)
    return b"".join(parts)


def _whole(blocks: Iterator[bytes], size: int) -> Iterator[bytes]:
    """The blocks of a regular file; an error at the end if it ended before the size it
    had when it was opened (it was cut short while being read)."""
    got = 0
    for block in blocks:
        got += len(block)
        yield block
    if got < size:
        raise CorruptStream(f"file shrank while being read: got {got} of {size} bytes")


def _maildir(path: str, how: Reading) -> Iterator[Unit]:
    """The messages of a Maildir; one that cannot be read is named (the first in the
    error at the end, each in a notice) and the others are read all the same."""
    from urimine.sources.kinds import message
    from urimine.sources.mbox import maildir_messages

    failed: list[SourceError] = []
    for number, name, data in maildir_messages(path, how.progress):
        if isinstance(data, OSError):
            failed.append(SourceError(name, data.strerror or str(data)))
            how.note(str(failed[-1]))
            continue
        yield from message(data, path, number, how.raw_mail)
    if failed:
        first = failed[0]
        more = f" (and {len(failed) - 1} more unreadable messages in {path})" if failed[1:] else ""
        raise SourceError(first.source, first.reason + more)


def _from_stream(
    reader: BlockReader,
    source: str,
    how: Reading,
    size: int | None,
    kind: str | None = None,
    *,
    ranges: bool = True,
) -> Iterator[Unit]:
    """The units of an input read as a stream: ``size`` is a regular file's (None when
    unknown), ``kind`` the kind of its content when already sniffed; with ``ranges``,
    workers may read byte ranges of the file themselves."""
    reader, kind, compressed = peeled(reader, source, how, kind)
    if kind == "binary":
        how.note(f"{source}: binary file skipped")
        if how.skipped is not None:
            how.skipped(source)
        return
    how.decide(size or 0)
    ranged = size if ranges and how.file_ranges and not compressed else None
    yield from READERS[kind](reader, source, how, ranged)
