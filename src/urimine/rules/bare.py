"""A URI at a scheme's colon in running text (RFC 3986 Appendix C): bare (white space
delimited), in quotes or after ``URL:``. The run of URI characters from the colon (its
head ending where it always did, :mod:`urimine.rules.webchars`), cut at an unbalanced
closer of the bracket before it (or at the "|" that closes one before it), trailing
punctuation dropped, joined across hyphens at line ends, and cut at the first character
its grammar refuses but for the characters real links carry (the web-chars rule)."""

from __future__ import annotations

import re

from urimine.errors import Reason
from urimine.rules import quote as quote_rule
from urimine.rules.base import Candidate, ColonFragment, Mode, Pending, PendingType
from urimine.rules.brackets import cut_unbalanced
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import CUTTABLE, run_end, trim, validate
from urimine.rules.dns_names import host_refusal
from urimine.rules.hyphen import FRUITLESS_HOST, other_reading, pieces, uri_join
from urimine.rules.labels import is_label
from urimine.rules.patterns import (
    COLON_AFTER,
    COLON_SPARSE,
    OPENERS,
    SCHEME_CHAR,
    STOP,
    STOP_CHAR,
    by_length,
)
from urimine.rules.webchars import head_end, validate_web, web_cut, web_retry
from urimine.rules.wrapped import continuation, slashes_gap
from urimine.schemes import AUTHORITY_SCHEMES

__all__ = ["fragment", "uri_at"]


def uri_at(
    ctx: Context,
    buf: str,
    i: int,
    s: int,
    raw_start: int,
    scheme: str,
    context: str,
    quote: str,
    final: bool,
) -> Candidate | PendingType | None:
    """The URI of ``scheme`` (lower case) written from ``s`` whose colon is at ``i``; its
    raw text starts at ``raw_start`` (a quote or ``URL:`` before it, per *context*)."""
    extent = _extent(ctx, buf, i, s, quote, final)
    if extent is None or isinstance(extent, PendingType):
        return extent
    e, wrapped, quote = extent
    if e - s >= ctx.max_len:
        return Candidate(raw_start, e, context, reason=Reason.TOO_LONG, too_long=True)
    e, closed = quote_rule.closing(buf, i, e, quote)
    whole, last, depth = wrapped or buf[s:e], "", 0
    if not closed and not wrapped:
        joined = _join(ctx, buf, s, i, e, final, raw_start, context)
        if not isinstance(joined, tuple):
            return joined  # (text to come, or a rejection sure before the join)
        whole, last, e, depth = joined
    uri, longer = whole, None
    if closed:
        found, strict = _checked(ctx, uri, scheme)
    else:
        uri, found, strict = _delimit(ctx, uri, scheme, buf[s - 1] if s else "", not last)
        uri, longer = _possessive(ctx, uri, found, len(scheme) + 1, buf[s - 1] if s else "")
        e -= len(whole) - len(uri)
        if context == "quote":
            context, raw_start = "bare", s
    raw_end = e + 1 if closed else e
    if found is not None:
        rejected = Candidate(
            raw_start, raw_end, context, uri, reason=found[0], detail=found[1], consume=False
        )
        return _hyphenless(ctx, buf, s, e, rejected, len(whole) - len(uri), last, depth, scheme)
    if context != "url-prefix" and _is_label(ctx, buf, s, i, e, scheme):
        return Candidate(raw_start, raw_end, context, uri, reason=Reason.NOT_A_URI, detail="label")
    other = last or longer or whole != uri  # (trimmed: punctuation ended it)
    at_wrap = _at_wrap(ctx, buf, s, e, uri, scheme, final, context, other)
    if at_wrap is not None:
        return at_wrap
    alt = longer or _alternative(ctx, buf, s, e, len(whole) - len(uri), last, depth, scheme)
    return Candidate(raw_start, raw_end, context, uri, "uri", scheme, alt, strict=strict)


