"""Mail: mbox/Maildir/.eml containers, the MIME walker, header units, real list archives."""

from __future__ import annotations

import base64
import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest

from urimine import finditer
from urimine.sources import iter_inputs, open_units
from urimine.sources.flowed import unflow
from urimine.sources.headers import read_header
from urimine.sources.mail import decode_value, message_units
from urimine.sources.mbox import mbox_batches, mbox_messages, split_mbox, unescape_message
from urimine.sources.unit import CutBytes, Unit

FIXTURES = Path(__file__).resolve().parents[1] / "corpora" / "fixtures"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
MAIL = SHARED / "corpora" / "mail"


def units_of(path: Path | str) -> list[Unit]:
    return list(open_units(str(path)))


def text(unit: Unit) -> str:
    return "".join(unit.chunks)


def by_part(path: Path) -> dict[str | None, str]:
    """Each part's text (the header units of a message joined)."""
    found: dict[str | None, str] = {}
    for unit in units_of(path):
        found[unit.part] = found.get(unit.part, "") + text(unit)
    return found


def fields(unit_text: str) -> list[str]:
    """The field lines of a header unit's text (an empty line between two)."""
    return unit_text.rstrip("\n").split("\n\n")


# --- the nested fixture: multipart/mixed > alternative(QP plain, HTML), rfc822, base64 ---


def test_nested_parts_follow_imap_numbering() -> None:
    units = units_of(FIXTURES / "nested.eml")
    assert [u.part for u in units] == ["headers", "1.1", "1.2", "2.headers", "2.1", "3"]
    assert {u.message_id for u in units} == {"nested-1@example.org"}
    assert all(u.is_mail and u.doc_index == 0 for u in units)


def test_quoted_printable_url_is_whole_after_decoding() -> None:
    body = by_part(FIXTURES / "nested.eml")["1.1"]
    assert "<https://git.example.org/repo.git/commit/?id=0123456789abcdef>" in body
    assert body.endswith("café")  # =C3=A9 decoded once, as UTF-8


def test_html_part_links_are_resolved_against_base_href() -> None:
    html = by_part(FIXTURES / "nested.eml")["1.2"]
    assert "\n<https://www.example.org/docs/faq.html?a=1&b=2>\n" in html
    assert "\n<https://www.example.org/docs/guide/img/logo.png>\n" in html
    assert "javascript" not in html and "<p>" not in html


def test_base64_part_honours_its_charset() -> None:
    assert by_part(FIXTURES / "nested.eml")["3"] == "Base64 part: http://b64.example.org/é\n"


def test_forwarded_message_has_its_own_header_unit() -> None:
    parts = by_part(FIXTURES / "nested.eml")
    assert parts["2.headers"] == "List-Post: <mailto:fwd@example.org>\n"
    assert parts["2.1"] == "Forwarded: http://forwarded.example.org/x"


def test_header_unit_keeps_uri_fields_one_per_line() -> None:
    units = [u for u in units_of(FIXTURES / "nested.eml") if u.part == "headers"]
    assert [fields(text(u)) for u in units] == [
        [
            "List-Archive: <https://lists.example.org/archive",
            "List-Subscribe: <https://lists.example.org/subscribe>, "
            "<mailto:list-request@example.org?subject=subscribe>",
            "Archived-At: <https://lists.example.org/msg/1>",
            "X-Tracker: see <https://tracker.example.org/issue/7>",
        ],
    ]  # no From/To/Message-ID/Received, folded List-Subscribe unfolded; a Subject
    # ("Café links", an encoded word) that cannot hold a URI is not scanned


def test_broken_base64_salvages_text_and_records_a_defect() -> None:
    (unit,) = units_of(FIXTURES / "broken-base64.eml")
    assert "bad base64" in unit.defects
    assert text(unit).startswith("Broken but http://salvage.example.org/ok")


def test_format_flowed_is_undone() -> None:
    body = by_part(FIXTURES / "flowed.eml")["1"]
    assert "<https://example.org/a/very/long/path/that/was/flowed>" in body  # DelSp=yes
    assert "\nFrom the start, space-stuffed.\n" in body  # stuffing removed
    assert "> quoted text that is flowed too\n" in body
    assert "\n-- \nsig" in body  # the signature separator is not flowed


