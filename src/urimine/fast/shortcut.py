"""Shortcuts: the common URIs decided in one match, with the answer the general path
gives (tests/test_equivalence.py compares them with ``Speed(shortcut=False)``).

At a scheme's colon, ``scheme://host/path`` or an opaque ``scheme:path`` ending before
white space, perhaps followed by sentence punctuation: everything the match accepts is
an RFC 3986 URI (a reg-name host of letters, digits, "_" and "~" runs, each after a
"." or "-" but the first: a DNS name may be one, rules/dns_names.py; a port of at most 4
digits, a path, query and fragment without the characters the delimiting rules look
at: quotes, brackets, "*", non-ASCII) ending in a character trim keeps and that is no
hyphen before a line break, then exactly what trim drops (Appendix E). The same
``scheme://host/path`` in double quotes (the quote rule's: up to the closing quote,
nothing trimmed), and ``www.host/path`` after white space (the abbreviated rule's). At a
"<": ``<scheme:...>`` on one line.
"""

from __future__ import annotations

import re

from urimine import _abnf
from urimine.errors import Reason
from urimine.fast import joined
from urimine.normalize import simple_uri_key
from urimine.rules import before as before_scheme
from urimine.rules import legacy_urn
from urimine.rules.base import Candidate, Shortcut
from urimine.rules.context import Context
from urimine.rules.dns_names import host_refusal
from urimine.rules.labels import is_label
from urimine.rules.patterns import RUN_STOP, RUN_STOP_MARKS, SCHEME_CHAR
from urimine.rules.schemeless import host_labels
from urimine.rules.url_prefix import after_url
from urimine.rules.webchars import validate_web
from urimine.rules.wrapped import PLAIN_WORD, WRAP_MAX, WRAP_MIN, may_continue
from urimine.schemes import AUTHORITY_SCHEMES

__all__ = ["at_abbreviated", "at_angle", "at_colon"]

_PATH_CHARS = r"A-Za-z0-9\-._~!$&+,;=:@/"

# A URI part may end in "-" only where the hyphen rule joins nothing after it: white
# space then more text on the line, a CR that no LF follows, an ASCII stop character,
# or a line break before no run (after blanks and quote markers: a blank line) with
# text other than white space or ">" still to come. (An optional part is written
# "(?:X|)" or "(?>X|)": the engine's general repeat costs a common URI a tenth more.)
_NO_BREAK = (
    rf"[ \t]++\S|[ \t]*+\r[^\n]|[{RUN_STOP_MARKS}]"
    rf"|[ \t]*+\r?\n(?![ \t>]*+[^{RUN_STOP}])(?=[ \t\r\n>]*+[^ \t\r\n>])"
)
_DASH_END = rf"(?>-++(?={_NO_BREAK})|)"


def _ending_well(chars: str, escapes: str = _abnf.PCT_ENCODED) -> str:
    """``*( [chars] / escapes )`` not ending in what trim drops (".,;:!?-"), with no step
    given back (a long candidate that fails at its end fails in one pass)."""
    bad_end = "".join(c for c in ".,;:!?-" if c in chars).replace("-", r"\-")
    good_end = chars
    for c in ".,;:!?":
        good_end = good_end.replace(c, "")
    good_end = good_end.replace(r"\-", "")
    step = rf"(?:{escapes}|[{bad_end}]++(?=[{good_end}]|{escapes}))"
    return rf"[{good_end}]*+(?:{step}[{good_end}]*+)*+{_DASH_END}"


