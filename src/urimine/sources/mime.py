"""A light MIME walker on bytes: header blocks, multipart splitting, body decoding.

The stdlib :mod:`email` package with ``policy.default`` builds a full object
tree and manages only a few thousand messages a second; a URI miner needs only
the text parts. This module works on one message held as ``bytes`` with line
ends already normalised to ``\\n``. Entities are ``(start, end)`` offsets into
that one object, never copies: header fields are found with regex scans of the
folded header block, boundaries with ``bytes.find``; quoted-printable and base64
are decoded once with :mod:`binascii`, and only for the parts that are
yielded, so images and ``application/*`` parts cost nothing but the boundary
search over them. Problems become defect strings; nothing here raises on bad
input.
"""

from __future__ import annotations

import binascii
import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from urimine._memo import Memo
from urimine.sources.html import absolutize, meta_charset
from urimine.sources.limits import MAX_TEXT, over
from urimine.sources.text import decode_bytes

MAX_DEPTH = 32
"""Deepest MIME nesting walked; deeper parts are skipped with a defect."""

_PARAM = re.compile(
    r""";\s*([^\s=;"]+)\s*=\s*("(?:[^"\\]++|\\.)*+"?|[^;]*)""",
)
"""A parameter (RFC 2045 section 5.1); a quoted value is taken in runs, not a
character at a time, and nothing after it could make a shorter one match."""


