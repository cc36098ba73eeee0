"""A small streaming WARC 1.0/1.1 reader (also WET), on a :class:`BlockReader`.

A record is a version line, header fields, an empty line, ``Content-Length``
bytes of block and two CRLFs (ISO 28500 section 4). Per-record gzip members
are undone by the compression layer below, so this reader sees one plain
stream. ``response``, ``resource`` and ``conversion`` records become documents;
other record types are skipped without being held in memory. For ``response``
records the HTTP status line and headers are skipped, the charset comes from
the HTTP ``Content-Type``, and HTML payloads are resolved against
``WARC-Target-URI`` (the retrieval URI, RFC 3986 section 5.1.3).

A record block is read up to :data:`~urimine.sources.limits.MAX_RECORD` bytes and its
payload decoded up to :data:`~urimine.sources.limits.MAX_TEXT` (the rest skipped, with a
defect). Where the stream below lost data (a corrupt gzip member, see
:class:`~urimine.sources.compress.Gap`), the record it was in is dropped and reading
goes on at the next record; the file is reported as an error at the end all the same.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

from urimine.errors import SourceError
from urimine.sources.detect import BlockReader, is_binary
from urimine.sources.headers import content_type
from urimine.sources.html import html_chunks, meta_charset
from urimine.sources.labels import Stretches
from urimine.sources.limits import MAX_RECORD, MAX_TEXT, over
from urimine.sources.text import decode_bytes
from urimine.sources.unit import Ending, Unit

_WANTED = frozenset({"response", "resource", "conversion"})
_MAX_HEADER_LINES = 1000
_HTML_TYPES = ("text/html", "application/xhtml+xml")
_TEXT_TYPES = ("application/json", "application/xml", "application/javascript")
_META_PRESCAN = 4096
"""Bytes of an HTML payload searched for its ``<meta>`` charset (this reader's bound;
HTML's own prescan, which the mail reader follows, reads 1024)."""
_HTML_START = re.compile(rb"\s*<(?:!doctype html|html)", re.I)
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]+)[^\n]*\n")


def _read_headers(reader: BlockReader) -> dict[str, str] | None:
    """Header fields up to the empty line, names in lower case; None at end of input."""
    fields: dict[str, str] = {}
    last = ""
    for _ in range(_MAX_HEADER_LINES):
        line = reader.readline()
        if not line:
            return fields or None
        if not line.strip():
            return fields
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        if text[:1] in (" ", "\t") and last:
            fields[last] += " " + text.strip()
            continue
        name, _, value = text.partition(":")
        last = name.strip().lower()
        fields.setdefault(last, value.strip())
    return fields


def _next_version_line(reader: BlockReader) -> bytes:
    """Skip blank lines between records; the next non-blank line or ``b""``."""
    while True:
        line = reader.readline()
        if not line or line.strip():
            return line


def warc_units(reader: BlockReader, source: str) -> Iterator[Unit]:
    """Yield one unit per wanted record; raise SourceError, once all that could be read
    was yielded, on a cut or corrupt record or stream."""
    losses = _Losses(source)
    index = 0
    while True:
        version = _next_version_line(reader)
        if not version:
            if losses.at_gap(reader, None):
                continue
            break
        if version.startswith(b"WARC/"):
            yield from _record(reader, losses, source, index)
        else:
            where = f"not a WARC record header at byte {reader.offset - len(version)}"
            if not (reader.skip_to_gap() and losses.at_gap(reader, where)):
                raise losses.error(where, reader)
        index += 1
    if losses.reasons or reader.error is not None:
        raise losses.error(None, reader)


def _record(reader: BlockReader, losses: _Losses, source: str, index: int) -> Iterator[Unit]:
    """The unit of the record whose version line was just read, if it is wanted; a
    record a gap cut is noted in *losses* and dropped."""
    headers = _read_headers(reader) or {}
    record_id = headers.get("warc-record-id", "").strip("<>") or None
    # How an error names the record: its ID, else its place in the file.
    name = record_id or f"number {index + 1} (no WARC-Record-ID)"
    if losses.at_gap(reader, f"WARC record {name} lost"):
        return
    if reader.error is not None and not reader.peek(1):
        raise losses.error(f"WARC record {name} cut short", reader)
    length = _content_length(headers, source, name)
    kind = headers.get("warc-type", "").lower()
    want = min(length, MAX_RECORD) if kind in _WANTED else 0
    block = reader.read(want)
    got = len(block) + reader.skip(length - want)
    if got < length and losses.at_gap(reader, f"WARC record {name} lost"):
        return
    unit = _record_unit(kind, headers, block, source, index, record_id) if want else None
    if unit is not None:
        if got < length or length > MAX_RECORD:
            unit.ending.cut = True
        if length > MAX_RECORD:
            unit.defects.append(over("WARC record", MAX_RECORD))
        yield unit
    if got < length:
        raise losses.error(f"truncated WARC record {name}: got {got} of {length} bytes", reader)


