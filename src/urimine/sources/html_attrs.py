"""The URLs a start tag's attributes hold, each with the attribute it came from.

An attribute's value is a URL when HTML says so (the WHATWG HTML index of attributes:
"valid URL", "valid non-empty URL", a set of space-separated URLs, a srcset; and the
obsolete ones of section 16.2, still written by mailers: ``background``, ``longdesc``,
``lowsrc`` ...), when it is a ``<meta http-equiv=refresh>``'s ``content`` (section
4.2.5.3), a CSS ``url()`` in a ``style`` attribute, or when any other attribute's whole
value is an absolute URI (``data-href="https://..."``, ``<meta property="og:url"
content="https://...">``, ``xmlns``). Each URL is read as a browser reads it
(:func:`~urimine.sources.weburl.browser_url`) and resolved against the base.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape
from html.entities import html5

from urimine.schemes import AUTHORITY_SCHEMES, registered_schemes
from urimine.sources.weburl import web_url

ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")
"""An attribute: its name, and its value as written (quotes included), if any."""

_ONE, _LIST, _SRCSET = 0, 1, 2
_URL_ATTRIBUTES = {
    # WHATWG HTML, index of attributes: "valid (non-empty) URL (potentially surrounded
    # by spaces)"; section 16 (obsolete): background, longdesc, lowsrc, dynsrc,
    # codebase, classid.
    **dict.fromkeys(
        [
            "href",
            "src",
            "action",
            "formaction",
            "cite",
            "data",
            "poster",
            "manifest",
            "itemid",
            "background",
            "longdesc",
            "lowsrc",
            "dynsrc",
            "codebase",
            "classid",
        ],
        _ONE,
    ),
    # Sets of space-separated URLs: ping (a, area), itemtype (absolute URLs), archive
    # (object, obsolete), profile (head, obsolete).
    **dict.fromkeys(["ping", "itemtype", "archive", "profile"], _LIST),
    # Image candidate strings (img, source; link's imagesrcset), section 4.8.4.3.
    **dict.fromkeys(["srcset", "imagesrcset"], _SRCSET),
}
"""The attributes whose values are URLs, by how the URLs are written in them."""
URL_NAMES = tuple(_URL_ATTRIBUTES)
_NAME = re.compile(r"[a-z0-9_.:-]{1,64}")
_ABSOLUTE = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(//)?\S")


def tag_links(attrs: str, base: str | None) -> list[tuple[str, str]]:
    """(label, absolute URI) for each URL in the attributes *attrs* of a start tag (the
    text after its name), in their order; of two attributes of one name the first
    counts (HTML drops the later one)."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    content: str | None = None
    for name, raw in ATTR.findall(attrs):
        key = name.lower()
        if key in seen:
            continue
        seen.add(key)
        how = _URL_ATTRIBUTES.get(key)
        if how is None:
            if key == "content":
                content = raw  # a refresh's URL if http-equiv says so, in any order
            else:
                _other(out, key, raw, base)
        elif how == _ONE:
            _add(out, "html:" + key, (attr_value(raw),), base)
        elif how == _LIST:
            _add(out, "html:" + key, attr_value(raw).split(), base)
        else:
            _add(out, "html:" + key, srcset_urls(attr_value(raw)), base)
    if content is not None:
        _content(out, content, attrs, base)
    return out


def _other(out: list[tuple[str, str]], key: str, raw: str, base: str | None) -> None:
    """The URLs of an attribute that takes none by HTML's definition: a ``style``'s CSS
    ``url()`` s, else the whole value if it is an absolute URI."""
    if key == "style":
        if "(" in raw or "@" in raw:
            _add(out, "html:style", css_urls(attr_value(raw)), base)
    elif (":" in raw or "&" in raw) and _is_absolute(value := attr_value(raw)):
        _add(out, "html:" + key if _NAME.fullmatch(key) else "html:other", (value,), base)


def _add(out: list[tuple[str, str]], label: str, urls: Iterable[str], base: str | None) -> None:
    """(label, URI) for each of *urls* (as written) that is a URL, made absolute."""
    for url in urls:
        uri = web_url(url, base)
        if uri is not None:
            out.append((label, uri))


def _content(out: list[tuple[str, str]], raw: str, attrs: str, base: str | None) -> None:
    """The URL of a ``content`` attribute: a refresh's (``http-equiv="refresh"``), else
    its whole value if that is an absolute URI (``<meta property="og:url" ...>``)."""
    value = attr_value(raw)
    if attributes(attrs).get("http-equiv", "").strip().lower() == "refresh":
        target = refresh_url(value)
        if target is not None:
            _add(out, "html:refresh", (target,), base)
    elif ":" in value and _is_absolute(value):
        _add(out, "html:content", (value,), base)


