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

from urimine.errors import Reason

__all__ = ["host_refusal"]

_DOT = ".\u3002\uff0e\uff61"  # the label separators of RFC 3490 3.1 (UTS #46 maps them)
_SUSPECT = re.compile(rf"(?:\A|[{_DOT}])(?:[{_DOT}\-]|[Xx][Nn]--)|-(?:[{_DOT}]|\Z)")
"""Where a host may fail: an empty label, a hyphen at a label's edge, an A-label."""
_AUTHORITY_END = re.compile(r"[/?#]")
_DETAIL = "host is no DNS name (RFC 3986 3.2.2, RFC 1123 2.1)"


def host_refusal(uri: str, colon: int) -> tuple[Reason, str, int] | None:
    """Why the host of *uri* (an RFC 3986 URI whose scheme's colon is at *colon*) is no
    DNS name, with its position; None where it may be one or the URI has no reg-name."""
    start = colon + 3
    if not uri.startswith("//", colon + 1) or start == len(uri):
        return None
    m = _AUTHORITY_END.search(uri, start)
    end = m.start() if m else len(uri)
    at = uri.rfind("@", start, end)
    if at >= 0:
        start = at + 1
    if uri.startswith("[", start):
        return None  # an IP literal
    colon_at = uri.find(":", start, end)
    host = uri[start : end if colon_at < 0 else colon_at]
    for bad in _SUSPECT.finditer(host):
        k = bad.start()
        if bad.group()[-4:].lower() == "xn--":
            k = bad.end() - 4
            if _a_label(host, k):
                continue
        return Reason.BAD_HOST, _DETAIL, start + k
    return None


def _a_label(host: str, k: int) -> bool:
    """Whether the label at ``host[k:]`` (it starts with "xn--") is an A-label: ASCII,
    decoded by Punycode (RFC 3492) to a label with a character outside ASCII."""
    end = k + 4
    while end < len(host) and host[end] not in _DOT:
        end += 1
    body = host[k + 4 : end]
    if not body or not body.isascii() or body.endswith("-"):
        return False
    try:
        label = body.encode("ascii").decode("punycode")
    except UnicodeError:
        return False
    return bool(label) and not label.isascii()
