"""HTML to text: visible text, link targets as <ABSOLUTE-URI> lines, base resolution."""

from __future__ import annotations

import html
import re

import pytest

from helpers import cpu_seconds
from urimine.sources.html import (
    _BLOCK_NAMES,
    _nocase,
    _unescape,
    absolutize,
    html_to_text,
)


def lines(html: str, base: str | None = None) -> list[str]:
    return [line for line in html_to_text(html, base).splitlines() if line.strip()]


def test_links_stand_where_they_are_on_their_own_lines() -> None:
    out = html_to_text('before <a href="http://a.example/x">anchor</a> after', None)
    assert out == "before \n<http://a.example/x>\nanchor after"


def test_relative_links_resolve_against_the_outer_base() -> None:
    # RFC 3986 section 5.4.1 examples, base http://a/b/c/d;p?q
    out = lines('<a href="g">1</a><a href="../g">2</a><a href="//g">3</a>', "http://a/b/c/d;p?q")
    assert [x for x in out if x.startswith("<")] == [
        "<http://a/b/c/g>",
        "<http://a/b/g>",
        "<http://g>",
    ]


def test_base_href_inside_the_document_wins_and_may_itself_be_relative() -> None:
    html = '<head><base href="/docs/"></head><a href="x.html">x</a>'
    assert "<http://outer.example/docs/x.html>" in lines(html, "http://outer.example/a/b")


def test_relative_links_without_any_base_are_dropped() -> None:
    assert lines('<a href="page.html">p</a><img src="i.png">') == ["p"]


@pytest.mark.parametrize("href", ["javascript:alert(1)", " JavaScript:void(0)", "data:,x", ""])
def test_unwanted_references_are_dropped(href: str) -> None:
    assert absolutize(href, "http://b.example/") is None


def test_entities_are_decoded_exactly_once() -> None:
    out = html_to_text('<a href="http://e.example/?a=1&amp;amp;b=2">x &amp;lt; y</a>', None)
    assert "<http://e.example/?a=1&amp;b=2>" in out
    assert "x &lt; y" in out


@pytest.mark.parametrize(
    ("href", "uri"),
    [
        # A spam mail of the shared corpus: its plain part has "&sectionid", the link
        # "§ionid" came from its HTML part.
        (
            "http://b.example/m.asp?target=3&sectionid=1",
            "http://b.example/m.asp?target=3&sectionid=1",
        ),
        ("http://b.example/?a=1&copy=2&not9", "http://b.example/?a=1&copy=2&not9"),
        ("http://b.example/?a=1&notit;", "http://b.example/?a=1&notit;"),
        # Other references decode as elsewhere: with their ";", or before another character.
        ("http://b.example/?a=1&amp;sect=2", "http://b.example/?a=1&sect=2"),
        ("http://b&#46;example/?a&amp", "http://b.example/?a&"),
        # "<" is in the query percent-encode set (WHATWG URL section 1.3).
        ("http://b.example/?a&lt/b", "http://b.example/?a%3C/b"),
    ],
)
def test_a_reference_without_its_semicolon_before_a_letter_stays_in_an_attribute(
    href: str, uri: str
) -> None:
    """HTML's tokenizer decodes a legacy name without ";" ("&sect") in an attribute only
    where no ASCII letter, digit or "=" follows it, "for historical reasons": query
    strings such as "&sectionid=1" were written unescaped in links (html.unescape
    decodes it everywhere, as it stands in text)."""
    assert f"<{uri}>" in lines(f'<a href="{href}">x</a>')
    assert html_to_text("x &sectionid", None) == "x \u00a7ionid"  # in text it is decoded


def test_escaped_angle_brackets_in_text_become_real_ones() -> None:
    assert html_to_text("see &lt;http://t.example/&gt;", None) == "see <http://t.example/>"


def test_script_style_and_comments_are_invisible() -> None:
    html = (
        "<style>a{color:red} http://style-text.example/</style>"
        "<script>var u = '<a href=\"http://js.example/\">';</script>"
        "<!-- http://comment.example/ -->visible"
    )
    assert html_to_text(html, None) == "visible"


def test_a_style_element_gives_only_its_css_urls() -> None:
    html = "<style>a{background:url(http://css.example/)} http://text.example/</style>x"
    assert html_to_text(html, None) == "\n<http://css.example/>\nx"


def test_block_tags_separate_words_and_inline_tags_do_not() -> None:
    assert lines("<td>http://a.example</td><td>http://b.example</td>") == [
        "http://a.example",
        "http://b.example",
    ]
    assert html_to_text("http://x.example/<b>path</b>", None) == "http://x.example/path"


def test_attribute_values_are_trimmed_and_lose_tabs_and_newlines() -> None:
    assert lines('<a href="  http://w.example/a\n/b  ">w</a>')[0] == "<http://w.example/a/b>"


