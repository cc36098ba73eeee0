"""Issue 30 items 1-10: URIs as people write them, never cut short, never invented.

Each case is (text, expected hits as (uri, context, alternative, strict)), checked under
every chunking by ``helpers.hits`` and under every speed mechanism by
the oracle of tests/test_equivalence.py (every speed mechanism as the plain path).
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from helpers import hits
from strategies import SMALL_KNOBS
from test_equivalence import assert_as_plain
from urimine import dedup_key, finditer
from urimine.rules.patterns import LINK_SOFT, RUN_STOP_CHAR, STOP_CHAR
from urimine.uts58.props import link_term

Expected = tuple[str, str, str | None, bool]

# Item 1: "[ ] { } | ^" in a path, query or fragment, a second "#", non-ASCII punctuation
# before more of the link: the URI runs to its real end, as written, not strict.
WEB_CHARS: list[tuple[str, list[Expected]]] = [
    (
        "see https://x.example/p?a[]=1&a[]=2 for it",
        [("https://x.example/p?a[]=1&a[]=2", "bare", None, False)],
    ),
    (
        "fonts: https://fonts.googleapis.com/css?family=Roboto|Open+Sans.",
        [("https://fonts.googleapis.com/css?family=Roboto|Open+Sans", "bare", None, False)],
    ),
    (
        "GET https://api.example/v1/{tenant}/items now",
        [("https://api.example/v1/{tenant}/items", "bare", None, False)],
    ),
    (
        "join https://chat.example/#/room/#general:matrix.org today",
        [("https://chat.example/#/room/#general:matrix.org", "bare", None, False)],
    ),
    (
        "read https://en.wikipedia.org/wiki/Hatfield–McCoy_feud please",
        [("https://en.wikipedia.org/wiki/Hatfield–McCoy_feud", "bare", None, True)],
    ),
    (
        "file https://example.jp/tmp/自殺でも？.png here",
        [("https://example.jp/tmp/自殺でも？.png", "bare", None, True)],
    ),
    # a Soft character (UTS #58 Link_Term) at the end is trailing punctuation
    ("end https://example.jp/ファイル？ x", [("https://example.jp/ファイル", "bare", None, True)]),
    # brackets around a URI stay wrappers: balance decides
    (
        "[http://a.example/x] {http://b.example/y} |http://c.example/z| [t](http://d.example/q)",
        [
            ("http://a.example/x", "bare", None, True),
            ("http://b.example/y", "bare", None, True),
            ("http://c.example/z", "bare", None, True),
            ("http://d.example/q", "bare", None, True),
        ],
    ),
    (
        "(see http://a.example/a[x]) and [http://a.example/b[y]] http://x60.deja.com/[ST]/d",
        [
            ("http://a.example/a[x]", "bare", None, False),
            ("http://a.example/b[y]", "bare", None, False),
            ("http://x60.deja.com/[ST]/d", "bare", None, False),
        ],
    ),
    # a footnote mark, a link after its text, a bracket closing one before the URI
    (
        "[IMG: http://a.example/b.jpg]Tim [IMG: http://a.example/c.jpg][2]",
        [
            ("http://a.example/b.jpg", "bare", None, True),
            ("http://a.example/c.jpg", "bare", None, True),
        ],
    ),
    (
        "see http://a.example/page.html[1] and http://a.example/t.html[https://a.example/t.html]",
        [
            ("http://a.example/page.html", "bare", None, True),
            ("http://a.example/t.html", "bare", None, True),
            ("https://a.example/t.html", "bare", None, True),
        ],
    ),
    # a backquote still delimits, and so do the angle brackets and the double quote
    ("`http://a.example/x` ok", [("http://a.example/x", "bare", None, True)]),
    ('"http://a.example/{x}"', [("http://a.example/{x}", "quote", None, False)]),
    ("<http://a.example/p?a[]=1>", [("http://a.example/p?a[]=1", "angle", None, False)]),
    # the CJK comma and full stop end a clause with no space after it
    (
        "https://ja.wikipedia.org/wiki/フィンセント。次",
        [("https://ja.wikipedia.org/wiki/フィンセント", "bare", None, True)],
    ),
]


# Items 2-4: unregistered schemes with "//" and an authority, colons inside a URI, and
# a scheme glued to the word before it.
SLASHED: list[tuple[str, list[Expected]]] = [
    (
        "clone git+https://github.com/a/b.git or svn+ssh://svn.example/r/trunk",
        [
            ("git+https://github.com/a/b.git", "bare", None, True),
            ("svn+ssh://svn.example/r/trunk", "bare", None, True),
        ],
    ),
    (
        "s3://bucket/key, zoommtg://zoom.us/join?confno=1 and com.example.app://cb",
        [
            ("s3://bucket/key", "bare", None, True),
            ("zoommtg://zoom.us/join?confno=1", "bare", None, True),
            ("com.example.app://cb", "bare", None, True),
        ],
    ),
    # item 3: no "info:5432/app" or "example:3306/app" invented
    (
        "DB=postgres://app@db.site.info:5432/app; url jdbc:mysql://db.example:3306/app.",
        [
            ("postgres://app@db.site.info:5432/app", "bare", None, True),
            ("jdbc:mysql://db.example:3306/app", "bare", None, True),
        ],
    ),
    ("ssh app@db.site.info:22 now", []),
    ("'redis://cache.example:6379/0'", [("redis://cache.example:6379/0", "quote", None, True)]),
    # without "//" and an authority the registry rule stays
    ("foo:// bar:///x baz:qux custom:thing WARNING://This C://Windows", []),
    ('<img src=3D"ht=\ntp://www.comics.com/a.gif">', []),
    # prose before a scheme: a label of one letter, a capitalised label
    (
        "e.g.foo://x.example/a Note:foo://y.example/b",
        [("foo://x.example/a", "bare", None, True), ("foo://y.example/b", "bare", None, True)],
    ),
    # item 4: the registered web scheme that ends a glued word
    (
        "archive: ettus.comhttp://lists.ettus.com/pipermail/usrp-users_lists.ettus.com/",
        [("http://lists.ettus.com/pipermail/usrp-users_lists.ettus.com/", "bare", None, True)],
    ),
    ("randomtexthttps://foo.bar/etc", [("https://foo.bar/etc", "bare", None, True)]),
    # a registered name ending in "http" stays whole; "x-http:" is a scheme of its own
    (
        "shttp://a.example/ x-http://b.example/",
        [("shttp://a.example/", "bare", None, True), ("x-http://b.example/", "bare", None, True)],
    ),
]

# Item 8: labels that look like schemes; real tel:, mailto:, news:, sip:, urn:, magnet:
# hits stay.
LABELS: list[tuple[str, list[Expected]]] = [
    ("Tel: 0760-2317010 Fax:0760-2317010 TEL:+225 20 21 22 23", []),
    ("Reply at:someone@example.com or SMTP:mzhao@x.example today", []),
    ("Content-Type:application/sdp\ncontent-type:text/plain; charset=us-ascii", []),
    ("Key fingerprint bb:ed:b6:75:c9:97:69:7f:0c, short bb:3f", []),
    ("m=audio 49170 RTP/AVP 0\na=resource:speechsynth\n", []),
    (
        "call tel:+1-201-555-0123 or tel:7042;phone-context=example.com, TEL:+33123456789.",
        [
            ("tel:+1-201-555-0123", "bare", None, True),
            ("tel:7042;phone-context=example.com", "bare", None, True),
        ],
    ),
    (
        '<a href="tel:0760-2317010">',
        [("tel:0760-2317010", "quote", None, True)],
    ),
    (
        "mailto:a@b.example news:comp.lang.c sip:alice@atlanta.example urn:isbn:0451450523",
        [
            ("mailto:a@b.example", "bare", None, True),
            ("news:comp.lang.c", "bare", None, True),
            ("sip:alice@atlanta.example", "bare", None, True),
            ("urn:isbn:0451450523", "bare", None, True),
        ],
    ),
    (
        "magnet:?xt=urn:btih:c12fe1 spotify:track:6rqhFgbb fax:+358.555.1234567",
        [
            ("magnet:?xt=urn:btih:c12fe1", "bare", None, True),
            ("spotify:track:6rqhFgbb", "bare", None, True),
            ("fax:+358.555.1234567", "bare", None, True),
        ],
    ),
    # "URL:" and angle brackets say "a URI"
    (
        "<fax:0760-2317010> URL:SMTP:a@b.example",
        [
            ("fax:0760-2317010", "angle", None, True),
            ("SMTP:a@b.example", "url-prefix", None, True),
        ],
    ),
]

# Item 9: RFC 8141 section 2 ("/" in the NSS); a rejected URN leaves nothing behind.
URNS: list[tuple[str, list[Expected]]] = [
    ("see urn:example:a/b/c now", [("urn:example:a/b/c", "bare", None, True)]),
    ("bad urn:xmpp:a%00b here", []),
    (
        "<session xmlns='urn:ietf:params:xml:ns:xmpp-session'/>",
        [("urn:ietf:params:xml:ns:xmpp-session", "quote", None, True)],
    ),
]

# Item 6: a possessive "'s" is prose, the longer reading the alternative.
POSSESSIVE: list[tuple[str, list[Expected]]] = [
    (
        "I really like http://t.co/pbY2NfTZ's website",
        [("http://t.co/pbY2NfTZ", "bare", "http://t.co/pbY2NfTZ's", True)],
    ),
    (
        "Read http://x.example/bob\u2019s. And http://x.example/a/it's, ok",
        [
            ("http://x.example/bob", "bare", "http://x.example/bob\u2019s", True),
            ("http://x.example/a/it", "bare", "http://x.example/a/it's", True),
        ],
    ),
    (
        "see http://en.wikipedia.org/wiki/Ender's_Game now",
        [("http://en.wikipedia.org/wiki/Ender's_Game", "bare", None, True)],
    ),
]

# Items 7 and 10: escaped delimiters, JSON's escaped slashes, LaTeX.
ESCAPED: list[tuple[str, list[Expected]]] = [
    (
        "see &lt;http://a.example/x?a=1&amp;b=2&gt; and &quot;http://b.example/y&quot; ok",
        [
            ("http://a.example/x?a=1&b=2", "angle", None, True),
            ("http://b.example/y", "quote", None, True),
        ],
    ),
    # registered schemes only (as the colon rule reads them); escaped XML is no URI
    ("&lt;foo:bar/baz&gt; &lt;xs:element&gt;", []),
    ("&lt;mailto:a@b.example&gt;", [("mailto:a@b.example", "angle", None, True)]),
    (
        '{"url":"https:\\/\\/host.example\\/path\\/x.json","b":1}',
        [("https://host.example/path/x.json", "bare", None, True)],
    ),
    (
        "\\url{http://www.google.com/{file.pdf}} and \\href{https://a.example/a\\_b\\#c\\%20}{text}",
        [
            ("http://www.google.com/{file.pdf}", "latex", None, False),
            ("https://a.example/a_b#c%20", "latex", None, True),
        ],
    ),
    ("\\url{not a url} \\href{#local}{x}", []),
    # escaped slashes after a dotted word: its registered tail, never the word itself
    # (the slashed rule takes unregistered names only before "//" written plainly)
    ("e.g.http:\\/\\/a.example\\/x y", [("http://a.example/x", "bare", None, True)]),
    ("a.:\\/\\/_ and git.x:\\/\\/host.example\\/", []),
    # "&quot;" checks as a quote does (an http URI needs its authority in text), "&lt;"
    # and LaTeX as brackets do; JSON's bare URI as bare text (a host DNS can hold)
    ('"http:x" &quot;http:x&quot;', []),
    (
        "&lt;http:x&gt; \\url{http:y}",
        [("http:x", "angle", None, True), ("http:y", "latex", None, True)],
    ),
    ("https:\\/\\/-a-.example\\/ https://-a-.example/", []),
    # U+001C, a separator (white space to Python), ends "&quot;...&quot;" as it ends
    # "...": read bare, however the text is chunked
    (
        'x &quot;s3://a.example/=\x1c&quot; "s3://a.example/=\x1c"',
        [("s3://a.example/=", "bare", None, True), ("s3://a.example/=", "bare", None, True)],
    ),
]

ALL_CASES = WEB_CHARS + SLASHED + LABELS + URNS + POSSESSIVE + ESCAPED


def _expected(found: list[object]) -> list[Expected]:
    return [(h.uri, h.context, h.alternative, h.strict) for h in found]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("text", "expected"), WEB_CHARS, ids=[c[0][:40] for c in WEB_CHARS])
def test_web_chars(text: str, expected: list[Expected]) -> None:
    assert _expected(hits(text)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), SLASHED, ids=[c[0][:40] for c in SLASHED])
def test_slashed_and_glued(text: str, expected: list[Expected]) -> None:
    assert _expected(hits(text)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"), LABELS + URNS, ids=[c[0][:40] for c in LABELS + URNS]
)
def test_labels_and_urns(text: str, expected: list[Expected]) -> None:
    assert _expected(hits(text)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), POSSESSIVE, ids=[c[0][:40] for c in POSSESSIVE])
def test_possessive(text: str, expected: list[Expected]) -> None:
    assert _expected(hits(text)) == expected  # type: ignore[arg-type]
    rules = ["bare", "quote"]
    assert [h.alternative for h in finditer(text, rules=rules)] == [None] * len(expected)


@pytest.mark.parametrize(("text", "expected"), ESCAPED, ids=[c[0][:40] for c in ESCAPED])
def test_escaped_and_latex(text: str, expected: list[Expected]) -> None:
    assert _expected(hits(text)) == expected  # type: ignore[arg-type]


def test_labels_is_a_rule_of_its_own() -> None:
    rules = ["bare", "quote"]
    assert [h.uri for h in finditer("x Fax:0760-2317010 y", rules=rules)] == ["Fax:0760-2317010"]
    assert [h.uri for h in finditer("x Fax:0760-2317010 y", rules=[*rules, "labels"])] == []


def test_slashed_and_glued_are_rules_of_their_own() -> None:
    """Without them (the strict preset has no bare rule at all) the registry decides."""
    rules = ["bare", "quote"]
    assert [h.uri for h in finditer("x s3://bucket/key y", rules=rules)] == []
    assert [h.uri for h in finditer("x s3://bucket/key y", rules=[*rules, "slashed"])] == [
        "s3://bucket/key"
    ]
    text = "x randomtexthttp://foo.bar/etc y"
    assert [h.uri for h in finditer(text, rules=rules)] == []
    assert [h.uri for h in finditer(text, rules=[*rules, "glued"])] == ["http://foo.bar/etc"]


def test_web_chars_key_is_percent_encoded_as_a_browser_does() -> None:
    """The key of a URI that is not strict percent-encodes its path by the URL Standard's
    path percent-encode set ("{ } ^"); "[ ] |" and a second "#" stay, as the query and
    fragment sets leave them."""
    (hit,) = finditer("x https://a.example/p/{a}^b?q[]=1|2#x#y y")
    assert hit.uri == "https://a.example/p/{a}^b?q[]=1|2#x#y"
    assert hit.key == "https://a.example/p/%7Ba%7D%5Eb?q[]=1|2#x#y"
    assert not hit.strict
    (strict,) = finditer("x https://a.example/p/%7Ba%7D y")
    assert strict.strict and strict.key == dedup_key(strict.uri)


@pytest.mark.parametrize(
    "text",
    [
        "<http://a.example/p?a[]=1>",
        "<http://a.example/{tenant}/items>",
        "<URL:http://a.example/p|q>",
        "<http://a.example/#a#b>",
    ],
)
def test_strict_rejects_web_chars_whole(text: str) -> None:
    """--rules strict rejects such a URI; it never truncates it."""
    assert hits(text, rules="strict") == []
    assert [h.uri for h in finditer(text)] != []
    assert [h.uri for h in finditer(text, rules=["angle", "url-prefix"])] == []


def test_web_chars_off_never_truncates_bare_uris() -> None:
    """Without the web-chars rule a bare URI with "{" is rejected, not cut short."""
    rules = ["bare", "quote", "angle"]
    assert [h.uri for h in finditer("x https://a.example/v1/{t}/items y", rules=rules)] == []
    assert [h.uri for h in finditer("x https://a.example/v1/items y", rules=rules)] == [
        "https://a.example/v1/items"
    ]


@pytest.mark.parametrize("rejections", [False, True])
def test_every_speed_mechanism_answers_as_the_plain_path(rejections: bool) -> None:
    text = "\n".join(t for t, _ in ALL_CASES)
    for tuning in ({}, SMALL_KNOBS):
        for max_len in (8192, 40):
            assert_as_plain(text, tuning, rejections, max_len)


def test_run_stop_is_derived_from_stop_and_link_term() -> None:
    """patterns.RUN_STOP is what its comment says: of the characters that end a URI's
    head, those UTS #58 calls neither Include nor Soft, the format and separator
    characters, U+FFFD, and the CJK comma and full stop; LINK_SOFT the Soft ones kept."""
    cjk = set("\u3001\u3002\uff0c\uff61\uff64")
    soft = re.compile(f"[{LINK_SOFT}]")
    for c in range(0x80, 0x110000):
        ch = chr(c)
        if not STOP_CHAR.match(ch):
            assert not RUN_STOP_CHAR.match(ch), hex(c)
            continue
        term = link_term(ch)
        ends = (
            term not in ("Include", "Soft")
            or unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp")
            or ch == "\ufffd"
            or ch in cjk
        )
        assert bool(RUN_STOP_CHAR.match(ch)) == ends, hex(c)
        assert bool(soft.match(ch)) == (not ends and term == "Soft"), hex(c)


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ("latex", [("http://a.example/x", "latex")]),
        ("escaped", [("http://c.example/", "angle")]),
        ("latex,escaped", [("http://a.example/x", "latex"), ("http://c.example/", "angle")]),
    ],
)
def test_escaped_and_latex_named_alone_find_their_uris(
    rules: str, expected: list[tuple[str, str]]
) -> None:
    """A rule named alone in ``rules=`` finds what it delimits (and nothing bare)."""
    text = "see \\url{http://a.example/x} and http://b.example/ &lt;http://c.example/&gt;"
    assert [(h.uri, h.context) for h in finditer(text, rules=rules)] == expected
