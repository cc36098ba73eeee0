"""Issue 30 item 5: white space the drafts say to ignore outside brackets (seed 002
Appendix E, "the whitespace should be ignored when extracting the URI"; RFC 3986
Appendix C). Each case is (text, expected hits as (uri, context, alternative)), checked
under every chunking by ``helpers.hits`` and against the oracle of
tests/test_equivalence.py."""

from __future__ import annotations

import pytest

from helpers import hits
from strategies import SMALL_KNOBS
from test_equivalence import assert_as_plain
from urimine import finditer

Expected = tuple[str, str, str | None]

# (a) "scheme://" ending a line, the authority on the next: joined.
SLASHES: list[tuple[str, list[Expected]]] = [
    (
        '[RFC9110]  Fielding, R., "HTTP Semantics", <https://www.rfc-editor.org/info/rfc9110>,\n'
        "   available at http://\n   www.rfc-editor.org/rfc/rfc9110.txt.\n",
        [
            ("https://www.rfc-editor.org/info/rfc9110", "angle", None),
            ("http://www.rfc-editor.org/rfc/rfc9110.txt", "bare", None),
        ],
    ),
    # the next line's quote markers are taken out; trailing punctuation still drops
    (
        "> see https://\n> lists.example.org/a/b.html, then\n",
        [
            ("https://lists.example.org/a/b.html", "bare", None),
        ],
    ),
    ("see ftp:// \r\nftp.example.org/pub/x\r\n", [("ftp://ftp.example.org/pub/x", "bare", None)]),
    # then its last line is a piece the wrap-column join goes on from (RFC references)
    (
        '   [BGP2005]    Huston, G., "2005 -- A BGP Year in Review",  http://\n'
        "                www.apnic.net/meetings/21/docs/sigs/routing/\n"
        "                routing-pres-huston-routing-update.pdf.\n",
        [
            (
                "http://www.apnic.net/meetings/21/docs/sigs/routing/"
                "routing-pres-huston-routing-update.pdf",
                "bare",
                "http://www.apnic.net/meetings/21/docs/sigs/routing/",
            )
        ],
    ),
    # a quote before the scheme: read bare, the quote is the text's
    ('x "http://\nexample.com/p" y', [("http://example.com/p", "bare", None)]),
]
# What the rule leaves alone.
SLASHES_NOT: list[str] = [
    "the prefix http://\n\nexample.com is a paragraph away",  # a blank line ends it
    "the string http://\n/usr/bin is a path",  # no authority on the next line
    "> say http://\n>> example.com deeper quote",  # other quote markers
    "C://\nfoo.example",  # no registered scheme
    "http:// example.com on one line",  # a space, not a line break: prose
]

# (b) A scheme split by a line break inside angle brackets: joined.
SPLIT: list[tuple[str, list[Expected]]] = [
    (
        "see <htt\n p://www.example.org/a/b.html> here",
        [
            ("http://www.example.org/a/b.html", "angle", None),
        ],
    ),
    (
        "> see <htt\n> ps://www.example.org/a\n> /b.html> here",
        [
            ("https://www.example.org/a/b.html", "angle", None),
        ],
    ),
    (
        '              Control for Multipath TCP", Usenix NSDI , March 2011, <htt\n'
        "              p://www.cs.ucl.ac.uk/staff/c.raiciu/files/mptcp-nsdi.pdf>.\n",
        [("http://www.cs.ucl.ac.uk/staff/c.raiciu/files/mptcp-nsdi.pdf", "angle", None)],
    ),
    ("<URL:ht\n tp://a.example/x>", []),  # only the scheme right after the bracket
]
SPLIT_NOT: list[str] = [
    "<ab\ncd:ef>",  # "abcd" is no registered scheme
    "<div\n class:x>",
    "<htt\n\n p://a.example/x>",  # a blank line
]

# (c) A bare URI ending a line at the wrap column, the next line (after its quote
# markers) starting with a run that can only continue a path: joined, the URI on its
# line the alternative.
_PROSE = "The archive of the thread as it stands today, with the patches, is kept at "


def _at(uri: str, markers: str = "", column: int = 76) -> str:
    """A line of *markers*, prose and *uri*, *column* characters long."""
    prose = _PROSE[: column - len(markers) - len(uri) - 1]
    line = f"{markers}{prose} {uri}"
    assert len(line) == column, line
    return line


