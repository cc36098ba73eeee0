"""The URI grammar of RFC 3986 (the final form of seed 002) as regular-expression sources.

Each constant is named after the ABNF rule it implements, with the rule quoted above it.
Section numbers are those of seed 002 (draft-fielding-uri-rfc2396bis-01) where the rule is
already there, and of RFC 3986 / RFC 3987 / RFC 6874 otherwise. ``*_CHARS`` constants are
the contents of a character class, so components can be matched with the unrolled loop
``[chars]*(?:%HH[chars]*)*``, which is much faster than an alternation per character.
The ``I*`` variants are the IRI rules of RFC 3987 section 2.2 (ucschar wherever unreserved
is allowed, iprivate in the query as well).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# RFC 3986 2.3 / 002 2.3:  unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED_CHARS = r"A-Za-z0-9\-._~"
UNRESERVED = f"[{UNRESERVED_CHARS}]"

# RFC 3986 2.2:  sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
SUB_DELIMS_CHARS = r"!$&'()*+,;="
SUB_DELIMS = f"[{SUB_DELIMS_CHARS}]"

# RFC 3986 2.2:  gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
GEN_DELIMS_CHARS = r":/?#\[\]@"

# RFC 3986 2.1 / 002 2.4.1:  pct-encoded = "%" HEXDIG HEXDIG
PCT_ENCODED = r"%[0-9A-Fa-f]{2}"

# RFC 3987 2.2:  ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ...
#                          / %xE1000-EFFFD   (every plane up to 14, minus the non-characters)
UCSCHAR_CHARS = (
    r"\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    + "".join(rf"\U{plane:04x}0000-\U{plane:04x}fffd" for plane in range(1, 14))
    + r"\U000e1000-\U000efffd"
)
# RFC 3987 2.2:  iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
IPRIVATE_CHARS = r"\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
# RFC 3987 2.2:  iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
IUNRESERVED_CHARS = UNRESERVED_CHARS + UCSCHAR_CHARS

# RFC 3986 3.3:  pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
PCHAR_CHARS = UNRESERVED_CHARS + SUB_DELIMS_CHARS + ":@"
PCHAR = f"(?:[{PCHAR_CHARS}]|{PCT_ENCODED})"
IPCHAR_CHARS = IUNRESERVED_CHARS + SUB_DELIMS_CHARS + ":@"
IPCHAR = f"(?:[{IPCHAR_CHARS}]|{PCT_ENCODED})"

# RFC 3986 3.1 / 002 3.1:  scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"

# RFC 3986 3.2.1 / 002 3.2.2:  userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
USERINFO_CHARS = UNRESERVED_CHARS + SUB_DELIMS_CHARS + ":"
IUSERINFO_CHARS = IUNRESERVED_CHARS + SUB_DELIMS_CHARS + ":"

USERINFO = f"(?:[{USERINFO_CHARS}]|{PCT_ENCODED})*"

# RFC 3986 3.2.2 / 002 3.2.2:
#   dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
# IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
IPV4ADDRESS = rf"{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}"

# RFC 3986 3.2.2 (002 3.2.2 calls it h4):  h16 = 1*4HEXDIG
H16 = r"[0-9A-Fa-f]{1,4}"
# ls32 = ( h16 ":" h16 ) / IPv4address
LS32 = rf"(?:{H16}:{H16}|{IPV4ADDRESS})"


def _before(n: int) -> str:
    """``[ *n( h16 ":" ) h16 ]``, the optional head of an IPv6 alternative with "::"."""
    return rf"(?:(?:{H16}:){{0,{n}}}{H16})?" if n else f"(?:{H16})?"


# RFC 3986 3.2.2 / 002 3.2.2, all nine alternatives:
#   IPv6address =                            6( h16 ":" ) ls32
#               /                       "::" 5( h16 ":" ) ls32
#               / [               h16 ] "::" 4( h16 ":" ) ls32
#               / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
#               / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
#               / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
#               / [ *4( h16 ":" ) h16 ] "::"              ls32
#               / [ *5( h16 ":" ) h16 ] "::"              h16
#               / [ *6( h16 ":" ) h16 ] "::"
IPV6_ALTERNATIVES = (
    rf"(?:{H16}:){{6}}{LS32}",
    rf"::(?:{H16}:){{5}}{LS32}",
    rf"{_before(0)}::(?:{H16}:){{4}}{LS32}",
    rf"{_before(1)}::(?:{H16}:){{3}}{LS32}",
    rf"{_before(2)}::(?:{H16}:){{2}}{LS32}",
    rf"{_before(3)}::{H16}:{LS32}",
    rf"{_before(4)}::{LS32}",
    rf"{_before(5)}::{H16}",
    rf"{_before(6)}::",
)
IPV6ADDRESS = "(?:" + "|".join(IPV6_ALTERNATIVES) + ")"

# RFC 6874 2:  ZoneID = 1*( unreserved / pct-encoded );  IPv6addrz = IPv6address "%25" ZoneID
ZONEID = f"(?:[{UNRESERVED_CHARS}]|{PCT_ENCODED})+"
IPV6ADDRZ = f"{IPV6ADDRESS}%25{ZONEID}"

# RFC 3986 3.2.2:  IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
IPVFUTURE = rf"[vV][0-9A-Fa-f]+\.[{UNRESERVED_CHARS}{SUB_DELIMS_CHARS}:]+"

# RFC 3986 3.2.2 with RFC 6874:  IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"
IP_LITERAL = rf"\[(?:{IPV6ADDRESS}(?:%25{ZONEID})?|{IPVFUTURE})\]"

# RFC 3986 3.2.2:  reg-name = *( unreserved / pct-encoded / sub-delims )
REG_NAME_CHARS = UNRESERVED_CHARS + SUB_DELIMS_CHARS
IREG_NAME_CHARS = IUNRESERVED_CHARS + SUB_DELIMS_CHARS

REG_NAME = f"(?:[{REG_NAME_CHARS}]|{PCT_ENCODED})*"
# RFC 3986 3.2.2:  host = IP-literal / IPv4address / reg-name
HOST = f"(?:{IP_LITERAL}|{IPV4ADDRESS}|{REG_NAME})"

# RFC 3986 3.2.3 / 002 3.2.2:  port = *DIGIT
PORT = "[0-9]*"

# RFC 3986 3.2:  authority = [ userinfo "@" ] host [ ":" port ]
AUTHORITY = f"(?:{USERINFO}@)?{HOST}(?::{PORT})?"

# RFC 3986 3.3:  segment = *pchar;  segment-nz = 1*pchar
#   segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )  ; no colon
SEGMENT = f"{PCHAR}*"
SEGMENT_NZ = f"{PCHAR}+"
SEGMENT_NZ_NC = f"(?:[{UNRESERVED_CHARS}{SUB_DELIMS_CHARS}@]|{PCT_ENCODED})+"
# path-abempty = *( "/" segment );  path-absolute = "/" [ segment-nz *( "/" segment ) ]
# path-rootless = segment-nz *( "/" segment );  path-empty = 0<pchar>
# path-noscheme = segment-nz-nc *( "/" segment )
PATH_ABEMPTY = f"(?:/{SEGMENT})*"
PATH_ABSOLUTE = f"/(?:{SEGMENT_NZ}(?:/{SEGMENT})*)?"
PATH_ROOTLESS = f"{SEGMENT_NZ}(?:/{SEGMENT})*"
PATH_NOSCHEME = f"{SEGMENT_NZ_NC}(?:/{SEGMENT})*"
PATH_EMPTY = ""

# RFC 3986 3.4 / 002 3.4:  query = *( pchar / "/" / "?" )
QUERY_CHARS = PCHAR_CHARS + "/?"
IQUERY_CHARS = IPCHAR_CHARS + "/?" + IPRIVATE_CHARS  # RFC 3987: iquery adds iprivate
QUERY = f"(?:{PCHAR}|[/?])*"
# RFC 3986 3.5:  fragment = *( pchar / "/" / "?" )
FRAGMENT_CHARS = QUERY_CHARS
FRAGMENT = QUERY
IFRAGMENT_CHARS = IPCHAR_CHARS + "/?"
PATH_CHARS = PCHAR_CHARS + "/"
IPATH_CHARS = IPCHAR_CHARS + "/"

# RFC 3986 3:  hier-part = "//" authority path-abempty / path-absolute / path-rootless
#                        / path-empty
HIER_PART = f"(?://{AUTHORITY}{PATH_ABEMPTY}|{PATH_ABSOLUTE}|{PATH_ROOTLESS}|{PATH_EMPTY})"
# RFC 3986 3 / 4.3:  URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
# (the rule as written; URI_RE below compiles an equivalent, faster form)
URI_ABNF = f"{SCHEME}:{HIER_PART}(?:\\?{QUERY})?(?:#{FRAGMENT})?"


def star(chars: str) -> str:
    """``*( [chars] / pct-encoded )`` as the fast unrolled loop ``[c]*(?:%HH[c]*)*``,
    possessive: in every rule that uses it, what may follow ("@", ":", "/", "?", "#",
    "&" or the end) is none of *chars* nor "%", so giving characters back never makes
    a match; it only made a failing one (a long host with a bad escape at its end)
    retry at every character, some 100 ns each."""
    return f"[{chars}]*+(?:{PCT_ENCODED}[{chars}]*+)*+"


def star_once(chars: str) -> str:
    """:func:`star` with *chars* written once: for the IRI classes, whose ranges ``re``
    compiles a character at a time (about 0.1 ms each), so the IRI grammar compiles in
    half the time (some 12 ms, at the first text that is not ASCII) and matches about
    as fast."""
    return f"(?:[{chars}]++|{PCT_ENCODED})*+"


def _uri_source(iri: bool, absolute: bool) -> str:
    """The whole of absolute-URI [ "#" fragment ] (or relative-ref) as one regex source.

    RFC 3986 3:    URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
                   hier-part = "//" authority path-abempty / path-absolute
                             / path-rootless / path-empty
    RFC 3986 4.2:  relative-ref = relative-part [ "?" query ] [ "#" fragment ]
                   relative-part = "//" authority path-abempty / path-absolute
                                 / path-noscheme / path-empty
    RFC 3986 3.2:  authority = [ userinfo "@" ] host [ ":" port ]
                   host = IP-literal / IPv4address / reg-name
    Path-absolute, -rootless and -empty together are exactly the strings of
    ( pchar / "/" ) that do not start with "//", which is what is matched here;
    path-abempty is the empty string or "/" followed by ( pchar / "/" ).
    """
    user, reg, path, query, frag = (
        (IUSERINFO_CHARS, IREG_NAME_CHARS, IPATH_CHARS, IQUERY_CHARS, IFRAGMENT_CHARS)
        if iri
        else (USERINFO_CHARS, REG_NAME_CHARS, PATH_CHARS, QUERY_CHARS, FRAGMENT_CHARS)
    )
    many = star_once if iri else star
    # The port possessive too: "/", "?", "#" or the end follows it, never a digit.
    authority = (
        f"(?:(?P<userinfo>{many(user)})@)?(?P<host>{IP_LITERAL}|{many(reg)})(?::(?P<port>{PORT}+))?"
    )
    no_authority = f"(?!//){many(path)}" if absolute else f"(?!//)(?![^/?#]*:){many(path)}"
    head = f"(?P<scheme>{SCHEME}):" if absolute else ""
    return (
        f"{head}(?://{authority}(?:/{many(path)})?|{no_authority})"
        f"(?:\\?{many(query)})?(?:#{many(frag)})?"
    )


# The compiled patterns: absolute URI with optional fragment (RFC 3986 4.3 plus "#"
# fragment), in plain-URI and IRI flavours, the relative-ref forms for parse_reference,
# and single rules. Each is compiled at its first use (__getattr__), not at import: a
# run that parses nothing (an empty input, a query of a link index) never pays for
# them. The IRI flavours' classes span most of Unicode; on ASCII text they match as the
# URI flavours do (RFC 3987 2.2 adds only ucschar and iprivate, none of them ASCII), so
# the parser needs them for text that is not ASCII only.
_LAZY: dict[str, Callable[[], str]] = {
    "URI_RE": lambda: _uri_source(iri=False, absolute=True),
    "RELATIVE_REF_RE": lambda: _uri_source(iri=False, absolute=False),
    "IRI_RE": lambda: _uri_source(iri=True, absolute=True),
    "IRELATIVE_REF_RE": lambda: _uri_source(iri=True, absolute=False),
    "SCHEME_RE": lambda: SCHEME,
    "IP_LITERAL_RE": lambda: IP_LITERAL,
    "IPV4ADDRESS_RE": lambda: IPV4ADDRESS,
    "IPV6ADDRESS_RE": lambda: IPV6ADDRESS,
    "PCT_ENCODED_RE": lambda: PCT_ENCODED,
}


def __getattr__(name: str) -> re.Pattern[str]:
    """A compiled pattern of :data:`_LAZY`, compiled at its first use (PEP 562)."""
    source = _LAZY.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    pattern = re.compile(source())
    globals()[name] = pattern
    return pattern
