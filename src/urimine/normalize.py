"""The comparison ladder of RFC 3986 section 6.2, one small pure function per step.

:func:`normalize_uri` applies syntax-based (6.2.2) and scheme-based (6.2.3) normalisation
to an absolute URI. :func:`dedup_key` is what the scanner groups hits by: URNs use the
lexical equivalence of seed 003 section 5 (step 5a), 1993 URNs are compared case-blind
(000 3.3.5), everything else uses :func:`normalize_uri`. IRIs are mapped to URIs for the
key only (RFC 3987 3.1): IDNA 2008 for host labels, UTF-8 percent-encoding elsewhere.
Nothing here validates or raises; an unparseable string gets a best-effort key, and
every key is its own key.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from urimine.parser import split_authority, split_reference
from urimine.schemes import DEFAULT_PORTS, EMPTY_PATH_IS_SLASH
from urimine.urn import check_legacy_urn

__all__ = [
    "decode_unreserved",
    "dedup_key",
    "empty_path_to_slash",
    "encode_non_ascii",
    "encode_stray_percent",
    "host_to_ascii",
    "lower_scheme",
    "normalize_authority",
    "normalize_host",
    "normalize_port",
    "normalize_uri",
    "remove_dot_segments",
    "upper_percent_hex",
    "web_key",
]

_PCT_RE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]+")
_STRAY_PCT_RE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_LDH_RE = re.compile(r"[a-z0-9-]+")
_IPV6ISH_RE = re.compile(r"[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*")
_IDNA_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})  # RFC 3490 3.1


def lower_scheme(scheme: str) -> str:
    """Lower-case a scheme name (RFC 3986 section 6.2.2.1: schemes are case-insensitive)."""
    return scheme.lower()


def upper_percent_hex(s: str) -> str:
    """Upper-case the hex digits of every escape (RFC 3986 section 6.2.2.2: "%3a" is "%3A")."""
    if "%" not in s:
        return s
    return _PCT_RE.sub(lambda m: "%" + m.group(1).upper(), s)


def _decode_once(m: re.Match[str]) -> str:
    """Decode one escape if it stands for an unreserved character, else keep it."""
    c = chr(int(m.group(1), 16))
    return c if c in _UNRESERVED else m.group(0)


def decode_unreserved(s: str) -> str:
    """Decode escapes of unreserved characters (RFC 3986 section 6.2.2.2: "%7E" is "~").

    Repeated to a fixed point so that "%%34%31" (which decodes to "%41") is stable.
    """
    while "%" in s:
        decoded = _PCT_RE.sub(_decode_once, s)
        if decoded == s:
            break
        s = decoded
    return s


def encode_non_ascii(s: str) -> str:
    """Percent-encode non-ASCII characters as UTF-8, upper-case hex (RFC 3987 3.1 step 2)."""
    if s.isascii():
        return s
    return _NON_ASCII_RE.sub(
        lambda m: "".join(f"%{b:02X}" for b in m.group(0).encode("utf-8", "surrogatepass")), s
    )


def encode_stray_percent(s: str) -> str:
    """Encode a "%" that does not start a pct-encoded triplet as "%25" (repair helper only)."""
    return _STRAY_PCT_RE.sub("%25", s)


def remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4 remove_dot_segments (section 6.2.2.3, path segments)."""
    if "." not in path:
        return path  # no dot segment possible: the common case, kept cheap
    if path.startswith("/"):
        return _absolute_dots(path)
    return _stepwise_dots(path)


def _absolute_dots(path: str) -> str:
    """5.2.4 for a *path* that starts with "/", a segment at a time.

    The input buffer then starts with "/" at every step, and each step takes one
    segment ("/" and what follows up to the next one): "/." goes (B), "/.." goes with
    the last segment of the output (C), any other moves to the output (E); "/." or
    "/.." at the end leaves "/" there. A step an item of ``split``'s list, where the
    step-by-step prefix tests cost some 0.4 us a segment (a URI of 2,600 "../": 8 MB/s).
    """
    segments = path.split("/")
    tail = segments.pop()
    out: list[str] = []
    for segment in segments[1:]:  # (the first is the empty one before the first "/")
        if segment == "..":
            if out:
                out.pop()
        elif segment != ".":
            out.append(segment)
    if tail == ".." and out:
        out.pop()
    out.append("" if tail in (".", "..") else tail)
    return "/" + "/".join(out)


