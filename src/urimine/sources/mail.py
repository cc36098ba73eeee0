"""One mail message (bytes) to units: a header unit, then one unit per text part.

The header unit carries only fields that hold URIs by design (``List-*``,
``Archived-At``, ``Content-Base``, ``Content-Location``) or that show a
``<scheme:...>`` in their value; address, threading, trace and signature fields
are left out because their angle brackets hold addresses and message ids, not
URIs. Each field is written unfolded on its own line, so a field missing its
closing ``>`` (Google Groups' ``List-Archive``) cannot swallow the next one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.errors import HeaderParseError
from email.header import decode_header

from urimine._memo import Memo
from urimine.sources.headers import ANGLE_SCHEME, Field, first, read_header
from urimine.sources.html import html_chunks
from urimine.sources.limits import MAX_MESSAGE, over
from urimine.sources.mime import BASE_FIELDS, HeaderBlock, TextPart, Walker, base_field_uri
from urimine.sources.text import decode_bytes
from urimine.sources.unit import CutBytes, Ending, Unit

_URI_FIELDS = frozenset({b"archived-at", *BASE_FIELDS})
_NOT_URI_FIELDS = frozenset(
    {
        b"from",
        b"to",
        b"cc",
        b"bcc",
        b"reply-to",
        b"sender",
        b"return-path",
        b"delivered-to",
        b"x-original-to",
        b"errors-to",
        b"mail-followup-to",
        b"message-id",
        b"in-reply-to",
        b"references",
        b"received",
        b"dkim-signature",
        b"domainkey-signature",
    }
)
_NOT_URI_PREFIXES = (b"arc-", b"resent-", b"x-google-dkim")
_MSGID = re.compile(r"<([^<>]*)>")
_CACHED_LEN, _CACHE_SIZE = 256, 1024
"""Longest field name cached, and how many (memory stays bounded on hostile input)."""


def _wanted(f: Field) -> bool:
    """Whether header field *f* belongs in the header unit."""
    verdict = _VERDICTS.get(f.key)
    if verdict is None:
        verdict = _verdict(f.key)
    if verdict == _BY_VALUE:
        return ANGLE_SCHEME.search(f.value) is not None
    return verdict == _YES


_YES, _NO, _BY_VALUE = 1, 0, -1
_VERDICTS: dict[bytes, int] = {}
"""Field key to :func:`_verdict`: the same few keys recur in every header."""


def _verdict(key: bytes) -> int:
    """Whether a field named *key* is wanted, unwanted, or wanted by its value."""
    if key.startswith(b"list-") or key in _URI_FIELDS:
        verdict = _YES
    elif key in _NOT_URI_FIELDS or key.startswith(_NOT_URI_PREFIXES):
        verdict = _NO
    else:
        verdict = _BY_VALUE
    if len(key) <= _CACHED_LEN and len(_VERDICTS) < _CACHE_SIZE:
        _VERDICTS[key] = verdict
    return verdict


def decode_value(raw: bytes) -> str:
    """A header value as text: raw 8-bit as UTF-8/Windows-1252, RFC 2047 words decoded."""
    try:
        text = raw.decode("utf-8")  # as decode_bytes(raw, None), without its defect note
    except UnicodeDecodeError:
        text = raw.decode("windows-1252", errors="replace")
    if "=?" not in text:
        return text
    try:
        pieces = decode_header(text)
    except (HeaderParseError, ValueError, LookupError):
        return text
    out = []
    for piece, charset in pieces:
        if isinstance(piece, str):
            out.append(piece)
        else:
            out.append(decode_bytes(piece, charset)[0])
    return "".join(out)


def header_text(fields: list[Field]) -> str:
    """The URI-bearing fields as ``Name: value`` lines, one field per line."""
    return "".join([_header_line(f) for f in fields])


_LINES: Memo[Field, str] = Memo(_CACHE_SIZE)
"""Field to its line in the header unit (``""`` if not wanted): the ``List-*`` and
``Content-*`` fields of a mailing list come back in every message."""


def _header_line(f: Field) -> str:
    """The ``Name: value`` line of *f* in the header unit, or ``""``."""
    line = _LINES.get(f)
    if line is None:
        line = f"{f.name.decode('latin-1')}: {_line_value(f)}\n" if _wanted(f) else ""
        if len(f.name) + len(f.value) <= _CACHED_LEN:
            _LINES.keep(f, line)
    return line


def _line_value(f: Field) -> str:
    """The value of *f* as its header line shows it: decoded, and for a base field
    without white space (:func:`base_field_uri`), so that a folded URI is scanned
    whole; other fields keep theirs (only unfolded, RFC 5322 section 2.2.3)."""
    value = decode_value(f.value)
    return base_field_uri(value) if f.key in BASE_FIELDS else value


def message_id(fields: list[Field]) -> str | None:
    """The Message-ID without its angle brackets."""
    value = first(fields, b"message-id")
    if not value:
        return None
    match = _MSGID.search(value)
    return (match.group(1) if match else value).strip() or None


def message_units(raw: bytes, source: str, doc_index: int) -> Iterator[Unit]:
    """The units of one RFC 5322 message given as bytes (any line ends).

    A message longer than ``MAX_MESSAGE`` is read up to there, with a defect; one
    given as :class:`~urimine.sources.unit.CutBytes` stops short of its real end. Either
    way the units whose text runs to the cut are marked as cut (:attr:`Unit.ending`).
    """
    cut = isinstance(raw, CutBytes)
    defects: list[str] = []
    if len(raw) > MAX_MESSAGE:
        raw, cut = raw[:MAX_MESSAGE], True
        defects.append(over("message", MAX_MESSAGE))
    data = raw.replace(b"\r\n", b"\n") if b"\r" in raw else raw
    del raw
    walker = Walker(defects, data if cut else None)
    fields, body = read_header(data, 0, len(data))
    mid = message_id(fields)
    units: list[Unit] = []
    for item in walker.message(fields, data, body, len(data), "", None):
        unit = _unit_for(item, source, doc_index, mid)
        if unit is not None:
            units.append(unit)
    if walker.defects:
        if not units:
            units.append(Unit(source, [], doc_index, "headers", message_id=mid, is_mail=True))
        units[0].defects[:0] = walker.defects
    yield from units


def _unit_for(
    item: HeaderBlock | TextPart, source: str, doc_index: int, mid: str | None
) -> Unit | None:
    """The unit for one walker item, or None for a header block with no URI fields."""
    if isinstance(item, HeaderBlock):
        text = header_text(item.fields)
        if not text:
            return None
        part = f"{item.path}.headers" if item.path else "headers"
        unit = Unit(source, [text], doc_index, part, message_id=mid, is_mail=True)
        unit.ending.cut = item.cut
        return unit
    html = item.subtype == "html"
    chunks = list(html_chunks((item.text,), item.base)) if html else [item.text]
    return Unit(
        source,
        chunks,
        doc_index,
        item.path,
        base_uri=item.base,
        message_id=mid,
        is_mail=True,
        defects=item.defects,
        ending=Ending(item.cut),
    )
