"""The colon site: the rules at a scheme's colon (bare, quote, URL: prefix, URN in text).

The scheme comes first: the longest run of scheme characters ending at the colon that
starts with a letter not glued to another (RFC 3986 3.1; "randomtexthttp:" is not
"http:", ".http:" is), at most 64 long and not before the last candidate's end. A word no
rule could take ("Subject:", "h=from:to:") is dismissed before anything else is read.
Then the shortcut (:mod:`urimine.fast.shortcut`), then what stands before the scheme
picks the context (a quote, ``URL:``, or none: bare), and the scheme the body: a URN in
text (:mod:`urimine.rules.urn_text`) or a URI (:mod:`urimine.rules.bare`).
"""

from __future__ import annotations

import re
from typing import Literal

from urimine.fast.shortcut import at_colon as shortcut_at
from urimine.rules import escaped, wrapped
from urimine.rules.bare import uri_at
from urimine.rules.base import Pending, PendingType, Result
from urimine.rules.before import readers
from urimine.rules.context import Context
from urimine.rules.patterns import SCHEME_CHAR, SCHEME_CHARS, SCHEME_MAX, STOP_CHAR
from urimine.rules.slashed import slashes_follow, unregistered
from urimine.rules.urn_text import urn_at

__all__ = ["decide", "takes", "takes_at"]

# The longest run of scheme characters ending at the colon (the search's end) that starts
# with a letter not glued to another: the leftmost start the search finds. Asked first
# over the last few characters (a search's cost grows with its span), then, where the
# word may start before them, back to the last candidate's end.
_SCHEME_RUN = re.compile(rf"(?<![A-Za-z])[A-Za-z][{SCHEME_CHAR}]*+\Z")
_NEAR = 16  # how far back the first search looks
_SEPARATORS = re.compile(r"[0-9+.\-]")
_INSIDE = "@/:%=&?#"
"""What stands before a host or a path segment, not before a scheme in prose."""


def decide(ctx: Context, buf: str, i: int, last_end: int, final: bool) -> Result:
    """The rules at the colon ``i``: a shortcut, a candidate, None or Pending."""
    lo = last_end if last_end > i - SCHEME_MAX else i - SCHEME_MAX
    written, scheme = ctx.guess[0]
    s = i - len(written)
    if s > lo and buf[s:i] == written and (before := buf[s - 1]) not in SCHEME_CHARS:
        registered = True
    else:
        found = _scheme(ctx, buf, i, lo)
        if found is None:
            return None
        s, scheme, registered, before = found
    # (One test for the common case; "" too, the text's start.)
    if before in ":@" and (out := _inside(ctx, buf, i, s, before, registered, final)) is not False:
        return out
    if registered:
        if ctx.shortcut:
            short = shortcut_at(ctx, buf, i, s, scheme, last_end, before)
            if short is not None:
                return short
    elif not ctx.any_scheme and (
        (
            "." not in scheme
            and not (
                ctx.slashed and (buf.startswith("//", i + 1) or (len(buf) < i + 3 and not final))
            )
        )
        or (s and buf[s - 1] in _INSIDE and buf[i + 1 : i + 2] not in ("/", "\\", ""))
    ):
        return None  # (takes_at, written out: this runs at every colon; a dotted word
        # inside a URI, "user@db.site.info:5432", as the general path decides it)
    return _general(ctx, buf, i, s, scheme, registered, last_end, final)


def _inside(
    ctx: Context, buf: str, i: int, s: int, before: str, registered: bool, final: bool
) -> PendingType | Literal[False] | None:
    """None where the word at ``s`` (after *before*) stands inside a URN or a URI, not a
    scheme, Pending where the text ends before that is known; False where it may be one."""
    if before == ":" and s > 3 and buf[s - 2] in "nN" and _after_urn(ctx, buf, s):
        return None  # a URN's NID ("urn:xmpp:a%00b"), never a scheme (issue 30 item 9)
    if registered and before == "@" and buf[i + 1 : i + 2] != "/":
        if i + 1 == len(buf) and not final:
            return Pending  # "a@http:" at the end of a chunk: "//" may follow
        return None  # "user@host:port": a colon inside a URI (issue 30 item 3)
    return False


def _scheme(ctx: Context, buf: str, i: int, lo: int) -> tuple[int, str, bool, str] | None:
    """The word before the colon ``i`` (not before *lo*): where it starts, lowered,
    whether it is registered (then it is the next guess), and the character before it
    ("" at the text's start)."""
    m = _SCHEME_RUN.search(buf, lo if lo > i - _NEAR else i - _NEAR, i)
    if m is None or (m.start() > lo and buf[m.start() - 1] in SCHEME_CHARS):
        m = _SCHEME_RUN.search(buf, lo, i)
        if m is None:
            return None
    written = m.group()
    scheme = written.lower()
    registered = scheme in ctx.schemes
    if registered and ctx.guessing:
        ctx.guess[0] = written, scheme
    s = m.start()
    return s, scheme, registered, buf[s - 1] if s else ""


