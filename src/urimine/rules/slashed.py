"""Schemes at a colon followed by "//" that the registry rule alone would miss or misread
(issue 30 items 2-4).

- ``glued`` (item 4): a registered web scheme glued to the word before it
  (``…ettus.comhttp://lists.ettus.com/``, ``randomtexthttp://foo.bar/``) is that scheme:
  the word is text run into the link, as mail archives and scraped pages do.
- ``slashed`` (item 2): a syntactically valid scheme nobody registered, followed by "//"
  and a non-empty authority (``git+https://``, ``s3://bucket/key``,
  ``postgres://user@host:5432/db``) is a URI in bare text: RFC 3986 3.1 and 3.2 make it
  one whatever the registry says, and "//" is the mark of a URI no prose carries.
- A chain ``jdbc:mysql://host/db`` (item 3) is one URI, from its first scheme: a path
  of RFC 3986 3.3 may hold the colon and the slashes, and reading it from the second
  name would invent ``mysql://host/db``.
- The scheme must be written in lower case and be two characters long at least: "C://"
  is a drive letter, "WARNING://This" a word in prose; nor may it be the tail of a web
  scheme a broken line leaves ("ht=\ntp://", quoted-printable read raw).
- A dotted word is a scheme whole (``com.example.app://``, RFC 3986 3.1 allows dots),
  unless a label of one character makes it prose (``e.g.foo://``: ``foo``).

The forms without "//" keep the registry rule.
"""

from __future__ import annotations

import re

import regex

from urimine.rules.base import ColonFragment, Mode, Pending, PendingType
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.patterns import COLON_SPARSE, SCHEME_CHAR, SCHEME_CHARS, STOP

__all__ = ["AFTER", "fragment", "slashes_follow", "unregistered"]

GLUED = ("https", "http")
"""The schemes a glued word may end with (longest first): the web's, which text runs
into; a longer registered name ending so is registered itself (``shttp``)."""
AFTER = rf":(?=//[^{STOP}/?#])"
"""What follows the colon of a word these rules take: "//" and an authority's first
character."""
_AFTER = re.compile(AFTER)
_WEB_TAILS = frozenset({"tp", "ttp", "ps", "tps", "ttps"})
"""The tails of "http", "https" and "ftp" a broken line leaves: never a scheme alone."""
_ABBREVIATION = re.compile(r"(?:^|\.)[a-z0-9]\.")  # a label of one character
# The scheme of a chain before a word's start ("jdbc:" before "mysql"), searched backwards.
_CHAIN = regex.compile(rf"(?<![{SCHEME_CHAR}])[A-Za-z][{SCHEME_CHAR}]*:\Z", regex.REVERSE)


def slashes_follow(buf: str, i: int, final: bool) -> bool:
    """Whether "//" follows the colon ``i``, or may (the buffer ends before it can tell)."""
    if buf.startswith("//", i + 1):
        return True
    return not final and len(buf) < i + 3 and "//".startswith(buf[i + 1 :])


def unregistered(
    ctx: Context, buf: str, i: int, s: int, scheme: str, lo: int, final: bool
) -> tuple[int, str] | PendingType | None:
    """Where the URI at the colon ``i`` of the unregistered word ``buf[s:i]`` (*scheme*,
    lowered) starts, and its scheme, by these rules; None: not theirs; Pending: the
    buffer ends too soon."""
    if len(buf) < i + 4 and not final:
        return Pending if slashes_follow(buf, i, final) else None
    if _AFTER.match(buf, i) is None:
        return None
    if "glued" in ctx.rules:
        name = _glued(scheme)
        if name is not None:
            return i - len(name), name
    if "slashed" not in ctx.rules or len(scheme) < 2 or scheme in _WEB_TAILS:
        return None  # "C://"; "ht=\ntp://": a web scheme broken by a line (quoted-printable)
    if not buf[s:i].islower():
        return None  # "WARNING://This": a word shouted in prose
    if "." in scheme:
        cut = scheme.rfind(".") + 1
        tail = scheme[cut:]
        if tail in ctx.schemes:
            return None  # "e.g.http://": the tail's (the bare rule)
        if _ABBREVIATION.search(scheme):
            # "e.g.foo://": prose before the scheme
            return (s + cut, tail) if tail[:1].isalpha() else None
    return _chain(ctx, buf, s, lo) or (s, scheme)


def _glued(scheme: str) -> str | None:
    """The web scheme that ends the word *scheme*, glued to a letter or digit before it."""
    for name in GLUED:
        if scheme.endswith(name) and len(scheme) > len(name) and scheme[-len(name) - 1].isalnum():
            return name
    return None


def _chain(ctx: Context, buf: str, s: int, lo: int) -> tuple[int, str] | None:
    """The start and scheme of a chain ``jdbc:`` before the word at *s*: an unregistered
    name written in lower case (not a label of prose, "Note:")."""
    if s - 1 <= lo or buf[s - 1] != ":":
        return None
    m = _CHAIN.search(buf, lo, s)
    if m is None or (m.start() > lo and buf[m.start() - 1] in SCHEME_CHARS):
        return None
    written = m.group()[:-1]
    if not written.islower() or written in ctx.schemes or written == "url":
        return None
    return m.start(), written


def fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """Sparse: every colon after a scheme character (as the bare rule's); dense: the
    colon of any word, before "//" and an authority's first character."""
    if mode is Mode.SPARSE:
        return COLON_SPARSE
    return [ColonFragment(None, AFTER, any_word=True)]
