"""HTML to scannable text: visible text plus every URL of its markup as ``<ABSOLUTE-URI>``.

A regex tag walker (fast, never raises) rather than :mod:`html.parser`. The
text between tags is entity-decoded; ``<script>``/``<style>`` bodies and
comments are dropped; block-level tags become line breaks so that words from
neighbouring cells do not run together. Each URL an attribute holds
(:mod:`.html_attrs`: ``href``, ``src``, ``srcset``, ``background``, a refresh, a CSS
``url()``, any attribute whose value is an absolute URI) and each ``url()`` of a
``<style>`` element is read as a browser reads it, resolved against the document's
base URI (``<base href>``, else the base the caller knows from the mail part or WARC
record, per RFC 3986 section 5.1) and written on its own line in angle brackets, where
it stands, so the scanner finds it with the delimiter rule RFC 3986 Appendix C
recommends. Each such line is labelled with its attribute (``html:srcset``,
:class:`~urimine.sources.labels.Stretches`): a hit there has that context.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from html import unescape
from itertools import accumulate
from typing import NamedTuple

from urimine._wordtree import word_tree
from urimine.sources.html_attrs import URL_NAMES, attributes, css_urls, tag_links
from urimine.sources.html_charset import META_PRESCAN, meta_charset
from urimine.sources.labels import Spans, Stretches
from urimine.sources.weburl import absolutize, browser_url, web_url

__all__ = ["META_PRESCAN", "absolutize", "find_base", "html_chunks", "html_to_text", "meta_charset"]

_MAX_TAG = 8192
"""Longest tag the walker accepts; bounds the work per ``<`` on hostile input."""

_N = _MAX_TAG
# A quoted value may hold ">" but not "<": a stray quote (src="x.gif"">) must not pair
# with a quote in a later tag and swallow the links between (the tag is then left as
# text, where the scanner still finds its quoted URI).
_QUOTED = rf"""(?:"[^"<]{{0,{_N}}}+"|'[^'<]{{0,{_N}}}+')"""
_IN_TAG = rf"""[^<>"']{{0,{_N}}}+(?:{_QUOTED}[^<>"']{{0,{_N}}}+){{0,{_N}}}+"""
"""The inside of a tag: quoted values may hold ``>``; every repeat is bounded. No raw
``<``, quoted or not: so each ``<`` costs at most the way to the next one. (Read past
it, ``<div <div <div …`` without a ``>`` cost each ``<`` the 8192 characters of the
bound, 0.1 MB/s; a ``<`` inside a tag is an HTML parse error, and the tag is left as
text, where the scanner still reads it.)

Every pattern has ``>`` right after it, and only its longest match can be
followed by ``>`` (a shorter one stops before a quote or an unquoted character
other than ``>``), so the repeats are possessive: a tag that fails is given up
without trying the shorter matches.
"""
_DROP = re.compile(
    rf"<!--.*?(?:-->|\Z)|<(script|style)\b{_IN_TAG}>.*?(?:</\1\s*>|\Z)|<[!?][^<>]{{0,{_N}}}+>",
    re.S | re.I,
)
"""Comments, ``<script>``/``<style>`` elements with their content, declarations."""
_PLAIN_STYLE = r"""[sS][tT][yY][lL][eE]\s*=\s*(?:"[^"<(]*+"|'[^'<(]*+')"""
"""A ``style`` attribute without a ``url(`` (its colons are CSS's)."""
_ANY_COLON = (
    rf"""(?:[^<>"':&sS]++|{_PLAIN_STYLE}|[sS]|"[^"<:&]*+"|'[^'<:&]*+')*+"""
    r"""(?:[:&]|"[^"<:&]*+[:&]|'[^'<:&]*+[:&])"""
)
"""The rest of a tag up to a colon, or a ``&`` (a character reference may stand for the
colon: ``href="&#109;&#97;...&#58;..."``), in a quoted value or not, but for those of
a :data:`_PLAIN_STYLE`: a tag without one has no absolute URL. As :data:`_IN_TAG` does,
a quoted value is passed over whole, and the walk stops at ``>`` outside quotes and at
``<``: each ``<`` costs at most the way to the next one."""


def _ascii_nocase(char: str) -> str:
    """A character of an attribute name, matched as HTML does (ASCII case-insensitive)."""
    return f"[{char}{char.upper()}]" if char.isalpha() else re.escape(char)