COLUMN: list[tuple[str, list[Expected]]] = [
    (
        _at("http://www.example.org/final/", "> > ") + "\n> > appendix-b/file.html for it.\n",
        [
            (
                "http://www.example.org/final/appendix-b/file.html",
                "bare",
                "http://www.example.org/final/",
            )
        ],
    ),
    (
        _at("https://lists.example.org/pipermail/x/2004-May/", column=79) + "\n000123.html\n",
        [
            (
                "https://lists.example.org/pipermail/x/2004-May/000123.html",
                "bare",
                "https://lists.example.org/pipermail/x/2004-May/",
            )
        ],
    ),
    (
        _at("http://a.example/show?id=12", column=72) + "\n&lang=en and more\n",
        [("http://a.example/show?id=12&lang=en", "bare", "http://a.example/show?id=12")],
    ),
]
# a long URI wrapped over three lines (an attribute of HTML shown as text)
_THIRD = "e=0&qu=diskeeper&pagereq=1&alpha=&alpha2=&deptid=0&mfgpartno=&mfgid=0&search"
THREE_LINES = (
    'href="http://www.buy.com/retail/searchresults.asp?orderby=4&querytype=&qutyp\n'
    f"{_THIRD}\n"
    'id=0&loc=105&search_store=2" shape="rect">\n'
)
COLUMN.append(
    (
        THREE_LINES,
        [
            (
                "http://www.buy.com/retail/searchresults.asp?orderby=4&querytype=&qutyp"
                f"{_THIRD}id=0&loc=105&search_store=2",
                "bare",
                "http://www.buy.com/retail/searchresults.asp?orderby=4&querytype=&qutyp",
            )
        ],
    )
)
# a reference list's URI broken after "/" and "-", line after line (RFC text)
COLUMN.append(
    (
        '   [45] Cisco Systems, "Building Security Into the Hardware",\n'
        "        ftp://ftp-eng.cisco.com/cons/isp/security/CPN-Summit-2004/\n"
        "        Paris-Sept-04/SE14-BUILDING-SECURITY-INTO-THE-HARDWARE-\n"
        "        c1_8_30_04.pdf, 2004.\n",
        [
            (
                "ftp://ftp-eng.cisco.com/cons/isp/security/CPN-Summit-2004/Paris-Sept-04/"
                "SE14-BUILDING-SECURITY-INTO-THE-HARDWARE-c1_8_30_04.pdf",
                "bare",
                "ftp://ftp-eng.cisco.com/cons/isp/security/CPN-Summit-2004/",
            )
        ],
    )
)
# Not joined: a short line, a sentence on the next line, punctuation ending the URI, a
# new URI, a blank line, other quote markers, a date.
COLUMN_NOT: list[tuple[str, str]] = [
    ("see http://www.example.org/final/\nappendix-b/file.html\n", "http://www.example.org/final/"),
    (
        _at("http://www.example.org/final/") + "\nThe end. and/or so\n",
        "http://www.example.org/final/",
    ),
    (
        _at("http://www.example.org/final.") + "\nappendix-b/file.html\n",
        "http://www.example.org/final",
    ),
    (
        _at("http://www.example.org/final/") + "\nhttp://b.example/x\n",
        "http://www.example.org/final/",
    ),
    (
        _at("http://www.example.org/final/") + "\n\nappendix/file.html\n",
        "http://www.example.org/final/",
    ),
    (
        _at("http://www.example.org/final/", "> ") + "\n>> appendix/file.html\n",
        "http://www.example.org/final/",
    ),
    (
        _at("http://www.example.org/final/") + "\n12/05/2004 was it\n",
        "http://www.example.org/final/",
    ),
    (_at("http://www.example.org/final/") + "\nand/or\n", "http://www.example.org/final/"),
    (
        _at("tel:+1-418-656-9254;ext=102") + "\nTEL;VALUE=uri;TYPE=x\n",
        "tel:+1-418-656-9254;ext=102",
    ),
    (_at("http://www.example.org/final/") + "\nLinux/UNIX\n", "http://www.example.org/final/"),
    (_at("http://www.example.org/final/") + "\n=====\n", "http://www.example.org/final/"),
    (_at("http://www.example.org/final/") + "\nWesSalmon.com\n", "http://www.example.org/final/"),
    (
        _at("http://www.example.org/final/") + "\n[2]http://b.example/\n",
        "http://www.example.org/final/",
    ),
    (
        _at("http://www.example.org/final/") + "\nme@box:/usr/lib$\n",
        "http://www.example.org/final/",
    ),
    (
        _at("http://www.example.org/fin/", column=90) + "\nappendix/a.html\n",
        "http://www.example.org/fin/",
    ),
]


def _expected(text: str) -> list[Expected]:
    return [(h.uri, h.context, h.alternative) for h in hits(text)]


@pytest.mark.parametrize(("text", "expected"), SLASHES, ids=[c[0][:30] for c in SLASHES])
def test_slashes_ending_a_line_are_joined(text: str, expected: list[Expected]) -> None:
    assert _expected(text) == expected


@pytest.mark.parametrize("text", SLASHES_NOT)
def test_slashes_ending_a_line_not_joined(text: str) -> None:
    assert _expected(text) == []


@pytest.mark.parametrize(("text", "expected"), SPLIT, ids=[c[0][:30] for c in SPLIT])
def test_scheme_split_in_brackets_is_joined(text: str, expected: list[Expected]) -> None:
    assert _expected(text) == expected


@pytest.mark.parametrize("text", SPLIT_NOT)
def test_scheme_split_in_brackets_not_joined(text: str) -> None:
    assert _expected(text) == []


@pytest.mark.parametrize(("text", "expected"), COLUMN, ids=[c[0][-40:] for c in COLUMN])
def test_uri_at_the_wrap_column_is_joined(text: str, expected: list[Expected]) -> None:
    assert _expected(text) == expected


@pytest.mark.parametrize(("text", "first"), COLUMN_NOT, ids=[c[0][-30:] for c in COLUMN_NOT])
def test_uri_at_the_wrap_column_not_joined(text: str, first: str) -> None:
    assert [h.uri for h in hits(text)][:1] == [first]


def test_wrapped_is_a_rule_of_its_own() -> None:
    text = "see http://\nexample.com/p and <htt\n p://a.example/x>"
    assert [h.uri for h in finditer(text, rules=["bare", "angle"])] == []
    assert [h.uri for h in finditer(text, rules=["bare", "angle", "wrapped"])] == [
        "http://example.com/p",
        "http://a.example/x",
    ]


@pytest.mark.parametrize("rejections", [False, True])
def test_every_speed_mechanism_answers_as_the_plain_path(rejections: bool) -> None:
    cases = [t for t, _ in SLASHES + SPLIT + COLUMN + COLUMN_NOT] + SLASHES_NOT + SPLIT_NOT
    text = "\n".join(cases)
    for tuning in ({}, SMALL_KNOBS):
        for max_len in (8192, 40):
            assert_as_plain(text, tuning, rejections, max_len)
            assert_as_plain(text * 5, tuning, rejections, max_len)