def _stepwise_dots(path: str) -> str:
    """5.2.4 as written, a step at a time (a relative *path*: where A and D apply).

    The input buffer is the rest of *path* from an index (and a "/" put back in front
    of it where a step says so), never a new string a step: cutting the buffer at every
    step cost time quadratic in the number of segments ("../" repeated: 5 MB/s)."""
    out = list[str]()
    i, n = 0, len(path)
    while i < n:
        if path.startswith("../", i):  # A
            i += 3
        elif path.startswith("./", i) or path.startswith("/./", i):
            i += 2
        elif path.startswith("/.", i) and i + 2 == n:
            out.append("/")
            i = n
        elif path.startswith("/../", i):  # C: likewise, and the last output segment goes
            i += 3
            if out:
                out.pop()
        elif path.startswith("/..", i) and i + 3 == n:
            if out:
                out.pop()
            out.append("/")
            i = n
        elif path[i:] in (".", ".."):  # D (a copy of one or two characters)
            i = n
        else:  # E: the first segment, with its "/", moves to the output
            end = path.find("/", i + 1)
            end = n if end < 0 else end
            out.append(path[i:end])
            i = end
    return "".join(out)


def normalize_port(scheme: str, port: str | None) -> str | None:
    """Drop an empty or default port, strip leading zeros (RFC 3986 section 6.2.3)."""
    if not port:
        return None
    if port.isascii() and port.isdigit():
        port = port.lstrip("0") or "0"
        if DEFAULT_PORTS.get(scheme) == port:
            return None
        return port
    return encode_non_ascii(port)


def empty_path_to_slash(scheme: str, path: str) -> str:
    """An empty path is "/" for http(s) and similar schemes (RFC 3986 6.2.3)."""
    return "/" if not path and scheme in EMPTY_PATH_IS_SLASH else path


@lru_cache(maxsize=1 << 12)
def _label_to_ascii(label: str) -> str:
    """The key of one non-ASCII host label: its IDNA 2008 A-label (RFC 5891 section 4),
    by UTS #46 non-transitional processing (section 4; so "ß", "ς" and joiners in their
    context stay: RFC 5892 appendix A.1, A.2); a label IDNA 2008 refuses is lower-cased
    and UTF-8 percent-encoded (RFC 3986 section 3.2.2)."""
    import idna  # only hosts outside ASCII pay for the import

    try:
        ascii_label = idna.encode(label, uts46=True, transitional=False).decode("ascii")
    except UnicodeError:  # idna.IDNAError and its kinds
        return _percent_label(label)
    return ascii_label if _LDH_RE.fullmatch(ascii_label) else _percent_label(label)


def _percent_label(label: str) -> str:
    """A refused label's key: lower case, NFC, then UTF-8 percent-encoded."""
    return encode_non_ascii(unicodedata.normalize("NFC", label.lower()))


def host_to_ascii(host: str) -> str:
    """Map a reg-name to ASCII label by label (RFC 3987 section 3.1); ASCII labels as they
    are, the others by :func:`_label_to_ascii` (the dots of RFC 3490 3.1 separate)."""
    if host.isascii():
        return host
    labels = host.translate(_IDNA_DOTS).split(".")
    return ".".join(label if label.isascii() else _label_to_ascii(label) for label in labels)


def _normalize_ip_literal(host: str) -> str:
    """Lower-case an IP-literal; write its zone delimiter as "%25" (RFC 6874 section 2).

    Only an IPv6-like address has a zone. An IPvFuture (RFC 3986 3.2.2, which has no
    "%") and anything else in brackets get the generic case and escape treatment. Non-ASCII
    is percent-encoded first, so that a key read again takes the same branch.
    """
    inner = encode_non_ascii(host[1:-1])
    addr, pct, zone = inner.partition("%")
    if not _IPV6ISH_RE.fullmatch(addr):
        return f"[{upper_percent_hex(inner.lower())}]"
    if not pct or not zone:
        return f"[{addr.lower()}{pct}]"
    if zone.startswith("25") and len(zone) > 2:
        zone = zone[2:]  # "%25" is the delimiter; a bare "%" (legacy form) is replaced
    return f"[{addr.lower()}%25{upper_percent_hex(zone)}]"


def normalize_host(host: str) -> str:
    """Case, escape and IDNA normalisation of a host (RFC 3986 sections 6.2.2.1, 6.2.2.2)."""
    if len(host) >= 2 and host.startswith("[") and host.endswith("]"):
        return _normalize_ip_literal(host)
    host = host_to_ascii(decode_unreserved(host))
    return upper_percent_hex(host.lower())


def _normalize_component(s: str) -> str:
    """Escape normalisation of userinfo, path, query or fragment (RFC 3986 section 6.2.2.2)."""
    return encode_non_ascii(upper_percent_hex(decode_unreserved(s)))


def normalize_authority(authority: str, scheme: str = "") -> str:
    """Normalise an authority: userinfo escapes, host, port (RFC 3986 sections 6.2.2, 6.2.3)."""
    userinfo, host, port = split_authority(authority)
    text = normalize_host(host)
    if userinfo is not None:
        text = f"{_normalize_component(userinfo)}@{text}"
    port = normalize_port(scheme, port)
    return text if port is None else f"{text}:{port}"


