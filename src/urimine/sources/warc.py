"""A small streaming WARC 1.0/1.1 reader (also WET), on a :class:`BlockReader`.

A record is a version line, header fields, an empty line, ``Content-Length``
bytes of block and two CRLFs (ISO 28500 section 4). Per-record gzip members
are undone by the compression layer below, so this reader sees one plain
stream. ``response``, ``resource`` and ``conversion`` records become documents;
other record types are skipped without being held in memory. For ``response``
records the HTTP status line and headers are skipped, the charset comes from
the HTTP ``Content-Type``, and HTML payloads are resolved against
``WARC-Target-URI`` (the retrieval URI, RFC 3986 section 5.1.3).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator

from urimine.errors import SourceError
from urimine.sources.detect import BlockReader
from urimine.sources.html import html_to_text, meta_charset
from urimine.sources.mime import content_type
from urimine.sources.text import decode_bytes
from urimine.sources.unit import Unit

_WANTED = frozenset({"response", "resource", "conversion"})
_MAX_HEADER_LINES = 1000
_MAX_DECODED = 64 << 20
"""Cap on a Content-Encoding-decoded payload, against decompression bombs."""
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
    """Yield one unit per wanted record; raise SourceError on a cut or corrupt record."""
    index = 0
    while True:
        version = _next_version_line(reader)
        if not version:
            return
        if not version.startswith(b"WARC/"):
            raise SourceError(source, f"not a WARC record header at byte {reader.offset}")
        headers = _read_headers(reader) or {}
        record_id = headers.get("warc-record-id", "").strip("<>") or None
        # How an error names the record: its ID, else its place in the file.
        name = record_id or f"number {index + 1} (no WARC-Record-ID)"
        length = _content_length(headers, source, name)
        kind = headers.get("warc-type", "").lower()
        if kind in _WANTED:
            block = reader.read(length)
            _check_length(source, name, len(block), length)
            unit = _record_unit(kind, headers, block, source, index, record_id)
            if unit is not None:
                yield unit
        else:
            _check_length(source, name, reader.skip(length), length)
        index += 1


def _content_length(headers: dict[str, str], source: str, name: str) -> int:
    try:
        length = int(headers.get("content-length", ""))
    except ValueError:
        reason = f"WARC record {name} without a valid Content-Length"
        raise SourceError(source, reason) from None
    if length < 0:
        raise SourceError(source, f"WARC record {name} with a negative Content-Length")
    return length


def _check_length(source: str, name: str, got: int, want: int) -> None:
    if got < want:
        raise SourceError(source, f"truncated WARC record {name}: got {got} of {want} bytes")


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
    text = _payload_text(ctype, params, payload, target, defects)
    if text is None:
        return None
    return Unit(
        source,
        [text],
        index,
        None,
        base_uri=target,
        record_id=record_id,
        target_uri=target,
        is_warc=True,
        defects=defects,
    )


def _payload_text(
    ctype: str, params: dict[str, str], payload: bytes, base: str | None, defects: list[str]
) -> str | None:
    """Decode a payload by its media type; None for non-text payloads."""
    is_html = ctype in _HTML_TYPES
    if ctype == "application/octet-stream":
        if b"\x00" in payload[:4096]:
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
    text, defect = decode_bytes(payload, charset)
    if defect:
        defects.append(defect)
    return html_to_text(text, base) if is_html else text


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
    """Undo gzip/deflate Content-Encoding, capped at ``_MAX_DECODED`` bytes."""
    wbits = 16 + zlib.MAX_WBITS if "gzip" in encoding else zlib.MAX_WBITS
    try:
        return zlib.decompressobj(wbits).decompress(body, _MAX_DECODED)
    except zlib.error:
        try:
            return zlib.decompressobj(-zlib.MAX_WBITS).decompress(body, _MAX_DECODED)
        except zlib.error:
            defects.append(f"bad {encoding} Content-Encoding")
            return b""
