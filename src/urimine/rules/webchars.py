"""The web-chars rule (issue 30 item 1): a URI is never cut short at a character real
links carry. "[ ] { } | ^" in a path, query or fragment and a second "#" in a fragment,
which RFC 3986 refuses there and browsers accept (WHATWG URL), leave a URI whole: it is
reported as written and marked not strict (``Hit.strict``), and its key percent-encodes
them as a browser does (:func:`urimine.normalize.normalize_uri`). Without the rule (the
``strict`` preset) such a candidate is rejected whole, never truncated.

A URI's head (its authority after "//", else what stands before the first "?" or "#")
still ends at the characters that ended every URI before (:data:`STOP`): hosts and
opaque paths hold none of them.
"""

from __future__ import annotations

import re

from urimine.errors import Reason
from urimine.rules.brackets import cut_unbalanced
from urimine.rules.context import Context
from urimine.rules.delimit import validate
from urimine.rules.patterns import STOP, WEB_CHARS

__all__ = ["head_end", "lax_form", "tail_start", "validate_web", "web_cut", "web_retry"]

_HEAD = re.compile(rf"//[^{STOP}/?#]*+|[^{STOP}?#]*+")
_TO_X = str.maketrans(dict.fromkeys(WEB_CHARS, "x"))
LAXABLE = frozenset({Reason.ILLEGAL_CHAR, Reason.BAD_PATH, Reason.BAD_QUERY, Reason.BAD_FRAGMENT})
"""Where the grammar refuses a character a lax form may have replaced."""


def head_end(buf: str, pos: int, e: int) -> int:
    """Where the head of the run ``buf[pos:e]`` (*pos* right after a scheme's colon) ends
    at a character of :data:`STOP`; *e* where it holds none."""
    m = _HEAD.match(buf, pos, e)
    end = m.end() if m is not None else e
    return end if end < e and buf[end] not in "/?#" else e


def tail_start(uri: str, colon: int) -> int:
    """Where the path, query and fragment of *uri* start (after the authority), or where
    its query or fragment does for a URI without "//" (its colon at *colon*). Found by
    ``str.find``: a run near the length bound is read at memory speed."""
    if uri.startswith("//", colon + 1):
        return _first_of(uri, "/?#", colon + 3)
    return _first_of(uri, "?#", colon + 1)


def _first_of(text: str, chars: str, start: int) -> int:
    """The index of the first of *chars* in *text* from *start*, or its length."""
    end = len(text)
    for c in chars:
        k = text.find(c, start, end)
        if k >= 0:
            end = k
    return end


_SECOND_URI = re.compile(r"\[(?=[A-Za-z][A-Za-z0-9+.\-]*://)")
_FOOTNOTE = re.compile(r"\[[0-9]{1,3}\]\Z")


def web_cut(ctx: Context, uri: str, colon: int) -> str:
    """Where brackets in the tail of a bare *uri* (its colon at *colon*) end it: at a "["
    before another URI ("page.html[https://...]": a link's text, then the link), at an
    unbalanced "]" or "}" (one that closes a bracket before the URI: "[IMG:
    http://a.example/b.jpg]Tim"), and before a footnote mark ending a path
    ("page.html[1]", as text made from HTML numbers its links)."""
    if "[" not in uri and "]" not in uri and "}" not in uri:
        return uri
    start = tail_start(uri, colon)
    if uri.find("[", start) >= 0 and uri.find("://", start) >= 0:  # (found at memory speed)
        m = _SECOND_URI.search(uri, start)
        if m is not None:
            uri = uri[: m.start()]
    if "]" in uri or "}" in uri:
        uri = uri[:start] + _balanced(ctx, uri[start:])
    if "?" not in uri:
        m = _FOOTNOTE.search(uri, max(start, len(uri) - 5))  # (a footnote mark is short)
        if m is not None:
            uri = uri[: m.start()]
    return uri


def _balanced(ctx: Context, tail: str) -> str:
    """*tail* up to its first "]" or "}" that closes nothing (each pair counted apart):
    :func:`urimine.rules.brackets.cut_unbalanced` for each pair, whose levels a run
    keeps for the candidates after the first in it."""
    if "]" in tail:
        tail = cut_unbalanced(ctx, tail, "[", "]")
    if "}" in tail:
        tail = cut_unbalanced(ctx, tail, "{", "}")
    return tail


def lax_form(uri: str, colon: int) -> str:
    """*uri* with the web characters of its tail and every "#" after the first replaced
    by "x", an unreserved character: what the grammar then refuses, the rule does too."""
    start = tail_start(uri, colon)
    tail = uri[start:]
    hashed = tail.find("#")
    if hashed >= 0 and "#" in tail[hashed + 1 :]:
        tail = tail[: hashed + 1] + tail[hashed + 1 :].replace("#", "x")
    return uri[:start] + tail.translate(_TO_X)


def validate_web(
    ctx: Context, uri: str, scheme: str, *, bare: bool
) -> tuple[tuple[Reason, str, int] | None, bool]:
    """:func:`validate` with the web-chars rule: the rejection (None: a URI), and whether
    the URI is strict. A URI refused only for web characters is taken, not strict,
    where the rule is on; else it is rejected with no position to cut at (-1)."""
    found = validate(ctx, uri, scheme, bare=bare)
    if found is None:
        return None, True
    return web_retry(ctx, uri, scheme, found, bare=bare)


def web_retry(
    ctx: Context, uri: str, scheme: str, found: tuple[Reason, str, int], *, bare: bool
) -> tuple[tuple[Reason, str, int] | None, bool]:
    """:func:`validate_web` after :func:`validate` refused *uri* for *found*."""
    if found[0] not in LAXABLE or scheme == "urn":
        return found, True
    lax = lax_form(uri, len(scheme))
    if lax == uri:
        return found, True
    again = validate(ctx, lax, scheme, bare=bare)
    if again is not None:
        return again, True  # refused for something else too: the rule reads no further
    if "web-chars" in ctx.rules:
        return None, False
    return (found[0], found[1], -1), True