_URL_NAME = rf"(?:{word_tree((*URL_NAMES, 'style', 'content'), _ascii_nocase)})\s*="
_ANY_URL_NAME = rf"""(?:[^<>"'\s]++|\s++(?!{_URL_NAME})|"[^"<]*+"|'[^'<]*+')*+\s++{_URL_NAME}"""
"""The rest of a tag, from the end of its name, up to an attribute after white space that
takes a URL (or a ``style``, or a ``content`` that may be a refresh), relative or not:
runs of anything but white space and quotes, white space not before such a name, quoted
values whole."""
_TAG_NAME = r"<([A-Za-z][A-Za-z0-9:-]*+)(?:<[bB][rR]\s*/?>|(?=[\s/]))"
"""A start tag's name, then white space or ``/`` (a tag without attributes holds no URL);
a ``<br>`` right after it is passed over: mailers that wrap HTML at a fixed width turn
the line break after the name into one (``<a<br>\\nhref="...">``), and the attributes
after it are still the tag's."""
_ABSOLUTE_TAG = re.compile(rf"{_TAG_NAME}(?={_ANY_COLON})({_IN_TAG})>")
"""A start tag that may hold an absolute URL: one with a colon inside."""
_URL_TAG = re.compile(rf"{_TAG_NAME}(?={_ANY_COLON}|/?{_URL_NAME}|{_ANY_URL_NAME})({_IN_TAG})>")
"""A start tag that may hold a URL: with a colon inside, or an attribute that takes a
URL (relative ones count where there is a base to resolve them against)."""
_BLOCK_WORDS = (
    "address article aside blockquote br caption dd div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead "
    "title tr ul option select textarea"
)
_BLOCK_NAMES = frozenset(_BLOCK_WORDS.split())
"""Elements that end a line of visible text (so neighbouring cells do not run together)."""


_FOLDS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
"""The non-ASCII letters that ``re.IGNORECASE`` also matches to an ASCII letter."""


def _nocase(char: str) -> str:
    """A character class matching *char* as ``re.IGNORECASE`` would."""
    if not char.isalpha():
        return re.escape(char)
    return f"[{char}{char.upper()}{_FOLDS.get(char, '')}]"


_COMMON_FIRST = "btdp"
"""First letters of the commonest block tags in mail HTML (``br``, ``td``, ``div``,
``p``), commonest first: tried first, most tags pass few branches of the tree."""


# "/?+": a tag name never starts with "/", so the slash is never given back.
# A case-insensitive word tree: one branch per first letter instead of every name at
# every "<", and a branch whose character class fails is skipped without entering it
# (which the engine cannot do for re.IGNORECASE literals).
_BLOCK_TAG = re.compile(rf"</?+(?:{word_tree(_BLOCK_NAMES, _nocase, _COMMON_FIRST)})\b{_IN_TAG}>")
_ANY_TAG = re.compile(rf"</?+[A-Za-z][A-Za-z0-9:-]*{_IN_TAG}>")
_MARK = "\ue000"
"""Private-use character that brackets link placeholders while entities are decoded."""
_ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")
_BASE = re.compile(rf"<base\b({_IN_TAG})>", re.I)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_STRIP_IN_URL = re.compile(r"[\t\n\r]")
_LINK_ATTRS = frozenset({"href", "src"})
_DROP_SCHEMES = ("javascript:", "data:")
_CACHED_ATTRS = 512


def _unescape(text: str) -> str:
    """Entity-decode *text* (skipping the call when there is no ``&``).

    The commonest references are replaced first, which gives the same text as
    :func:`html.unescape`: their characters are not ``&`` (so nothing is decoded
    twice), and none of them occurs in an entity name (so a bare ``&name`` just
    before them still resolves to the same entity). No two of them can overlap
    (each runs from ``&`` to the first ``;``), so one regex pass replaces the same
    ones as a ``str.replace`` for each would, in one scan instead of five.
    """
    if "&" not in text:
        return text
    text = _COMMON.sub(_common_char, text)
    return unescape(text) if "&" in text else text


_COMMON_REFERENCES = (
    ("&gt;", ">"),
    ("&nbsp;", "\xa0"),
    ("&quot;", '"'),
    ("&#39;", "'"),
    ("&lt;", "<"),
)
_COMMON_CHARS = dict(_COMMON_REFERENCES)
_COMMON = re.compile("|".join(re.escape(reference) for reference, _ in _COMMON_REFERENCES))


def _common_char(match: re.Match[str]) -> str:
    """The character of a reference found by :data:`_COMMON`."""
    return _COMMON_CHARS[match[0]]