_PLAIN_AUTHORITY = re.compile(
    r"//[A-Za-z0-9._~!$*+,;=\-]*+[/?#][A-Za-z0-9._~!$*+,;=\-/?#]*?[A-Za-z0-9]"
)
"""From a scheme's colon: "//", a host of characters no rule cuts at or trims, the end
of the authority, and a letter or digit after it (where trimming stops)."""


def _join(
    ctx: Context, buf: str, s: int, i: int, e: int, final: bool, raw_start: int, context: str
) -> tuple[str, str, int, int] | PendingType | Candidate:
    """The candidate's pieces joined at hyphens at line ends (:func:`pieces`), or its
    rejection where a scanner of hits only is sure of it before: the first piece holds
    the whole authority, and a host no DNS name can be. Every reading the join and the
    cuts can make holds that host, so none needs the chain read (up to the length bound,
    for each candidate of a chain)."""
    if ctx.hits_only and buf[e - 1] == "-" and "hyphen" in ctx.rules:
        head = _PLAIN_AUTHORITY.match(buf, i + 1, e - 1)
        refused = host_refusal(buf[s : head.end()], i - s) if head is not None else None
        if refused is not None:
            return Candidate(raw_start, e, context, buf[s:e], reason=refused[0], consume=False)
    return pieces(ctx, buf, s, e, final, uri_join)


def _hyphenless(
    ctx: Context,
    buf: str,
    s: int,
    e: int,
    rejected: Candidate,
    cut: int,
    last: str,
    depth: int,
    scheme: str,
) -> Candidate:
    """A URI joined at hyphens at line ends whose host no DNS name can be (a hyphen at a
    label's edge, :mod:`urimine.rules.dns_names`): its reading without them where that
    is a URI (the hyphens were the line breaks' alone); else *rejected*."""
    if not last or rejected.reason is not Reason.BAD_HOST:
        return rejected
    alt = _alternative(ctx, buf, s, e, cut, last, depth, scheme)
    if alt is None:
        return rejected
    strict = validate_web(ctx, alt, scheme, bare=True)[1]
    return Candidate(
        rejected.start, rejected.end, rejected.context, alt, "uri", scheme, strict=strict
    )


def _is_label(ctx: Context, buf: str, s: int, i: int, e: int, scheme: str) -> bool:
    """Whether the labels rule rejects the candidate (``Fax:0760-2317010``)."""
    return scheme not in ctx.label_free and ctx.labels and is_label(buf, s, i, e, scheme)


def _at_wrap(
    ctx: Context,
    buf: str,
    s: int,
    e: int,
    uri: str,
    scheme: str,
    final: bool,
    context: str,
    other: str | bool | None,
) -> Candidate | PendingType | None:
    """A bare URI *uri* from ``s`` to ``e`` that ends a line at the wrap column, joined
    to the run the next line starts with where that can only continue it (the wrapped
    rule, :func:`urimine.rules.wrapped.continues`): the joined reading is the URI, the
    one on its line the alternative. None: not joined (nor where the URI has an *other*
    reading already: joined at a hyphen, a possessive, or trimmed). Joined at its "//"
    already, the URI's last line is a piece of it."""
    if not ctx.wrapped or context != "bare" or other or "//" not in uri:
        return None  # (a path after an authority only: "tel:+1-418-262-6501" ends a line)
    line = buf.rfind("\n", s, e) + 1
    found = continuation(ctx, buf, max(s, line), e, final, line > s)
    if found is None or isinstance(found, PendingType):
        return found
    added, end = found
    joined = trim(uri + added, len(uri) + 1, buf[s - 1] if s else "")
    bad, strict = validate_web(ctx, joined, scheme, bare=True)
    if bad is not None:
        return None
    end -= len(uri) + len(added) - len(joined)
    return Candidate(s, end, "bare", joined, "uri", scheme, uri, strict=strict)


_POSSESSIVE = ("'s", "\u2019s")
_HAS_STOP = STOP_CHAR.search
"""Whether a run holds a character that ends a URI's head (else its head is all of it)."""
_HEAD_TO = re.compile(f"[{STOP}?#]")
"""What ends a head without "//" (:func:`urimine.rules.webchars.head_end`)."""


