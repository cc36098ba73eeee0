"""One mail message (bytes) to units: a header unit, then one unit per text part.

The header unit carries the fields that may hold URIs (:mod:`.mail_fields`): those
that hold them by design (``List-*``, ``Archived-At``, ``Content-Base``,
``Content-Location``) and the unstructured ones whose value could hold one; address,
identifier, date, trace and signature fields are left out, their angle brackets hold
addresses and message ids, not URIs. Each field is written unfolded on a line of its
own, with an empty line between fields, which no URI spans: a field missing its
closing ``>`` (Google Groups' ``List-Archive``) cannot swallow the next one. Each line
is labelled with its field (:class:`~urimine.sources.labels.Labels`), so a hit there
has ``header:NAME`` as its context, and ``--headers`` keeps the hits of the fields it
names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from email.errors import HeaderParseError
from email.header import decode_header
from typing import NamedTuple

from urimine._memo import Memo
from urimine.sources.headers import ANGLE_SCHEME, Field, first, read_header
from urimine.sources.labels import FieldLines, Stretches
from urimine.sources.limits import MAX_MESSAGE, over
from urimine.sources.mail_fields import LINK, field_kind, label
from urimine.sources.mime import BASE_FIELDS, HeaderBlock, TextPart, Walker, base_field_uri
from urimine.sources.text import decode_bytes
from urimine.sources.unit import CutBytes, Ending, Unit

_MSGID = re.compile(r"<([^<>]*)>")

_HOLDS_URI = re.compile(r":\S|<[^<>]*:")
"""What the decoded value of an unstructured field must show to be scanned: what
``headers._TRIGGERED`` looks for in the raw value, an encoded word (RFC 2047) decoded."""
_CACHED_LEN, _CACHE_SIZE = 256, 1024
"""Longest field cached, and how many (memory stays bounded on hostile input)."""
MAX_FIELD = 1 << 16
"""Bytes of one field's value read into the header unit (RFC 5322 section 2.1.1 limits
a line to 998 characters; a folded field may be longer, but this long only in a
hostile message): the value is cut at its last white space before, with a defect, so
that no word is read cut short."""


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


class _Line(NamedTuple):
    """A field as a header unit shows it."""

    text: str
    """``Name: value``, unfolded and decoded, without a line break."""
    label: str
    """The context of a hit in it (``header:list-post``)."""
    links: bool
    """It goes in the unit of the fields ``--headers links`` keeps."""
    cut: bool
    """The value was longer than :data:`MAX_FIELD`, and is cut."""


_UNSEEN = _Line("", "", False, False)
_LINES: Memo[Field, _Line | None] = Memo(_CACHE_SIZE)
"""Field to its line in a header unit (None if not wanted): the ``List-*`` and
``Content-*`` fields of a mailing list come back in every message."""


def _line(f: Field) -> _Line | None:
    """The line of *f* in a header unit, or None."""
    line = _LINES.get(f, _UNSEEN)
    if line is not _UNSEEN:
        return line
    kind = field_kind(f.key)
    line = None
    if kind is not None:
        raw, cut = f.value, len(f.value) > MAX_FIELD
        if cut:
            raw = raw[: _last_blank(raw, MAX_FIELD)]
        value = decode_value(raw)
        if f.key in BASE_FIELDS:
            value = base_field_uri(value)
        elif " [...]" in value:
            value = _without_cut_words(value)
        links = kind == LINK or ANGLE_SCHEME.search(raw) is not None
        if links or _HOLDS_URI.search(value):
            line = _Line(f"{f.name.decode('latin-1')}: {value}", label(f.key), links, cut)
    if len(f.name) + len(f.value) <= _CACHED_LEN:
        _LINES.keep(f, line)
    return line


def _without_cut_words(value: str) -> str:
    """*value* without each word with a colon that `` [...]`` follows: where a report
    quotes a message cut short (SpamAssassin's ``Content preview``), the word before
    the mark is cut, and a URI there would be taken for a whole one
    (``https://syzkaller.a [...]``). The message's own text has it whole."""
    pieces = value.split(" [...]")
    for i, piece in enumerate(pieces[:-1]):
        start = max(piece.rfind(" "), piece.rfind("\t")) + 1
        if ":" in piece[start:]:
            pieces[i] = piece[:start]
    return " [...]".join(pieces)


def _last_blank(raw: bytes, end: int) -> int:
    """Where the last white space at or before *end* is in *raw* (0 if none)."""
    return max(raw.rfind(b" ", 0, end + 1), raw.rfind(b"\t", 0, end + 1), 0)


def header_texts(fields: list[Field]) -> list[tuple[str, FieldLines, list[str]]]:
    """The texts of a header's units, each with the labels of its lines and its defects:
    first that of the fields ``--headers links`` keeps, then that of the other
    unstructured fields (:mod:`.mail_fields`); each field a ``Name: value`` line, an
    empty line between them. A unit without a field is left out."""
    links: list[_Line] = []
    others: list[_Line] = []
    for f in fields:
        line = _line(f)
        if line is not None:
            (links if line.links else others).append(line)
    texts = [_unit_text(links, True)] if links else []
    if others:
        texts.append(_unit_text(others, False))
    return texts


def _unit_text(lines: list[_Line], links: bool) -> tuple[str, FieldLines, list[str]]:
    """The text of a header unit of *lines*, their labels and the unit's defects."""
    text = "\n\n".join([line.text for line in lines]) + "\n"
    defects = [f"{x.label[7:]} field over {MAX_FIELD} bytes: cut" for x in lines if x.cut]
    return text, FieldLines(links, text, name_label), defects


def name_label(name: str) -> str:
    """The label of a field named *name* (as a header unit's line shows it)."""
    return label(name.lower().encode("latin-1", "replace"))


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
    fields, body = read_header(data, 0, len(data), text=True)
    mid = message_id(fields)
    units: list[Unit] = []
    for item in walker.message(fields, data, body, len(data), "", None):
        if isinstance(item, HeaderBlock):
            units.extend(_header_units(item, source, doc_index, mid))
        else:
            units.append(_part_unit(item, source, doc_index, mid))
    if walker.defects:
        if not units:
            units.append(Unit(source, [], doc_index, "headers", message_id=mid, is_mail=True))
        units[0].defects[:0] = walker.defects
    yield from units


def _header_units(item: HeaderBlock, source: str, doc_index: int, mid: str | None) -> list[Unit]:
    """The units of a header block (none without a field that may hold a URI)."""
    part = f"{item.path}.headers" if item.path else "headers"
    return [
        Unit(source, [text], doc_index, part, message_id=mid, is_mail=True, defects=defects,
             ending=Ending(item.cut, labels))
        for text, labels, defects in header_texts(item.fields)
    ]  # fmt: skip


def _part_unit(item: TextPart, source: str, doc_index: int, mid: str | None) -> Unit:
    """The unit of a text part; an HTML part's link lines labelled."""
    html = item.subtype == "html"
    stretches = Stretches() if html else None
    if html:  # (the HTML reader is imported by the first HTML part)
        from urimine.sources.html import html_chunks

        chunks = list(html_chunks((item.text,), item.base, stretches))
    else:
        chunks = [item.text]
    return Unit(
        source,
        chunks,
        doc_index,
        item.path,
        base_uri=item.base,
        message_id=mid,
        is_mail=True,
        defects=item.defects,
        ending=Ending(item.cut, stretches or None),
    )
