"""Delimiting rules one by one (issue 2 rules 1-7; seed 002 Appendix E; seed 003 2.5.3).

Each case is (text, expected URIs in order); every case is also checked under
whole / one-character / random chunkings by ``helpers.uris``.
"""

from __future__ import annotations

import pytest

from helpers import chunkings, cpu_seconds, hits, scan, uris
from urimine import ConfigError, Hit, Reason, Rejection, Scanner

CASES = [
    # 1. angle brackets: whitespace inside removed, closing ">" on the next line,
    #    a break inside a percent escape, any scheme, non-URIs yield nothing.
    ("<ftp://ds.internic.\n      net/rfc/>", ["ftp://ds.internic.net/rfc/"]),
    (
        "URL=<ftp://a.example/pub/gopher_protocol\n            >. See",
        ["ftp://a.example/pub/gopher_protocol"],
    ),
    ("<gopher://g.example/00/About%2\n   0Gopher>", ["gopher://g.example/00/About%20Gopher"]),
    ("<ftp:\n //quake.think.com/pub/x>", ["ftp://quake.think.com/pub/x"]),
    ("<foo:bar/baz> <x-y:a,b>", ["foo:bar/baz", "x-y:a,b"]),
    # XML elements of an unregistered prefix are markup, registered schemes stay URIs
    (
        "<xs:complexType> <rpid:self/> </gml:pos> <sip:bob.example> <mid:1>",
        ["sip:bob.example", "mid:1"],
    ),
    ("<John Smith> <jsmith@example.com> <p> <br/> <first>/<second>", []),
    (
        "<a href=\"http://x.example/a\">x</a> <img src='http://x.example/i.png'>",
        ["http://x.example/a", "http://x.example/i.png"],
    ),
    ("> see <http://example.com/very/long\n> /path/x> ok", ["http://example.com/very/long/path/x"]),
    (">> <http://example.com/a/\n>> b/c>", ["http://example.com/a/b/c"]),
    ("if x<y: f() > 3", []),  # code, not a URI: unknown scheme with spaces inside
    # an unknown scheme is a candidate on one line only: over two, the ">" starting
    # the next line is a quote marker far more often (quoted C++ in mail)
    ("<foo:bar/baz\n> <x-y:a,b\n  >", []),
    ("> std::cout << std::endl;\n> x << y;\n", []),
    ("<foo:bar/baz > <ftp://a.example/x\n> z", ["foo:bar/baz", "ftp://a.example/x"]),
    # 2. the URL: prefix, case-insensitively, with or without a space
    (
        "<URL:http://a.example/b> <URL: http://c.example/d> <url:ftp://e.example/f>",
        ["http://a.example/b", "http://c.example/d", "ftp://e.example/f"],
    ),
    (
        "URL:ftp://x.example/y and URL: http://z.example/",
        ["ftp://x.example/y", "http://z.example/"],
    ),
    # "URL:" then no scheme: "URL" would be the scheme, unregistered, with white space
    # inside the brackets (as "<x:y z>"): no candidate ("URL:/x" once came out)
    ("<URL: /x> <URL: />  <URL:  //a.example/b>", []),
    # 3. quotes: the URI ends at the closing quote
    ('"http://www.w3.org/Addressing/", and', ["http://www.w3.org/Addressing/"]),
    ("'http://q.example/a.b'.", ["http://q.example/a.b"]),
    # 4. bare URIs: trailing punctuation, balanced brackets, leading wrappers
    (
        "See http://a.example/b. Or http://a.example/c, http://a.example/d; "
        "http://a.example/e: http://a.example/f! http://a.example/g?",
        [f"http://a.example/{c}" for c in "bcdefg"],
    ),
    (
        "https://en.wikipedia.org/wiki/Python_(programming_language)",
        ["https://en.wikipedia.org/wiki/Python_(programming_language)"],
    ),
    (
        "(see http://x.example/a) [http://x.example/b] {http://x.example/c} *http://x.example/d*",
        ["http://x.example/a", "http://x.example/b", "http://x.example/c", "http://x.example/d"],
    ),
    ("(http://x.example/a)b", ["http://x.example/a"]),
    ("HTTP://EXAMPLE.COM/Path", ["HTTP://EXAMPLE.COM/Path"]),
    ("Note: Re: 10:30 Subject:Hello a:a:a: http:foo http:// file: x.http: at:/pub/x", []),
    ("file:/etc/hosts file:///etc/passwd", ["file:/etc/hosts", "file:///etc/passwd"]),
    (
        "mailto:John.Doe@example.com. news:comp.infosystems.www.servers.unix, tel:+1-816-555-1212;",
        [
            "mailto:John.Doe@example.com",
            "news:comp.infosystems.www.servers.unix",
            "tel:+1-816-555-1212",
        ],
    ),
    ("ldap://[2001:db8::7]/c=GB?objectClass?one", ["ldap://[2001:db8::7]/c=GB?objectClass?one"]),
    # a glued "http://" is its registered scheme (issue 30 item 4)
    (
        "randomtexthttp://x.example/ e.g.http://y.example/",
        ["http://x.example/", "http://y.example/"],
    ),
    ("http://x.example/a b", ["http://x.example/a"]),
    ("http://x.example/%zz", ["http://x.example/"]),  # the URI ends before a bad escape
    # 5. hyphen at a line break
    (
        "http://www.example.com/some-\n    thing/else here",
        ["http://www.example.com/some-thing/else"],
    ),
    # 6. URNs: the NSS ends at an excluded character (003 2.5.3), "/" is in it (RFC 8141
    #    section 2; issue 30 item 9); query and fragment
    (
        'urn:isbn:0451450523. urn:ietf:rfc:2141/x urn:example:a"b urn:example:q?s=I2U#f',
        ["urn:isbn:0451450523", "urn:ietf:rfc:2141/x", "urn:example:a", "urn:example:q?s=I2U#f"],
    ),
    (
        "<urn:ietf:rfc:3986> <URN:ISBN:0-395-36341-1>",
        ["urn:ietf:rfc:3986", "URN:ISBN:0-395-36341-1"],
    ),
    ("urn:x:y urn:urn:z urn:-ab:c", []),  # NID of one letter, NID "urn", NID starting "-"
    # 7. IRIs: non-ASCII letters kept, CJK and full-width punctuation end the URI
    (
        "https://ja.wikipedia.org/wiki/フィンセント。次",
        ["https://ja.wikipedia.org/wiki/フィンセント"],
    ),
    ("（https://example.jp/パス）、ok", ["https://example.jp/パス"]),
    ("«http://x.example/guillemets»", ["http://x.example/guillemets"]),
    ("uhd::rfnoc::radio_control <std::recursive_mutex> info::OUTPUT_EDGE", []),  # C++
    ("git://git.code.sf.net/p/net-tools/code⟩ and", ["git://git.code.sf.net/p/net-tools/code"]),
    # mail headers: an unclosed "<" does not swallow the next field (open-iscsi)
    (
        "List-Archive: <https://groups.google.com/group/open-iscsi\nList-Subscribe: <https://groups.google.com/x>,\n",
        ["https://groups.google.com/group/open-iscsi", "https://groups.google.com/x"],
    ),
    # robustness: NUL bytes and U+FFFD (from undecodable input) end a URI
    (
        "http://x.example/a\x00b http://x.example/c\ufffdd",
        ["http://x.example/a", "http://x.example/c"],
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_rule_cases(text: str, expected: list[str]) -> None:
    assert uris(text) == expected


def test_contexts_and_raw_spans() -> None:
    text = 'a <URL: http://a.example/> "http://b.example/" URL:http://c.example/ http://d.example/.'
    found = hits(text)
    assert [(h.context, h.raw) for h in found] == [
        ("url-prefix", "<URL: http://a.example/>"),
        ("quote", '"http://b.example/"'),
        ("url-prefix", "URL:http://c.example/"),
        ("bare", "http://d.example/"),
    ]


def test_hyphen_break_records_the_alternative() -> None:
    # Appendix E: "the hyphen may or may not actually be part of the URI".
    (h,) = hits("see <http://www.example.com/long-\n   name/x> and")
    assert h.uri == "http://www.example.com/long-name/x"
    assert h.alternative == "http://www.example.com/longname/x"
    (b,) = hits("at http://www.example.com/long-\n   name/x and")
    assert (b.uri, b.alternative) == (
        "http://www.example.com/long-name/x",
        "http://www.example.com/longname/x",
    )
    assert b.raw == "http://www.example.com/long-\n   name/x"
    (plain,) = hits("http://www.example.com/long-name")
    assert plain.alternative is None


@pytest.mark.parametrize(
    ("text", "uri", "alternative"),
    [
        ("see http://a.example/long-\r\npath-\nname.html now", "http://a.example/long-path-name.html",
         "http://a.example/longpathname.html"),
        ("x tel:+1-\r\n555-\r\n0100 y", "tel:+1-555-0100", "tel:+15550100"),
        ("see urn:isbn:0-\r\n306-\r\n40615-2 ok", "urn:isbn:0-306-40615-2", "urn:isbn:030640615-2"),
        ("> see http://a.example/a-\r\n> b-\r\n> c now", "http://a.example/a-b-c", "http://a.example/abc"),
    ],
)  # fmt: skip
def test_hyphen_breaks_at_crlf_line_ends_are_joined_as_at_lf(
    text: str, uri: str, alternative: str
) -> None:
    """Appendix E's hyphen at a line break, in text with CR LF line ends (mail, Windows
    files) and in mail quotes: both readings, the line breaks left out of each."""
    (h,) = hits(text)
    assert (h.uri, h.alternative) == (uri, alternative)


def test_hit_fields() -> None:
    text = "line one\n  x <URN:ASCII:IANA:merit.edu:1929642> urn:ISBN:0451450523\nHTTP://Ex.COM:80"
    legacy, urn, uri = hits(text)
    assert (legacy.line, legacy.column, legacy.kind) == (2, 5, "urn-legacy")
    assert (urn.kind, urn.scheme, urn.key) == ("urn", "urn", "urn:isbn:0451450523")
    assert (uri.line, uri.column, uri.scheme, uri.key) == (3, 1, "http", "http://ex.com/")


def test_any_scheme_inside_angle_brackets_only_registered_outside() -> None:
    # outside them, with "//" and an authority (issue 30 item 2)
    assert uris("<svn+ssh://h.example/r> svn+ssh://h.example/s") == [
        "svn+ssh://h.example/r",
        "svn+ssh://h.example/s",
    ]
    assert uris("<svn+ssh:r> svn+ssh:s") == ["svn+ssh:r"]
    assert uris("svn+ssh://h.example/s", extra_schemes=["svn+ssh"]) == ["svn+ssh://h.example/s"]
    assert uris("custom:thing", rules="lenient") == ["custom:thing"]


def test_presets_and_rule_names() -> None:
    text = '<http://a.example/> "http://b.example/" http://c.example/'
    assert uris(text, rules="strict") == ["http://a.example/"]
    assert uris(text, rules=["bare"]) == [
        "http://a.example/",
        "http://b.example/",
        "http://c.example/",
    ]
    with pytest.raises(ConfigError):
        Scanner(rules=["angle", "no-such-rule"])
    with pytest.raises(ConfigError):
        Scanner(rules="no-such-preset")


def test_rejections_are_values() -> None:
    out = scan(["<http://[::1/> see http:// and http://x.example/ ok"], rejections=True)
    reasons = [o.reason for o in out if isinstance(o, Rejection)]
    assert Reason.BAD_IPV6 in reasons or Reason.BAD_HOST in reasons
    assert [o.uri for o in out if isinstance(o, Hit)] == ["http://x.example/"]


def test_too_long_candidate_is_rejected_and_scanning_resumes() -> None:
    long = "http://x.example/" + "a" * 100
    out = scan([f"{long} http://y.example/"], max_candidate_len=64, rejections=True)
    assert [type(o).__name__ for o in out] == ["Rejection", "Hit"]
    assert out[0].reason is Reason.TOO_LONG
    assert out[1].uri == "http://y.example/"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "urn"),
    [
        ("see urn:ab:cdefghij%41 ok", "urn:ab:cdefghij%41"),  # the bound (16) cuts "%41"
        ("see urn:ab:cdefghi%41 ok", "urn:ab:cdefghi%41"),
        ("urn:a-b-a-b-a-b-a-b-a-b:x ok", "urn:a-b-a-b-a-b-a-b-a-b:x"),  # the head alone
    ],
)
def test_urn_longer_than_the_bound_is_too_long_wherever_the_bound_falls(
    text: str, urn: str
) -> None:
    """A URN runs to the first character of the excluded set (003 2.5.3); a
    "%41" is one pct-encoded character of its NSS (2.2), so a bound that falls inside
    it does not end the URN there: one longer than the bound is rejected whole, never
    reported cut short ("urn:ab:cdefghij")."""
    out = scan([text], max_candidate_len=16, rejections=True)
    assert [(type(o).__name__, o.raw) for o in out] == [("Rejection", urn)]
    assert out[0].reason is Reason.TOO_LONG
    assert uris(text, max_candidate_len=16) == []