def _is_absolute(value: str) -> bool:
    """Whether *value* as a whole is an absolute URI: a registered scheme (with ``//``
    for one that needs an authority), or any scheme followed by ``//``; no white space
    inside, for a value with some is text (``title="Note: see below"``)."""
    value = value.strip()
    match = _ABSOLUTE.match(value)
    if match is None or any(c.isspace() for c in value):
        return False
    scheme = match[1].lower()
    if match[2]:
        return True
    return scheme in registered_schemes() and scheme not in AUTHORITY_SCHEMES


def attributes(text: str) -> dict[str, str]:
    """Attribute name (lower case) to its value, references decoded (the first of two
    attributes of one name counts)."""
    found: dict[str, str] = {}
    for name, value in ATTR.findall(text):
        name = name.lower()
        if name not in found:
            found[name] = attr_value(value)
    return found


def attr_value(raw: str) -> str:
    """An attribute value as written, without its quotes, references decoded as in an
    attribute (see :func:`_attr_reference`)."""
    if raw[:1] in ("'", '"'):
        raw = raw[1:-1]
    return _REFERENCE.sub(_attr_reference, raw) if "&" in raw else raw


# A character reference as html.unescape finds one: a number, or a name of up to 32
# characters with or without its ";".
_REFERENCE = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def _attr_reference(match: re.Match[str]) -> str:
    """A reference in an attribute value, decoded as HTML decodes it there: as
    :func:`html.unescape` does, but a name without its ";" that an ASCII letter, digit
    or "=" follows is left as written (HTML's tokenizer, "character reference state",
    for historical reasons): ``href="a.asp?x=1&sectionid=2"`` holds ``&sectionid``,
    not the section sign of ``&sect``."""
    name = match[1]
    if name[0] == "#":
        return unescape(match[0])
    if name in html5:
        return html5[name]
    for end in range(len(name) - 1, 1, -1):
        if name[:end] in html5:  # (a legacy name, without its ";")
            after = name[end]
            if after.isascii() and (after.isalnum() or after == "="):
                return match[0]
            return html5[name[:end]] + name[end:]
    return match[0]


_ASCII_SPACE = " \t\n\f\r"


def srcset_urls(value: str) -> list[str]:
    """The URLs of a srcset (WHATWG HTML, "parse a srcset attribute"): candidates are
    separated by commas; each is a URL (a run of non-white-space, trailing commas not
    part of it) then descriptors up to a comma outside parentheses."""
    urls: list[str] = []
    pos, end = 0, len(value)
    while True:
        while pos < end and (value[pos] in _ASCII_SPACE or value[pos] == ","):
            pos += 1
        if pos >= end:
            return urls
        start = pos
        while pos < end and value[pos] not in _ASCII_SPACE:
            pos += 1
        url = value[start:pos]
        if url.endswith(","):
            urls.append(url.rstrip(","))
            continue
        urls.append(url)
        pos = _descriptors_end(value, pos)


def _descriptors_end(value: str, pos: int) -> int:
    """Where the descriptors of a srcset candidate end: after the next comma that no
    parenthesis holds, or at the end."""
    depth = 0
    for i in range(pos, len(value)):
        char = value[i]
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif char == "," and not depth:
            return i + 1
    return len(value)


_REFRESH = re.compile(
    r"[\t\n\f\r ]*(?:[0-9]+|(?=\.))[0-9.]*(?:[\t\n\f\r ;,]|\Z)[\t\n\f\r ]*[;,]?[\t\n\f\r ]*"
    r"(?:[uU][rR][lL][\t\n\f\r ]*=[\t\n\f\r ]*)?(['\"]?)"
)
"""What comes before the URL in a refresh declaration: the time (digits, or a ".");
then a ``;``, ``,`` or white space, ``url=`` or not, and a quote or not."""


def refresh_url(content: str) -> str | None:
    """The URL of a ``<meta http-equiv=refresh>``'s content, as WHATWG HTML section
    4.2.5.3 ("shared declarative refresh steps") reads it: a time, then ``;`` or ``,``
    or white space, then the URL, after ``url=`` or not, to the closing quote if it
    starts with one; None if there is no URL or the time is missing."""
    match = _REFRESH.match(content)
    if match is None:
        return None
    url = content[match.end() :]
    if match[1]:
        url = url.partition(match[1])[0]
    return url or None


_CSS_URL = re.compile(
    r"""[uU][rR][lL]\(\s*(?:"([^"]*)"|'([^']*)'|([^"')\s]*))\s*\)"""
    r"""|@[iI][mM][pP][oO][rR][tT]\s+(?:"([^"]*)"|'([^']*)')"""
)
"""A CSS ``url(...)`` (CSS Values 4, section 4.5) or an ``@import`` string (CSS
Cascade 4, section 2)."""


def css_urls(css: str) -> list[str]:
    """The URLs of CSS text (a ``style`` attribute or element)."""
    if "(" not in css and "@" not in css:
        return []
    return [next(g for g in m.groups() if g is not None) for m in _CSS_URL.finditer(css)]
