"""The local part of an e-mail address read back from its ``@`` (UTS #58, "Email
Addresses"; RFC 5321 §4.1.2 Dot-string), and the ``mailto:`` URI of an address."""

from __future__ import annotations

from urimine.uts58.props import data

# RFC 6068 §2: what may stand unescaped in a mailto: address (unreserved and
# some-delims); everything else, non-ASCII included, is percent-encoded as UTF-8.
_MAILTO_SAFE = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;:@"
)


def mailto_uri(local: str, domain: str) -> str:
    """The ``mailto:`` URI of an address (RFC 6068 §2): characters a mailto URI may not
    hold as written are percent-encoded as UTF-8.

    >>> mailto_uri("a+b", "example.com"), mailto_uri("j%d", "exämple.com")
    ('mailto:a+b@example.com', 'mailto:j%25d@ex%C3%A4mple.com')
    """
    return "mailto:" + _encode(local) + "@" + _encode(domain)


def _encode(text: str) -> str:
    return "".join(
        ch if ch in _MAILTO_SAFE else "".join(f"%{b:02X}" for b in ch.encode("utf-8", "replace"))
        for ch in text
    )


def local_part_start(text: str, at: int, floor: int, *, max_octets: int | None) -> int | None:
    """Where the local part before the ``@`` at *at* starts (going back no further than
    *floor*), or None when it is no Dot-string: empty, a dot at either end or two in a
    row, longer than *max_octets* (then no more than that many characters are read),
    or the ``//user`` of a URL (``http://user@host``)."""
    email = data().email
    lo = floor if max_octets is None else max(floor, at - max_octets)
    start = at
    while start > lo and email.get(ord(text[start - 1])):
        start -= 1
    if start == lo > floor and email.get(ord(text[start - 1])):
        return None
    local = text[start:at]
    if not local or local[0] == "." or local[-1] == "." or ".." in local:
        return None
    if local.startswith("//") and start > floor and text[start - 1] == ":":
        return None
    if max_octets is not None and len(local.encode("utf-8", "replace")) > max_octets:
        return None
    return start


def with_mailto(text: str, start: int, floor: int) -> int:
    """*start* moved back over a ``mailto:`` written just before it (any case)."""
    if start - 7 >= floor and text[start - 7 : start].lower() == "mailto:":
        return start - 7
    return start
