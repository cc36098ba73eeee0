"""UTS #58 link detection against Unicode's LinkDetectionTest.txt, every line of both
the 17.0.0 and the dev copies: the marks removed, `detect` must mark the line again."""

from __future__ import annotations

import itertools

import pytest

from urimine.uts58 import LinkKind, detect
from uts58_files import CLOSE, OPEN, VERSIONS, detection_lines


def _marked(plain: str) -> str:
    out, last = [], 0
    for link in detect(plain):
        out += [plain[last : link.start], OPEN, plain[link.start : link.end], CLOSE]
        last = link.end
    return "".join([*out, plain[last:]])


@pytest.mark.parametrize("version", VERSIONS)
def test_every_line_of_the_link_detection_test(version: str) -> None:
    lines = detection_lines(version)
    # The files' own shape: 345 test lines, a line of one space, a ZWNJ inside a path.
    assert len(lines) == 345
    assert (109, " ") in lines
    assert any(no == 165 and "\u200c" in line for no, line in lines)
    failures = [
        (no, line, got)
        for no, line in lines
        if (got := _marked(line.replace(OPEN, "").replace(CLOSE, ""))) != line
    ]
    assert not failures, failures[:5]
    assert sum(line.count(OPEN) for _no, line in lines) > 250


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See http://example.com/α.", [("http://example.com/α", "scheme", "http://example.com/α")]),
        ("See HTTPS://Example.COM:8080/x", [("HTTPS://Example.COM:8080/x", "scheme", None)]),
        ("See example.com, then", [("example.com", "domain", "http://example.com")]),
        ("Mail mailto:A.b@Example.org.", [("mailto:A.b@Example.org", "email", None)]),
        ("Mail αβ@example.org", [("αβ@example.org", "email", "mailto:%CE%B1%CE%B2@example.org")]),
        # A port of six digits or above 65535 is no port, and the host no link.
        ("x example.com:123456 y", []),
        ("x example.com:65536 y", []),
        ("x example.com: y", [("example.com", "domain", None)]),
        # The TLD must be real, the labels well formed, a label must come before it.
        ("setup.invalid, a.b-.com, .com, com", []),
        # Other schemes are not UTS #58's: the host alone is linked.
        ("ftp://example.com/x", [("example.com/x", "domain", None)]),
        # Full-width and halfwidth ideographic full stops separate labels as "." does.
        (
            "普遍适用测试．我爱你 and ｴ｡com",
            [("普遍适用测试．我爱你", "domain", None), ("ｴ｡com", "domain", None)],
        ),
    ],
)
def test_kinds_and_uris(text: str, expected: list[tuple[str, str, str | None]]) -> None:
    got = [(text[link.start : link.end], link.kind.value, link.uri) for link in detect(text)]
    assert [(t, k) for t, k, _u in got] == [(t, k) for t, k, _u in expected]
    for (t, _k, uri), (_t, _k2, want) in zip(got, expected, strict=True):
        assert uri == (want if want is not None else uri)
        assert LinkKind(_k) is not None and t


HOSTILE = {
    # Each a megabyte or so of text built to make a naive scanner go back and forth.
    "brackets": ("example.com/" + "(" * 1_000_000, 1),
    "closers": ("example.com/" + "a)" * 500_000, 1),
    # Longer than a domain name may be (253 characters, RFC 1035 §2.3.4): no link.
    "dots": ("a." * 500_000 + "com", 0),
    "dots-then-a-domain": ("a." * 500_000 + " " + "a." * 120 + "com", 1),
    "tld-prefixes": ("a.comx" * 170_000, 0),
    "ats": ("a@" * 500_000 + "b.com", 1),
    "labels": ("a-.com/ " * 125_000, 0),
    "emails": ("a@b.com. " * 125_000, 125_000),
    "softs": ("example.com/a" + "." * 1_000_000, 1),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_megabyte_inputs_are_scanned_once(name: str) -> None:
    """Linear time, checked by structure: every hostile input of about 1 MB is scanned
    (well within the run's per-test time-out) and gives exactly the links it holds."""
    text, count = HOSTILE[name]
    assert len(text) >= 900_000
    links = detect(text)
    assert len(links) == count
    assert all(a.end <= b.start for a, b in itertools.pairwise(links))