def test_maildir_is_one_input_read_cur_then_new() -> None:
    maildir = FIXTURES / "maildir"
    assert list(iter_inputs([str(maildir)])) == [str(maildir)]
    units = units_of(maildir)
    assert [(u.doc_index, u.message_id) for u in units] == [
        (0, "md1@example.org"),
        (1, "md2@example.org"),
        (2, "md3@example.org"),
    ]


# --- small constructed cases ---


def msg(head: str, body: str) -> bytes:
    return (head.strip("\n") + "\n\n" + body).encode("utf-8")


def test_content_location_is_the_base_of_an_html_part() -> None:
    raw = msg(
        "Content-Type: text/html\nContent-Location: http://cl.example/dir/page.html",
        '<a href="other.html">x</a>',
    )
    units = {u.part: u for u in message_units(raw, "m", 0)}
    assert text(units["headers"]) == "Content-Location: http://cl.example/dir/page.html\n"
    unit = units["1"]
    assert unit.base_uri == "http://cl.example/dir/page.html"
    assert "<http://cl.example/dir/other.html>" in text(unit)


def test_missing_closing_boundary_is_a_defect_not_an_error() -> None:
    raw = msg(
        'Content-Type: multipart/mixed; boundary="b"',
        "--b\nContent-Type: text/plain\n\nhttp://still.example/\n",
    )
    units = list(message_units(raw, "m", 0))
    assert [text(u) for u in units] == ["http://still.example/\n"]
    assert "missing closing boundary" in units[0].defects


def test_unknown_charset_falls_back_with_a_defect() -> None:
    raw = msg("Content-Type: text/plain; charset=x-klingon", "caf\xe9")
    (unit,) = message_units(raw.replace(b"\xc3\xa9", b"\xe9"), "m", 0)
    assert text(unit) == "café"  # not UTF-8, so Windows-1252
    assert unit.defects == ["unknown charset 'x-klingon'"]


def test_charset_label_cannot_name_a_bytes_codec() -> None:
    raw = msg("Content-Type: text/plain; charset=zlib_codec", "plain http://z.example/")
    (unit,) = message_units(raw, "m", 0)
    assert text(unit) == "plain http://z.example/"


def test_images_are_skipped() -> None:
    raw = msg(
        'Content-Type: multipart/mixed; boundary="b"',
        "--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n%%%\n--b--\n",
    )
    assert list(message_units(raw, "m", 0)) == []


def test_a_text_part_without_a_charset_takes_its_multipart_s() -> None:
    """A charset named on the multipart (RFC 2046 gives it none, yet a mailer of the
    shared spamassassin corpus wrote one, ``EhooSend``) is read for a text part that
    names none: its GB2312 bytes read as Windows-1252 are Latin letters, which run on
    after a URI ("http://www.e-dowell.com£¨¶àÈË"); read as GB2312, the full-width "("
    ends it. (That mail's header ends early, at a blank line in its folded Subject, so
    its body is read as one text part without a charset still.)"""
    body = "see http://www.e-dowell.com\uff08\u591a\u4eba\u884c\uff09 ok"
    raw = (
        b'Content-Type: multipart/mixed; boundary="b"; charset="GB2312"\n\n'
        b"--b\nContent-Type: text/plain\nContent-Transfer-Encoding: 7bit\n\n"
        + body.encode("gb2312")
        + b"\n--b--\n"
    )
    (unit,) = message_units(raw, "m", 0)
    assert text(unit) == body
    assert unit.defects == []
    assert [hit.uri for hit in finditer(text(unit))] == ["http://www.e-dowell.com"]


def test_rfc2047_words_are_decoded() -> None:
    assert decode_value(b"=?iso-8859-1?q?G=F6ran?= <x>") == "Göran <x>"
    assert decode_value(b"=?bogus?q?abc?=") == "abc"


def test_mboxrd_unescaping_and_envelope_removal() -> None:
    raw = b"From a@b Thu Jan  1 00:00:00 1970\nSubject: s\n\n>From here\n>>From there\n"
    assert unescape_message(raw) == b"Subject: s\n\nFrom here\n>From there\n"


