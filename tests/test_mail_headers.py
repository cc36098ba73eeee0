"""Mail header fields scanned as text (issue 30, item 11): which fields, the context of
their hits, ``--headers``, and the bound on one field. Expectations come from RFC 5322
section 3.6 (structured and unstructured fields), RFC 2369 / RFC 2919 (``List-*``),
RFC 5064 (``Archived-At``), RFC 2045 (``Content-*``) and from the shared mail corpora."""

from __future__ import annotations

import json
import mailbox
import re
from pathlib import Path

import pytest

from urimine.cli import main
from urimine.sources.mail import MAX_FIELD, message_units
from urimine.sources.mail_fields import field_kind

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "mail"


def message(*fields: str, body: str = "no link here\n") -> bytes:
    head = "".join(f"{field}\n" for field in ("Message-ID: <m1@example.org>", *fields))
    return (head + "\n" + body).encode()


def rows(tmp_path: Path, raw: bytes, *options: str) -> list[dict[str, object]]:
    """The ``--all`` JSON Lines rows of a message, through the command line."""
    source = tmp_path / "m.eml"
    source.write_bytes(raw)
    out = tmp_path / "out.jsonl"
    status = main(["-j", "1", "--all", "-f", "jsonl", "-o", str(out), *options, str(source)])
    parsed = [json.loads(line) for line in out.read_text().splitlines()]
    assert status == (0 if parsed else 1)  # as grep: 1 when no URI was written
    return parsed


def header_hits(tmp_path: Path, raw: bytes, *options: str) -> list[tuple[object, object]]:
    """(uri, context) of each hit in the message's header."""
    return [
        (r["uri"], r["context"]) for r in rows(tmp_path, raw, *options) if r["part"] == "headers"
    ]


SCANNED = [
    # RFC 5322 section 3.6.5: Subject and Comments are unstructured; Keywords phrases.
    ("Subject: see http://s.example/x", "http://s.example/x", "header:subject"),
    ("Comments: mirrored at <http://c.example/>", "http://c.example/", "header:comments"),
    ("Keywords: uri, http://k.example/list", "http://k.example/list", "header:keywords"),
    # Section 3.6.8: every optional field is "field-name: unstructured".
    ("X-Mailer: PHPMailer 6.1 (https://github.com/PHPMailer/PHPMailer)",
     "https://github.com/PHPMailer/PHPMailer", "header:x-mailer"),
    ("User-Agent: notmuch (http://notmuchmail.org)", "http://notmuchmail.org", "header:user-agent"),
    ("Organization: see http://www.eircom.net/", "http://www.eircom.net/", "header:organization"),
    ("X-URL: http://www.teledyn.com/", "http://www.teledyn.com/", "header:x-url"),
    ("X-Spam-Report: SpamAssassin http://spamassassin.org/tag/ for details",
     "http://spamassassin.org/tag/", "header:x-spam-report"),
    ("Thread-Topic: notes at ftp://ftp.example/pub/", "ftp://ftp.example/pub/",
     "header:thread-topic"),
    # RFC 2045 section 8: Content-Description is *text.
    ("Content-Description: from http://cd.example/", "http://cd.example/",
     "header:content-description"),
    # Fields that hold URIs by design: RFC 2369, RFC 5064, RFC 2110, RFC 2557.
    ("List-Unsubscribe: <mailto:l-request@l.example?subject=unsubscribe>",
     "mailto:l-request@l.example?subject=unsubscribe", "header:list-unsubscribe"),
    ("Archived-At: <http://a.example/msg/1>", "http://a.example/msg/1", "header:archived-at"),
    ("Content-Location: http://cl.example/page", "http://cl.example/page",
     "header:content-location"),
]  # fmt: skip


@pytest.mark.parametrize(("field", "uri", "context"), SCANNED)
def test_unstructured_and_uri_fields_are_scanned(
    tmp_path: Path, field: str, uri: str, context: str
) -> None:
    assert header_hits(tmp_path, message(field)) == [(uri, context)]


