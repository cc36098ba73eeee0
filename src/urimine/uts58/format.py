"""Minimal escaping of a URL for display, as UTS #58 specifies it ("Minimal Escaping"):
the path, query and fragment are percent-decoded, then only what link detection would
otherwise misread is escaped again, so that the displayed link is both readable and
found whole when it stands in running text.

What is escaped, part by part: Hard characters (white space, controls, and the
characters that would end the part: ``?`` ``#`` in a path, ``#`` in a query); a Close
character that does not match the last unmatched Open one; the separators written as
data inside a piece (``/`` in a path segment, ``&`` ``=`` in a query key or value,
``:~:`` in a fragment); a ``%`` that two hex digits follow; and the last character of
the URL when it is Soft (it would read as sentence punctuation). A Soft character
anywhere else stays as it is. The scheme and host are copied as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from urimine.uts58.props import CLOSE, HARD, OPEN, SOFT, data

_ESCAPE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_PCT_HEX = re.compile(r"%(?=[0-9A-Fa-f]{2})")
_PATH_HARD = frozenset("?#")
_QUERY_HARD = frozenset("#")


@dataclass(frozen=True, slots=True)
class LinkParts:
    """A URL split into the parts UTS #58 formats, each piece decoded (a ``/`` inside
    a path segment is data, not a separator). None is a part that is absent; an empty
    tuple cannot occur (``https://a.example/`` has the path ``("",)``)."""

    prefix: str
    """The scheme and host (with userinfo and port), copied as written."""
    path: tuple[str, ...] | None = None
    """The path segments after the host's ``/``."""
    query: tuple[tuple[str, str | None], ...] | None = None
    """The query's key and value pairs; None is a key written without ``=``."""
    fragment: tuple[str, ...] | None = None
    """The fragment, then its directives (the pieces after each ``:~:``)."""


def percent_decode(text: str) -> str:
    """*text* with its ``%XX`` escapes decoded as UTF-8; bytes that are no UTF-8 become
    lone surrogates (Python's surrogateescape), which formatting escapes again."""
    return _ESCAPE.sub(
        lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "surrogateescape"),
        text,
    )


def split_link(url: str) -> LinkParts:
    """*url* split into its prefix (scheme and host), path, query and fragment.

    >>> split_link("https://example.com/a%2Fb/c?x=%CE%B1&y#f")
    LinkParts(prefix='https://example.com', path=('a/b', 'c'), query=(('x', 'α'), ('y', None)), \
fragment=('f',))
    """
    scheme_end = url.find("://")
    host_start = scheme_end + 3 if scheme_end > 0 else 0
    cut = min((i for i in (url.find(c, host_start) for c in "/?#") if i >= 0), default=len(url))
    prefix, rest = url[:cut], url[cut:]
    rest, hash_, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    return LinkParts(
        prefix,
        tuple(percent_decode(s) for s in rest[1:].split("/")) if rest else None,
        tuple(_pair(p) for p in query.split("&")) if question else None,
        tuple(percent_decode(f) for f in fragment.split(":~:")) if hash_ else None,
    )


def _pair(piece: str) -> tuple[str, str | None]:
    key, equals, value = piece.partition("=")
    return percent_decode(key), percent_decode(value) if equals else None


def _escape_chars(text: str, chars: str) -> str:
    """*text* with ``%`` before two hex digits and the separators *chars* escaped."""
    text = _PCT_HEX.sub("%25", text)
    for ch in chars:
        text = text.replace(ch, f"%{ord(ch):02X}")
    return text


def _percent(ch: str) -> str:
    if "\udc80" <= ch <= "\udcff":
        return f"%{ord(ch) - 0xDC00:02X}"
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))


def _minimal(unified: str, hard: frozenset[str], clear: frozenset[str], last: bool) -> str:
    """One part's text with what detection would misread escaped: *hard* are the
    characters that would end the part, *clear* its interior syntax (``":~:"`` stands
    for the fragment directive); *last* is true for the URL's last part, whose final
    Soft character is escaped."""
    props = data()
    term, brackets = props.term, props.brackets
    out: list[str] = []
    stack: list[str] = []
    for i, ch in enumerate(unified):
        if ch in clear or (":~:" in clear and unified.startswith(":~:", i)):
            stack.clear()
        code = HARD if ch in hard else term.get(ord(ch))
        if code == OPEN:
            stack.append(ch)
        elif code == CLOSE and not (stack and stack.pop() == brackets.get(ch)):
            code = HARD
        out.append(_percent(ch) if code == HARD else ch)
    if last and out and out[-1] == unified[-1] and term.get(ord(unified[-1])) == SOFT:
        out[-1] = _percent(unified[-1])
    return "".join(out)


def format_parts(parts: LinkParts) -> str:
    """The minimally escaped URL of *parts* (UTS #58, "Minimal Escaping")."""
    pieces: list[tuple[str, str, frozenset[str], frozenset[str]]] = []
    if parts.path is not None:
        path = "/".join(_escape_chars(s, "/") for s in parts.path)
        pieces.append(("/", path, _PATH_HARD, frozenset("/")))
    if parts.query is not None:
        query = "&".join(
            _escape_chars(k, "&=") + ("" if v is None else "=" + _escape_chars(v, "&="))
            for k, v in parts.query
        )
        pieces.append(("?", query, _QUERY_HARD, frozenset("=&")))
    if parts.fragment is not None:
        fragment = ":~:".join(f.replace(":~:", "%3A~:") for f in parts.fragment)
        pieces.append(("#", _PCT_HEX.sub("%25", fragment), frozenset(), frozenset({":~:"})))
    out = [parts.prefix]
    for i, (initiator, text, hard, clear) in enumerate(pieces):
        out += [initiator, _minimal(text, hard, clear, i == len(pieces) - 1)]
    return "".join(out)


def format_link(url: str) -> str:
    """*url* minimally escaped for display (UTS #58, "Minimal Escaping"): its path,
    query and fragment decoded, and escaped again only where link detection in running
    text would otherwise cut the link short or read on past its end.

    >>> format_link("https://example.com/%CE%B1%CE%B2(%CE%B3)?q=%CE%B4.#%CF%80.")
    'https://example.com/αβ(γ)?q=δ.#π%2E'
    """
    return format_parts(split_link(url))


__all__ = ["LinkParts", "format_link", "format_parts", "percent_decode", "split_link"]
