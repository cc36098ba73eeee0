"""A light MIME walker on bytes: header blocks, multipart splitting, body decoding.

The stdlib :mod:`email` package with ``policy.default`` builds a full object
tree and manages only a few thousand messages a second; a URI miner needs only
the text parts. This module works on one message held as ``bytes`` with line
ends already normalised to ``\\n``: it splits header blocks with ``bytes.find``,
finds boundaries with ``bytes.find``, decodes quoted-printable and base64 once
with :mod:`binascii`, and never decodes parts it will not yield (images,
``application/*``). Problems become defect strings; nothing here raises on bad
input.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from urimine.sources.html import absolutize
from urimine.sources.text import decode_bytes

MAX_DEPTH = 32
"""Deepest MIME nesting walked; deeper parts are skipped with a defect."""

_PARAM = re.compile(
    r""";\s*([^\s=;"]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)""",
)


def _nocase(word: str) -> str:
    """*word* as a case-insensitive regex without ``re.I`` (which slows ``\\n`` scans)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


_CONTENT, _MSG_ID, _LIST, _ARCHIVED = map(
    _nocase, ("content-", "message-id", "list-", "archived-at")
)
_NAMED_FIELD = re.compile(
    rf"\n((?:{_CONTENT}[a-zA-Z-]+|{_MSG_ID}|{_LIST}[^:\n]*|{_ARCHIVED})[ \t]*):([^\n]*)".encode()
)
_ANY_FIELD = re.compile(rb"\n([^ \t\n:][^:\n]*):([^\n]*)")
_ANGLE_SCHEME = re.compile(rb"<\s*[A-Za-z][A-Za-z0-9+.-]*:")
_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/]")
_MESSAGE_TYPES = ("message/rfc822", "message/global", "message/news")


class Field(NamedTuple):
    """One unfolded header field; *value* is still raw bytes, without folding line breaks."""

    key: bytes
    """The field name in lower case, for lookups."""
    name: bytes
    value: bytes


@dataclass(slots=True)
class TextPart:
    """A decoded ``text/*`` part ready to become a unit."""

    path: str
    subtype: str
    text: str
    base: str | None
    defects: list[str] = field(default_factory=list)


@dataclass(slots=True)
class HeaderBlock:
    """The header fields of a message (top level or a ``message/rfc822`` part)."""

    path: str
    fields: list[Field]


def split_head(entity: bytes) -> tuple[bytes, bytes]:
    """Split an entity at the first empty line into header block and body."""
    if entity.startswith(b"\n"):
        return b"", entity[1:]
    end = entity.find(b"\n\n")
    if end < 0:
        return entity, b""
    return entity[: end + 1], entity[end + 2 :]


def parse_fields(head: bytes, defects: list[str]) -> list[Field]:
    """The header fields this package uses, unfolded, in their original order.

    Unfolding follows RFC 5322 section 2.2.3 (remove the line break, keep the
    white space). For speed only two kinds of field are kept, found with
    C-level regex scans instead of a Python loop over every field: fields
    named ``Content-*``, ``Message-ID``, ``List-*`` or ``Archived-At``, and
    any field whose value shows a ``<scheme:`` (the header unit candidates).
    """
    if b"\n " in head or b"\n\t" in head:
        head = head.replace(b"\n ", b" ").replace(b"\n\t", b"\t")
    head = b"\n" + head
    found = {m.start(): m for m in _NAMED_FIELD.finditer(head)}
    for hit in _ANGLE_SCHEME.finditer(head):
        start = head.rfind(b"\n", 0, hit.start())
        if start not in found:
            line = _ANY_FIELD.match(head, start)
            if line:
                found[start] = line
    fields = []
    for start in sorted(found):
        name, value = found[start].group(1, 2)
        name = name.rstrip()
        fields.append(Field(name.lower(), name, value.strip()))
    return fields


def first(fields: list[Field], key: bytes) -> str | None:
    """The first field named *key* (lower case) as text, or None."""
    for f in fields:
        if f.key == key:
            return f.value.decode("latin-1").strip()
    return None


def content_type(value: str | None, default: str) -> tuple[str, dict[str, str]]:
    """``type/subtype`` in lower case and the parameters of a Content-Type value."""
    if not value:
        return default, {}
    main, semi, _ = value.partition(";")
    ctype = main.strip().lower()
    params: dict[str, str] = {}
    if not semi:
        return (ctype, params) if "/" in ctype else (default, params)
    for match in _PARAM.finditer(value):
        key, raw = match.group(1).lower(), match.group(2).strip()
        if raw.startswith('"'):
            raw = re.sub(r"\\(.)", r"\1", raw[1:].removesuffix('"'))
        params.setdefault(key.rstrip("*"), raw)
    if "/" not in ctype:
        return default, params
    return ctype, params


def decode_base64(data: bytes, defects: list[str]) -> bytes:
    """Decode base64, salvaging what can be decoded from a broken body."""
    try:
        return binascii.a2b_base64(data)
    except binascii.Error:
        pass
    defects.append("bad base64")
    clean = _B64_JUNK.sub(b"", data)
    whole = len(clean) // 4 * 4
    out = binascii.a2b_base64(clean[:whole]) if whole else b""
    rest = clean[whole:]
    if len(rest) >= 2:
        out += binascii.a2b_base64(rest + b"=" * (4 - len(rest)))
    return out


def decode_transfer(body: bytes, cte: str | None, defects: list[str]) -> bytes:
    """Undo a Content-Transfer-Encoding exactly once."""
    enc = (cte or "").strip().lower()
    if enc == "quoted-printable":
        return binascii.a2b_qp(body)
    if enc == "base64":
        return decode_base64(body, defects)
    if enc and enc not in ("7bit", "8bit", "binary"):
        defects.append(f"unknown transfer encoding {enc!r}")
    return body


def _next_delimiter(data: bytes, marker: bytes, start: int) -> tuple[int, bool, int]:
    """Position of the next real delimiter line, whether it closes, and its line end."""
    while True:
        pos = data.find(marker, start)
        if pos < 0:
            return -1, False, -1
        after = pos + len(marker)
        eol = data.find(b"\n", after)
        if eol < 0:
            eol = len(data)
        tail = data[after:eol]
        if tail.startswith(b"--"):
            return pos, True, eol
        if not tail.strip(b" \t\r"):
            return pos, False, eol
        start = after  # a longer boundary that merely starts with ours


def split_multipart(body: bytes, boundary: str, defects: list[str]) -> list[bytes] | None:
    """The body parts between delimiter lines (RFC 2046 section 5.1.1), or None.

    The line break before each delimiter belongs to the delimiter. None means no
    delimiter was found at all.
    """
    data = b"\n" + body
    marker = b"\n--" + boundary.encode("latin-1", "replace")
    pos, closing, eol = _next_delimiter(data, marker, 0)
    if pos < 0:
        defects.append("multipart without any boundary line")
        return None
    parts: list[bytes] = []
    while not closing:
        nxt, closing_next, nxt_eol = _next_delimiter(data, marker, eol)
        if nxt < 0:
            parts.append(data[eol + 1 :])
            defects.append("missing closing boundary")
            break
        parts.append(data[eol + 1 : nxt])
        closing, eol = closing_next, nxt_eol
    return parts


@dataclass(slots=True)
class Walker:
    """Walks one message's MIME tree and yields header blocks and text parts."""

    defects: list[str] = field(default_factory=list)

    def message(
        self, fields: list[Field], body: bytes, path: str, base: str | None, depth: int = 0
    ) -> Iterator[HeaderBlock | TextPart]:
        """A message: its header block, then its body parts (IMAP part numbering)."""
        yield HeaderBlock(path, fields)
        ctype, _ = content_type(first(fields, b"content-type"), "text/plain")
        body_path = path if ctype.startswith("multipart/") else _child(path, 1)
        yield from self.entity(fields, body, body_path, base, depth)

    def entity(
        self, fields: list[Field], body: bytes, path: str, base: str | None, depth: int
    ) -> Iterator[HeaderBlock | TextPart]:
        """One entity: descend into multiparts and messages, decode text parts."""
        if depth > MAX_DEPTH:
            self.defects.append(f"MIME nesting deeper than {MAX_DEPTH} at part {path}")
            return
        ctype, params = content_type(first(fields, b"content-type"), "text/plain")
        base = _part_base(fields, base)
        if ctype.startswith("multipart/"):
            yield from self._multipart(ctype, params, body, path, base, depth)
        elif ctype in _MESSAGE_TYPES:
            inner = decode_transfer(body, first(fields, b"content-transfer-encoding"), self.defects)
            inner = inner.replace(b"\r\n", b"\n")
            head, inner_body = split_head(inner)
            inner_fields = parse_fields(head, self.defects)
            yield from self.message(inner_fields, inner_body, path, base, depth + 1)
        elif ctype.startswith("text/"):
            yield self._text(fields, ctype, params, body, path, base)

    def _multipart(
        self,
        ctype: str,
        params: dict[str, str],
        body: bytes,
        path: str,
        base: str | None,
        depth: int,
    ) -> Iterator[HeaderBlock | TextPart]:
        boundary = params.get("boundary")
        parts = split_multipart(body, boundary, self.defects) if boundary else None
        if not boundary:
            self.defects.append(f"{ctype} without boundary at part {path or 'top'}")
        if parts is None:
            fallback = [Field(b"content-type", b"Content-Type", b"text/plain")]
            yield self._text(fallback, "text/plain", {}, body, path or "1", base)
            return
        default = "message/rfc822" if ctype == "multipart/digest" else "text/plain"
        for i, part in enumerate(parts, 1):
            head, part_body = split_head(part)
            part_fields = parse_fields(head, self.defects)
            if first(part_fields, b"content-type") is None and default != "text/plain":
                part_fields.append(Field(b"content-type", b"Content-Type", default.encode()))
            yield from self.entity(part_fields, part_body, _child(path, i), base, depth + 1)

    def _text(
        self,
        fields: list[Field],
        ctype: str,
        params: dict[str, str],
        body: bytes,
        path: str,
        base: str | None,
    ) -> TextPart:
        defects: list[str] = []
        data = decode_transfer(body, first(fields, b"content-transfer-encoding"), defects)
        text, charset_defect = decode_bytes(data, params.get("charset"))
        if charset_defect:
            defects.append(charset_defect)
        if ctype == "text/plain" and params.get("format", "").lower() == "flowed":
            text = unflow(text, params.get("delsp", "").lower() == "yes")
        return TextPart(path, ctype.partition("/")[2], text, base, defects)


def _child(path: str, index: int) -> str:
    return f"{path}.{index}" if path else str(index)


def _part_base(fields: list[Field], base: str | None) -> str | None:
    """Content-Base, else Content-Location (if absolute or resolvable), else *base*."""
    for key in (b"content-base", b"content-location"):
        value = first(fields, key)
        if value:
            uri = absolutize(value.strip().strip("<>\"' "), base)
            if uri:
                return uri
    return base


def unflow(text: str, delsp: bool) -> str:
    """Undo ``format=flowed`` (RFC 3676): join soft-broken lines, drop space-stuffing.

    A line ending in a space is flowed into the next line of the same quote
    depth; with ``DelSp=yes`` that trailing space is deleted. The signature
    separator ``-- `` is never flowed.
    """
    if " \n" not in text and "\n " not in text and not text.startswith(" "):
        return text  # nothing flowed and nothing stuffed
    out: list[str] = []
    para: list[str] = []
    para_depth = -1
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]
        flowed = content.endswith(" ") and content != "-- "
        if para and depth != para_depth:
            out.append(_quoted(para_depth, "".join(para)))
            para = []
        para_depth = depth
        para.append(content[:-1] if flowed and delsp else content)
        if not flowed:
            out.append(_quoted(depth, "".join(para)))
            para = []
    if para:
        out.append(_quoted(para_depth, "".join(para)))
    return "\n".join(out)


def _quoted(depth: int, content: str) -> str:
    return ">" * depth + " " + content if depth else content
