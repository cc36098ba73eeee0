"""Refanging defanged indicators (`urimine.refang`), as threat reports write them."""

from __future__ import annotations

import pytest

from urimine.refang import find_defanged, refang, refang_text


@pytest.mark.parametrize(
    ("span", "uri"),
    [
        ("hxxp://evil[.]example[.]com/x", "http://evil.example.com/x"),
        ("hxxps://evil.example.com/a?b=1", "https://evil.example.com/a?b=1"),
        ("hXXps[://]evil(.)example/x", "https://evil.example/x"),
        ("fxp://files[.]example[.]org/pub", "ftp://files.example.org/pub"),
        ("http[:]//evil[dot]com", "http://evil.com"),
        ("evil{.}com[/]path", "http://evil.com/path"),
        ("hxxp://203[.]0[.]113[.]7:8080/c2", "http://203.0.113.7:8080/c2"),
        ("bob[@]evil[.]com", "mailto:bob@evil.com"),
        ("bob[at]evil[.]com", "mailto:bob@evil.com"),
        ("bob(at)evil.com", "mailto:bob@evil.com"),
        ("evil[.]com", "http://evil.com"),
        # Negatives: nothing defanged, or no indicator once refanged.
        ("example.com", None),
        ("http://example.com", None),
        ("end [.] Next", None),
        ("figure[.]3", None),
        ("e[.]g", None),
        ("see (at) noon", None),
        ("hxxp://", None),
        ("a[.]b[.]invalid", None),
    ],
)
def test_refang(span: str, uri: str | None) -> None:
    assert refang(span) == uri


def test_refang_text_changes_only_the_marks() -> None:
    assert refang_text("Go to hxxp[://]a[.]example [at] noon.") == "Go to http://a.example @ noon."


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "IOCs: hxxp://evil[.]example[.]com/a, bad[.]example[.]net. Mail x[@]evil[.]com!",
            [
                ("hxxp://evil[.]example[.]com/a", "http://evil.example.com/a"),
                ("bad[.]example[.]net", "http://bad.example.net"),
                ("x[@]evil[.]com", "mailto:x@evil.com"),
            ],
        ),
        ("(see evil[.]com)", [("evil[.]com", "http://evil.com")]),
        ('"hxxps://evil[.]com/x"', [("hxxps://evil[.]com/x", "https://evil.com/x")]),
        ("It ends here [.] And then (.) more {.} text [dot] too.", []),
        ("Version 2[.]0 and item [.]5 and file[.]txt", []),
        ("evil[.]com[.]", [("evil[.]com", "http://evil.com")]),
    ],
)
def test_find_defanged_reports_raw_spans(text: str, found: list[tuple[str, str]]) -> None:
    assert [(text[d.start : d.end], d.uri) for d in find_defanged(text)] == found


def test_a_long_text_of_marks_stays_linear() -> None:
    """A run of marks longer than a domain name may be (253 characters, RFC 1035
    §2.3.4) is no indicator; one of a domain name's length is, however many follow."""
    head = "b[.]" * 60 + "com "
    text = head + "a[.]" * 200_000 + "com " + "[.] " * 100_000 + "a)" * 50_000
    found = find_defanged(text)
    assert [(d.start, d.end) for d in found] == [(0, len(head) - 1)]