@pytest.mark.parametrize("size", [1, 3, 7, 64, 1 << 20])
def test_mbox_split_does_not_depend_on_block_size(size: int) -> None:
    data = b"".join(b"From x\nSubject: %d\n\nbody From x\n\n" % i for i in range(20))
    blocks = [data[i : i + size] for i in range(0, len(data), size)]
    messages = list(split_mbox(iter(blocks)))
    assert len(messages) == 20
    assert b"".join(messages) == data


# --- the shared list archives (skipped when ../shared is absent) ---

COUNTS = {
    "spamassassin-easy_ham.mbox.gz": 2125,
    "spamassassin-hard_ham.mbox.gz": 212,
    "spamassassin-spam.mbox.gz": 425,
    "usrp-users.mbox.gz": 595,
    "linux-man.mbox.gz": 595,
    "open-iscsi.mbox.gz": 382,
    "jfs-discussion.mbox.gz": 340,
    "notmuch-test-corpora.mbox": 269,
}


def shared(name: str) -> Path:
    path = MAIL / name
    if not path.exists():
        pytest.skip(f"shared corpus not available: {path}")
    return path


@pytest.mark.parametrize(("name", "count"), COUNTS.items())
def test_message_counts_match_sources_md(name: str, count: int) -> None:
    docs = {u.doc_index for u in open_units(str(shared(name)))}
    # A message with neither URI header fields nor text parts (a bare PDF) has no
    # unit, so the indexes may have gaps, but the last message is numbered count - 1.
    assert max(docs) == count - 1
    assert len(docs) >= count * 0.98
    opener = gzip.open if name.endswith(".gz") else open
    with opener(shared(name), "rb") as fh:
        assert sum(1 for _ in split_mbox(iter(lambda: fh.read(1 << 20), b""))) == count


def test_linux_man_qp_urls_come_out_whole() -> None:
    body = "".join(text(u) for u in open_units(str(shared("linux-man.mbox.gz"))))
    url = (
        "<https://git.kernel.org/pub/scm/docs/man-pages/man-pages.git/commit/"
        "?id=5bf82f50cf02ded2403666d6c1ee2878b8bd602e>"
    )
    assert url in body
    assert "?id=3D" not in body


def test_open_iscsi_list_archive_without_closing_bracket_stays_on_its_line() -> None:
    units = open_units(str(shared("open-iscsi.mbox.gz")))
    headers = [u for u in units if u.part == "headers" and text(u).startswith("List-")]
    assert len(headers) == 382
    for unit in headers[:50]:
        lines = fields(text(unit))
        assert "List-Archive: <https://groups.google.com/group/open-iscsi" in lines
        assert any(line.startswith("List-Subscribe: <https://") for line in lines)


# --- the offset-based walker and the single-pass mbox splitter ---


def test_folded_header_fields_are_unfolded_only_where_kept() -> None:
    raw = (
        b"List-Archive:\n <https://lists.example.org/a>\nReceived: from x\n\tby y\n"
        b"X-See: text\n <https://see.example/x>\nList-\n Foo: <mailto:f@example.org>\n"
        b"Subject: s\n\nbody\n"
    )
    (unit, _) = message_units(raw, "m", 0)
    assert fields(text(unit)) == [
        "List-Archive: <https://lists.example.org/a>",
        "X-See: text <https://see.example/x>",
        "List- Foo: <mailto:f@example.org>",
    ]


def test_header_block_inside_a_larger_buffer_is_read_in_place() -> None:
    entity = b"Content-Type: text/plain;\n charset=latin1\nList-Id: <l.example>\n\nbody"
    data = b"junk <http://j.example/>\n" + entity + b"\n--b--\n"
    fields, body = read_header(data, 25, 25 + len(entity))
    assert [(f.key, f.value) for f in fields] == [
        (b"content-type", b"text/plain; charset=latin1"),
        (b"list-id", b"<l.example>"),
    ]
    assert data[body : 25 + len(entity)] == b"body"
    assert read_header(b"\nbody", 0, 5) == ([], 1)
    assert read_header(b"X: y", 0, 4) == ([], 4)