def normalize_uri(s: str) -> str:
    """Syntax- and scheme-based normal form of an absolute URI (RFC 3986 sections 6.2.2, 6.2.3).

    Keeps the fragment. Dot segments are removed only from paths that start with "/".
    A string without a scheme is returned unchanged. Never raises.
    """
    u = split_reference(s)
    if u.scheme is None:
        return s
    scheme = lower_scheme(u.scheme)
    parts = [scheme, ":"]
    path = _normalize_component(u.path)
    if path.startswith("/"):
        path = remove_dot_segments(path)
    if u.authority is not None:
        parts += ["//", normalize_authority(u.authority, scheme)]
        path = empty_path_to_slash(scheme, path)
    elif path.startswith("//"):
        path = "/." + path  # RFC 3986 5.2.4 note: keep "//x" from reading as authority
    parts.append(path)
    if u.query is not None:
        parts += ["?", _normalize_component(u.query)]
    if u.fragment is not None:
        parts += ["#", _normalize_component(u.fragment)]
    return "".join(parts)


# The URL Standard's path percent-encode set past the query set (which a URI as written
# in text never holds): "?" starts the query, so "^ ` { }" are left.
_WHATWG_PATH = str.maketrans({"^": "%5E", "`": "%60", "{": "%7B", "}": "%7D"})


def web_key(s: str) -> str:
    """The key of a URI that is not strict RFC 3986 (``Hit.strict`` false): its normal
    form, with its path percent-encoded as a browser does (WHATWG URL, the path
    percent-encode set); "[ ] |" and a second "#" stay, as the query and fragment sets
    leave them."""
    key = normalize_uri(s)
    u = split_reference(key)
    if u.scheme is None or not any(c in u.path for c in "^`{}"):
        return key
    start = len(u.scheme) + 1 + (0 if u.authority is None else 2 + len(u.authority))
    return key[:start] + u.path.translate(_WHATWG_PATH) + key[start + len(u.path) :]


def urn_key(s: str) -> str:
    """Lexical equivalence of 003 section 5 with step 5a, for a string starting "urn:".

    Lower-cases "urn" and the NID, upper-cases percent-escape hex (never decoding them),
    drops the fragment and the query; the NSS keeps its case.
    """
    body = s.partition("#")[0].partition("?")[0]
    nid, colon, nss = body[4:].partition(":")
    return f"urn:{nid.lower()}{colon}{upper_percent_hex(nss)}"


def legacy_urn_key(s: str) -> str:
    """Key of a valid 1993 URN: all lower case (000 3.3.5), empty encoding = ASCII (3.3.2)."""
    rest = s[5:].partition(":")[2]  # drop "<URN:" and the encoding component
    return f"<urn:ascii:{rest.lower()}"


def simple_uri_key(scheme: str, host: str, port: str | None, path: str, tail: str) -> str:
    """:func:`normalize_uri` of ``scheme://host[:port]path tail`` already split, for the
    scanner's common case: a lower-case scheme, an ASCII reg-name host without escapes, a
    digit port, and no "%" anywhere (so 6.2.2.2 changes nothing). Only case (6.2.2.1),
    dot segments (6.2.2.3) and the port and empty path (6.2.3) are left to do."""
    if "/." in path:
        path = remove_dot_segments(path)
    if not path and scheme in EMPTY_PATH_IS_SLASH:
        path = "/"
    if port is not None:
        port = normalize_port(scheme, port)
    host = host.lower()
    if port is None:
        return f"{scheme}://{host}{path}{tail}"
    return f"{scheme}://{host}:{port}{path}{tail}"


# "scheme://host[:port]" then path, query, fragment: with an ASCII text without "%"
# (checked apart), the only URIs whose normal form simple_uri_key computes.
_SIMPLE = re.compile(
    r"([A-Za-z][A-Za-z0-9+\-.]*)://([A-Za-z0-9\-._~]+)(?::([0-9]*))?(/[^?#]*)?((?:\?[^#]*)?(?:#.*)?)",
    re.DOTALL,
)


@lru_cache(maxsize=1 << 16)
def dedup_key(s: str) -> str:
    """The key the scanner groups equivalent hits by; idempotent and total on ``str``."""
    if s.startswith("<") and check_legacy_urn(s) is None:
        return legacy_urn_key(s)
    if s[:4].lower() == "urn:":
        return urn_key(s)
    if s.isascii() and "%" not in s:
        m = _SIMPLE.fullmatch(s)
        if m is not None:
            scheme, host, port, path, tail = m.groups()
            return simple_uri_key(scheme.lower(), host, port, path or "", tail)
    return normalize_uri(s)
