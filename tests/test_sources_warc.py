"""WARC/WET reading: record selection, HTTP payloads, truncation."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from urimine.errors import SourceError
from urimine.sources import open_units
from urimine.sources.unit import Unit

FIXTURES = Path(__file__).resolve().parents[1] / "corpora" / "fixtures"


def record(kind: str, block: bytes, **headers: str) -> bytes:
    fields = "".join(f"{k.replace('_', '-')}: {v}\r\n" for k, v in headers.items())
    head = f"WARC/1.0\r\nWARC-Type: {kind}\r\n{fields}Content-Length: {len(block)}\r\n\r\n"
    return head.encode() + block + b"\r\n\r\n"


def units(path: Path) -> list[Unit]:
    return list(open_units(str(path)))


def test_response_record_becomes_one_html_unit() -> None:
    (unit,) = units(FIXTURES / "crawl.warc.gz")  # warcinfo and request are skipped
    body = "".join(unit.chunks)
    assert unit.is_warc and unit.doc_index == 2
    assert unit.record_id == "urn:uuid:22222222-2222-2222-2222-222222222222"
    assert unit.target_uri == unit.base_uri == "https://site.example.com/dir/page.html"
    assert "\n<https://site.example.com/about>\n" in body
    assert "\n<https://site.example.com/dir/news/today.html>\n" in body
    assert "https://plain.example.com/text & more" in body
    assert "script.example.com" not in body and "HTTP/1.1" not in body


def test_wet_conversion_records_are_plain_text() -> None:
    got = [
        (u.doc_index, u.target_uri, "".join(u.chunks))
        for u in units(FIXTURES / "crawl.warc.wet.gz")
    ]
    assert got == [
        (0, "https://a.example.com/", "Text of page A with http://a.example.com/link inside.\n"),
        (
            1,
            "https://b.example.com/",
            "Page B cites urn:isbn:0451450523 and <https://b.example.com/x>.\n",
        ),
    ]


def test_truncated_record_yields_earlier_records_then_raises() -> None:
    """The cut record comes out too, marked as cut (its text does not end where the
    file does), then the error."""
    path = FIXTURES / "truncated-record.warc.gz"
    seen = []
    with pytest.raises(SourceError) as info:
        for unit in open_units(str(path)):
            seen.append((unit.record_id, unit.truncated, "".join(unit.chunks)))
    assert seen == [
        ("urn:uuid:22222222-2222-2222-2222-222222222222", False, seen[0][2]),
        (
            "urn:uuid:44444444-4444-4444-4444-444444444444",
            True,
            ("cut short http://cut.example/" * 3)[:67],
        ),
    ]
    assert info.value.source == str(path)
    assert info.value.reason == (
        "truncated WARC record urn:uuid:44444444-4444-4444-4444-444444444444: got 67 of 87 bytes"
    )


def test_a_record_without_an_id_is_named_by_its_place(tmp_path: Path) -> None:
    """An error names a record by its WARC-Record-ID, or by its place in the file when
    it has none (the message read "WARC record None")."""
    path = tmp_path / "no-id.warc"
    path.write_bytes(
        b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
        b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: x\r\n\r\n"
    )
    with pytest.raises(SourceError) as info:
        list(open_units(str(path)))
    assert info.value.reason == (
        "WARC record number 2 (no WARC-Record-ID) without a valid Content-Length"
    )


def test_chunked_gzip_http_payload_and_charset(tmp_path: Path) -> None:
    html = "<p>Ünïcode <a href='x'>x</a></p>".encode("iso-8859-1")
    zipped = gzip.compress(html)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(zipped), zipped)
    http = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-1\r\n"
        b"Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n" + chunked
    )
    path = tmp_path / "c.warc"
    path.write_bytes(record("response", http, WARC_Target_URI="http://h.example/d/"))
    (unit,) = units(path)
    assert "".join(unit.chunks) == "\nÜnïcode \n<http://h.example/d/x>\nx\n"


def test_non_text_payloads_are_skipped(tmp_path: Path) -> None:
    http = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00\x00"
    path = tmp_path / "img.warc"
    path.write_bytes(
        record("response", http)
        + record("resource", b"r http://r.example/", Content_Type="text/plain")
    )
    assert [u.doc_index for u in units(path)] == [1]


def test_garbage_between_records_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.warc"
    path.write_bytes(record("conversion", b"ok http://ok.example/") + b"garbage\r\n")
    seen = []
    with pytest.raises(SourceError, match="not a WARC record header"):
        for unit in open_units(str(path)):
            seen.append("".join(unit.chunks))
    assert seen == ["ok http://ok.example/"]