def test_attachments_are_skipped_and_digest_parts_default_to_messages() -> None:
    raw = msg(
        'Content-Type: multipart/mixed; boundary="o"',
        "--o\nContent-Type: application/pdf\nContent-Transfer-Encoding: base64\n\n"
        + "JVBERi0x" * 1000
        + "\n--o\nContent-Type: multipart/digest; boundary=d\n\n--d\n\n"
        "Subject: inner\nList-Post: <mailto:d@example.org>\n\nhttp://digest.example/\n"
        "--d--\n--o--\n",
    )
    units = {u.part: text(u) for u in message_units(raw, "m", 0)}
    assert units == {
        "2.1.headers": "List-Post: <mailto:d@example.org>\n",
        "2.1.1": "http://digest.example/",
    }


@pytest.mark.parametrize("size", [1, 2, 5, 6, 7, 1 << 20])
def test_quoted_from_lines_are_found_across_block_boundaries(size: int) -> None:
    data = b"From a\nSubject: 1\n\n>From x\n>>From y\nFrom z\nSubject: 2\n\nno From here\n"
    blocks = [data[i : i + size] for i in range(0, len(data), size)]
    assert list(mbox_messages(iter(blocks))) == [
        b"Subject: 1\n\nFrom x\n>From y\n",
        b"Subject: 2\n\nno From here\n",
    ]


@pytest.mark.parametrize("target", [1, 500, 1 << 20])
@pytest.mark.parametrize("block", [3, 64, 1 << 16])
def test_mbox_batches_hold_whole_messages(target: int, block: int) -> None:
    """Stretches for the workers, split again, give the messages of the whole stream
    (RFC 4155: a message starts at a "From " line)."""
    raw = b"preamble\n" + b"".join(
        b"From a@b Mon Jan  1 00:00:00 2001\nSubject: %d\n\nbody\n>From quoted\n\n" % i
        for i in range(40)
    )
    blocks = [raw[i : i + block] for i in range(0, len(raw), block)]
    whole = list(mbox_messages([raw]))
    batches = list(mbox_batches(blocks, target))
    assert b"".join(batches) == raw
    assert all(b.startswith(b"From ") for b in batches[1:])
    assert [m for b in batches for m in mbox_messages([b])] == whole


def test_mbox_batches_hand_out_whole_messages_before_a_stream_error() -> None:
    raw = b"".join(b"From a@b Mon Jan  1 00:00:00 2001\nSubject: %d\n\nx\n" % i for i in range(9))

    def broken() -> Iterator[bytes]:
        yield raw[:-10]
        raise OSError("truncated")

    got: list[bytes] = []
    with pytest.raises(OSError):
        for batch in mbox_batches(broken(), 1 << 20):
            got.append(batch)
    messages = [m for b in got for m in mbox_messages([b])]
    assert messages[:8] == list(mbox_messages([raw]))[:8]
    # The message the stream broke in comes last, marked as cut short.
    assert messages[8:] == [b"Subj"] and isinstance(messages[8], CutBytes)


# --- header blocks that repeat (every message of a list) are scanned once ---


def test_repeated_header_blocks_give_the_hits_of_a_fresh_scan(tmp_path: Path) -> None:
    from urimine.pipeline import Options, iter_records

    header = (
        "List-Post: <mailto:list@example.org>\n"
        "List-Unsubscribe: <https://example.org/options/list>,\n"
        " <mailto:list-request@example.org?subject=unsubscribe>\n"
    )
    messages = [
        f"From a@b Thu Jan  1 00:00:0{n} 1970\nMessage-ID: <m{n}@example.org>\n{header}"
        f"Subject: {n}\n\nSee http://example.org/{n} and <mailto:list@example.org>.\n"
        for n in range(3)
    ]
    path = tmp_path / "list.mbox"
    path.write_text("\n".join(messages))
    records = list(iter_records([str(path)], Options()))
    fresh = []
    for unit in units_of(path):
        scanner = Options().scanner()
        labels = unit.ending.labels
        for hit in scanner.hits(unit.chunks):
            found = hit if labels is None else labels.relabel(hit)
            fresh.append((unit.doc_index, unit.part, found))
    assert [(r.doc_index, r.part, r.hit) for r in records] == fresh
    listed = [
        "mailto:list@example.org",
        "https://example.org/options/list",
        "mailto:list-request@example.org?subject=unsubscribe",
    ]
    assert [r.hit.uri for r in records if r.part == "headers"] == listed * 3


