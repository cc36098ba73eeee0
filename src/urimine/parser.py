"""Splitting and validating URIs and URI references (RFC 3986 sections 3, 4.3 and 5.2).

:func:`check_uri` is the scanner's hot path: a single compiled full-match regex decides the
common valid case, and only a failure pays for :func:`_diagnose`, a component walk that
names the reason and the position of the first offending character.

Port policy: RFC 3986 3.2.3 says ``port = *DIGIT``, so any digit string is grammatical. For
the well-known schemes of :data:`urimine.schemes.DEFAULT_PORTS` (which run over TCP/UDP) a
port above 65535 cannot exist, so it is rejected with ``BAD_PORT``; other schemes keep the
pure-grammar answer. ``http://256.256.256.256`` is accepted: it is not an IPv4address but it
is a valid reg-name (RFC 3986 3.2.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import regex

from urimine import _abnf
from urimine.errors import InvalidURI, Reason
from urimine.schemes import DEFAULT_PORTS

__all__ = [
    "URI",
    "check_reference",
    "check_uri",
    "could_start_uri",
    "parse_reference",
    "parse_uri",
    "split_authority",
    "split_reference",
]

# RFC 3986 Appendix B (002 Appendix B), with the scheme restricted to the scheme rule so
# that "_:" or ":" are paths, not schemes (as uritools splits them). DOTALL: never fails.
_SPLIT_RE = re.compile(
    r"(?:([A-Za-z][A-Za-z0-9+\-.]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?",
    re.DOTALL,
)

# Characters that may appear somewhere in a URI (RFC 3986 2.2, 2.3 and "%"); anything
# else is ILLEGAL_CHAR wherever it stands. The I-variant adds the RFC 3987 ranges.
_NON_DIGIT = re.compile(r"[^0-9]")
_URI_CHAR = re.compile(
    f"[{_abnf.UNRESERVED_CHARS}{_abnf.SUB_DELIMS_CHARS}{_abnf.GEN_DELIMS_CHARS}%]"
)
_IRI_CHAR = re.compile(
    f"[{_abnf.IUNRESERVED_CHARS}{_abnf.SUB_DELIMS_CHARS}{_abnf.GEN_DELIMS_CHARS}%"
    f"{_abnf.IPRIVATE_CHARS}]"
)


@dataclass(frozen=True, slots=True)
class URI:
    """A URI or URI reference split into its components (RFC 3986 3, Appendix B).

    ``None`` means the component is absent (its delimiter does not appear); ``""`` means
    present but empty (RFC 3986 section 5.2: "undefined" versus "empty"). ``host`` keeps
    the brackets of an IP-literal; ``port`` is the text after the colon.
    """

    text: str
    scheme: str | None
    authority: str | None
    userinfo: str | None
    host: str | None
    port: str | None
    path: str
    query: str | None
    fragment: str | None

    def unsplit(self) -> str:
        """Recompose the components (RFC 3986 section 5.3, component recomposition)."""
        parts = []
        if self.scheme is not None:
            parts += [self.scheme, ":"]
        if self.authority is not None:
            parts.append("//")
            if self.host is None:
                parts.append(self.authority)
            else:
                if self.userinfo is not None:
                    parts += [self.userinfo, "@"]
                parts.append(self.host)
                if self.port is not None:
                    parts += [":", self.port]
        parts.append(self.path)
        if self.query is not None:
            parts += ["?", self.query]
        if self.fragment is not None:
            parts += ["#", self.fragment]
        return "".join(parts)


def split_authority(authority: str) -> tuple[str | None, str, str | None]:
    """Split an authority into (userinfo, host, port), losslessly and without validating.

    The userinfo ends at the last "@"; a bracketed host ends at its "]"; otherwise the
    port starts at the first ":" (reg-name cannot contain one, RFC 3986 3.2.2).
    """
    userinfo, at, hostport = authority.rpartition("@")
    user = userinfo if at else None
    if hostport.startswith("["):
        end = hostport.find("]")
        if end >= 0 and (end + 1 == len(hostport) or hostport[end + 1] == ":"):
            rest = hostport[end + 1 :]
            return user, hostport[: end + 1], rest[1:] if rest else None
        return user, hostport, None
    host, colon, port = hostport.partition(":")
    return user, host, port if colon else None


def split_reference(s: str) -> URI:
    """Split any string as a URI reference by the Appendix B regex; never fails."""
    m = _SPLIT_RE.match(s)
    assert m is not None  # every group is optional and DOTALL: the regex matches any str
    scheme, authority, path, query, fragment = m.groups()
    if authority is None:
        return URI(s, scheme, None, None, None, None, path, query, fragment)
    userinfo, host, port = split_authority(authority)
    return URI(s, scheme, authority, userinfo, host, port, path, query, fragment)


def _needs_iri(s: str, iri: bool) -> bool:
    """Whether *s* needs the IRI patterns: on ASCII text the IRI grammar is the URI
    grammar (see _abnf), whose patterns are compiled at import; the IRI ones are
    compiled at their first use."""
    return iri and not s.isascii()


def check_uri(s: str, *, iri: bool = True) -> tuple[Reason, int] | None:
    """Validate an absolute URI (fragment allowed); None if valid, else (reason, position).

    Never repairs the text. Ports above 65535 are refused only for DEFAULT_PORTS schemes.
    """
    m = (_abnf.IRI_RE if _needs_iri(s, iri) else _abnf.URI_RE).fullmatch(s)
    if m is None:
        return _diagnose(s, iri=iri, absolute=True) or (Reason.NOT_A_URI, 0)
    port = m.group("port")
    if (
        port is not None
        and len(port) > 4
        and _above_65535(port)
        and m.group("scheme").lower() in DEFAULT_PORTS
    ):
        return Reason.BAD_PORT, m.start("port")
    return None


@cache
def _iri_prefixes() -> regex.Pattern[str]:
    """The IRI grammar (absolute, with fragment) by ``regex``, for its partial matches:
    compiled at the first use (some 16 ms)."""
    return regex.compile(_abnf._uri_source(iri=True, absolute=True))


def could_start_uri(text: str) -> bool:
    """Whether some valid URI or IRI starts with *text* (RFC 3986 3, RFC 3987 2.2): a
    partial full match of the grammar, which fails only where no text added after
    *text* could make a match. (The IRI grammar: on ASCII it is the URI grammar, and
    what follows may not be ASCII.) "news:+_%zz-" can start none: whatever a line
    break after its hyphen joins to it (Appendix E), the URI is rejected."""
    return _iri_prefixes().fullmatch(text, partial=True) is not None


def _above_65535(port: str) -> bool:
    """Whether the digits *port* name a number above 65535, compared as text past five
    digits: ``int()`` refuses more than 4300 of them (ValueError), and a URI at the end
    of a text may hold any number."""
    digits = port.lstrip("0")
    return len(digits) > 5 or (len(digits) == 5 and int(digits) > 65535)


def check_reference(s: str, *, iri: bool = True) -> tuple[Reason, int] | None:
    """Validate a URI reference (RFC 3986 4.1: absolute or relative); None if valid."""
    m = _abnf.SCHEME_RE.match(s)
    if m and s.startswith(":", m.end()):
        return check_uri(s, iri=iri)
    if (_abnf.IRELATIVE_REF_RE if _needs_iri(s, iri) else _abnf.RELATIVE_REF_RE).fullmatch(s):
        return None
    return _diagnose(s, iri=iri, absolute=False) or (Reason.NOT_A_URI, 0)


def parse_uri(s: str, *, iri: bool = True) -> URI:
    """Parse an absolute URI (fragment allowed), raising :class:`InvalidURI` if invalid."""
    bad = check_uri(s, iri=iri)
    if bad is not None:
        raise InvalidURI(s, *bad)
    return split_reference(s)


def parse_reference(s: str, *, iri: bool = True) -> URI:
    """Parse a URI reference (relative allowed), raising :class:`InvalidURI` if invalid."""
    bad = check_reference(s, iri=iri)
    if bad is not None:
        raise InvalidURI(s, *bad)
    return split_reference(s)


# --- the slow path: find why and where -------------------------------------------------


@cache
def _good_run(chars: str) -> re.Pattern[str]:
    """``*( [chars] / pct-encoded )``, possessive (slow path only, so compiled lazily).
    By ``re``: it matches a long run some ten times faster than ``regex`` (8 KB: 16
    us, not 170), which compiles the large IRI classes faster; so *chars* is written
    once (a few ms, once per process and IRI class)."""
    return re.compile(_abnf.star_once(chars))


# The ASCII part of each IRI class is the URI class (RFC 3987 2.2 only adds non-ASCII
# ranges): for an ASCII string the small class gives the same answer and compiles at once.
_ASCII_PART = {
    _abnf.IPATH_CHARS: _abnf.PATH_CHARS,
    _abnf.IQUERY_CHARS: _abnf.QUERY_CHARS,
    _abnf.IFRAGMENT_CHARS: _abnf.FRAGMENT_CHARS,
    _abnf.IREG_NAME_CHARS: _abnf.REG_NAME_CHARS,
    _abnf.IUSERINFO_CHARS: _abnf.USERINFO_CHARS,
}


def _first_bad(
    s: str, start: int, end: int, chars: str, reason: Reason, iri: bool
) -> tuple[Reason, int] | None:
    """First character of s[start:end] outside ``[chars]`` / pct-encoded, with its reason."""
    if iri and s.isascii():
        chars = _ASCII_PART.get(chars, chars)
    m = _good_run(chars).match(s, start, end)
    i = m.end() if m else start
    if i >= end:
        return None
    c = s[i]
    if c == "%":
        return Reason.BAD_PERCENT, i
    legal = _IRI_CHAR if iri else _URI_CHAR
    return (reason if legal.match(c) else Reason.ILLEGAL_CHAR), i


def _diagnose_host(s: str, start: int, end: int, iri: bool) -> tuple[Reason, int] | None:
    """Check host [":" port] in s[start:end] (RFC 3986 3.2.2, 3.2.3)."""
    if s.startswith("[", start):
        close = s.find("]", start, end)
        if close < 0 or not _abnf.IP_LITERAL_RE.fullmatch(s, start, close + 1):
            return Reason.BAD_IPV6, start
        host_end = close + 1
        if host_end < end and s[host_end] != ":":
            return Reason.BAD_HOST, host_end
    else:
        colon = s.find(":", start, end)
        host_end = end if colon < 0 else colon
        reg = _abnf.IREG_NAME_CHARS if iri else _abnf.REG_NAME_CHARS
        bad = _first_bad(s, start, host_end, reg, Reason.BAD_HOST, iri)
        if bad:
            return bad
    bad_port = _NON_DIGIT.search(s, host_end + 1, end)  # (one search, not a step a digit)
    return None if bad_port is None else (Reason.BAD_PORT, bad_port.start())


def _diagnose_authority(s: str, start: int, end: int, iri: bool) -> tuple[Reason, int] | None:
    """Check [ userinfo "@" ] host [ ":" port ] in s[start:end] (RFC 3986 3.2)."""
    at = s.rfind("@", start, end)
    if at >= 0:
        user = _abnf.IUSERINFO_CHARS if iri else _abnf.USERINFO_CHARS
        bad = _first_bad(s, start, at, user, Reason.BAD_USERINFO, iri)
        if bad:
            return bad
        start = at + 1
    return _diagnose_host(s, start, end, iri)


def _diagnose_scheme(s: str, absolute: bool) -> tuple[tuple[Reason, int] | None, int]:
    """Check the scheme (RFC 3986 3.1); return (problem, index where hier-part starts)."""
    m = _abnf.SCHEME_RE.match(s)
    if m and s.startswith(":", m.end()):
        return None, m.end() + 1
    first_delim = min((i for i in (s.find(c) for c in ":/?#") if i >= 0), default=-1)
    if first_delim >= 0 and s[first_delim] == ":":
        return (Reason.BAD_SCHEME, m.end() if m else 0), 0
    return ((Reason.NO_SCHEME, 0) if absolute else None), 0


def _diagnose(s: str, *, iri: bool, absolute: bool) -> tuple[Reason, int] | None:
    """Walk the components of s to find why it does not match the grammar."""
    if not s:
        return (Reason.EMPTY, 0) if absolute else None
    problem, i = _diagnose_scheme(s, absolute)
    if problem:
        return problem
    n = len(s)
    hash_at = s.find("#", i)
    frag_start = n if hash_at < 0 else hash_at
    q_at = s.find("?", i, frag_start)
    path_end = frag_start if q_at < 0 else q_at
    path_start = i
    if s.startswith("//", i):
        slash = s.find("/", i + 2, path_end)
        auth_end = path_end if slash < 0 else slash
        bad = _diagnose_authority(s, i + 2, auth_end, iri)
        if bad:
            return bad
        path_start = auth_end
    path_chars = _abnf.IPATH_CHARS if iri else _abnf.PATH_CHARS
    bad = _first_bad(s, path_start, path_end, path_chars, Reason.BAD_PATH, iri)
    if bad:
        return bad
    if q_at >= 0:
        query = _abnf.IQUERY_CHARS if iri else _abnf.QUERY_CHARS
        bad = _first_bad(s, q_at + 1, frag_start, query, Reason.BAD_QUERY, iri)
        if bad:
            return bad
    if hash_at >= 0:
        frag = _abnf.IFRAGMENT_CHARS if iri else _abnf.FRAGMENT_CHARS
        return _first_bad(s, hash_at + 1, n, frag, Reason.BAD_FRAGMENT, iri)
    return None
