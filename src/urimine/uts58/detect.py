"""Link detection as UTS #58 specifies it ("Link Detection"): URLs with the schemes
``http:`` and ``https:``, URLs whose scheme is implied (a domain name whose last label
is a real top-level domain), and e-mail addresses with or without ``mailto:``.

The scan is driven by label dots. For each dot followed by a top-level domain that ends
the host (the next character is no host character, or a dot that none follows), the
host is read back to its start and checked label by label; a port of up to five digits
may follow. An ``@`` before the host makes it an e-mail address, whose local part is
read back over Link_Email characters and must be a Dot-string, else neither address
nor domain is linked; an ``http://`` or ``https://`` before the host belongs to the
link. The path, query and fragment after the host end where the termination algorithm
says (`scan_path_query_fragment`). A dot after the host is kept only when a path,
query or fragment follows it.

What is decided at one dot (:func:`link_at`) reads a bounded stretch before it: a
domain name is at most 253 characters (RFC 1035 §2.3.4, RFC 1123 §2.1) and a local
part at most 64 octets (RFC 5321 §4.5.3.1.1), which UTS #58 leaves open; so the
streaming ``uts58`` rule (:mod:`urimine.rules.uts58`) decides each dot as
:func:`detect` does. Every character is read a bounded number of times: the scan is
linear in the text's length.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

import regex

from urimine.uts58.hosts import MORE_TEXT, domain_start, tld_end, valid_domain
from urimine.uts58.localpart import local_part_start, mailto_uri, with_mailto
from urimine.uts58.props import LABEL_DOTS
from urimine.uts58.terminate import path_end

_DOT = regex.compile("[" + "".join(sorted(LABEL_DOTS)) + "]")
_SCHEMES = ("https://", "http://")
MAX_PORT_DIGITS = 5
MAX_DOMAIN = 253
"""The longest domain name, in characters as written (RFC 1035 §2.3.4)."""
MAX_LOCAL_OCTETS = 64
LOOKBEHIND = MAX_DOMAIN + 1 + MAX_LOCAL_OCTETS + len("mailto:")
"""The most :func:`link_at` reads before its dot."""


class LinkKind(enum.Enum):
    """What kind of link UTS #58 detection found."""

    SCHEME_URL = "scheme"
    """A URL written with its ``http://`` or ``https://``."""
    DOMAIN_URL = "domain"
    """A URL written without its scheme (``example.com/path``)."""
    EMAIL = "email"
    """An e-mail address, with or without ``mailto:`` written before it."""


@dataclass(frozen=True, slots=True)
class Link:
    """A link found in a text: ``text[start:end]`` as written, its kind, and the URL it
    stands for (``http://`` put before a domain URL, ``mailto:`` before an address)."""

    start: int
    end: int
    kind: LinkKind
    uri: str


@dataclass(frozen=True, slots=True)
class Skip:
    """Nothing is linked from *start* to *end*, and detection goes on after *end*: an
    address whose local part is no Dot-string (neither address nor domain), or, with a
    length bound, a link longer than it (*too_long*)."""

    start: int
    end: int
    too_long: bool = False


class _More:
    def __repr__(self) -> str:
        return "MORE"


MORE = _More()
"""What :func:`link_at` answers where the text ends too soon to decide."""

Found = Link | Skip | _More | None


@dataclass(slots=True)
class _Host:
    """A top-level domain found after a dot: where its label ends (*tld_end*) and where
    the host with its trailing dot and port ends (*end*)."""

    dot: int
    tld_end: int
    end: int


def _port_end(text: str, end: int, final: bool) -> int | _More | None:
    """After a host ending at *end*: the end of its port (``:`` and 1-5 digits up to
    65535, or *end* itself without digits), None where the digits make no port."""
    n = len(text)
    if end == n:
        return end if final else MORE
    if text[end] != ":":
        return end
    digits, top = end + 1, min(n, end + 2 + MAX_PORT_DIGITS)
    while digits < top and "0" <= text[digits] <= "9":
        digits += 1
    count = digits - end - 1
    if count > MAX_PORT_DIGITS or (count and int(text[end + 1 : digits]) > 0xFFFF):
        return None  # no port: this is not the end of a host
    if digits == n and not final:
        return MORE
    return digits if count else end