# --- folded base fields, flowed text with CRLF line ends, the charset an HTML part declares ---


def test_folded_content_base_and_location_give_their_uri_whole() -> None:
    """Seed 001 section 5.1.1: in Content-Base and Content-Location "any whitespace
    inside the field value (including that used for line folding) is ignored"; its
    example ``Content-Base: http://www.ics.uci.edu/Test/a/b/c``, folded after ``Test/``.
    Other fields are only unfolded (RFC 5322 section 2.2.3): their white space stays."""
    raw = msg(
        "Content-Type: text/html\nContent-Base: http://www.ics.uci.edu/Test/\n a/b/c\n"
        "Content-Location: http://cl.example/dir/\n\tpage.html\n"
        "List-Help: <mailto:help@example.org>,\n <http://help.example/>",
        '<a href="g">g</a>',
    )
    units = {u.part: u for u in message_units(raw, "m", 0)}
    header = text(units["headers"])
    assert fields(header) == [
        "Content-Base: http://www.ics.uci.edu/Test/a/b/c",
        "Content-Location: http://cl.example/dir/page.html",
        "List-Help: <mailto:help@example.org>, <http://help.example/>",
    ]
    hits = list(finditer(header))
    assert [hit.uri for hit in hits] == [
        "http://www.ics.uci.edu/Test/a/b/c",
        "http://cl.example/dir/page.html",
        "mailto:help@example.org",
        "http://help.example/",
    ]
    # Offsets are into the header unit's text, as for every header hit.
    assert (hits[0].start, hits[0].line, hits[0].column) == (14, 1, 15)
    assert hits[1].line == 3  # an empty line between two fields
    # Seed 001 Appendix C: "g" against http://a/b/c/d;p?q is http://a/b/c/g.
    assert units["1"].base_uri == "http://www.ics.uci.edu/Test/a/b/c"
    assert "<http://www.ics.uci.edu/Test/a/b/g>" in text(units["1"])


_FLOWED_LINES = [
    "See http://example.com/very/long/path/that/was/bro ",
    "ken/here.html for details",
    "> quoted text ",
    "> that is flowed",
    " From the start, space-stuffed.",
    "-- ",
    "sig",
    "",
]


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
@pytest.mark.parametrize("delsp", [True, False])
def test_unflow_joins_lines_whatever_their_line_end(eol: str, delsp: bool) -> None:
    """RFC 3676 section 4.1: a line ending in a space is flowed into the next; with
    DelSp=yes "the trailing space immediately prior to the line's CRLF is deleted"."""
    space = "" if delsp else " "
    assert unflow(eol.join(_FLOWED_LINES), delsp).splitlines() == [
        f"See http://example.com/very/long/path/that/was/bro{space}ken/here.html for details",
        f"> quoted text{space}that is flowed",
        "From the start, space-stuffed.",  # section 4.4: the stuffed space removed
        "-- ",  # the signature separator is not flowed
        "sig",
    ]


def test_flowed_base64_part_with_crlf_line_ends_is_unflowed() -> None:
    """A base64 body carries the canonical CRLF line ends (RFC 2046 section 4.1.1,
    RFC 2045 section 6.8)."""
    body = "See http://example.com/very/long/path/that/was/bro \r\nken/here.html for details\r\n"
    raw = msg(
        "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n"
        "Content-Transfer-Encoding: base64",
        base64.encodebytes(body.encode()).decode(),
    )
    (unit,) = message_units(raw, "m", 0)
    assert [hit.uri for hit in finditer(text(unit))] == [
        "http://example.com/very/long/path/that/was/broken/here.html"
    ]


