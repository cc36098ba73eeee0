"""Whether the host of a URI in bare text is a name the DNS could hold.

RFC 3986 3.2.2: a registered name meant for the DNS follows RFC 1034 3.5 and RFC 1123
2.1, and "URI producers should use names that conform to the DNS syntax". Bare text
has no delimiter to vouch for what the writer meant, so there a reg-name is refused
where no DNS name can be written so: an empty label other than the root's last one
(``http://.example.com``, ``a..b``), a label that starts or ends with a hyphen
(``http://-example.com``, ``twitter-.com``: RFC 1123 2.1, RFC 5891 4.2.3.1, UTS #46
CheckHyphens), and an ``xn--`` label that is no Punycode of a non-ASCII label (RFC
5890 2.3.2.1; UTS #46 4 step 4, which WHATWG URL's host parser applies: a browser
refuses ``http://xn--はじめよう.com``). Underscores stay (``_sip._tcp``, real sub-domains
that browsers open), and so do the other characters RFC 3986 allows in a reg-name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from urimine.errors import Reason

__all__ = ["host_refusal"]

_DOT = ".\u3002\uff0e\uff61"  # the label separators of RFC 3490 3.1 (UTS #46 maps them)
_SUSPECT = re.compile(rf"(?:\A|[{_DOT}])(?:[{_DOT}\-]|[Xx][Nn]--)|-(?:[{_DOT}]|\Z)")
"""Where a host may fail: an empty label, a hyphen at a label's edge, an A-label."""
_HOST = re.compile(r"//(?:[^/?#@]*@)?([^/?#:\[]*)")
"""After the scheme's colon: "//", the userinfo, and the host (none: an IP literal)."""
_LABEL = re.compile(f"[^{_DOT}]*")
_PART = rf"[^/?#:@\[{_DOT}\-]++"
_GOOD_LABEL = rf"(?![Xx][Nn]--){_PART}(?:-++{_PART})*+"
_FINE = re.compile(
    rf"//(?:[^/?#@]*+@)?+(?:\[|(?:{_GOOD_LABEL}(?:[{_DOT}]{_GOOD_LABEL})*+[{_DOT}]?+)?+"
    r"(?=[/?#:]|\Z))"
)
"""The common case in one match: a host of labels with no hyphen at an edge and no
"xn--" (or an IP literal, or none)."""
_DETAIL = "host is no DNS name (RFC 3986 3.2.2, RFC 1123 2.1)"


def host_refusal(uri: str, colon: int) -> tuple[Reason, str, int] | None:
    """Why the host of *uri* (an RFC 3986 URI whose scheme's colon is at *colon*) is no
    DNS name, with its position; None where it may be one or the URI has no reg-name."""
    if _FINE.match(uri, colon + 1) is not None:
        return None
    m = _HOST.match(uri, colon + 1)
    if m is None:
        return None
    host = m.group(1)
    for bad in _SUSPECT.finditer(host):
        k = bad.start()
        if bad.group()[-4:].lower() == "xn--":
            k = bad.end() - 4
            if _a_label(_LABEL.match(host, k).group()):  # type: ignore[union-attr]
                continue
        return Reason.BAD_HOST, _DETAIL, m.start(1) + k
    return None


@lru_cache(maxsize=1 << 10)
def _a_label(label: str) -> bool:
    """Whether *label* (it starts with "xn--") is an A-label: at most 63 characters (RFC
    1034 3.1), ASCII, decoded by Punycode (RFC 3492) to a label with a character outside
    ASCII (RFC 5890 2.3.2.1)."""
    body = label[4:]
    if not body or len(label) > 63 or not body.isascii() or body.endswith("-"):
        return False
    try:
        decoded = body.encode("ascii").decode("punycode")
    except UnicodeError:
        return False
    return bool(decoded) and not decoded.isascii()