def _nocase(word: str) -> str:
    """*word* as a case-insensitive regex without ``re.I`` (which slows ``\\n`` scans)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in word)


_NAMED_WORDS = ("content-", "message-id", "list-", "archived-at")
_CONTENT, _MSG_ID, _LIST, _ARCHIVED = map(_nocase, _NAMED_WORDS)
_NAMED_OR_EMPTY = "[\\n" + "".join(w[0].lower() + w[0].upper() for w in _NAMED_WORDS) + "]"
"""The first byte of a line that may start a named field or be the empty line."""
# Header patterns run on the folded header block: a field is its first line plus the
# continuation lines that start with white space (RFC 5322 section 2.2.3), so that
# only the fields kept are unfolded, not the whole block (most of it is Received,
# DKIM-Signature and other fields that are never looked at).
_CONT = r"(?:\n[ \t][^\n]*)*"
"""Continuation lines of a field body."""
_NAME_CONT = r"(?:\n[ \t][^:\n]*)*"
"""Continuation lines inside a field name (only ``List-*`` names may span them)."""
_WSP = r"[ \t]*(?:\n[ \t]+)*"
"""White space before the colon, folds included."""
_NAMED_BODY = (
    rf"((?:{_CONTENT}[a-zA-Z-]+|{_MSG_ID}|{_LIST}[^:\n]*{_NAME_CONT}|{_ARCHIVED}){_WSP})"
    rf":([^\n]*{_CONT})"
).encode()
_ANY_BODY = rf"([^ \t\n:][^:\n]*{_NAME_CONT}):([^\n]*{_CONT})".encode()
# Group 1 is the empty line that ends the header (in _HEAD_SCAN) or empty, so that
# every pattern has the field name as group 2 and its value as group 3.
# The look-ahead rejects, with one class test, the many lines that start neither
# (Received, DKIM-Signature and their continuation lines) before the alternatives.
_HEAD_SCAN = re.compile(b"\n(?=" + _NAMED_OR_EMPTY.encode() + b")(?:(\n)|" + _NAMED_BODY + b")")
_ANY_FIELD = re.compile(b"\n()" + _ANY_BODY)
_NAMED_FIRST = re.compile(b"()" + _NAMED_BODY)
"""The first line of a header block has no line break before it."""
_ANY_FIRST = re.compile(b"()" + _ANY_BODY)
_REST_OF_FIELD = re.compile(rb"[^\n]*" + _CONT.encode())
"""The rest of a field from some position in it: the rest of the line, and its
continuation lines; matches everywhere."""
_QUOTED_PAIR = re.compile(r"\\(.)")
_ANGLE_SCHEME = re.compile(rb"<\s*[A-Za-z][A-Za-z0-9+.-]*:")
_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/]")
_MESSAGE_TYPES = ("message/rfc822", "message/global", "message/news")
_CACHED_LEN = 256
"""Longest field, field name or Content-Type value kept in a cache (memory stays bounded)."""
_CACHE_SIZE = 1024


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
    cut: bool = False
    """The part runs to where the message was cut short: its text does not end there."""


@dataclass(slots=True)
class HeaderBlock:
    """The header fields of a message (top level or a ``message/rfc822`` part)."""

    path: str
    fields: list[Field]
    cut: bool = False
    """The header block runs to where the message was cut short."""


def read_header(data: bytes, start: int, end: int) -> tuple[list[Field], int]:
    """The header fields of the entity ``data[start:end]`` and where its body starts.

    The header ends at the first empty line (RFC 5322 section 2.1; RFC 2045
    section 3 for body parts): an entity that starts with an empty line has no
    header, and one without an empty line is all header. Offsets, not slices:
    the entity may be a large part of a larger message.

    Unfolding follows RFC 5322 section 2.2.3 (remove the line break, keep the
    white space). For speed only two kinds of field are kept, found with
    C-level regex scans of the folded block instead of a Python loop over every
    field: fields named ``Content-*``, ``Message-ID``, ``List-*`` or
    ``Archived-At``, and any field whose value shows a ``<scheme:`` (the header
    unit candidates); only those are unfolded. The scan for the named fields
    stops at the empty line, so that it is found without a search of its own.
    The patterns start at the line break before a field; the first line has
    none, so it gets its own anchored match. The matches come in the order of
    the fields in the block.
    """
    if data.startswith(b"\n", start, end):
        return [], start + 1
    first = _NAMED_FIRST.match(data, start, end)
    found = [first] if first else []
    head = body = end
    for named in _HEAD_SCAN.finditer(data, start, end):
        if named.group(1):  # the empty line
            head, body = named.start() + 1, named.end()
            break
        found.append(named)
    found = _with_angle_fields(data, start, head, found)
    return [_FIELDS.get(match[0]) or _new_field(match[0]) for match in found], body


def _with_angle_fields(
    data: bytes, start: int, end: int, found: list[re.Match[bytes]]
) -> list[re.Match[bytes]]:
    """*found* (matches in block order) and each other field of ``data[start:end]``
    that shows a ``<scheme:``, still in block order.

    Most hits lie in a field that *found* holds already (a ``List-*`` one): the
    matches span whole fields, continuation lines included, so the search goes
    on after such a field, and after the fields of *found* that follow it
    directly, without looking at the hits in them.
    """
    extra: list[re.Match[bytes]] = []
    i, count = 0, len(found)
    pos = start
    while (hit := _ANGLE_SCHEME.search(data, pos, end)) is not None:
        at = hit.start()
        while i < count and found[i].end() <= at:
            i += 1
        if i < count and found[i].start() <= at:
            while i + 1 < count and found[i + 1].start() == found[i].end():
                i += 1
            pos = found[i].end()
            continue
        line_start = _field_start(data, start, at)
        if line_start < start:
            line = _ANY_FIRST.match(data, start, end)
        else:
            line = _ANY_FIELD.match(data, line_start, end)
        if line is None:  # not a field, and no later hit in its lines is either
            rest = _REST_OF_FIELD.match(data, at, end)
            pos = rest.end() if rest else end  # (it always matches)
        else:
            extra.append(line)
            pos = line.end()
    if not extra:
        return found
    return sorted(found + extra, key=_match_start)


def _match_start(match: re.Match[bytes]) -> int:
    """Sort key: where a field match starts (each lies in its own field)."""
    return match.start()


_FIELDS: Memo[bytes, Field] = Memo(_CACHE_SIZE)
"""Field as matched (folded; with the line break before it, but for the first field
of a block) to :class:`Field`: most fields (``List-*``, ``Content-Type``) recur
message after message, so most are neither split nor unfolded again."""


def _new_field(raw: bytes) -> Field:
    """The :class:`Field` of a field as matched: name and value split at the first
    colon (a name holds none), unfolded, the value trimmed."""
    raw_name, _, value = raw.removeprefix(b"\n").partition(b":")
    names = _NAMES.get(raw_name) or _field_name(raw_name)
    if b"\n" in value:
        value = _unfold(value)
    field = Field(names[0], names[1], value.strip())
    if len(raw) <= _CACHED_LEN:
        _FIELDS.keep(raw, field)
    return field


_NAMES: dict[bytes, tuple[bytes, bytes]] = {}
"""Field name as matched to (lower-case key, name): the same few names recur in every header."""


def _field_name(raw: bytes) -> tuple[bytes, bytes]:
    """The key and name of a field name as matched (unfolded, trailing white space cut)."""
    name = _unfold(raw).rstrip()
    names = (name.lower(), name)
    if len(raw) <= _CACHED_LEN and len(_NAMES) < _CACHE_SIZE:
        _NAMES[raw] = names
    return names


def _unfold(text: bytes) -> bytes:
    """Drop the line breaks of folded white space (RFC 5322 section 2.2.3)."""
    return text.replace(b"\n ", b" ").replace(b"\n\t", b"\t")


def _field_start(data: bytes, start: int, pos: int) -> int:
    """The line break that starts the (unfolded) field holding *pos*; ``start - 1``
    when that field is the first one of the block starting at *start*."""
    nl = data.rfind(b"\n", start, pos)
    while nl >= start and data[nl + 1] in b" \t":
        nl = data.rfind(b"\n", start, nl)
    return nl if nl >= start else start - 1


def first(fields: list[Field], key: bytes) -> str | None:
    """The first field named *key* (lower case) as text, or None."""
    for f in fields:
        if f.key == key:
            return f.value.decode("latin-1").strip()
    return None


def field_map(fields: list[Field]) -> dict[bytes, bytes]:
    """Each field name (lower case) to the raw value of its first occurrence."""
    return {f.key: f.value for f in reversed(fields)}


def _value(found: dict[bytes, bytes], key: bytes) -> str | None:
    """The value of field *key* in a :func:`field_map` as text, or None (like :func:`first`)."""
    raw = found.get(key)
    return None if raw is None else raw.decode("latin-1").strip()


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
            raw = raw[1:].removesuffix('"')
            if "\\" in raw:
                raw = _QUOTED_PAIR.sub(r"\1", raw)
        params.setdefault(key.rstrip("*"), raw)
    if "/" not in ctype:
        return default, params
    return ctype, params


def _media_type(value: str | None) -> tuple[str, Mapping[str, str]]:
    """:func:`content_type` with the ``text/plain`` default (RFC 2045 section 5.2).

    The same few Content-Type values come back in message after message, so
    short ones are looked up in a cache (long ones would only fill it).
    """
    if value is not None and len(value) > _CACHED_LEN:
        return content_type(value, "text/plain")
    return _cached_media_type(value)


@functools.lru_cache(maxsize=512)
def _cached_media_type(value: str | None) -> tuple[str, Mapping[str, str]]:
    """:func:`_media_type`, cached; the parameters are read-only because they are shared."""
    ctype, params = content_type(value, "text/plain")
    return ctype, MappingProxyType(params)


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


def transfer_encoding(cte: str | None, defects: list[str]) -> str:
    """The Content-Transfer-Encoding to undo, or ``""`` for an identity one.

    RFC 2045 section 6.1: ``7bit``, ``8bit`` and ``binary`` (and no field) mean
    the body is as it stands; any other unknown value is noted as a defect.
    """
    enc = (cte or "").strip().lower()
    if enc in ("quoted-printable", "base64"):
        return enc
    if enc and enc not in ("7bit", "8bit", "binary"):
        defects.append(f"unknown transfer encoding {enc!r}")
    return ""


_QP_SOFT_BREAK_PADDED = re.compile(rb"=[ \t]+(?=\r?\n|\Z)")
"""A quoted-printable soft line break with white space after its "=" (RFC 2045 6.7)."""


def _undo_transfer(body: bytes, enc: str, defects: list[str]) -> bytes:
    """Undo the transfer encoding *enc* (from :func:`transfer_encoding`)."""
    if enc == "quoted-printable":  # RFC 2045 section 6.7
        if b"= " in body or b"=\t" in body:
            # Rule (3): trailing white space on a line "must be deleted" when decoding
            # (transport may add it), so "=" before it is still a soft line break;
            # binascii keeps the "=" and the break ("http://a.example/y=" cut short).
            body = _QP_SOFT_BREAK_PADDED.sub(b"=", body)
        return binascii.a2b_qp(body)
    if enc == "base64":
        return decode_base64(body, defects)  # RFC 2045 section 6.8
    return body


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
        media = _media_type(_value(found, b"content-type"))
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
        ctype, params = media or _media_type(_value(found, b"content-type"))
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
        enc = transfer_encoding(_value(found, b"content-transfer-encoding"), self.defects)
        if enc or data.find(b"\r\n", start, end) >= 0:
            cut = self._runs_to_cut(data, end)
            data = _undo_transfer(data[start:end], enc, self.defects).replace(b"\r\n", b"\n")
            start, end = 0, len(data)
            if cut:
                self.cut_data = data
        inner_fields, body = read_header(data, start, end)
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
        enc = transfer_encoding(_value(found, b"content-transfer-encoding"), defects)
        # At most what decodes to MAX_TEXT bytes is sliced out (quoted-printable takes
        # up to 3 bytes a byte, base64 4 for 3 and its line breaks).
        stop = min(end, start + MAX_TEXT * _EXPANSION.get(enc, 1))
        if enc == "base64" and (stop < end or cut):  # whole lines: whole groups of 4
            stop = max(data.rfind(b"\n", start, stop) + 1, start)
        raw = _undo_transfer(data[start:stop], enc, defects)
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


_EXPANSION = {"quoted-printable": 3, "base64": 2}
"""Encoded bytes per decoded byte at most, by transfer encoding (identity: 1)."""


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
        value = _value(found, key)
        if value:
            uri = absolutize(base_field_uri(value).strip("<>\"'"), base)
            if uri:
                return uri
    return base


def unflow(text: str, delsp: bool) -> str:
    """Undo ``format=flowed`` (RFC 3676): join soft-broken lines, drop space-stuffing.

    A line ending in a space is flowed into the next line of the same quote
    depth; with ``DelSp=yes`` that trailing space is deleted. The signature
    separator ``-- `` is never flowed. One C-level scan splits every line into
    its quote marks and its content without the stuffed space (RFC 3676 sections
    4.4 and 4.5), so the Python loop only joins. Lines end in CRLF (the canonical
    form, RFC 2046 section 4.1.1, which a base64 body keeps) or in a bare LF: the
    scan splits at LF, a CR before it stays with the content (so a line kept
    keeps its CRLF), and a flowed line is one whose content ends in a space,
    before that CR if any.
    """
    if " \n" not in text and " \r\n" not in text and "\n " not in text and not text.startswith(" "):
        return text  # nothing flowed and nothing stuffed
    out: list[str] = []
    para: list[str] = []
    para_depth = -1
    for quotes, content in _FLOWED_LINE.findall(text + "\n"):
        depth = len(quotes)
        if para and depth != para_depth:
            out.append(_quoted(para_depth, "".join(para)))
            para = []
        if content.endswith(_FLOWED_ENDS) and content not in _SIGNATURE_SEPARATORS:
            para_depth = depth  # flowed (section 4.1)
            if content[-1] == "\r":
                content = content[:-1]
            para.append(content[:-1] if delsp else content)
        elif para:
            para.append(content)
            out.append(_quoted(depth, "".join(para)))
            para = []
        else:
            out.append(f"{quotes} {content}" if depth else content)
    if para:
        out.append(_quoted(para_depth, "".join(para)))
    return "\n".join(out)


_FLOWED_LINE = re.compile(r"(>*) ?([^\n]*)\n")
"""A line of flowed text: its quote marks, then its content without one stuffed space
(and with the CR of a CRLF line end).

Every line, the last one too once a line break is added, matches where the
previous one ended, so the scan never tries a position in the middle of a line.
"""
_FLOWED_ENDS = (" ", " \r")
"""How the content of a flowed line ends (section 4.1), by LF or CRLF."""
_SIGNATURE_SEPARATORS = ("-- ", "-- \r")
"""The signature separator line, never flowed (section 4.3)."""


def _quoted(depth: int, content: str) -> str:
    return ">" * depth + " " + content if depth else content