NOT_SCANNED = [
    # RFC 5322 section 3.6.2, 3.6.3: addresses (a display name may look like a URI).
    'From: "http://spam.example/" <a@f.example>',
    "Sender: <http://se.example/>",
    "Reply-To: <mailto:r@example.org>",
    "To: http://to.example/ <b@example.org>",
    "Cc: <http://cc.example/>",
    # Section 3.6.4: identifiers.
    "Message-Id: <http://id.example/1@x>",
    "In-Reply-To: <http://irt.example/a@b>",
    "References: <a@b> <http://ref.example/>",
    # Section 3.6.6 and 3.6.7: resent and trace fields.
    "Resent-From: <http://resent.example/>",
    "Return-Path: <http://rp.example/>",
    "Received: from x (http://rcv.example/) by y; Tue, 1 Jan 2002 10:00:00 +0000",
    # Dates (section 3.6.1, and other fields named so).
    "X-Original-Date: Tue, 1 Jan 2002 10:00:00 +0000 http://date.example/",
    # Signatures and authentication results (RFC 6376, 8617, 8601, 7208).
    "DKIM-Signature: v=1; d=example.org; h=from:to; b=http://dkim.example/",
    "ARC-Seal: i=1; a=rsa-sha256; cv=none; b=http://arc.example/",
    "Authentication-Results: mx.example; dkim=pass (http://ar.example/)",
    "Received-SPF: pass (http://spf.example/why)",
    # MIME structure (RFC 2045).
    'Content-Type: text/plain; x-see="http://ct.example/"',
    # Opaque machine data.
    "X-MS-Exchange-CrossTenant-Id: http://ms.example/",
]


@pytest.mark.parametrize("field", NOT_SCANNED)
def test_structured_fields_are_not_scanned(tmp_path: Path, field: str) -> None:
    assert field_kind(field.partition(":")[0].lower().encode()) is None
    assert header_hits(tmp_path, message(field)) == []


def test_an_encoded_word_is_decoded_before_scanning(tmp_path: Path) -> None:
    # RFC 2047: "http://enc.example/" in a Q-encoded word.
    raw = message("Subject: =?utf-8?q?see_http=3A=2F=2Fenc=2Eexample=2F_now?=")
    assert header_hits(tmp_path, raw) == [("http://enc.example/", "header:subject")]


def test_a_folded_field_is_unfolded_before_scanning(tmp_path: Path) -> None:
    # RFC 5322 section 2.2.3: the URI on the continuation line belongs to the field.
    raw = message("X-Home-Page:\n http://fold.example/~me/")
    assert header_hits(tmp_path, raw) == [("http://fold.example/~me/", "header:x-home-page")]


def test_an_unclosed_bracket_does_not_swallow_the_next_field(tmp_path: Path) -> None:
    """Each field stands on a line of its own with an empty line after it, which no URI
    spans: ``<`` without its ``>`` in one field cannot take the next field's text."""
    raw = message("X-Tracker: <http://t.example/issue/7", "X-Other: note> and more")
    assert header_hits(tmp_path, raw) == [("http://t.example/issue/7", "header:x-tracker")]


def test_headers_option_chooses_the_fields(tmp_path: Path) -> None:
    raw = message(
        "Subject: see http://subject.example/",
        "List-Post: <mailto:list@l.example>",
        "X-Tracker: see <https://tracker.example/7>",
        body="body http://body.example/\n",
    )
    every = {
        ("http://subject.example/", "header:subject"),
        ("mailto:list@l.example", "header:list-post"),
        ("https://tracker.example/7", "header:x-tracker"),
    }
    assert set(header_hits(tmp_path, raw)) == every
    assert set(header_hits(tmp_path, raw, "--headers", "all")) == every
    # links: the URI fields, and a field that shows a <scheme:...> (as before the option).
    assert set(header_hits(tmp_path, raw, "--headers", "links")) == every - {
        ("http://subject.example/", "header:subject")
    }
    assert header_hits(tmp_path, raw, "--headers", "none") == []
    body = [r["uri"] for r in rows(tmp_path, raw, "--headers", "none")]
    assert body == ["http://body.example/"]


def test_a_field_that_cannot_hold_a_uri_makes_no_unit() -> None:
    raw = message("Subject: Re: weekly notes", "X-Mailer: Mutt/1.5.21")
    assert [u.part for u in message_units(raw, "m", 0)] == ["1"]


