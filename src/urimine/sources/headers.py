"""The header block of a MIME entity: its fields found, unfolded, and Content-Type read.

Works on one message held as ``bytes`` with line ends already normalised to ``\\n``:
header fields are found with regex scans of the folded header block (C speed), and
only the fields kept are unfolded. Nothing here raises on bad input.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from urimine._memo import Memo

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
ANGLE_SCHEME = re.compile(rb"<\s*[A-Za-z][A-Za-z0-9+.-]*:")
_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/]")
_CACHED_LEN = 256
"""Longest field, field name or Content-Type value kept in a cache (memory stays bounded)."""
_CACHE_SIZE = 1024


class Field(NamedTuple):
    """One unfolded header field; *value* is still raw bytes, without folding line breaks."""

    key: bytes
    """The field name in lower case, for lookups."""
    name: bytes
    value: bytes


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
    while (hit := ANGLE_SCHEME.search(data, pos, end)) is not None:
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


def field_value(found: dict[bytes, bytes], key: bytes) -> str | None:
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


def media_type(value: str | None) -> tuple[str, Mapping[str, str]]:
    """:func:`content_type` with the ``text/plain`` default (RFC 2045 section 5.2).

    The same few Content-Type values come back in message after message, so
    short ones are looked up in a cache (long ones would only fill it).
    """
    if value is not None and len(value) > _CACHED_LEN:
        return content_type(value, "text/plain")
    return _cached_media_type(value)


@functools.lru_cache(maxsize=512)
def _cached_media_type(value: str | None) -> tuple[str, Mapping[str, str]]:
    """:func:`media_type`, cached; the parameters are read-only because they are shared."""
    ctype, params = content_type(value, "text/plain")
    return ctype, MappingProxyType(params)
