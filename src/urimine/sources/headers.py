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
from urimine._wordtree import word_tree
from urimine.sources.mail_fields import NEVER_NAMES, NEVER_PREFIXES

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
# Group 1 is the empty line that ends the header (in _HEAD_SCAN) or empty, so that
# every pattern has the field name as group 2 and its value as group 3.
# The look-ahead rejects, with one class test, the many lines that start neither
# (Received, DKIM-Signature and their continuation lines) before the alternatives.
_HEAD_SCAN = re.compile(b"\n(?=" + _NAMED_OR_EMPTY.encode() + b")(?:(\n)|" + _NAMED_BODY + b")")
_NAMED_FIRST = re.compile(b"()" + _NAMED_BODY)
"""The first line of a header block has no line break before it."""
_NEVER = (
    "(?i:"
    + word_tree(
        [f"{name}:" for name in NEVER_NAMES if name != "message-id"]
        + [prefix for prefix in NEVER_PREFIXES if prefix != "content-"],
        lambda c: "[ \t]*:" if c == ":" else re.escape(c),
    )
    + ")"
)
"""The names of the structured fields, which the text scan passes over (``:`` stands for
the end of a name, a prefix has none); ``Message-ID`` and ``Content-*`` are the named
scan's, tried first. (:func:`~urimine.sources.mail_fields.field_kind` decides for the
fields found, ``-date`` names too: this only spares the work on the commonest.)"""
_TRIGGERED = r"(?=(?:[^\n<=:]++|<(?![^<>\n]*:)|=(?!\?)|:(?=[ \t\n])|\n(?=[ \t]))*+[<=:])"
"""A look-ahead: the (folded) value holds what a URI needs. Every URI the scanner takes
has a colon after its scheme and, outside angle brackets, something other than white
space after the colon; inside them (``<http: //a.example/>``, Appendix E) a ``<`` comes
before the colon. Besides, ``=?``: an encoded word (RFC 2047), whose decoding may show
a colon. A value with none of these (``Re: weekly notes``, ``Mutt/1.5.21``) is not
looked at."""
_TEXT_BODY = rf"(?!{_NEVER})([!-9;-~]++[ \t]*+):{_TRIGGERED}([^\n]*{_CONT})"
"""An unstructured field (RFC 5322 section 3.6.8: its name is ``ftext``) that could hold
a URI; the names of :data:`_NEVER` are left to the named scan or out."""
_TEXT_SCAN = re.compile(b"\n(?![ \t])(?:(\n)|" + _NAMED_BODY + b"|" + _TEXT_BODY.encode() + b")")
"""The named scan (:data:`_HEAD_SCAN`), and the unstructured fields besides; each line
is looked at once."""
_FIRST_FIELD = re.compile(rb"[^\n]*" + _CONT.encode() + rb"\n?")
"""The first field of a block, its line break included (read by :data:`_TEXT_SCAN` after
a line break put before it)."""
_QUOTED_PAIR = re.compile(r"\\(.)")
ANGLE_SCHEME = re.compile(rb"<\s*[A-Za-z][A-Za-z0-9+.-]*:")
_CACHED_LEN = 256
"""Longest field, field name or Content-Type value kept in a cache (memory stays bounded)."""
_CACHE_SIZE = 1024


class Field(NamedTuple):
    """One unfolded header field; *value* is still raw bytes, without folding line breaks."""

    key: bytes
    """The field name in lower case, for lookups."""
    name: bytes
    value: bytes


def read_header(
    data: bytes, start: int, end: int, *, text: bool = False
) -> tuple[list[Field], int]:
    """The header fields of the entity ``data[start:end]`` and where its body starts.

    The header ends at the first empty line (RFC 5322 section 2.1; RFC 2045
    section 3 for body parts): an entity that starts with an empty line has no
    header, and one without an empty line is all header. Offsets, not slices:
    the entity may be a large part of a larger message.

    Unfolding follows RFC 5322 section 2.2.3 (remove the line break, keep the
    white space). For speed only the fields looked at are kept, found with
    C-level regex scans of the folded block instead of a Python loop over every
    field, and only those are unfolded: fields named ``Content-*``, ``Message-ID``,
    ``List-*`` or ``Archived-At``; with *text* (a message's header), besides, every
    unstructured field (:mod:`.mail_fields`) whose value could hold a URI
    (:data:`_TRIGGERED`). The scan stops at the empty line, so that it is found
    without a search of its own. The patterns start at the line break before a field;
    the first field has none, so it is matched on its own, a line break put before it.
    The fields come in the order of the block.
    """
    if data.startswith(b"\n", start, end):
        return [], start + 1
    if text:
        head = _FIRST_FIELD.match(data, start, end)
        first = _TEXT_SCAN.match(b"\n" + head[0]) if head is not None else None
    else:
        first = _NAMED_FIRST.match(data, start, end)
    found = [first] if first else []
    body = end
    for named in (_TEXT_SCAN if text else _HEAD_SCAN).finditer(data, start, end):
        if named.group(1):  # the empty line
            body = named.end()
            break
        found.append(named)
    return [_FIELDS.get(match[0]) or _new_field(match[0]) for match in found], body


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
