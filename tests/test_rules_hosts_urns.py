"""Hosts no DNS name can be, in bare text, and rejected URNs that leave nothing behind.

RFC 3986 3.2.2: a reg-name meant for the DNS follows RFC 1034 3.5 and RFC 1123 2.1
(labels of letters, digits and hyphens, no hyphen at a label's edge, no empty label);
UTS #46 section 4 (which WHATWG URL's host parser applies) refuses an "xn--" label that
is no Punycode. RFC 8141 section 2 and seed 003 2.5.3: a URN in text runs to the end
of its NSS; one the check rejects is rejected whole (issue 30 item 9). Each case is
checked under every chunking (``helpers.hits``) and under every speed mechanism (the
oracle of tests/test_equivalence.py).
"""

from __future__ import annotations

import pytest

from helpers import hits
from test_equivalence import assert_as_plain
from urimine import Scanner, finditer

Expected = tuple[str, str, str | None]

HOSTS: list[tuple[str, list[Expected]]] = [
    # RFC 1123 2.1 / RFC 952: a label neither starts nor ends with a hyphen
    ("test http://-example.com", []),
    ("test http://-leadingdash.twitter.com x", []),
    ("test http://leadingdash.-twitter.com/p x", []),
    ("test http://trailingdash-.twitter.com x", []),
    ("test http://twitter-.com/index.html x", []),
    ("mirror ftp://-a.example/pub/ here", []),
    # RFC 1034 3.5: no empty label but the root's, last
    ("test http://.example.com", []),
    ("see http://a..b.example/x now", []),
    ("see http://example.com./x now", [("http://example.com./x", "bare", None)]),
    # UTS #46 4 step 4: an "xn--" label is ASCII Punycode of a non-ASCII label
    ("Hello http://xn--はじめよう.com/index.html", []),
    ("see http://xn--/x and http://xn--abc-.example/y", []),
    (
        "see http://xn--mller-kva.de/ and HTTP://XN--MLLER-KVA.DE/x",
        [("http://xn--mller-kva.de/", "bare", None), ("HTTP://XN--MLLER-KVA.DE/x", "bare", None)],
    ),
    # what stays: inner hyphens, "--" inside a label, "_" (SRV names, real sub-domains),
    # a hyphen in the userinfo or the path, IP literals, a single label
    (
        "a http://foo-bar.example/x b http://a--b.example/ c",
        [("http://foo-bar.example/x", "bare", None), ("http://a--b.example/", "bare", None)],
    ),
    (
        "a http://_sip._tcp.example.com/ b http://my_blog.example.com/-x- c",
        [
            ("http://_sip._tcp.example.com/", "bare", None),
            ("http://my_blog.example.com/-x-", "bare", None),
        ],
    ),
    (
        "a http://user-@host.example/ b http://[::1]:80/ c http://localhost:8080/",
        [
            ("http://user-@host.example/", "bare", None),
            ("http://[::1]:80/", "bare", None),
            ("http://localhost:8080/", "bare", None),
        ],
    ),
    # an unregistered scheme with "//" and the abbreviated rule's hosts alike
    ("x s3://-bucket/key y www.-foo.com z", []),
    # a URI cut short where the text lost its end (a real newsletter)
    ("The homepage for GILT is http://dogma.freebsd-\n\n\n***\n", []),
    # angle brackets vouch for what the writer meant: the RFC 3986 grammar decides
    ("<http://-example.com>", [("http://-example.com", "angle", None)]),
    # a hyphen at a label's edge before a line break was the break's alone
    (
        "at http://foo.-\nbar.example/x. Then",
        [("http://foo.bar.example/x", "bare", None)],
    ),
    (
        "at http://foo-\n.bar.example/x then",
        [("http://foo.bar.example/x", "bare", None)],
    ),
    (
        "at http://foo-\nbar.example/x then",
        [("http://foo-bar.example/x", "bare", "http://foobar.example/x")],
    ),
]

URNS: list[tuple[str, list[Expected]]] = [
    # a rejected URN leaves nothing behind: no scheme is read inside its NSS
    ("x urn:ab:%00:tel:+1 y", []),
    ("bad urn:xmpp:a%00b here", []),
    ("x urn:ab:%00/http://example.com/x y", []),
    ("x urn:a:b%00:c:d:tel:+12 y", []),
    # its NID refused (2.1: "urn" is reserved, two to 32, no hyphen at its edges)
    ("x urn:urn:tel:+1 y", []),
    ("x urn:-ab:tel:+1 y", []),
    ("x urn:a:tel:+1 y", []),
    ('x "urn:-a:tel:+1" tel:+2', [("tel:+2", "bare", None)]),
    # what follows its end is read as ever
    ("x urn:ab:%00 tel:+1", [("tel:+1", "bare", None)]),
    ("urn: http://x.example/", [("http://x.example/", "bare", None)]),
    (
        "see urn:isbn:0451450523, tel:+1",
        [("urn:isbn:0451450523", "bare", None), ("tel:+1", "bare", None)],
    ),
]


def _expected(text: str) -> list[Expected]:
    return [(h.uri, h.context, h.alternative) for h in hits(text)]


@pytest.mark.parametrize(("text", "expected"), HOSTS, ids=[c[0][:40] for c in HOSTS])
def test_bare_hosts_are_dns_names(text: str, expected: list[Expected]) -> None:
    assert _expected(text) == expected
    for rejections in (False, True):
        assert_as_plain(text, {}, rejections)


@pytest.mark.parametrize(("text", "expected"), URNS, ids=[c[0][:40] for c in URNS])
def test_a_rejected_urn_leaves_nothing_behind(text: str, expected: list[Expected]) -> None:
    assert _expected(text) == expected
    for rejections in (False, True):
        assert_as_plain(text, {}, rejections)


def test_the_host_rejection_says_why() -> None:
    scanner = Scanner(rejections=True)
    found = [*scanner.feed("test http://-example.com/x y"), *scanner.close()]
    assert [(r.raw, r.reason) for r in found] == [("http://-example.com/x", "bad-host")]


def test_a_rejected_urn_is_one_rejection() -> None:
    scanner = Scanner(rejections=True)
    found = [*scanner.feed("x urn:ab:%00:tel:+1 y"), *scanner.close()]
    assert [(r.raw, r.reason) for r in found] == [("urn:ab:%00:tel:+1", "bad-nss")]


def test_strict_has_no_bare_text() -> None:
    """--rules strict reads only delimited URIs, where the grammar alone decides."""
    assert [h.uri for h in finditer("<http://-example.com>", rules="strict")] == [
        "http://-example.com"
    ]
    assert [h.uri for h in finditer("x http://-example.com y", rules="strict")] == []