@pytest.mark.parametrize("cut", [15, 16, 17])
def test_urn_escape_cut_by_the_first_chunk(cut: int) -> None:
    """The first chunk is scanned at once; one ending inside "%7e" must wait for the
    rest (003 2.2: pct-encoded is part of the NSS)."""
    text = "urn:isbn:1user@%7e\n"
    found = scan([text[:cut], text[cut:]])
    assert [h.uri for h in found if isinstance(h, Hit)] == ["urn:isbn:1user@%7e"]


@pytest.mark.parametrize(
    ("text", "urn", "alternative"),
    [
        # rfc3188.txt, line 200
        (
            "is fea and year is not used.  An example:  urn:nbn:fi-fea-\n"
            "   5c5875e6e49ae649cad63e5ee4f6c346.\n",
            "urn:nbn:fi-fea-5c5875e6e49ae649cad63e5ee4f6c346",
            "urn:nbn:fi-fea5c5875e6e49ae649cad63e5ee4f6c346",
        ),
        # rfc5141.txt, line 805
        (
            "      urn:iso:std:iso:9999:-1:ed-2:en:amd:1:term:3.2,3.3,3.4.1-\n"
            "      3.4.4,3.12\n      refers to the terms 3.2",
            "urn:iso:std:iso:9999:-1:ed-2:en:amd:1:term:3.2,3.3,3.4.1-3.4.4,3.12",
            "urn:iso:std:iso:9999:-1:ed-2:en:amd:1:term:3.2,3.3,3.4.13.4.4,3.12",
        ),
        # in a mail quote, over three lines
        (
            "> see URN:ISBN:0-\n> 395-\n>   36341-1.",
            "URN:ISBN:0-395-36341-1",
            "URN:ISBN:039536341-1",
        ),
        # each piece goes on with its component: "/" is the NSS's (RFC 8141 section 2;
        # issue 30 item 9), "[" ends it (003 2.5.3), a query's pieces take "/" and "?"
        ("urn:ab:c-\n d/e", "urn:ab:c-d/e", "urn:ab:cd/e"),
        ("urn:ab:c-\n d[e", "urn:ab:c-d", "urn:ab:cd"),
        ("urn:ab:c?x-\n y#z-\n w/v end", "urn:ab:c?x-y#z-w/v", "urn:ab:c?xy#zw/v"),
        # no piece after a blank line, a line of other quote depth, or a space first
        ("urn:ab:c-\n\nd", "urn:ab:c-", None),
        ("> urn:ab:c-\n> > d", "urn:ab:c-", None),
        ("urn:ab:c- d", "urn:ab:c-", None),
        # a first piece that is no URN (the NID "urn" is reserved, 003 2.1) is not joined
        ("urn:urn:x-\n urn:ab:c ok", "urn:ab:c", None),
    ],
)
def test_urn_broken_after_a_hyphen_at_a_line_end_is_joined(
    text: str, urn: str, alternative: str | None
) -> None:
    """Appendix E's hyphen rule holds for a URN in text as for any URI (a URN is a URI,
    seed 003 2): the white space around the line break is ignored, and the hyphen may or
    may not be the URN's, whichever way the text is fed."""
    for chunks in chunkings(text):
        found = [h for h in scan(chunks) if isinstance(h, Hit)]
        assert [(h.uri, h.kind, h.alternative) for h in found] == [(urn, "urn", alternative)]
        assert found[0].raw.replace("\n", "").replace(">", "").replace(" ", "") == urn