_QUERY_FRAGMENT = (
    rf"(?:\?{_ending_well(_PATH_CHARS + '?')}|)(?:\#{_ending_well(_PATH_CHARS + '?')}|)"
)
# What trim drops, then white space or an ASCII stop character (Appendix E).
_END = rf"(?:(?<![.,;:!?\-])[.,;:!?)\]]*+|(?<=-)(?={_NO_BREAK}))(?=[ \t\r\n{RUN_STOP_MARKS}])"
# One pattern for both shapes, apart by the character after the colon. The opaque one's
# path (3.3 path-rootless) starts with neither ":" (a C++ scope) nor "/".
_AUTHORITY_ON = (
    r"(?P<host>[A-Za-z0-9_~]++(?:[.\-][A-Za-z0-9_~]++)*+)"
    r"(?::(?P<port>[0-9]{1,4})|)"
    rf"(?:(?P<path>/{_ending_well(_PATH_CHARS)})|)"
    rf"(?P<tail>{_QUERY_FRAGMENT})"
)
_HIER = rf"(?P<uri>//{_AUTHORITY_ON})"
_FAST = re.compile(
    rf":(?:(?=//){_HIER}"
    rf"|(?P<opaque>(?=[{_PATH_CHARS.replace(':', '').replace('/', '')}]|{_abnf.PCT_ENCODED})"
    rf"{_ending_well(_PATH_CHARS)}{_QUERY_FRAGMENT}))"
    rf"{_END}"
    # Where the wrapped rule may join the next line (a superset of its may_continue,
    # cheapest question first): a line break or the text's end follows, at the wrap
    # column (a line start 66 to 80 characters back), and the next line's first word
    # is not plain.
    r"(?:(?=[ \t]*+(?:[\r\n]|[ \t\r\n>]*+\Z))"
    rf"(?<=[^\n]{{{WRAP_MIN}}})(?<![^\n]{{{WRAP_MAX + 1}}})"
    rf"(?![ \t]*+\r?\n(?:{PLAIN_WORD}))(?P<eol>)|)"
)
_URI, _HOST, _PORT, _PATH, _TAIL, _OPAQUE, _EOL = (
    _FAST.groupindex[name] for name in ("uri", "host", "port", "path", "tail", "opaque", "eol")
)
# In double quotes (the quote rule, HTML attributes): the same hierarchical URI up to the
# closing quote, nothing trimmed (the general path neither trims nor joins a URI its
# quote closes).
_QUOTED = re.compile(rf':{_HIER}(?=")')
assert all(_QUOTED.groupindex[name] == _FAST.groupindex[name] for name in _QUOTED.groupindex)
# An abbreviated URI (seed 002 Appendix F, the abbreviated rule) written from its host:
# the same authority and path, then what trim drops and the end of the run.
_ABBREVIATED = re.compile(rf"(?P<uri>{_AUTHORITY_ON}){_END}")
_A_URI, _A_HOST = _ABBREVIATED.groupindex["uri"], _ABBREVIATED.groupindex["host"]
# A URN in text (seed 003 2.1; RFC 8141 section 2): an NID other than "urn", and an NSS
# of pchars and "/" (a pchar first) without escapes (no "%00") nor the characters trim
# weighs ("'", "(", ")", "*"), then the same end; its key is itself with the scheme and
# NID lowered (seed 003 5).
_NSS_CHARS = r"A-Za-z0-9\-._~!$&+,;=:@/"
_URN_FAST = re.compile(
    r":(?![Uu][Rr][Nn]:)(?P<nid>[A-Za-z0-9][A-Za-z0-9\-]{0,30}[A-Za-z0-9]):"
    rf"(?P<nss>(?=[{_NSS_CHARS.replace('/', '')}]){_ending_well(_NSS_CHARS, '(?!)')}){_END}"
)
_NID, _NSS = _URN_FAST.groupindex["nid"], _URN_FAST.groupindex["nss"]
# What else before the scheme is looked at (a space is the common case, asked first):
# what a rule reads there (rules/before.py: a quote, the end of "URL:", "&lt;" or
# "&quot;", LaTeX's "{", trim's "*" and "_") rules the shortcut out, but a double quote
# may open the quoted shortcut. After "(" or "[" the general path cuts at the first
# closer, which the shortcut's URI part never holds.
_BEFORE_OTHER = before_scheme.CHARS - {" "}