def _run_to(ctx: Context, buf: str, i: int, final: bool) -> int:
    """Where the run of URI characters after the colon ``i`` ends (its head ending at a
    character of STOP), or -1 (the buffer may cut it short)."""
    e = run_end(ctx, buf, i + 1, final)
    if e < 0:
        return e
    if buf.startswith("//", i + 1):
        return head_end(buf, i + 1, e)  # (read to the authority's end at most)
    if ctx.kept:
        return _kept_head_end(ctx, buf, i + 1, e)
    if _HAS_STOP(buf, i + 1, e) is not None:
        e = head_end(buf, i + 1, e)
    return e


def _kept_head_end(ctx: Context, buf: str, pos: int, e: int) -> int:
    """:func:`head_end` of a head without "//" from *pos*, the run ending at *e*: where
    it is read up to (a character of STOP, "?" or "#") is kept, and serves every later
    candidate that starts before it (``tel:1[a]`` repeated: each would read the rest
    of its line again)."""
    known = ctx.memo.head
    if known is not None and known[0] is buf and known[1] == e and known[2] <= pos <= known[3]:
        at = known[3]
    else:
        m = _HEAD_TO.search(buf, pos, e)
        at = e if m is None else m.start()
        ctx.memo.head = (buf, e, pos, at)
    return at if at < e and buf[at] not in "?#" else e


def _extent(
    ctx: Context, buf: str, i: int, s: int, quote: str, final: bool
) -> tuple[int, str, str] | PendingType | None:
    """Where the run after the colon ``i`` ends, the URI joined where its "//" ends the
    line (the wrapped rule: its authority on the next line, the run there read as the
    joined text's; "" where none is), and the quote that may close it ("" where joined).
    None: "http:// " is not a candidate."""
    e = _run_to(ctx, buf, i, final)
    if e < 0:
        return Pending
    if e != i + 3 or buf[i + 1 : e] != "//":
        return e, "", quote
    gap = slashes_gap(ctx, buf, i, s, final)
    if gap is None or isinstance(gap, PendingType):
        return gap
    end = run_end(ctx, buf, gap, True)
    text = buf[s : i + 3] + buf[gap:end]
    text = text[: _run_to(ctx, text, i - s, True)]
    return gap + len(text) - (i + 3 - s), text, ""


def _checked(ctx: Context, uri: str, scheme: str) -> tuple[tuple[Reason, str, int] | None, bool]:
    """:func:`validate_web` of a bare *uri*, its common case written out."""
    found = validate(ctx, uri, scheme, bare=True)
    if found is None:
        return None, True
    return web_retry(ctx, uri, scheme, found, bare=True)


def _possessive(
    ctx: Context, uri: str, found: object, min_len: int, before: str
) -> tuple[str, str | None]:
    """A possessive "'s" ending a URI in prose ("http://t.co/pbY2NfTZ's website") is
    not part of it (issue 30 item 6): the URI without it, and the longer reading as the
    alternative; an apostrophe inside a path ("/wiki/Ender's_Game") stays."""
    if found is not None or "possessive" not in ctx.rules or not uri.endswith(_POSSESSIVE):
        return uri, None
    cut = trim(uri[:-2], min_len, before)
    return (cut, uri) if len(cut) > min_len else (uri, None)


def _alternative(
    ctx: Context, buf: str, s: int, e: int, cut: int, last: str, depth: int, scheme: str
) -> str | None:
    """The other reading of a URI joined at a hyphen, where it is a URI too."""
    alt = other_reading(buf, s, e, cut, last, depth)
    if alt is not None and validate_web(ctx, alt, scheme, bare=True)[0] is not None:
        return None
    return alt