def test_a_huge_field_is_cut_at_white_space_with_a_defect(tmp_path: Path) -> None:
    """A hostile 1 MB Subject: read up to MAX_FIELD bytes, cut at the last white space
    before, so that the URI running over the cap is not taken for a whole one."""
    long_uri = "http://cut.example/" + "a" * 200
    words = ["http://first.example/"] + ["word"] * (MAX_FIELD // 5)
    value = " ".join(words)
    value = value[: MAX_FIELD - 50] + " " + long_uri + " " + "b" * (1 << 20)
    units = [u for u in message_units(message(f"Subject: {value}"), "m", 0) if u.part == "headers"]
    (unit,) = units
    text = "".join(unit.chunks)
    assert len(text) <= MAX_FIELD + 100
    assert unit.defects == [f"subject field over {MAX_FIELD} bytes: cut"]
    uris = [hit[0] for hit in header_hits(tmp_path, message(f"Subject: {value}"))]
    assert uris == ["http://first.example/"]


def test_a_word_cut_by_a_report_preview_is_not_taken(tmp_path: Path) -> None:
    """SpamAssassin quotes the message cut short and marks the cut with "[...]" (as in
    jfs-discussion: "https://syzkaller.a [...]"): the word before the mark is cut."""
    raw = message(
        "X-Spam-Report: Content preview: see https://syzkaller.a [...] \n"
        " Content analysis details: http://spamassassin.org/tag/"
    )
    assert header_hits(tmp_path, raw) == [("http://spamassassin.org/tag/", "header:x-spam-report")]


def test_inner_messages_have_their_header_fields_scanned(tmp_path: Path) -> None:
    raw = message(
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="b"',
        body=(
            "--b\nContent-Type: message/rfc822\n\n"
            "Subject: forwarded http://inner.example/\nX-Mailer: Foo\n\nbody\n--b--\n"
        ),
    )
    found = [(r["uri"], r["context"], r["part"]) for r in rows(tmp_path, raw)]
    assert found == [("http://inner.example/", "header:subject", "1.headers")]


def test_parallel_run_gives_the_same_labels(tmp_path: Path) -> None:
    messages = []
    for n in range(40):
        messages.append(
            f"From a@b Thu Jan  1 00:00:00 1970\nMessage-ID: <m{n}@example.org>\n"
            f"Subject: item {n} http://s{n}.example/\nList-Post: <mailto:l@example.org>\n"
            f"Content-Type: text/html\n\n<a href='http://h{n}.example/'>x</a> "
            f"<td background='http://b{n}.example/i.gif'>\n"
        )
    source = tmp_path / "list.mbox"
    source.write_text("\n".join(messages))
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        assert main(["-j", jobs, "--all", "-f", "jsonl", "-o", str(out), str(source)]) == 0
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    contexts = {json.loads(line)["context"] for line in outs[0].splitlines()}
    assert contexts == {"header:subject", "header:list-post", "html:href", "html:background"}


# --- the shared corpora ---


def corpus(name: str) -> Path:
    path = SHARED / name
    if not path.exists():
        pytest.skip("../shared/corpora is not present")
    return path


def mbox_rows(tmp_path: Path, name: str) -> list[dict[str, object]]:
    import gzip

    source = tmp_path / name.removesuffix(".gz")
    source.write_bytes(gzip.decompress(corpus(name).read_bytes()))
    out = tmp_path / "out.jsonl"
    assert main(["-j", "2", "--all", "-f", "jsonl", "-o", str(out), str(source)]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_easy_ham_x_url_fields_are_found_in_every_message(tmp_path: Path) -> None:
    """Every ``X-URL`` / ``X-Image-Url`` value of spamassassin-easy_ham (read with the
    standard library) is a hit of its message, labelled with its field."""
    found = mbox_rows(tmp_path, "spamassassin-easy_ham.mbox.gz")
    by_message = {(r["message_index"], r["uri"], r["context"]) for r in found}
    source = tmp_path / "spamassassin-easy_ham.mbox"
    expected = 0
    box = mailbox.mbox(str(source))
    try:
        for index, msg in enumerate(box):
            for name in ("X-URL", "X-Image-Url"):
                for value in msg.get_all(name) or []:
                    uri = str(value).strip()
                    if re.fullmatch(r"https?://[A-Za-z0-9./~_-]+", uri):
                        expected += 1
                        assert (index, uri, f"header:{name.lower()}") in by_message
    finally:
        box.close()
    assert expected >= 100
    # No header hit comes from a structured field.
    for r in found:
        context = str(r["context"])
        if context.startswith("header:"):
            assert field_kind(context[7:].encode()) is not None, r


def test_a_name_that_is_no_field_name_is_labelled_other(tmp_path: Path) -> None:
    long_name = "X-" + "a" * 70
    raw = message(f"{long_name}: see http://long.example/", "X-Short: http://short.example/")
    assert header_hits(tmp_path, raw) == [
        ("http://long.example/", "header:other"),
        ("http://short.example/", "header:x-short"),
    ]