def at_colon(
    ctx: Context, buf: str, i: int, s: int, scheme: str, last_end: int, before: str
) -> Shortcut | Candidate | None:
    """The bare URI (or URN) at the colon ``i`` of the registered ``scheme`` (lower case)
    written from ``s`` after the character *before* ("" at the text's start), where
    nothing before it rules the shortcut out and one match takes it whole (or the label
    it is), or the URI a double quote before it opens and after it closes; else None
    (the general path decides)."""
    if before == " ":
        if buf[s - 2] == ":" and after_url(buf, s):
            return None
    elif before in _BEFORE_OTHER and (before != ":" or after_url(buf, s)):
        return _quoted(ctx, buf, i, s, scheme) if before == '"' and s > last_end else None
    if scheme == "urn":
        return _urn(ctx, buf, i, s)
    fast = _FAST.match(buf, i, s + ctx.max_len)
    if fast is None:
        return _joined(ctx, buf, i, s, scheme)
    if fast.lastindex == _EOL and ctx.wrapped and _at_wrap(ctx, buf, s, fast):
        return None  # at the wrap column: the next line may continue it
    e = fast.end(_OPAQUE)
    if e >= 0:
        return _opaque_or_label(ctx, buf, i, s, e, scheme)
    e = fast.end(_URI)
    uri = buf[s:e]
    if "%" not in uri and fast.start(_PORT) < 0 and fast.start(_PATH) >= 0 and "/." not in uri:
        written = buf[s : fast.end(_HOST)]
        if written == written.lower():  # already in normal form: its own key
            return s, e, uri, "bare", scheme, uri, "uri"
    return s, e, uri, "bare", scheme, _key(buf, s, uri, scheme, fast), "uri"


def _key(buf: str, s: int, uri: str, scheme: str, fast: re.Match[str]) -> str:
    """The normal form (the dedup key) of the hierarchical *uri* a shortcut matched
    (*fast*, from ``s``), or "" where the general normalisation must make it. (The bare
    shortcut's common case is written out where it runs.)"""
    if "%" in uri:
        return ""
    if fast.start(_PORT) < 0 and fast.start(_PATH) >= 0 and "/." not in uri:
        written = buf[s : fast.end(_HOST)]
        if written == written.lower():  # already in normal form: its own key
            return uri
    host, port, path, tail = fast.group(_HOST, _PORT, _PATH, _TAIL)
    return simple_uri_key(scheme, host, port, path or "", tail)


def _quoted(ctx: Context, buf: str, i: int, s: int, scheme: str) -> Shortcut | None:
    """The URI of ``scheme`` from ``s`` in double quotes (the quote rule's), where one
    match takes it whole up to the closing quote: its raw text holds the quotes."""
    if scheme in ("urn", "url") or "quote" not in ctx.rules:
        return None
    fast = _QUOTED.match(buf, i, s + ctx.max_len)
    if fast is None:
        return None
    e = fast.end()
    uri = buf[s:e]
    return s - 1, e + 1, uri, "quote", scheme, _key(buf, s, uri, scheme, fast), "uri"


def _at_wrap(ctx: Context, buf: str, s: int, fast: re.Match[str]) -> bool:
    """Whether the wrapped rule may join the next line to the URI the shortcut matched
    (it ends a line at the wrap column, nothing trimmed after it, with "//" in it, and
    the next line's run may continue it): the general path decides."""
    e = fast.end(_OPAQUE)
    if e < 0:
        e = fast.end(_URI)
    elif "//" not in buf[s:e]:
        return False
    return e == fast.end() and may_continue(ctx, buf, s, e)


def at_abbreviated(ctx: Context, buf: str, s: int, scheme: str) -> Shortcut | None:
    """The abbreviated URI whose host starts at ``s`` after white space, completed with
    ``scheme``, where one match takes it whole and its host is a domain name with a real
    top-level domain (:func:`urimine.rules.schemeless.host_labels`); else None."""
    fast = _ABBREVIATED.match(buf, s, s + ctx.max_len - len(scheme) - 3)
    if fast is None:
        return None
    e = fast.end(_A_URI)
    if buf[e - 1] == "-" or host_labels(fast.group(_A_HOST)) is None:
        return None
    return s, e, f"{scheme}://{buf[s:e]}", "abbreviated", scheme, "", "uri"


_XN = re.compile("[Xx][Nn]-").search


