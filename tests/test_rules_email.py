"""The email rule (opt-in): addresses by UTS #58's Link_Email (RFC 5321 §4.1.2
Dot-string local parts of at most 64 octets, RFC 6531 §3.3 non-ASCII ones), reported as
``mailto:`` URIs; an address inside a URI already taken is not reported twice."""

from __future__ import annotations

import pytest

from helpers import hits, uris
from urimine import dedup_key, extract, finditer

RULES = "default,email"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write to bob@example.com.", ["mailto:bob@example.com"]),
        (
            "x.y+tag@sub.example.org, z@ex.net;",
            ["mailto:x.y+tag@sub.example.org", "mailto:z@ex.net"],
        ),
        ("(bob@example.com)", ["mailto:bob@example.com"]),
        ("<bob@example.com>", ["mailto:bob@example.com"]),
        ("bob@www.example.com", ["mailto:bob@www.example.com"]),  # not an abbreviated URI
        # RFC 6531: a non-ASCII local part and domain, percent-encoded in the URI.
        ("Jürgen@beispiel.de", ["mailto:J%C3%BCrgen@beispiel.de"]),
        # RFC 3986 / RFC 6068: what mailto: needs encoded is encoded.
        ("a%b@example.com", ["mailto:a%25b@example.com"]),
        # Written with its scheme: the URI's own hit only, once.
        ("mailto:bob@example.com", ["mailto:bob@example.com"]),
        ("<mailto:bob@example.com>", ["mailto:bob@example.com"]),
        ("MAILTO:bob@example.com", ["MAILTO:bob@example.com"]),
        # An address inside a URL is the URL's.
        ("http://user@example.com/x", ["http://user@example.com/x"]),
    ],
)
def test_found(text: str, expected: list[str]) -> None:
    assert uris(text, rules=RULES) == expected


@pytest.mark.parametrize(
    "text",
    [
        "bob@localhost",  # no top-level domain
        "bob@example.invalid",
        "bob@example",
        "@example.com",
        ".bob@example.com",  # no Dot-string: neither the address nor the domain
        "bob.@example.com",
        "bo..b@example.com",
        "a" * 65 + "@example.com",  # a local part is at most 64 octets
        "bob@-x.com",
        "bob@@example.com",
        "bob@ example.com",
        "@x.om@b.om",  # a domain without a local part is no other address's local part
    ],
)
def test_not_found(text: str) -> None:
    assert uris(text, rules=RULES) == []


def test_off_by_default() -> None:
    assert uris("bob@example.com") == []


def test_raw_offsets_context_and_key() -> None:
    text = "Bob <Bob.Smith@Example.COM> mailto:Bob.Smith@Example.COM"
    first, second = hits(text, rules=RULES)
    assert (first.raw, first.start, first.end) == ("Bob.Smith@Example.COM", 5, 26)
    assert (first.uri, first.context, first.scheme) == (
        "mailto:Bob.Smith@Example.COM",
        "email",
        "mailto",
    )
    assert first.key == second.key == dedup_key("mailto:Bob.Smith@Example.COM")
    assert extract(text, rules=RULES) == ["mailto:Bob.Smith@Example.COM"]


def test_a_list_and_presets_with_rules_in_every_form() -> None:
    text = "a@b.example.com www.example.org"
    want = ["mailto:a@b.example.com", "http://www.example.org"]
    assert [h.uri for h in finditer(text, rules="default,email")] == want
    assert [h.uri for h in finditer(text, rules=("default", "email"))] == want
    assert [h.uri for h in finditer(text, rules=" default , email ")] == want
    with pytest.raises(ValueError, match="unknown rule"):
        list(finditer(text, rules="default,emails"))
    # One rule named alone is that rule, as `--rules email` reads it; a preset stays one.
    assert [h.uri for h in finditer(text, rules="email")] == want[:1]
    assert [h.uri for h in finditer(text, rules="uts58")] == [
        h.uri for h in finditer(text, rules=("uts58",))
    ]
    with pytest.raises(ValueError, match="unknown rule"):
        list(finditer(text, rules="emails"))
