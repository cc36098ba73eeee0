"""URN syntax: modern ``urn:NID:NSS`` (seed 003 section 2) and the 1993 form (seed 000).

Modern URNs follow seed 003 (draft-ietf-urnbis-rfc2141bis-urn-03) as RFC 8141, the
standard it became, settled it: the NSS is ``pchar *( pchar / "/" )`` (RFC 8141 section
2; the draft's 2.5.1 still refused "/"), and "%00" is refused (seed 003 2.5.3). A query
(2.3) and a fragment (2.4) are accepted with the RFC 3986 character sets;
:func:`query_is_directives` says whether a query also follows the 2.3
``directive *( "&" directive )`` syntax.

Legacy URNs (seed 000, draft-ietf-uri-resource-names-01, 1993) include their angle
brackets: ``<URN:ASCII:IANA:merit.edu:1929642>``. Components keep their backslash escapes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from urimine import _abnf
from urimine.errors import InvalidURN, Reason
from urimine.parser import check_uri

__all__ = [
    "URN",
    "LegacyURN",
    "check_legacy_urn",
    "check_urn",
    "parse_urn",
    "query_is_directives",
]

# 003 2.1:  NID = (ALPHA / DIGIT) 0*30(ALPHA / DIGIT / "-") (ALPHA / DIGIT); "urn" reserved.
NID = r"(?![Uu][Rr][Nn]:)[A-Za-z0-9][A-Za-z0-9\-]{0,30}[A-Za-z0-9]"
# RFC 8141 2:  NSS = pchar *( pchar / "/" )   (seed 003 2.2 had 1*pchar)
NSS = f"(?:[{_abnf.PCHAR_CHARS}]|{_abnf.PCT_ENCODED})(?:{_abnf.star(_abnf.PCHAR_CHARS + '/')})"
# 003 2:  URI = scheme ":" path-rootless [ "?" query ] [ "#" fragment ]; urn-path = NID ":" NSS
_URN_RE = re.compile(
    f"[Uu][Rr][Nn]:(?P<nid>{NID}):(?P<nss>{NSS})"
    f"(?:\\?(?P<query>{_abnf.star(_abnf.QUERY_CHARS)}))?"
    f"(?:#(?P<fragment>{_abnf.star(_abnf.FRAGMENT_CHARS)}))?"
)
# 003 2.3:  urn-query = directive *( "&" directive );  directive = keywd "=" value
#   keywd = ALPHA *( ["-"] (ALPHA / DIGIT) );  value = *v-pchar
#   v-pchar = unreserved / pct-encoded / v-subdels;  v-subdels = sub-delims minus "&",
#   plus ":" / "@" / "/" / "?"
_V_PCHAR = _abnf.UNRESERVED_CHARS + r"!$'()*+,;=:@/?"
_DIRECTIVE = rf"[A-Za-z](?:-?[A-Za-z0-9])*={_abnf.star(_V_PCHAR)}"
_URN_QUERY_RE = re.compile(f"{_DIRECTIVE}(?:&{_DIRECTIVE})*")

# 000 3.3 / 5: a component character is printable ASCII other than ":" ">" "\" and space,
# or a backslash escape of any printable character ("\:" "\>" "\\", and any "\x").
_LEGACY_CHAR = r"(?:[\x21-\x39\x3b-\x3d\x3f-\x5b\x5d-\x7e]|\\[\x20-\x7e])"
# 000 5:  urn = "<URN:" Encoding_Scheme ":" Authority_Id ":" opaque_string ">"
#         Authority_Id = Scheme_ID ":" [ Individual ];  3.3.2: encoding empty or ASCII
_LEGACY_RE = re.compile(
    r"<[Uu][Rr][Nn]:(?P<encoding>(?:[Aa][Ss][Cc][Ii][Ii])?)"
    f":(?P<scheme>{_LEGACY_CHAR}+):(?P<authority>{_LEGACY_CHAR}*)"
    f":(?P<opaque>{_LEGACY_CHAR}+)>"
)


@dataclass(frozen=True, slots=True)
class URN:
    """A modern URN or URN reference (003 section 2); query/fragment None when absent."""

    text: str
    nid: str
    nss: str
    query: str | None
    fragment: str | None


@dataclass(frozen=True, slots=True)
class LegacyURN:
    """A 1993 URN (000 3.3): the text includes "<" and ">"; components keep their escapes."""

    text: str
    encoding: str
    naming_scheme: str
    authority: str
    opaque: str


def query_is_directives(query: str) -> bool:
    """Whether a URN query follows the 003 2.3 ``keywd=value *("&" keywd=value)`` syntax."""
    return _URN_QUERY_RE.fullmatch(query) is not None


def check_urn(s: str) -> tuple[Reason, int] | None:
    """Validate a modern URN reference (003 2); None if valid, else (reason, position)."""
    m = _URN_RE.fullmatch(s)
    if m is not None:
        nul = s.find("%00", 0, m.end("nss"))  # 003 2.5.3: NUL not even percent-encoded
        return None if nul < 0 else (Reason.BAD_NSS, nul)
    return _diagnose_urn(s)


def _diagnose_nid(s: str, nid_end: int) -> tuple[Reason, int] | None:
    """Check the NID in s[4:nid_end] against 003 2.1."""
    for i in range(4, nid_end):
        if not (s[i].isascii() and (s[i].isalnum() or s[i] == "-")):
            return Reason.BAD_NID, i
    nid = s[4:nid_end]
    if not nid or nid[0] == "-" or nid.lower() == "urn":
        return Reason.BAD_NID, 4
    if len(nid) > 32:
        return Reason.BAD_NID, 4 + 32
    if nid[-1] == "-" or len(nid) < 2:
        return Reason.BAD_NID, nid_end - 1
    return None


def _diagnose_urn(s: str) -> tuple[Reason, int]:
    """Find why s is not a modern URN: scheme, NID, NSS, then query/fragment."""
    if not s:
        return Reason.EMPTY, 0
    if s[:4].lower() != "urn:":
        return (Reason.NOT_A_URI, 0) if ":" in s else (Reason.NO_SCHEME, 0)
    colon = s.find(":", 4)
    bad = _diagnose_nid(s, len(s) if colon < 0 else colon)
    if bad is not None:
        return bad
    if colon < 0:
        return Reason.BAD_NSS, len(s)
    if colon + 1 == len(s) or s[colon + 1] in "?#":
        return Reason.BAD_NSS, colon + 1
    bad = check_uri(s, iri=False)
    if bad is not None:
        reason, pos = bad
        return (Reason.BAD_NSS if reason == Reason.BAD_PATH else reason), pos
    return Reason.BAD_NSS, colon + 1


def check_legacy_urn(s: str) -> tuple[Reason, int] | None:
    """Validate a 1993 URN including its angle brackets (000 3.3, 5); None if valid."""
    if _LEGACY_RE.fullmatch(s):
        return None
    if not s.startswith("<"):
        return Reason.BAD_LEGACY_URN, 0
    if s[1:5].lower() != "urn:":
        return Reason.BAD_LEGACY_URN, 1
    return _diagnose_legacy(s)


def _legacy_walk(s: str) -> tuple[int, list[int]] | tuple[Reason, int]:
    """Walk a "<URN:" string up to its first unescaped ">": where that stands (or the
    string's end) and the unescaped colons before it; or what is wrong on the way."""
    i, colons = 5, [4]
    while i < len(s):
        c = s[i]
        if c == "\\":
            if i + 1 >= len(s) or not " " <= s[i + 1] <= "~":
                return Reason.BAD_LEGACY_URN, i
            i += 2
            continue
        if c == ">":
            break
        if not "!" <= c <= "~":
            return Reason.ILLEGAL_CHAR, i
        if c == ":":
            colons.append(i)
        i += 1
    return i, colons


def _diagnose_legacy(s: str) -> tuple[Reason, int]:
    """Walk a "<URN:" string: illegal characters, the closing ">", then the components."""
    walked = _legacy_walk(s)
    if isinstance(walked[0], Reason):
        return walked
    i, colons = walked
    if i >= len(s):
        return Reason.BAD_LEGACY_URN, len(s)  # no closing ">"
    if i + 1 != len(s):
        return Reason.BAD_LEGACY_URN, i  # unescaped ">" before the end
    if len(colons) != 4:
        return Reason.BAD_LEGACY_URN, colons[4] if len(colons) > 4 else i
    if s[5 : colons[1]].lower() not in ("", "ascii"):
        return Reason.BAD_LEGACY_URN, 5  # 000 3.3.2: only ASCII is defined
    empty = colons[1] + 1 if colons[2] == colons[1] + 1 else i
    return Reason.BAD_LEGACY_URN, empty  # empty scheme id or opaque string


def parse_urn(s: str) -> URN | LegacyURN:
    """Parse a URN: the 1993 form iff it starts with "<", else ``urn:NID:NSS``.

    Raises :class:`InvalidURN` with the reason and position of the first problem.
    """
    if s.startswith("<"):
        bad = check_legacy_urn(s)
        if bad is not None:
            raise InvalidURN(s, *bad)
        lm = _LEGACY_RE.fullmatch(s)
        assert lm is not None
        return LegacyURN(s, lm["encoding"], lm["scheme"], lm["authority"], lm["opaque"])
    bad = check_urn(s)
    if bad is not None:
        raise InvalidURN(s, *bad)
    m = _URN_RE.fullmatch(s)
    assert m is not None
    return URN(s, m["nid"], m["nss"], m["query"], m["fragment"])