class _Losses:
    """What was lost in one WARC file, for the one error that reports it at the end."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.reasons: list[str] = []

    def at_gap(self, reader: BlockReader, what: str | None) -> bool:
        """At a gap in the stream: note it and *what* was lost, read on after it, and
        return True; False when the reader is at the end of the input instead."""
        if reader.gap is None:
            return False
        self.reasons.append(f"{what}: {reader.gap.reason}" if what else reader.gap.reason)
        reader.resume()
        return True

    def error(self, reason: str | None, reader: BlockReader) -> SourceError:
        """The error of the file: the first loss, how many more, and the final reason
        (*reason*, with the stream's error if it broke)."""
        reasons = [*self.reasons]
        final = [text for text in (reason, reader.error and str(reader.error)) if text]
        if final:
            reasons.append(": ".join(final))
        text = reasons[0]
        if len(reasons) > 1:
            text += f" (and {len(reasons) - 1} more: {'; '.join(reasons[1:])})"
        return SourceError(self.source, text)


def _content_length(headers: dict[str, str], source: str, name: str) -> int:
    try:
        length = int(headers.get("content-length", ""))
    except ValueError:
        reason = f"WARC record {name} without a valid Content-Length"
        raise SourceError(source, reason) from None
    if length < 0:
        raise SourceError(source, f"WARC record {name} with a negative Content-Length")
    return length


def _record_unit(
    kind: str,
    headers: dict[str, str],
    block: bytes,
    source: str,
    index: int,
    record_id: str | None,
) -> Unit | None:
    """The unit of one record's block, or None when the payload is not text."""
    target = headers.get("warc-target-uri", "").strip("<> ") or None
    defects: list[str] = []
    if kind == "conversion":
        ctype, params, payload = "text/plain", dict[str, str](), block
    elif kind == "response" and block.startswith(b"HTTP/"):
        ctype, params, payload = _http_payload(block, defects)
    else:
        ctype, params = content_type(headers.get("content-type"), "application/octet-stream")
        payload = block
    labels = Stretches()
    found = _payload_text(ctype, params, payload, target, defects, labels)
    if found is None:
        return None
    chunks, cut = found
    return Unit(
        source,
        chunks,
        index,
        None,
        base_uri=target,
        record_id=record_id,
        target_uri=target,
        is_warc=True,
        defects=defects,
        ending=Ending(cut, labels or None),
    )


def _payload_text(
    ctype: str,
    params: dict[str, str],
    payload: bytes,
    base: str | None,
    defects: list[str],
    labels: Stretches,
) -> tuple[list[str], bool] | None:
    """Decode a payload by its media type, as text chunks and whether it was cut at
    ``MAX_TEXT``; None for non-text payloads. The link lines of HTML are labelled in
    *labels*."""
    is_html = ctype in _HTML_TYPES
    if ctype == "application/octet-stream":
        if is_binary(payload[:4096]):
            return None
        is_html = _HTML_START.match(payload[:1024]) is not None
    elif not (
        is_html
        or ctype.startswith("text/")
        or ctype in _TEXT_TYPES
        or ctype.endswith(("+xml", "+json"))
    ):
        return None
    charset = params.get("charset")
    if not charset and is_html:
        charset = meta_charset(payload, _META_PRESCAN)
    cut = len(payload) > MAX_TEXT
    text, defect = decode_bytes(payload[:MAX_TEXT] if cut else payload, charset)
    if defect:
        defects.append(defect)
    if cut:
        defects.append(over("payload", MAX_TEXT))
    return (list(html_chunks((text,), base, labels)) if is_html else [text]), cut


def _http_payload(block: bytes, defects: list[str]) -> tuple[str, dict[str, str], bytes]:
    """Split an HTTP response into its media type, parameters and decoded payload."""
    sep = block.find(b"\r\n\r\n")
    head, body = (block, b"") if sep < 0 else (block[:sep], block[sep + 4 :])
    if sep < 0 and b"\n\n" in block:
        head, _, body = block.partition(b"\n\n")
    fields: dict[str, str] = {}
    for line in head.split(b"\n")[1:]:
        name, _, value = line.decode("latin-1").partition(":")
        fields.setdefault(name.strip().lower(), value.strip())
    ctype, params = content_type(fields.get("content-type"), "application/octet-stream")
    if "chunked" in fields.get("transfer-encoding", "").lower():
        body = _dechunk(body, defects)
    encoding = fields.get("content-encoding", "").lower().strip()
    if encoding in ("gzip", "x-gzip", "deflate"):
        body = _inflate(body, encoding, defects)
    elif encoding not in ("", "identity"):
        defects.append(f"unsupported Content-Encoding {encoding!r}")
        return "application/octet-stream", {}, b""
    return ctype, params, body


def _dechunk(body: bytes, defects: list[str]) -> bytes:
    """Undo HTTP/1.1 chunked transfer coding; on malformed input keep the body as is."""
    out: list[bytes] = []
    pos = 0
    while True:
        match = _CHUNK_SIZE.match(body, pos)
        if not match:
            defects.append("malformed chunked encoding")
            return body
        size = int(match.group(1), 16)
        if size == 0:
            return b"".join(out)
        start = match.end()
        out.append(body[start : start + size])
        pos = start + size
        if body.startswith(b"\r\n", pos):
            pos += 2


def _inflate(body: bytes, encoding: str, defects: list[str]) -> bytes:
    """Undo gzip/deflate Content-Encoding, capped just over ``MAX_TEXT`` bytes (what
    is over it is cut by :func:`_payload_text`)."""
    wbits = 16 + zlib.MAX_WBITS if "gzip" in encoding else zlib.MAX_WBITS
    try:
        return zlib.decompressobj(wbits).decompress(body, MAX_TEXT + 1)
    except zlib.error:
        try:
            return zlib.decompressobj(-zlib.MAX_WBITS).decompress(body, MAX_TEXT + 1)
        except zlib.error:
            defects.append(f"bad {encoding} Content-Encoding")
            return b""