def _host_after(text: str, dot: int, final: bool) -> _Host | _More | None:
    """The host whose last label follows the dot at *dot*, when that label is a
    top-level domain that ends the host, with the trailing dot and port after it."""
    tld = tld_end(text, dot, final)
    if tld is None or tld == MORE_TEXT:
        return None if tld is None else MORE
    end = tld + 1 if tld < len(text) and text[tld] in LABEL_DOTS else tld
    port = _port_end(text, end, final)
    if port is None or port is MORE:
        return port
    assert isinstance(port, int)
    return _Host(dot, tld, port)


def _email(text: str, host: _Host, start: int, floor: int) -> Link | Skip:
    """The e-mail address whose domain starts at *start* (just after an ``@``)."""
    local = local_part_start(text, start - 1, floor, max_octets=MAX_LOCAL_OCTETS)
    if local is None:
        return Skip(start, host.end)
    uri = mailto_uri(text[local : start - 1], text[start : host.tld_end])
    return Link(with_mailto(text, local, floor), host.tld_end, LinkKind.EMAIL, uri)


def _url(text: str, host: _Host, start: int, floor: int, final: bool, limit: int) -> Found:
    """The URL whose host starts at *start*, with its scheme and path, query, fragment
    (no longer than *limit*)."""
    kind = LinkKind.DOMAIN_URL
    for scheme in _SCHEMES:
        if start - len(scheme) >= floor and text[start - len(scheme) : start].lower() == scheme:
            start -= len(scheme)
            kind = LinkKind.SCHEME_URL
            break
    bound = start + limit
    if host.end > bound:
        return Skip(start, bound, too_long=True)
    stop = min(len(text), bound)
    end, open_end = path_end(text, host.end, stop)
    if open_end and stop == bound:
        return Skip(start, stop, too_long=True)
    if open_end and not final:
        return MORE
    if end == host.end and text[end - 1] in LABEL_DOTS:
        end -= 1  # a full stop after the host, not followed by a path, query or fragment
    uri = text[start:end] if kind is LinkKind.SCHEME_URL else "http://" + text[start:end]
    return Link(start, end, kind, uri)


def link_at(text: str, dot: int, floor: int, *, final: bool = True, limit: int = 1 << 62) -> Found:
    """What detection decides at the label dot *dot* of *text*, nothing before *floor*
    (the end of the last link) read: a link, a :class:`Skip`, None (nothing here) or,
    where *final* is false and the text ends too soon, :data:`MORE`. A link longer than
    *limit* is a :class:`Skip` to where it was cut (``too_long``)."""
    host = _host_after(text, dot, final)
    if not isinstance(host, _Host):
        return host
    start = domain_start(text, dot, floor, MAX_DOMAIN - (host.tld_end - dot))
    if start is None or start == dot or not valid_domain(text[start : host.tld_end]):
        return None
    if start > floor and text[start - 1] == "@":
        return _email(text, host, start, floor)
    return _url(text, host, start, floor, final, limit)


def iter_links(text: str) -> Iterator[Link]:
    """Each link UTS #58 detection finds in *text*, in order, none overlapping."""
    floor = pos = 0
    while (m := _DOT.search(text, pos)) is not None:
        dot = m.start()
        found = link_at(text, dot, floor)
        if isinstance(found, Link | Skip):
            floor = pos = found.end
            if isinstance(found, Link):
                yield found
        else:
            pos = dot + 1


def detect(text: str) -> list[Link]:
    """The links in *text*, as UTS #58 link detection finds them.

    >>> [(text[l.start:l.end], l.kind.value, l.uri) for text in
    ...  ["See example.com/α(β). Mail x.y@example.org."] for l in detect(text)]
    [('example.com/α(β)', 'domain', 'http://example.com/α(β)'), \
('x.y@example.org', 'email', 'mailto:x.y@example.org')]
    """
    return list(iter_links(text))
