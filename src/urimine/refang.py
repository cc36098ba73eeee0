"""Defanged indicators, as threat reports write them so that nobody clicks them, read
back as the URIs they stand for.

Recognised: the schemes ``hxxp``, ``hxxps`` (any case, also ``hXXp``), ``fxp`` for
``ftp``; a dot written ``[.]`` ``(.)`` ``{.}`` ``[dot]`` ``(dot)`` ``{dot}``; a colon
``[:]``, a scheme separator ``[://]``, a slash ``[/]``; an at sign ``[@]`` ``[at]``
``(at)`` ``{at}`` in an e-mail address. A span is an indicator only when, refanged, it
is a URL with a host, a domain name whose last label is a real top-level domain, or an
e-mail address: ``the end [.] Next`` or ``see note (at) 3`` is prose, not an indicator.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import regex

from urimine.emails import find_emails
from urimine.errors import InvalidURI
from urimine.parser import parse_uri
from urimine.uts58.detect import LinkKind, detect

_MARKS = {
    ".": r"\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\}",
    "://": r"\[://\]",
    ":": r"\[:\]",
    "/": r"\[/\]",
    "@": r"\[@\]|\[at\]|\(at\)|\{at\}",
}
_MARK = regex.compile("|".join(f"(?P<m{i}>{p})" for i, p in enumerate(_MARKS.values())), regex.I)
_MARK_VALUES = list(_MARKS)
_SCHEME = regex.compile(r"(?<![A-Za-z0-9+.-])(?:h[xX]{2}p(s?)|f[xX]p)(?=\[?:|\[://\])", regex.I)
_SIGNAL = regex.compile(_MARK.pattern + "|" + _SCHEME.pattern, regex.I)
_URL = regex.compile(r"(?:https?|ftp)://", regex.I)
_TRAILING = ".,;:!?'\""
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_DOTS = ("[.]", "(.)", "{.}")


@dataclass(frozen=True, slots=True)
class DefangedIndicator:
    """A defanged indicator in a text: ``text[start:end]`` as written (the ``raw``),
    and the URI it stands for."""

    start: int
    end: int
    uri: str


def refang_text(text: str) -> str:
    """*text* with every defanging mark and defanged scheme written plainly again, and
    nothing else changed.

    >>> refang_text("hxxps[://]evil[.]example/a and bob[at]evil(.)example")
    'https://evil.example/a and bob@evil.example'
    """
    text = _SCHEME.sub(
        lambda m: "ftp" if m.group()[0] in "fF" else "http" + m.group(1).lower(), text
    )
    plain: str = _MARK.sub(lambda m: _MARK_VALUES[int(str(m.lastgroup)[1:])], text)
    return plain


def refang(span: str) -> str | None:
    """The URI a defanged indicator stands for, or None when *span* has no defanging
    in it or, refanged, is no URL, domain name or e-mail address as a whole. A domain
    name becomes an ``http://`` URL, an address a ``mailto:`` URI.

    >>> refang("hxxp://evil[.]example[.]com/x"), refang("bob[@]evil[.]com")
    ('http://evil.example.com/x', 'mailto:bob@evil.com')
    >>> refang("end [.] Next"), refang("example.com")
    (None, None)
    """
    if _SIGNAL.search(span) is None:
        return None
    plain = refang_text(span)
    emails = find_emails(plain)
    if len(emails) == 1 and (emails[0].start, emails[0].end) == (0, len(plain)):
        return emails[0].uri
    if _URL.match(plain):
        try:
            uri = parse_uri(plain)
        except InvalidURI:
            return None
        return plain if uri.host else None
    links = detect(plain)
    if len(links) == 1 and links[0].kind is LinkKind.DOMAIN_URL and links[0].end == len(plain):
        return links[0].uri if links[0].start == 0 else None
    return None


def _token_bounds(text: str, pos: int) -> tuple[int, int]:
    """The run of non-space characters around *pos*."""
    start, end = pos, pos
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """The token without the sentence punctuation, quotes and unmatched brackets around
    it; a defanged dot at its end is a full stop too. Each character is looked at a
    bounded number of times (brackets counted once)."""
    while start < end and text[start] in "(<[{\"'" and _MARK.match(text, start) is None:
        start += 1
    counts: dict[str, int] | None = None
    while start < end:
        last = text[end - 1]
        if end - start >= 3 and text[end - 3 : end] in _DOTS:
            drop = 3
        elif last in _TRAILING:
            drop = 1
        elif last in _CLOSERS:
            counts = counts or {c: text.count(c, start, end) for c in "()[]{}<>"}
            if counts[last] <= counts[_CLOSERS[last]]:
                break
            drop = 1
        else:
            break
        _uncount(counts, text[end - drop : end])
        end -= drop
    return start, end


def _uncount(counts: dict[str, int] | None, dropped: str) -> None:
    """Keep the bracket counts of the token as *dropped* leaves its end."""
    if counts is not None:
        for c in dropped:
            if c in counts:
                counts[c] -= 1


def indicator_in(text: str, start: int, end: int) -> DefangedIndicator | None:
    """The defanged indicator the token ``text[start:end]`` (a run without white space)
    holds, sentence punctuation, quotes and unmatched brackets around it left out; or
    None."""
    start, end = _trim(text, start, end)
    uri = refang(text[start:end]) if start < end else None
    return None if uri is None else DefangedIndicator(start, end, uri)


def iter_defanged(text: str) -> Iterator[DefangedIndicator]:
    """Each defanged indicator in *text*, in order."""
    pos = 0
    while (m := _SIGNAL.search(text, pos)) is not None:
        start, end = _trim(text, *_token_bounds(text, m.start()))
        pos = max(m.end(), _token_bounds(text, m.start())[1])
        uri = refang(text[start:end]) if start < end else None
        if uri is not None:
            yield DefangedIndicator(start, end, uri)


def find_defanged(text: str) -> list[DefangedIndicator]:
    """The defanged indicators in *text*.

    >>> [(text[d.start:d.end], d.uri) for text in
    ...  ["Beacon to hxxp://203[.]0[.]113[.]7/c2 or evil[.]example[.]com."]
    ...  for d in find_defanged(text)]
    [('hxxp://203[.]0[.]113[.]7/c2', 'http://203.0.113.7/c2'), \
('evil[.]example[.]com', 'http://evil.example.com')]
    """
    return list(iter_defanged(text))
