"""E-mail addresses (`urimine.emails`): UTS #58's Link_Email local parts, RFC 5321
§4.1.2 Dot-strings of at most 64 octets (§4.5.3.1.1), RFC 6068 mailto: URIs."""

from __future__ import annotations

import pytest

from urimine.emails import find_emails, mailto_uri


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "See αβγ.δεζ@example.com on",
            [("αβγ.δεζ@example.com", "mailto:%CE%B1%CE%B2%CE%B3.%CE%B4%CE%B5%CE%B6@example.com")],
        ),
        (
            "See mailto:john.smith@example.com/foo",
            [("mailto:john.smith@example.com", "mailto:john.smith@example.com")],
        ),
        ("x.abcd@example.com.", [("x.abcd@example.com", "mailto:x.abcd@example.com")]),
        (
            "o'brien+tag@example.co.uk!",
            [("o'brien+tag@example.co.uk", "mailto:o'brien+tag@example.co.uk")],
        ),
        ("a#b@example.com", [("a#b@example.com", "mailto:a%23b@example.com")]),
        (
            "Lorem john.doe@example.com:1234/forum",
            [("john.doe@example.com", "mailto:john.doe@example.com")],
        ),
        # No valid local part, no valid domain, no real TLD: nothing.
        ("See @example.com, john.@example.com, .john@example.com, j..d@example.com", []),
        ('See "john\\ doe"@example.com', []),
        ("a@example, a@localhost, a@b.invalid, a@-b.com, a@b..com", []),
        # The userinfo of a URL is not an address.
        ("http://john.smith@example.com/x", []),
        # RFC 5321 §4.5.3.1.1: at most 64 octets.
        (
            "x" * 64 + "@example.com",
            [("x" * 64 + "@example.com", "mailto:" + "x" * 64 + "@example.com")],
        ),
        ("x" * 65 + "@example.com", []),
    ],
)
def test_find_emails(text: str, found: list[tuple[str, str]]) -> None:
    assert [(text[a.start : a.end], a.uri) for a in find_emails(text)] == found


def test_parts_and_mailto() -> None:
    (address,) = find_emails("Write to Jo@Example.ORG today")
    assert (address.local, address.domain, address.address) == (
        "Jo",
        "Example.ORG",
        "Jo@Example.ORG",
    )
    assert mailto_uri("a b", "ex.com") == "mailto:a%20b@ex.com"


def test_many_at_signs_stay_linear() -> None:
    text = "a@" * 400_000 + "b@c.com " + "@x.com " * 100_000
    found = find_emails(text)
    assert [text[a.start : a.end] for a in found][:1] == ["b@c.com"]
    assert len(found) == 1
