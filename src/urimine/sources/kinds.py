"""The reader of each kind of input (text, HTML, mail, mbox, WARC), behind one table.

Each reader takes the input as a :class:`~urimine.sources.detect.BlockReader` over its
content (compression peeled off) and yields its units. The mail, HTML and WARC modules
are imported by their readers, when an input of their kind is met: a run over plain
text never loads them.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from urimine.errors import SourceError
from urimine.sources.compress import BLOCK, CorruptStream, decompress_blocks
from urimine.sources.detect import BlockReader, sniff
from urimine.sources.limits import MAX_MESSAGE
from urimine.sources.text import DecodeError, decode_blocks, pick_encoding, text_codec
from urimine.sources.unit import CutBytes, Ending, Unit

__all__ = ["READERS", "Reading", "message", "peeled", "text_unit"]

_MAX_NESTING = 3
"""Compression layers peeled at most (``.gz`` inside ``.xz`` ...)."""
_COMPRESSIONS = ("gzip", "bzip2", "xz", "zstd")
_RESYNC = b"WARC/"
"""A gzip stream whose content starts so is read on past a broken member (see
:mod:`urimine.sources.compress`): per-record gzip, the layout of WARC files."""


@dataclass(slots=True)
class Reading:
    """How to read one input (the options of :func:`urimine.sources.open_units`);
    ``raw_mail`` and ``file_ranges`` are decided by ``workers``, when given, once the
    input's size is known."""

    encoding: str | None
    progress: Callable[[int], None] | None
    notice: Callable[[str], None] | None
    raw_mail: bool
    file_ranges: bool
    skipped: Callable[[str], None] | None
    workers: Callable[[int], bool] | None
    mbox_batch: int

    def note(self, message: str) -> None:
        if self.notice is not None:
            self.notice(message)

    def decide(self, size: int) -> None:
        """Whether this input, of ``size`` bytes, goes to worker processes."""
        if self.workers is not None:
            self.raw_mail = self.file_ranges = self.workers(size)

    def sniff(self, head: bytes, source: str) -> str:
        """The kind of the input whose first bytes are ``head``; control bytes do not
        make it binary when a UTF-16 or UTF-32 encoding was named."""
        codec = text_codec(self.encoding) if self.encoding else None
        wide = codec is not None and codec.startswith(("utf-16", "utf-32"))
        return sniff(head, source, nuls=wide)


def peeled(
    reader: BlockReader, source: str, how: Reading, kind: str | None = None
) -> tuple[BlockReader, str, bool]:
    """The reader of the content under any compression layers, the content's kind, and
    whether there was any compression; ``kind`` is the input's, when already sniffed."""
    for layer in range(_MAX_NESTING + 1):
        if kind is None or layer > 0:
            kind = how.sniff(reader.peek(BLOCK), source)
        if kind not in _COMPRESSIONS:
            return reader, kind, layer > 0
        reader = BlockReader(decompress_blocks(kind, reader.blocks(), resync=_RESYNC))
    raise SourceError(source, f"more than {_MAX_NESTING} nested compression layers")


def text_unit(
    data: bytes, source: str, encoding: str | None, cut: bool = False
) -> tuple[Unit, DecodeError | None]:
    """The unit of a whole plain-text input held in ``data`` (``cut``: short of the
    input's real end), its text decoded at once; with the error met when bytes the
    encoding cannot decode at all (UTF-16 without a byte-order mark) end its text."""
    chosen = pick_encoding(data[:4], encoding)
    if chosen in ("utf-8", "utf-8-sig"):  # never fails: bad bytes become U+FFFD
        text = data.decode(chosen, errors="replace")
        return Unit(source, [text] if text else [], ending=Ending(cut)), None
    chunks: list[str] = []
    error: DecodeError | None = None
    try:
        for chunk in decode_blocks((data,), chosen):
            chunks.append(chunk)
    except DecodeError as exc:
        error = exc
    return Unit(source, chunks, ending=Ending(cut or error is not None)), error


def _text(reader: BlockReader, source: str, how: Reading, size: int | None) -> Iterator[Unit]:
    chosen = pick_encoding(reader.peek(4), how.encoding)
    span = _byte_range(size, chosen)
    yield from _text_unit(reader, source, chosen, span)


def _html(reader: BlockReader, source: str, how: Reading, size: int | None) -> Iterator[Unit]:
    chosen = _html_encoding(reader.peek(BLOCK), how.encoding)
    yield from _text_unit(reader, source, chosen, html=True)


def _json(reader: BlockReader, source: str, how: Reading, size: int | None) -> Iterator[Unit]:
    """A JSON or JSON Lines file: its strings decoded (issue 30 item 7)."""
    chosen = pick_encoding(reader.peek(4), how.encoding)
    yield from _text_unit(reader, source, chosen, json=True)