def find_base(html: str, base: str | None) -> str | None:
    """The document's base URI: its first ``<base href>`` (resolved), else *base*."""
    match = _BASE.search(html)
    if match:
        href = attributes(match.group(1)).get("href")
        if href:
            return absolutize(browser_url(href), base) or base
    return base


def html_to_text(html: str, base: str | None) -> str:
    """Visible text of *html* with each URL of its markup inserted as ``\\n<URI>\\n``.

    *base* is the base URI known from outside the document (mail Content-Base /
    Content-Location, WARC-Target-URI); a ``<base href>`` inside overrides it.
    References that stay relative are dropped, as are ``javascript:`` and
    ``data:`` ones.

    The work is done by a few whole-document regex substitutions (C speed)
    rather than a Python loop per tag: drop comments/scripts/styles, swap
    URL-bearing tags for numbered placeholders, turn block tags into line
    breaks, delete the other tags, then decode entities and put the (already
    decoded) URIs in place of the placeholders (:func:`_put_links`).
    """
    return _convert(html, find_base(html, base))


class _Insert(NamedTuple):
    """The link lines that stand for a tag (or a ``<style>`` element)."""

    text: str
    """``\\n<URI>\\n`` for each URL, in order."""
    spans: Spans
    """Where each ``<URI>`` lies in :attr:`text`, and its label."""


def _insert(links: list[tuple[str, str]]) -> _Insert | None:
    """The link lines of (label, URI) pairs, or None for none."""
    if not links:
        return None
    if len(links) == 1:
        label, uri = links[0]
        return _Insert(f"\n<{uri}>\n", ((1, len(uri) + 3, label),))
    spans = []
    pos = 0
    for label, uri in links:
        spans.append((pos + 1, pos + len(uri) + 3, label))
        pos += len(uri) + 4
    return _Insert("".join(f"\n<{uri}>\n" for _, uri in links), tuple(spans))


def _convert(html: str, base: str | None, labels: Stretches | None = None, at: int = 0) -> str:
    """:func:`html_to_text` with the document's base URI already found; its link lines
    are labelled in *labels*, if given, the text starting at offset *at* there."""
    if _MARK in html:
        html = html.replace(_MARK, "")
    inserts: list[_Insert] = []
    cached = base is None or len(base) <= _CACHED_ATTRS  # base is part of the cache key

    def link(match: re.Match[str]) -> str:
        attrs = match[2]
        if cached and len(attrs) <= _CACHED_ATTRS:
            found = _tag_insert(attrs, base)
        else:
            found = _insert(tag_links(attrs, base))
        if found is None:
            return "\n" if match[1].lower() in _BLOCK_NAMES else ""
        inserts.append(found)
        return f"{_MARK}{len(inserts) - 1}{_MARK}"

    def drop(match: re.Match[str]) -> str:
        if not match[1] or match[1].lower() != "style":
            return ""
        links = [("html:style", uri) for url in css_urls(match[0]) if (uri := web_url(url, base))]
        found = _insert(links)
        if found is None:
            return ""
        inserts.append(found)
        return f"{_MARK}{len(inserts) - 1}{_MARK}"

    tags = _ABSOLUTE_TAG if base is None else _URL_TAG
    linked = tags.sub(link, _DROP.sub(drop, html))
    text = _ANY_TAG.sub("", _BLOCK_TAG.sub("\n", linked))
    return _put_links(text, inserts, labels, at) if inserts else _unescape(text)


_WINDOW = 1 << 20
"""Characters of HTML converted at a time by :func:`html_chunks` (converting one costs
several copies of it)."""
_RAW_OPEN = re.compile(r"<!--|<([sS][cC][rR][iI][pP][tT]|[sS][tT][yY][lL][eE])\b")
"""What opens a stretch whose content is not markup: a comment, a script, a style."""
_RAW_CLOSE = {
    "": re.compile("-->"),
    "script": re.compile(r"</[sS][cC][rR][iI][pP][tT]"),
    "style": re.compile(r"</[sS][tT][yY][lL][eE]"),
}