def _joined(ctx: Context, buf: str, i: int, s: int, scheme: str) -> Shortcut | Candidate | None:
    """A URI joined at hyphens at line ends, where no label can be (the general path
    rejects "Fax:-" then "+1" as one)."""
    if "hyphen" not in ctx.rules or (scheme not in ctx.label_free and ctx.labels):
        return None
    found = joined.at_colon(ctx, buf, i, s, scheme)
    if found is None:
        return None
    # Where its host (or its other reading's) no DNS name can be, as the general path
    # answers it (rules/dns_names.py, rules/bare.py): the other reading alone where its
    # host may be one, else a rejection.
    colon = i - s
    refused = host_refusal(found.uri, colon)
    alt = found.alternative
    if refused is None:
        # (Hyphens dropped inside a host it accepts leave one it accepts, but for an
        # "xn--" label: a different Punycode.)
        if alt is not None and _XN(alt) is not None and host_refusal(alt, colon) is not None:
            found.alternative = None
        return found
    if alt is not None and host_refusal(alt, colon) is None:
        return Candidate(found.start, found.end, "bare", alt, "uri", found.scheme)
    reason, detail, _ = refused
    return Candidate(
        found.start, found.end, "bare", found.uri, reason=reason, detail=detail, consume=False
    )


def _opaque_or_label(
    ctx: Context, buf: str, i: int, s: int, e: int, scheme: str
) -> Shortcut | Candidate | None:
    """An opaque URI the shortcut matched to ``e``, or the label the general path
    rejects it as (taken whole, in bare text); None for a scheme that needs "//"."""
    if scheme in AUTHORITY_SCHEMES:
        return None
    if scheme not in ctx.label_free and ctx.labels and is_label(buf, s, i, e, scheme):
        uri = buf[s:e]
        return Candidate(s, e, "bare", uri, reason=Reason.NOT_A_URI, detail="label")
    return _opaque(buf, s, e, scheme)


def _opaque(buf: str, s: int, e: int, scheme: str) -> Shortcut:
    """An opaque URI the shortcut took: its normal form is itself with the scheme lowered
    where no case, escape or dot segment is left to normalise (RFC 3986 6.2.2)."""
    uri = buf[s:e]
    key = uri if "%" not in uri and uri == uri.lower() else ""
    return s, e, uri, "bare", scheme, key, "uri"


def _urn(ctx: Context, buf: str, i: int, s: int) -> Shortcut | None:
    """A URN in text the shortcut takes: its key lowers the scheme and the NID only."""
    urn = _URN_FAST.match(buf, i, s + ctx.max_len) if "urn" in ctx.rules else None
    if urn is None:
        return None
    e = urn.end(_NSS)
    uri = buf[s:e]
    head = uri[: urn.end(_NID) - s]
    low = head.lower()
    return s, e, uri, "bare", "urn", uri if low == head else low + uri[len(head) :], "urn"


# "<" scheme ":" then one run without white space or brackets, then ">": the general
# path's single-line match, where it has nothing to unwrap.
_PLAIN = re.compile(rf"<([A-Za-z][{SCHEME_CHAR}]{{0,63}}):[^<>\s]+>")


def at_angle(ctx: Context, buf: str, i: int, final: bool) -> Shortcut | Candidate | None:
    """``<scheme:...>`` on one line, a registered scheme right after the ``<``: a URI or
    its rejection as the angle rule decides them; None where the general path decides
    (a 1993 URN, which the legacy-urn rule looks at first, and "url", the URL: prefix).
    ``<urn:uuid:...>`` heads every WARC record."""
    m = _PLAIN.match(buf, i)
    if m is None or "angle" not in ctx.rules:
        return None
    text = m.group()
    scheme = m.group(1).lower()
    if len(text) - 2 > ctx.max_len or scheme not in ctx.schemes or scheme == "url":
        return None
    if scheme == "urn" and "legacy-urn" in ctx.rules and legacy_urn.at(buf, i, final) is not None:
        return None
    uri = text[1:-1]
    kind = "urn" if scheme == "urn" else "uri"
    bad, strict = validate_web(ctx, uri, scheme, bare=False)
    if bad is None:
        if not strict:
            return Candidate(i, m.end(), "angle", uri, kind, scheme, strict=False)
        return i, m.end(), uri, "angle", scheme, "", kind
    # As the angle rule's rejection: the colon rule may still take the colon.
    return Candidate(i, m.end(), "angle", uri, reason=bad[0], detail=bad[1], consume=False)