def _warc(reader: BlockReader, source: str, how: Reading, size: int | None) -> Iterator[Unit]:
    from urimine.sources.warc import warc_units

    yield from warc_units(reader, source)


def _mbox(reader: BlockReader, source: str, how: Reading, size: int | None) -> Iterator[Unit]:
    if how.raw_mail:
        yield from _raw_mbox(reader, source, _byte_range(size, "utf-8"), how.mbox_batch)
        return
    from urimine.sources.mbox import mbox_messages

    for index, raw in enumerate(mbox_messages(reader.blocks())):
        yield from message(raw, source, index, False)


def _eml(reader: BlockReader, source: str, how: Reading, size: int | None) -> Iterator[Unit]:
    """One message file: read up to a little over the cap (the rest is not read, and
    :func:`message_units` reports it), cut short if the stream broke first."""
    data = reader.read(MAX_MESSAGE + 1)
    if reader.error is not None:
        data = CutBytes(data)
    yield from message(data, source, 0, how.raw_mail)
    if reader.error is not None:
        raise reader.error


READERS: dict[str, Callable[[BlockReader, str, Reading, int | None], Iterator[Unit]]] = {
    "text": _text,
    "html": _html,
    "json": _json,
    "warc": _warc,
    "mbox": _mbox,
    "eml": _eml,
}
"""The reader of each kind; its last argument is the size of a regular file that
workers may read ranges of (None: they may not)."""


def _raw_mbox(
    reader: BlockReader, source: str, span: tuple[int, int] | None, batch: int
) -> Iterator[Unit]:
    """For workers: stretches of whole messages, split and decoded there; of a plain
    file (with *span*) only its byte range, which they read themselves."""
    if span is not None:
        yield Unit(source, (), 0, is_mail=True, raw_mbox=True, file_range=(0, span[1]))
        return
    from urimine.sources.mbox import mbox_batches

    for n, stretch in enumerate(mbox_batches(reader.blocks(), batch)):
        yield Unit(source, (), 0 if n == 0 else -1, is_mail=True, raw=stretch, raw_mbox=True)


def message(raw: bytes, source: str, index: int, raw_mail: bool) -> Iterator[Unit]:
    """The units of one mail message, or the message itself undecoded."""
    if raw_mail:
        yield Unit(source, (), index, is_mail=True, raw=raw)
        return
    from urimine.sources.mail import message_units

    yield from message_units(raw, source, index)


def _html_encoding(head: bytes, encoding: str | None) -> str:
    """The encoding of an HTML file, as HTML's encoding sniffing picks it (WHATWG HTML,
    "determining the character encoding"): a byte-order mark, else the one the user
    named, else a ``<meta>`` charset in the first 1024 bytes (the prescan, UTF-16
    labels meaning UTF-8), else UTF-8 if the head decodes as UTF-8, else Windows-1252."""
    from urimine.sources.html import META_PRESCAN, meta_charset

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


def _byte_range(size: int | None, encoding: str) -> tuple[int, int] | None:
    """The byte range of the text of a regular UTF-8 file of ``size`` bytes (after any
    BOM), else None."""
    if size is None or encoding not in ("utf-8", "utf-8-sig"):
        return None
    return (3 if encoding == "utf-8-sig" else 0), size


def _text_unit(
    reader: BlockReader,
    source: str,
    encoding: str,
    file_range: tuple[int, int] | None = None,
    *,
    html: bool = False,
    json: bool = False,
) -> Iterator[Unit]:
    """One lazily decoded unit (of HTML, or of a JSON text's strings, with ``html`` or
    ``json``); a stream error met while decoding is raised afterwards.

    The unit's chunks read the file as the consumer iterates them. If the
    stream breaks (truncated gzip, I/O error, bytes the encoding cannot decode) the
    chunks simply end, the unit is marked as cut there (:attr:`Unit.ending`), and the
    error is raised from :func:`urimine.sources.open_units` once the unit has been
    consumed, so that callers always get the readable text first.
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

    chunks: Iterator[str] = text()
    if html:
        from urimine.sources.html import html_chunks
        from urimine.sources.labels import Stretches

        labels = Stretches()
        ending.labels = labels
        chunks = html_chunks(chunks, None, labels)
    defects: list[str] = []
    if json:
        from urimine.sources.json import json_chunks

        chunks = json_chunks(chunks, defects)
    unit = Unit(source, chunks, file_range=file_range, ending=ending, defects=defects)
    yield unit
    for _ in unit.chunks:
        pass  # drain what the consumer left, so the error (if any) is found
    if failure:
        raise failure[0]