def html_chunks(
    chunks: Iterable[str], base: str | None, labels: Stretches | None = None
) -> Iterator[str]:
    """:func:`html_to_text` of an HTML text given as chunks, converted in windows of
    about ``_WINDOW`` characters, so that memory is bounded by the window, not by the
    document. A window ends just before a tag (``<``) outside any comment, script or
    style, where the conversion of the whole gives the same text; the base URI is the
    one the first window finds (``<base>`` belongs in the ``<head>``, HTML section
    4.2.3). The link lines are labelled in *labels*, if given, as each window is
    converted: before the consumer sees its text."""
    text, pos = "", 0
    closer: re.Pattern[str] | None = None  # skipping a comment or script longer than a window
    first = True
    out = _Out(labels)
    for chunk in chunks:
        text, pos = (text[pos:] + chunk if pos < len(text) else chunk), 0
        while len(text) - pos >= 2 * _WINDOW:
            if closer is not None:
                pos, closer = _skip_raw(text, pos, closer)
                continue
            if first:
                base, first = find_base(text[pos : pos + _WINDOW], base), False
            cut, closer = _window_end(text, pos, pos + _WINDOW)
            if cut > pos:
                yield out.converted(text[pos:cut], base)
                pos = cut
    if closer is not None:
        pos, closer = _skip_raw(text, pos, closer)
        if closer is not None:
            return  # an unclosed comment or script runs to the end, as in html_to_text
    if pos < len(text):
        rest = text[pos:] if pos else text
        yield out.converted(rest, find_base(rest, base) if first else base)


class _Out:
    """How much text :func:`html_chunks` has made so far, and where to label its link
    lines."""

    __slots__ = ("labels", "length")

    def __init__(self, labels: Stretches | None) -> None:
        self.labels = labels
        self.length = 0

    def converted(self, html: str, base: str | None) -> str:
        """The text of a window of HTML; its link lines labelled where they land."""
        text = _convert(html, base, self.labels, self.length)
        self.length += len(text)
        return text


def _window_end(text: str, pos: int, end: int) -> tuple[int, re.Pattern[str] | None]:
    """Where the window ``text[pos:end]`` is cut (at most at *end*), and the closer to
    skip to when a comment or script starting it runs past *end*."""
    at = pos
    while (raw := _RAW_OPEN.search(text, at, end)) is not None:
        closer = _RAW_CLOSE[(raw[1] or "").lower()]
        closed = closer.search(text, raw.end(), end)
        if closed is None:
            return raw.start(), (closer if raw.start() == pos else None)
        at = closed.end()
    cut = text.rfind("<", pos, end)
    if cut <= pos:
        cut = max(text.rfind("\n", pos, end), text.rfind(" ", pos, end)) + 1
        if cut <= pos:
            cut = end
    return cut, None


def _skip_raw(text: str, pos: int, closer: re.Pattern[str]) -> tuple[int, re.Pattern[str] | None]:
    """Where the comment or script at *pos* ends (*closer* ends it), or a position near
    the end of *text* and the closer still to find."""
    found = closer.search(text, pos + 1)
    if found is None:
        return max(len(text) - 8, pos), closer
    if closer.pattern == "-->":
        return found.end(), None
    end = text.find(">", found.end())  # the rest of the end tag
    return (end + 1 if end >= 0 else len(text)), None


def _put_links(text: str, inserts: list[_Insert], labels: Stretches | None, at: int) -> str:
    """*text* entity-decoded, with each placeholder replaced by its entry of *inserts*,
    which are labelled in *labels* (if given) where they land, the text starting at
    offset *at* there.

    The text is cut at the marks first and only the pieces between placeholders are
    decoded: a mark the decoding makes (``&#xe000;``) is then text, never taken for a
    placeholder, and the URIs (decoded already) are not decoded twice. A reference
    never spans a placeholder (a mark ends its name or number), so decoding the pieces
    gives what decoding the whole would. Tags are deleted whole and no tag holds a
    placeholder partly (its digits have no ``<`` or ``>``), so the marks pair up.
    """
    parts = text.split(_MARK)
    parts[0::2] = [_unescape(part) for part in parts[0::2]]
    used = [inserts[int(number)] for number in parts[1::2]]
    parts[1::2] = [insert.text for insert in used]
    if labels is not None and used:
        offsets = list(accumulate(map(len, parts), initial=at))  # where each part starts
        labels.extend(offsets[1:-1:2], offsets[2::2], [insert.spans for insert in used])
    return "".join(parts)


@functools.lru_cache(maxsize=4096)
def _tag_insert(attrs: str, base: str | None) -> _Insert | None:
    """The link lines of a tag's attributes; cached, as mail HTML repeats the same tags
    a lot. Only for attributes and base of at most ``_CACHED_ATTRS`` characters each,
    so that the cache stays small."""
    return _insert(tag_links(attrs, base))