@pytest.mark.parametrize(
    ("text", "urn"),
    [
        ("x <URN:ASCII:IANA:merit.edu:19\n   29642> y", "<URN:ASCII:IANA:merit.edu:1929642>"),
        ("x <URN:ASCII:IANA:merit.edu:a\\:\n   b> y", "<URN:ASCII:IANA:merit.edu:a\\:b>"),
        ("> x <URN:ASCII:IANA:merit.edu:19\n>   29642> y", "<URN:ASCII:IANA:merit.edu:1929642>"),
        ("x <URN::ISBN_Publisher_ID:\n 0_201_12:xyzx\\:mnopq> y", None),
    ],
)
def test_1993_urn_wrapped_in_its_brackets_is_one(text: str, urn: str | None) -> None:
    """Seed 000's ``<URN:...>`` form over two lines (white space inside its brackets is
    ignored, Appendix E): one 1993 URN, as on one line, not a modern URN in brackets
    nor a piece of one cut at the escape (seed 000 3.3: "\\:"). The same after text
    dense with colons, where a scanner of hits only looks for it with its prefilters."""
    urn = urn or text[text.index("<") : text.rindex(">") + 1].replace("\n ", "")
    raw = text[text.index("<") : text.rindex(">") + 1]
    for chunks in chunkings(text):
        found = [h for h in scan(chunks) if isinstance(h, Hit)]
        assert [(h.uri, h.kind, h.raw) for h in found] == [(urn, "urn-legacy", raw)]
    dense = "ab:" * 400 + "\n" + text
    for rejections in (True, False):
        found = [h for h in scan([dense], rejections=rejections) if isinstance(h, Hit)]
        assert [(h.uri, h.kind) for h in found] == [(urn, "urn-legacy")]


