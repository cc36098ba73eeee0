"""URLs in HTML attributes (issue 30, item 12): which attributes hold them (WHATWG HTML's
index of attributes, section 16 for the obsolete ones, 4.2.5.3 for a refresh, 4.8.4.3
for srcset; CSS for url()), how a value is read (WHATWG URL section 4.4), and the
context of their hits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urimine.cli import main
from urimine.sources.html_attrs import refresh_url, srcset_urls


def html_rows(tmp_path: Path, html: str, *options: str) -> list[dict[str, object]]:
    """The ``--all`` JSON Lines rows of an HTML file, through the command line."""
    source = tmp_path / "page.html"
    source.write_text("<!DOCTYPE html>\n" + html, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    status = main(["-j", "1", "--all", "-f", "jsonl", "-o", str(out), *options, str(source)])
    parsed = [json.loads(line) for line in out.read_text().splitlines()]
    assert status == (0 if parsed else 1)  # as grep: 1 when no URI was written
    return parsed


def found(tmp_path: Path, html: str) -> list[tuple[object, object]]:
    """(uri, context) of each hit; the page's base is given by ``<base href>``."""
    page = '<head><base href="http://base.example/dir/page.html"></head>' + html
    return [(r["uri"], r["context"]) for r in html_rows(tmp_path, page) if r["uri"] != BASE]


BASE = "http://base.example/dir/page.html"

ATTRIBUTES = [
    ('<a href="http://a.example/">a</a>', [("http://a.example/", "html:href")]),
    ('<img src="i.png">', [("http://base.example/dir/i.png", "html:src")]),
    ('<form action="/post">', [("http://base.example/post", "html:action")]),
    ('<button formaction="http://f.example/go">', [("http://f.example/go", "html:formaction")]),
    ('<blockquote cite="http://c.example/q">q</blockquote>',
     [("http://c.example/q", "html:cite")]),
    ('<video poster="p.jpg">', [("http://base.example/dir/p.jpg", "html:poster")]),
    ('<object data="movie.swf">', [("http://base.example/dir/movie.swf", "html:data")]),
    ('<html manifest="app.appcache">', [("http://base.example/dir/app.appcache", "html:manifest")]),
    ('<div itemscope itemid="urn:isbn:0-330-34032-8">',
     [("urn:isbn:0-330-34032-8", "html:itemid")]),
    # Obsolete, still written by mailers (section 16.2).
    ('<td background="http://bg.example/x.gif">', [("http://bg.example/x.gif", "html:background")]),
    ('<img longdesc="desc.html">', [("http://base.example/dir/desc.html", "html:longdesc")]),
    # Space-separated lists of URLs.
    ('<a ping="http://p1.example/ http://p2.example/">',
     [("http://p1.example/", "html:ping"), ("http://p2.example/", "html:ping")]),
    ('<div itemscope itemtype="http://schema.org/Person http://schema.org/Thing">',
     [("http://schema.org/Person", "html:itemtype"), ("http://schema.org/Thing", "html:itemtype")]),
    # Image candidate strings: each URL, its descriptors left out.
    ('<img srcset="a.png 1x, http://b.example/b.png 2x">',
     [("http://base.example/dir/a.png", "html:srcset"), ("http://b.example/b.png", "html:srcset")]),
    ('<link rel=preload imagesrcset="w.png 480w">',
     [("http://base.example/dir/w.png", "html:imagesrcset")]),
    # A refresh (section 4.2.5.3).
    ('<meta http-equiv="refresh" content="5; URL=\'http://r.example/next\'">',
     [("http://r.example/next", "html:refresh")]),
    ('<meta content="0;url=/moved" http-equiv=Refresh>',
     [("http://base.example/moved", "html:refresh")]),
    # CSS: url() in a style attribute and in a <style> element, @import.
    ("<div style=\"background: url('http://s.example/i.png')\">",
     [("http://s.example/i.png", "html:style")]),
    ('<style>@import "http://imp.example/x.css"; body {background: url(/bg.gif)}</style>',
     [("http://imp.example/x.css", "html:style"), ("http://base.example/bg.gif", "html:style")]),
    # Any other attribute whose whole value is an absolute URI.
    ('<a data-href="https://d.example/p">', [("https://d.example/p", "html:data-href")]),
    ('<meta property="og:url" content="https://og.example/page">',
     [("https://og.example/page", "html:content")]),
    ('<html xmlns="http://www.w3.org/1999/xhtml">',
     [("http://www.w3.org/1999/xhtml", "html:xmlns")]),
    ('<div data-repo="git+https://g.example/r.git">',
     [("git+https://g.example/r.git", "html:data-repo")]),
]  # fmt: skip


@pytest.mark.parametrize(("html", "expected"), ATTRIBUTES)
def test_each_url_attribute_gives_its_url_labelled(
    tmp_path: Path, html: str, expected: list[tuple[str, str]]
) -> None:
    assert found(tmp_path, html) == expected


NO_URL = [
    '<a title="Note: see below">x</a>',  # text with a colon, not a URI
    '<span class="fa:envelope">x</span>',  # no registered scheme, no //
    '<img alt="http://a.example/ is down">',  # a value with white space is text
    '<a href="javascript:void(0)">x</a>',
    '<img src="data:image/png;base64,iVBORw0KGgo=">',
    '<div style="color: red; margin: 0">x</div>',  # CSS without url()
    '<meta content="0;url=http://x.example/">',  # no http-equiv=refresh: not a URI as a whole
    '<meta http-equiv="refresh" content="url=http://x.example/">',  # no time: no refresh
]


@pytest.mark.parametrize("html", NO_URL)
def test_attributes_without_a_url_give_none(tmp_path: Path, html: str) -> None:
    assert found(tmp_path, html) == []


