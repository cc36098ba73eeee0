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
    ("<URL:ht\n tp://a.example/x>", []),  # only the scheme right after the bracket
]
SPLIT_NOT: list[str] = [
    "<ab\ncd:ef>",  # "abcd" is no registered scheme
    "<div\n class:x>",
    "<htt\n\n p://a.example/x>",  # a blank line
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


def test_wrapped_is_a_rule_of_its_own() -> None:
    text = "see http://\nexample.com/p and <htt\n p://a.example/x>"
    assert [h.uri for h in finditer(text, rules=["bare", "angle"])] == []
    assert [h.uri for h in finditer(text, rules=["bare", "angle", "wrapped"])] == [
        "http://example.com/p",
        "http://a.example/x",
    ]


@pytest.mark.parametrize("rejections", [False, True])
def test_every_speed_mechanism_answers_as_the_plain_path(rejections: bool) -> None:
    cases = [t for t, _ in SLASHES + SPLIT] + SLASHES_NOT + SPLIT_NOT
    text = "\n".join(cases)
    for tuning in ({}, SMALL_KNOBS):
        for max_len in (8192, 40):
            assert_as_plain(text, tuning, rejections, max_len)
            assert_as_plain(text * 5, tuning, rejections, max_len)
