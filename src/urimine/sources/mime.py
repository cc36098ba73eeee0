"""A light MIME walker on bytes: header blocks, multipart splitting, body decoding.

The stdlib :mod:`email` package with ``policy.default`` builds a full object
tree and manages only a few thousand messages a second; a URI miner needs only
the text parts. This module works on one message held as ``bytes`` with line
ends already normalised to ``\\n``. Entities are ``(start, end)`` offsets into
that one object, never copies: header fields are read by :mod:`.headers`, boundaries
found with ``bytes.find``; transfer encodings are undone (:mod:`.transfer`) only for
the parts that are yielded, so images and ``application/*`` parts cost nothing but
the boundary search over them. Problems become defect strings; nothing here raises on bad
input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from urimine.sources.flowed import unflow
from urimine.sources.headers import Field, field_map, field_value, media_type, read_header
from urimine.sources.html_charset import meta_charset
from urimine.sources.limits import MAX_TEXT, over
from urimine.sources.text import decode_bytes
from urimine.sources.transfer import EXPANSION, transfer_encoding, undo_transfer
from urimine.sources.weburl import absolutize

MAX_DEPTH = 32
"""Deepest MIME nesting walked; deeper parts are skipped with a defect."""
_MESSAGE_TYPES = ("message/rfc822", "message/global", "message/news")


@dataclass(slots=True)
class TextPart:
    """A decoded ``text/*`` part ready to become a unit."""

    path: str
    subtype: str
    text: str
    base: str | None
    defects: list[str] = field(default_factory=list)
    cut: bool = False
    """The part runs to where the message was cut short: its text does not end there."""


@dataclass(slots=True)
class HeaderBlock:
    """The header fields of a message (top level or a ``message/rfc822`` part)."""

    path: str
    fields: list[Field]
    cut: bool = False
    """The header block runs to where the message was cut short."""


def _next_delimiter(data: bytes, marker: bytes, start: int, end: int) -> tuple[int, bool, int]:
    """Position of the next real delimiter line, whether it closes, and its line end."""
    while True:
        pos = data.find(marker, start, end)
        if pos < 0:
            return -1, False, -1
        after = pos + len(marker)
        eol = data.find(b"\n", after, end)
        if eol < 0:
            eol = end
        if data.startswith(b"--", after, eol):
            return pos, True, eol
        if not data[after:eol].strip(b" \t\r"):
            return pos, False, eol
        start = after  # a longer boundary that merely starts with ours


def body_parts(
    data: bytes, start: int, end: int, boundary: str, defects: list[str]
) -> list[tuple[int, int]] | None:
    """The body parts of the multipart body ``data[start:end]`` as ``(start, end)`` pairs.

    Delimiter lines follow RFC 2046 section 5.1.1; the line break before each
    delimiter belongs to the delimiter, so the search starts at the line break
    that ends the header block (``start - 1``). None means no delimiter was
    found at all. Parts are not copied: a large attachment costs only the
    boundary search over it.
    """
    marker = b"\n--" + boundary.encode("latin-1", "replace")
    pos, closing, eol = -1, False, -1
    if start < end:  # an empty body has no delimiter (and maybe no line break before it)
        pos, closing, eol = _next_delimiter(data, marker, start - 1, end)
    if pos < 0:
        defects.append("multipart without any boundary line")
        return None
    parts: list[tuple[int, int]] = []
    while not closing:
        nxt, closing_next, nxt_eol = _next_delimiter(data, marker, eol, end)
        if nxt < 0:
            parts.append((min(eol + 1, end), end))
            defects.append("missing closing boundary")
            break
        parts.append((eol + 1, nxt))
        closing, eol = closing_next, nxt_eol
    return parts


@dataclass(slots=True)
class Walker:
    """Walks one message's MIME tree and yields header blocks and text parts.

    The message stays one ``bytes`` object; entities are ``(start, end)`` spans
    of it, so parts are sliced out only when they are decoded.
    """

    defects: list[str] = field(default_factory=list)
    cut_data: bytes | None = None
    """The message bytes whose end is not the message's real end (it was cut short):
    an entity that runs to the end of these is cut too."""

    def _runs_to_cut(self, data: bytes, end: int) -> bool:
        """Whether an entity of *data* ending at *end* runs to where the message was cut."""
        return data is self.cut_data and end >= len(data)

    def message(
        self,
        fields: list[Field],
        data: bytes,
        start: int,
        end: int,
        path: str,
        base: str | None,
        depth: int = 0,
    ) -> Iterator[HeaderBlock | TextPart]:
        """A message with body ``data[start:end]``: its header block, then its body parts.

        Parts are numbered as IMAP does (RFC 3501 section 6.4.5): the body of a
        non-multipart message is part 1 of it.
        """
        yield HeaderBlock(path, fields, start >= end and self._runs_to_cut(data, end))
        found = field_map(fields)
        media = media_type(field_value(found, b"content-type"))
        body_path = path if media[0].startswith("multipart/") else _child(path, 1)
        yield from self.entity(found, data, start, end, body_path, base, depth, media)

    def entity(
        self,
        found: dict[bytes, bytes],
        data: bytes,
        start: int,
        end: int,
        path: str,
        base: str | None,
        depth: int,
        media: tuple[str, Mapping[str, str]] | None = None,
        charset: str | None = None,
    ) -> Iterator[HeaderBlock | TextPart]:
        """One entity with header *found* (:func:`field_map`) and body ``data[start:end]``
        (*media*: its parsed Content-Type, when the caller has it already): descend into
        multiparts and messages, decode text parts, skip the rest unread. *charset*: the
        one an enclosing multipart names, for a text part that names none."""
        if depth > MAX_DEPTH:
            self.defects.append(f"MIME nesting deeper than {MAX_DEPTH} at part {path}: skipped")
            return
        ctype, params = media or media_type(field_value(found, b"content-type"))
        base = _part_base(found, base)
        if ctype.startswith("multipart/"):
            charset = params.get("charset") or charset
            yield from self._multipart(ctype, params, data, start, end, path, base, depth, charset)
        elif ctype in _MESSAGE_TYPES:
            yield from self._inner(found, data, start, end, path, base, depth)
        elif ctype.startswith("text/"):
            yield self._text(found, ctype, params, data, start, end, path, base, charset)

    def _inner(
        self,
        found: dict[bytes, bytes],
        data: bytes,
        start: int,
        end: int,
        path: str,
        base: str | None,
        depth: int,
    ) -> Iterator[HeaderBlock | TextPart]:
        """An encapsulated message (RFC 2046 section 5.2.1), decoded only if it must be."""
        enc = transfer_encoding(field_value(found, b"content-transfer-encoding"), self.defects)
        if enc or data.find(b"\r\n", start, end) >= 0:
            cut = self._runs_to_cut(data, end)
            data = undo_transfer(data[start:end], enc, self.defects).replace(b"\r\n", b"\n")
            start, end = 0, len(data)
            if cut:
                self.cut_data = data
        inner_fields, body = read_header(data, start, end, text=True)
        yield from self.message(inner_fields, data, body, end, path, base, depth + 1)

    def _multipart(
        self,
        ctype: str,
        params: Mapping[str, str],
        data: bytes,
        start: int,
        end: int,
        path: str,
        base: str | None,
        depth: int,
        charset: str | None,
    ) -> Iterator[HeaderBlock | TextPart]:
        """The parts of a multipart. A charset it names (RFC 2046 gives a multipart none,
        yet mailers write one: ``multipart/mixed; boundary=...; charset="GB2312"``) is
        the one of its text parts that name none: read as UTF-8, else Windows-1252,
        GB2312 text after a URI runs on into it as Latin letters."""
        boundary = params.get("boundary")
        parts = body_parts(data, start, end, boundary, self.defects) if boundary else None
        if not boundary:
            self.defects.append(f"{ctype} without boundary at part {path or 'top'}")
        if parts is None:
            yield self._text({}, "text/plain", {}, data, start, end, path or "1", base, charset)
            return
        digest = ctype == "multipart/digest"
        for i, (part_start, part_end) in enumerate(parts, 1):
            part_fields, body = read_header(data, part_start, part_end)
            found = field_map(part_fields)
            if digest:
                # RFC 2046 section 5.1.5: in a digest the default type is message/rfc822.
                found.setdefault(b"content-type", b"message/rfc822")
            yield from self.entity(
                found, data, body, part_end, _child(path, i), base, depth + 1, charset=charset
            )

    def _text(
        self,
        found: dict[bytes, bytes],
        ctype: str,
        params: Mapping[str, str],
        data: bytes,
        start: int,
        end: int,
        path: str,
        base: str | None,
        charset: str | None = None,
    ) -> TextPart:
        defects: list[str] = []
        cut = self._runs_to_cut(data, end)
        enc = transfer_encoding(field_value(found, b"content-transfer-encoding"), defects)
        # At most what decodes to MAX_TEXT bytes is sliced out (quoted-printable takes
        # up to 3 bytes a byte, base64 4 for 3 and its line breaks).
        stop = min(end, start + MAX_TEXT * EXPANSION.get(enc, 1))
        if enc == "base64" and (stop < end or cut):  # whole lines: whole groups of 4
            stop = max(data.rfind(b"\n", start, stop) + 1, start)
        raw = undo_transfer(data[start:stop], enc, defects)
        if stop < end or len(raw) > MAX_TEXT:
            raw = raw[:MAX_TEXT]
            cut = True
            defects.append(over(f"{ctype} part", MAX_TEXT))
        text, charset_defect = decode_bytes(raw, _charset(ctype, params, raw, charset))
        del raw
        if charset_defect:
            defects.append(charset_defect)
        if ctype == "text/plain" and params.get("format", "").lower() == "flowed":
            text = unflow(text, params.get("delsp", "").lower() == "yes")  # RFC 3676
        return TextPart(path, ctype.partition("/")[2], text, base, defects, cut)


def _charset(
    ctype: str, params: Mapping[str, str], raw: bytes, inherited: str | None
) -> str | None:
    """The charset of a text part: its own parameter (RFC 2046 section 4.1.2), else for
    HTML the ``<meta>`` one in its first bytes (:func:`meta_charset`), else *inherited*
    (a multipart's, see :meth:`Walker._multipart`). The meta wins over the multipart's:
    it is the part's own declaration, the multipart's only a guess for all its parts."""
    own = params.get("charset")
    if own:
        return own
    if ctype == "text/html":
        return meta_charset(raw) or inherited
    return inherited


def _child(path: str, index: int) -> str:
    return f"{path}.{index}" if path else str(index)


BASE_FIELDS = (b"content-base", b"content-location")
"""The fields that name a part's base URI, the first one taking precedence."""
_WHITE_SPACE = re.compile(r"[ \t\r\n]+")


def base_field_uri(value: str) -> str:
    """A Content-Base or Content-Location value without its white space. Seed 001
    section 5.1.1: "any whitespace inside the field value (including that used for
    line folding) is ignored", so a URI folded over lines is one URI."""
    return _WHITE_SPACE.sub("", value)


def _part_base(found: dict[bytes, bytes], base: str | None) -> str | None:
    """Content-Base, else Content-Location (if absolute or resolvable), else *base*."""
    for key in BASE_FIELDS:
        value = field_value(found, key)
        if value:
            uri = absolutize(base_field_uri(value).strip("<>\"'"), base)
            if uri:
                return uri
    return base