def _delimit(
    ctx: Context, uri: str, scheme: str, before: str, can_cut: bool
) -> tuple[str, tuple[Reason, str, int] | None, bool]:
    """Where a bare URI ends (Appendix E): an unbalanced closer of the bracket before it
    (a "|" before it closes at the next), trailing punctuation, and (*can_cut*) the first
    character the grammar refuses. Returns the URI, why it is rejected (None: it is a
    URI) and whether it is strict."""
    if before == "|":
        k = uri.find("|")
        uri = uri if k < 0 else uri[:k]
    elif before in OPENERS:
        uri = cut_unbalanced(ctx, uri, before, OPENERS[before])
    if "web-chars" in ctx.rules:
        uri = web_cut(ctx, uri, len(scheme))
    uri = trim(uri, len(scheme) + 1, before)
    found, strict = validate_web(ctx, uri, scheme, bare=True)
    for _ in range(3):
        if not can_cut or found is None or found[0] not in CUTTABLE:
            break
        if found[2] <= len(scheme) + 3:
            break
        uri = trim(uri[: found[2]], len(scheme) + 1, before)
        found, strict = validate_web(ctx, uri, scheme, bare=True)
    return uri, found, strict


_IP_START = "0-9A-Fa-fVv:"
"""What an IP literal starts with (RFC 3986 3.2.2: a hex digit or ":" of an IPv6
address, "v" of IPvFuture)."""
_MAY_HOLD = (
    rf":(?=[^{STOP}\[\]%]|%[0-9A-Fa-f]{{2}}|%[0-9A-Fa-f]?\Z|\\/)(?!//[{STOP}])"
    rf"(?!//\[[^{_IP_START}])(?![^?#]\[)"
)
"""After a scheme's colon, what a URI may hold there (seed 002 section 3; RFC 3986 3.3):
not a stop character, "[" or "]" (only an IP literal after "//" holds them), nor "%"
without two hex digits, nor "//[" then what starts no IP literal (JSON's escaped slash
"\\/" is the escaped rule's), nor "[" after the first character but "?" or "#" (a
"[" in the head of a URI without "//", which the web-chars rule leaves to the grammar).
The rule cuts a bare URI at the first character its grammar refuses, but not within
three characters of the colon: there it can only reject ("tel:[x]", "mailto:%zz",
"tel:1[a]")."""
_SLASHES = rf":(?=//[^{STOP}]|\\/\\/)(?!//\[[^{_IP_START}])"
"""After the colon of a scheme that needs an authority (bare text, :func:`validate`), or
JSON's escaped "\\/\\/"."""


def _fruitful(size: int) -> str:
    """:data:`_SLASHES` for a scheme *size* long, without the URIs that can only be
    rejected where they consume nothing: a scheme right after a line break or a tab
    (no context rule reads it: they stand right before the scheme), then a host that
    ends in "-" whatever the hyphen rule joins (:data:`FRUITLESS_HOST`)."""
    plain = rf"(?<=[\t\r\n][A-Za-z][{SCHEME_CHAR}]{{{size - 1}}}:)"
    return f":(?!{plain}{FRUITLESS_HOST}){_SLASHES[1:]}"


def fragment(mode: Mode, cfg: Config) -> str | list[ColonFragment]:
    """Where a URI may be decided at a colon: sparse, every colon after a scheme
    character; dense, every name's colon with something after it; for a scanner of hits
    only, where the run is not too long, a name that needs "//" with it, any other
    before what a URI may hold."""
    if mode is Mode.SPARSE:
        return COLON_SPARSE
    if mode is Mode.DENSE:
        return [ColonFragment(None, COLON_AFTER)]
    slashed = AUTHORITY_SCHEMES & cfg.schemes
    return [
        *(
            ColonFragment(names, COLON_AFTER, _fruitful(size), short_near=("/\\\\", "/"))
            for size, names in by_length(slashed).items()
        ),
        ColonFragment(
            cfg.schemes - slashed - {"urn"},
            COLON_AFTER,
            _MAY_HOLD,
            short_near=("^\\[\\]",),
            short_never=("^?#", "\\["),
        ),
    ]