@pytest.mark.parametrize("padding", [" ", "\t ", "  \r"])
def test_quoted_printable_soft_break_with_trailing_white_space(padding: str) -> None:
    """RFC 2045 6.7 rule (3): white space at the end of an encoded line is deleted when
    decoding (transport may have added it), so "=" before it is still a soft line break:
    the URI goes on on the next line. "=3D" is a literal "=" and stays."""
    raw = msg(
        "Content-Type: text/plain; charset=us-ascii\nContent-Transfer-Encoding: quoted-printable",
        f"see http://a.example/x?a=3D1&b=3D=3D2={padding}\nyz end\n",
    )
    (unit,) = message_units(raw, "m", 0)
    assert [hit.uri for hit in finditer(text(unit))] == ["http://a.example/x?a=1&b==2yz"]


_GB_HTML = (
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312">'
    "</head><body><p>\u7f51\u5740\uff1ahttp://www.example.com\uff08\u4e2d\u6587\uff09</p>"
    "</body></html>\n"
)


def test_html_part_without_charset_is_read_by_its_meta_charset() -> None:
    """An HTML part naming no charset declares it in a ``<meta>`` (HTML's encoding
    prescan); read as Windows-1252 instead, its GB2312 bytes are Latin letters that run
    on after the URI. Read as GB2312, the full-width "(" ends it."""
    raw = b"Content-Type: text/html\nContent-Transfer-Encoding: 8bit\n\n" + _GB_HTML.encode(
        "gb2312"
    )
    (unit,) = message_units(raw, "m", 0)
    assert "\u7f51\u5740\uff1ahttp://www.example.com\uff08\u4e2d\u6587\uff09" in text(unit)
    assert unit.defects == []
    assert [hit.uri for hit in finditer(text(unit))] == ["http://www.example.com"]


def _multipart_html(outer: str, inner: str, html: bytes) -> bytes:
    return (
        f'Content-Type: multipart/mixed; boundary="b"{outer}\n\n--b\n'
        f"Content-Type: text/html{inner}\n\n".encode()
        + html
        + b"\n--b--\n"
    )


@pytest.mark.parametrize(
    ("outer", "inner", "meta", "expected"),
    [
        ('; charset="iso-8859-1"', "", "utf-8", "café"),  # the meta over the multipart's
        ("", "; charset=utf-8", "iso-8859-1", "café"),  # the part's own over the meta
        ("", "; charset=iso-8859-1", "utf-8", "cafÃ©"),  # (even when the meta is right)
    ],
)
def test_charset_precedence_part_then_meta_then_multipart(
    outer: str, inner: str, meta: str, expected: str
) -> None:
    """The part's own charset parameter (RFC 2046 section 4.1.2) wins; then the HTML's
    own declaration, more specific to the part than a charset named on its multipart."""
    html = f'<meta charset="{meta}"><p>café</p>'.encode()
    (unit,) = message_units(_multipart_html(outer, inner, html), "m", 0)
    assert text(unit).strip() == expected


def test_meta_charset_is_looked_for_in_html_heads_only() -> None:
    """Only the first 1024 bytes hold the declaration (HTML's prescan reads no further),
    and only an HTML part has one: a meta in plain text is text."""
    late = b" " * 1024 + b'<meta charset="iso-8859-1"><p>caf\xc3\xa9</p>'
    (unit,) = message_units(_multipart_html("", "", late), "m", 0)
    assert text(unit).strip() == "café"  # UTF-8, not the late meta's Latin-1
    plain = b'Content-Type: text/plain\n\n<meta charset="iso-8859-1"> caf\xc3\xa9\n'
    (unit,) = message_units(plain, "m", 0)
    assert text(unit).endswith("café\n")


def test_a_meta_declaring_utf16_is_read_as_utf8() -> None:
    """HTML's prescan: "If charset is UTF-16BE/LE, then set charset to UTF-8" (a
    declaration read as ASCII bytes cannot be UTF-16's)."""
    raw = (
        b'Content-Type: text/html\n\n<meta charset="UTF-16"><p>caf\xc3\xa9 http://u.example/</p>\n'
    )
    (unit,) = message_units(raw, "m", 0)
    assert text(unit).strip() == "café http://u.example/"
    assert unit.defects == []
