"""The kind of an input from its head (``urimine.sources.detect.sniff``): markup is
known by what it starts with after a byte-order mark and white space, whatever the
file's name; any other head is plain text."""

from __future__ import annotations

import pytest

from urimine.sources.detect import sniff

BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"<html><body>http://a.example/", "html"),
        (BOM + b"\r\n \t<!DOCTYPE html><p>", "html"),
        (b"<!-- note --> \n<head><title>t</title>", "html"),
        (BOM + b'{"url": "http://a.example/"}', "json"),
        (b'\n\t [["http://a.example/"]]', "json"),
        (b'\x0b\x0c{"k": 1}\n{"k": 2}\n', "json"),
        (b"<p>a paragraph, no html element first", "text"),
        (b"< not a tag http://a.example/", "text"),
        (b"{not json} http://a.example/", "text"),
        (b"[1] see http://a.example/", "text"),
        (BOM + b"plain text http://a.example/", "text"),
        (b"", "text"),
        (b"Dear {name}, see <http://a.example/>", "text"),
    ],
)
def test_markup_is_known_by_its_start(head: bytes, kind: str) -> None:
    assert sniff(head, "notes.txt") == kind
    assert sniff(head * 3, "page.dat") == kind


def test_a_mail_head_and_a_name_still_come_before_the_markup_test() -> None:
    assert sniff(b"From: a@b.example\nSubject: s\n\n<html>", "x.txt") == "eml"
    assert sniff(b"plain words", "page.html") == "html"
    assert sniff(b"plain words", "data.jsonl") == "json"