READ_AS_A_BROWSER_DOES = [
    # WHATWG URL 4.4: inner spaces percent-encoded, never deleted (the example).
    ('<a href="mailto:a@example.org?subject=Weekly Report">',
     "mailto:a@example.org?subject=Weekly%20Report"),
    # Leading and trailing C0 control or space stripped, tab and newline removed.
    ('<a href=" \x01http://w.example/a\n/b\t\x1f ">', "http://w.example/a/b"),
    # '"', "<" and ">" are in every percent-encode set of a path, query and fragment.
    ("<a href='http://q.example/\"x\"?a=&lt;b&gt;'>", "http://q.example/%22x%22?a=%3Cb%3E"),
    # References decoded as in an attribute: a colon written as one.
    ('<a href="&#109;&#97;&#105;&#108;&#116;&#111;&#58;x&#64;y.example">', "mailto:x@y.example"),
    ('<a href="http&#x3A;//h.example/?a=1&amp;b=2">', "http://h.example/?a=1&b=2"),
]  # fmt: skip


@pytest.mark.parametrize(("html", "uri"), READ_AS_A_BROWSER_DOES)
def test_a_value_is_read_as_a_browser_reads_it(tmp_path: Path, html: str, uri: str) -> None:
    assert found(tmp_path, html) == [(uri, "html:href")]


def test_a_space_in_the_host_is_no_url(tmp_path: Path) -> None:
    # A space is a forbidden host code point (WHATWG URL 3.5): the browser finds no URL.
    assert found(tmp_path, '<a href="http://exa mple.org/x">x</a>') == []


def test_a_tag_broken_by_a_br_still_gives_its_href(tmp_path: Path) -> None:
    html = '<a<br>\nhref="http://m.example/after-br">link</a> <img<BR>src="x.png">'
    assert found(tmp_path, html) == [
        ("http://m.example/after-br", "html:href"),
        ("http://base.example/dir/x.png", "html:src"),
    ]


def test_visible_text_keeps_its_rule_as_context(tmp_path: Path) -> None:
    html = '<p>see http://text.example/ and <a href="http://link.example/">this</a></p>'
    assert found(tmp_path, html) == [
        ("http://text.example/", "bare"),
        ("http://link.example/", "html:href"),
    ]


def test_refresh_and_srcset_parsing() -> None:
    """WHATWG HTML 4.2.5.3 and 4.8.4.3.10, case by case."""
    assert refresh_url("0;url=http://a.example/") == "http://a.example/"
    assert refresh_url(' 3 , URL = "http://b.example/x y" junk') == "http://b.example/x y"
    assert refresh_url("0; http://c.example/") == "http://c.example/"
    assert refresh_url(".5;url=d.html") == "d.html"
    assert refresh_url("0") is None
    assert refresh_url("url=http://e.example/") is None  # no time
    assert refresh_url("0x;url=y") is None  # "x" after the time
    # A URL runs to white space; trailing commas end the candidate; descriptors may hold
    # commas in parentheses.
    assert srcset_urls("a.png 1x, http://b/c,d.png 2x, e.png (x,y) 3w, f.png,,g.png,") == [
        "a.png",
        "http://b/c,d.png",
        "e.png",
        "f.png,,g.png",
    ]


def test_labels_hold_in_a_long_page_and_in_parallel(tmp_path: Path) -> None:
    """A page converted window by window (1 MiB each) and cut into pieces for worker
    processes: each link keeps its attribute's label, as in a run in one process."""
    filler = "<p>" + "words and more words " * 60 + "</p>\n"
    parts = []
    for n in range(3000):
        parts.append(f'<a href="http://h{n}.example/">x</a><img src="http://s{n}.example/i.png">')
        parts.append(filler)
        parts.append("\n\n")  # blank lines, where the pieces for workers may end
    source = tmp_path / "long.html"
    source.write_text("<!DOCTYPE html>\n" + "".join(parts), encoding="utf-8")
    assert source.stat().st_size > 3 << 20
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        assert main(["-j", jobs, "--all", "-f", "jsonl", "-o", str(out), str(source)]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    got = [json.loads(line) for line in outs[0].splitlines()]
    assert len(got) == 6000
    for row in got:
        expected = "html:href" if str(row["uri"]).startswith("http://h") else "html:src"
        assert row["context"] == expected, row


def test_a_warc_record_labels_its_links(tmp_path: Path) -> None:
    page = b'<html><body><a href="/about">a</a><td background="bg.gif">x</td></body></html>'
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://site.example/dir/p\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    )
    source = tmp_path / "crawl.warc"
    source.write_bytes(head.encode() + http + b"\r\n\r\n")
    out = tmp_path / "out.jsonl"
    assert main(["-j", "1", "--all", "-f", "jsonl", "-o", str(out), str(source)]) == 0
    got = [(r["uri"], r["context"]) for r in map(json.loads, out.read_text().splitlines())]
    assert got == [
        ("https://site.example/about", "html:href"),
        ("https://site.example/dir/bg.gif", "html:background"),
    ]


def test_labels_waiting_for_a_hit_stay_bounded() -> None:
    """Link lines whose URIs give no hit (hostile input) are not remembered without end:
    past PENDING waiting stretches the oldest half is forgotten."""
    from urimine.sources.labels import PENDING, Stretches

    labels = Stretches()
    spans = ((1, 10, "html:href"),)
    for block in range(3):
        base = block * PENDING * 20
        starts = list(range(base, base + PENDING * 20, 20))
        labels.extend(starts, [s + 10 for s in starts], [spans] * PENDING)
        assert len(labels) <= PENDING
    last = 3 * PENDING * 20 - 20
    assert labels.label_at(last + 5) == "html:href"  # the newest are kept