def test_quoted_greater_than_inside_a_tag() -> None:
    out = html_to_text('<img alt="a > b" src="http://q.example/i.png">', None)
    assert out == "\n<http://q.example/i.png>\n"


def test_unclosed_tag_is_left_as_text_and_does_not_hang() -> None:
    text = "<a " + 'x="' * 2000 + "<b " * 2000
    assert html_to_text(text, None).startswith("<a ")


# --- the fast paths give the text the plain patterns give ---


def test_block_tag_names_match_as_with_ignorecase() -> None:
    letters = sorted(set("".join(_BLOCK_NAMES)))
    # Everything re.IGNORECASE could match to an ASCII letter: its case partners, plus
    # the few non-ASCII letters whose simple case mapping is ASCII.
    candidates = [chr(i) for i in range(0x10000)]
    candidates = [c for c in candidates if c.lower()[:1].isascii() or c.upper()[:1].isascii()]
    for letter in letters:
        ignorecase, explicit = re.compile(letter, re.I), re.compile(_nocase(letter))
        for char in candidates:
            assert bool(ignorecase.fullmatch(char)) == bool(explicit.fullmatch(char)), char
    assert html_to_text("a<\u017fection>b<D\u0130V>c<BR/>d", None) == "a\nb\nc\nd"


def test_a_link_attribute_far_from_its_tag_name_is_found() -> None:
    padding = " ".join(f'data-{i}="{"x" * 5000}"' for i in range(2))
    doc = f'<a href="http://near.example/">n</a><a {padding} href="http://far.example/">f</a>'
    assert html_to_text(doc, None) == "\n<http://near.example/>\nn\n<http://far.example/>\nf"


def test_href_in_the_text_after_a_tag_is_text() -> None:
    # The look-ahead for a link attribute ends with its tag: "href=" in the text
    # after it makes no link, and the tag goes as any other tag.
    assert html_to_text("<td class=x>href=y</td><b id=1>src=z", None) == "\nhref=y\nsrc=z"


@pytest.mark.parametrize(
    "text",
    [
        "&gt;&lt;&quot;&#39;&nbsp;",
        "&amp;gt; &amp;lt;",  # decoded once: stays "&gt; &lt;"
        "&not&nbsp;x &notin&gt; &lt&quot; &no&#39;",
        "&" + "x" * 30 + "&gt;y&gt;",
        "&#62&gt; &#x3e&lt; &&nbsp; &gt",
    ],
)
def test_common_references_decode_as_html_unescape_does(text: str) -> None:
    assert _unescape(text) == html.unescape(text)


@pytest.mark.parametrize("mark", ["&#xe000;", "&#57344;", "&#xE000", "\ue000"])
def test_a_decoded_private_use_mark_is_text_not_a_link_placeholder(mark: str) -> None:
    # The link placeholders are bracketed by U+E000: a reference that decodes to it
    # once made the substitution look up a link that was not there (IndexError).
    page = f'<a href="http://a.example/">a</a> {mark}5{mark} {mark}0{mark} &amp; <br>'
    text = html_to_text(page, None)
    assert "<http://a.example/>" in text
    assert text.count("http://") == 1
    assert "&" in text and "&amp;" not in text


_ORDINARY_HTML = (
    '<p>See <a href="http://a.example/x">this</a> and <b>that</b>, '
    '<img src="http://a.example/i.png" alt="i"><br>&amp; more text here.</p>\n'
)


@pytest.mark.parametrize(
    "piece",
    [
        "<div ",  # tags that never close
        "<a<a",
        "<a href = ",
        "<![CDATA[",
        "<!DOCTYPE x ",
        "<",
    ],
)
def test_hostile_html_costs_what_ordinary_html_costs(piece: str) -> None:
    """Each "<" costs at most the way to the next one: a tag may hold no raw "<". Read
    past it, tags that never close cost each "<" the 8192 characters of the bound
    (0.1 MB/s for "<div " repeated)."""
    size = 400_000
    hostile = (piece * (size // len(piece) + 1))[:size]
    ordinary = (_ORDINARY_HTML * (size // len(_ORDINARY_HTML) + 1))[:size]
    hostile_time = cpu_seconds(lambda: html_to_text(hostile, None))
    ratio = hostile_time / cpu_seconds(lambda: html_to_text(ordinary, None))
    assert ratio < 10, f"{piece!r}: {ratio:.1f}x ordinary HTML"


def test_a_tag_holds_no_raw_lt() -> None:
    """A tag left open before the next "<" is text (the scanner then reads its quoted
    URI): it does not run on to a later ">" and swallow what stands between."""
    text = html_to_text('<img src="http://a.example/i.gif" width=1<td>x mailto:a@b.example', None)
    assert "mailto:a@b.example" in text
    assert '"http://a.example/i.gif"' in text