def _general(
    ctx: Context,
    buf: str,
    i: int,
    s: int,
    scheme: str,
    registered: bool,
    last_end: int,
    final: bool,
) -> Result:
    """The general path, after what follows the colon is looked at."""
    if i + 1 == len(buf):
        return None if final else Pending
    if buf[i + 1] == "\\" and ctx.escaped:
        return _json(ctx, buf, i, s, scheme, registered, final)
    if STOP_CHAR.match(buf, i + 1) or (
        buf.startswith("//", i + 1)
        and STOP_CHAR.match(buf, i + 3)
        and not wrapped.may_join(ctx, buf, i, final)
    ):
        return None  # nothing after the colon ("Note: "), or after its slashes
    if not registered and ctx.slashed:
        found = unregistered(ctx, buf, i, s, scheme, max(last_end, i - SCHEME_MAX), final)
        if found is Pending:
            return Pending
        if found is not None:
            s, scheme = found  # type: ignore[misc]
            return _body(ctx, buf, i, s, scheme, last_end, final)
    if not registered and not ctx.any_scheme:
        found = _registered_tail(ctx, buf, s, scheme)
        if found is None:
            return None
        s, scheme = found
    return _body(ctx, buf, i, s, scheme, last_end, final)


def _json(
    ctx: Context, buf: str, i: int, s: int, scheme: str, registered: bool, final: bool
) -> Result:
    """ "https:\\/\\/" (JSON's escaped slashes): a registered scheme's, or a dotted word's
    registered tail (the slashed rule wants "//" written plainly)."""
    if not registered and not ctx.any_scheme:
        found = _registered_tail(ctx, buf, s, scheme)
        if found is None:
            return None
        s, scheme = found
    return escaped.json_at(ctx, buf, i, s, scheme, final)


def _registered_tail(ctx: Context, buf: str, s: int, scheme: str) -> tuple[int, str] | None:
    """ "e.g.http://x": the registered scheme that is the tail after the last dot of the
    word at ``s``, and where it starts; None where there is none or the word stands inside
    a URI ("user@db.site.info:5432", "//db.example:3306": issue 30 item 3, a colon inside
    a URI is no new trigger)."""
    if s > 0 and buf[s - 1] in _INSIDE:
        return None
    cut = scheme.rfind(".")
    tail = scheme[cut + 1 :]
    if not tail[:1].isalpha() or _SEPARATORS.search(tail) or tail not in ctx.schemes:
        return None
    return s + cut + 1, tail


def _body(
    ctx: Context, buf: str, i: int, s: int, scheme: str, last_end: int, final: bool
) -> Result:
    """The context read before the scheme at ``s``, then the URN or URI rule."""
    for before_scheme in readers(ctx.rules):
        found = before_scheme(ctx, buf, s, last_end)
        if found is not None:
            break
    else:
        if not ctx.bare:
            return None
        found = ("bare", s, "")
    context, raw_start, quote_char = found
    if len(quote_char) > 1:  # an escaped delimiter (issue 30 items 7, 10)
        inside = escaped.uri_in(ctx, buf, s, raw_start, scheme, context, quote_char, final)
        if inside is not None or not ctx.bare:
            return inside
        context, raw_start, quote_char = "bare", s, ""
    if scheme == "urn":
        if "urn" not in ctx.rules:
            return None
        return urn_at(ctx, buf, s, raw_start, context, quote_char, final)
    return uri_at(ctx, buf, i, s, raw_start, scheme, context, quote_char, final)


def takes(ctx: Context, scheme: str) -> bool:
    """Whether the colon site may accept anything after the lower-case word *scheme*: a
    registered name, a dotted word whose tail may be one ("e.g.http"), or any word
    under the any-scheme rule."""
    return scheme in ctx.schemes or "." in scheme or ctx.any_scheme


def takes_at(ctx: Context, buf: str, i: int, scheme: str, final: bool) -> bool:
    """:func:`takes`, or the colon ``i`` is followed by "//" (or may be, the buffer ending
    first) and the rules of :mod:`urimine.rules.slashed` are on."""
    return takes(ctx, scheme) or (ctx.slashed and slashes_follow(buf, i, final))


def _after_urn(ctx: Context, buf: str, s: int) -> bool:
    """Whether the word at ``s`` stands right after "urn:" (not glued to a word), where
    the URN rule decides: its NID."""
    return (
        buf[s - 4 : s - 1].lower() == "urn"
        and (s == 4 or buf[s - 5] not in SCHEME_CHARS)
        and "urn" in ctx.rules
    )