def test_feed_after_close_raises() -> None:
    s = Scanner()
    s.close()
    with pytest.raises(RuntimeError):
        s.feed("x")


_QUOTED_CODE = '>     std::cout << "time:" << ((a - b)/count) * 1000 << "(ms)" << std::endl;\n> \n'


def test_quoted_code_with_many_shift_operators() -> None:
    # Regression (usrp-users archive): quoted C++ full of "<<" and "< std::endl" made
    # the multi-line angle pattern backtrack exponentially (the per-test timeout
    # catches a relapse; the perf test below times it).
    text = "> code:\n" + _QUOTED_CODE * 200 + "> see http://x.example/done\n"
    assert uris(text) == ["http://x.example/done"]


@pytest.mark.perf
def test_quoted_code_with_many_shift_operators_is_fast() -> None:
    text = "> code:\n" + _QUOTED_CODE * 200 + "> see http://x.example/done\n"
    prose = "Some prose with no link at all, and a colon: here.\n" * 20_000
    code = cpu_seconds(lambda: list(Scanner().hits([text])))
    assert code < 100 * cpu_seconds(lambda: list(Scanner().hits([prose])))


def test_other_scripts_sentence_punctuation_is_derived_from_unicode() -> None:
    """rules.OTHER_TRAIL is what its docstring says: the non-ASCII characters of category
    Po, not stop characters, named a full stop, comma, semicolon, colon, question or
    exclamation mark (not an inverted or initial one), danda, shad or ano teleia; the
    same set on the Unicode of Python 3.11 (14.0), a subset on a later one."""
    import re
    import unicodedata

    from urimine.rules import OTHER_TRAIL, STOP_CHAR

    named = re.compile(
        r"^(?!INVERTED )(?!.*\bINITIAL\b).*\b(FULL STOP|COMMA|QUESTION MARK|EXCLAMATION MARK"
        r"|SEMICOLON|COLON|DANDA|SHAD|ANO TELEIA)$"
    )
    derived = {
        chr(c)
        for c in range(0x80, 0x110000)
        if unicodedata.category(chr(c)) == "Po"
        and not STOP_CHAR.match(chr(c))
        and named.search(unicodedata.name(chr(c), ""))
    }
    listed = {chr(c) for c in range(0x80, 0x110000) if re.match(f"[{OTHER_TRAIL}]", chr(c))}
    assert {"\u060c", "\u061f", "\u0964", "\u0589", "\u0f0d", "\u1362"} <= listed
    if unicodedata.unidata_version == "14.0.0":
        assert listed == derived
    else:
        assert listed <= derived
