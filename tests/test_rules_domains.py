"""The domains rule (opt-in): any host whose last label is a top-level domain of the
root zone, alone or with a port and path, completed with ``http://`` (seed 002
Appendix F: "or simply the DNS hostname on its own"; as UTS #58 links domains)."""

from __future__ import annotations

import pytest

from helpers import hits, uris

RULES = "default,domains"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See example.com.", ["http://example.com"]),
        (
            "w3.org/Addressing/ and docs.python.org:443/3/",
            ["http://w3.org/Addressing/", "http://docs.python.org:443/3/"],
        ),
        ("(foo.info/himom)", ["http://foo.info/himom"]),
        ("www.example.com", ["http://www.example.com"]),  # the abbreviated rule's
        ("bücher.de", ["http://bücher.de"]),
        # The known trap: file names whose extension is a TLD (.py is Paraguay's).
        ("run setup.py", ["http://setup.py"]),
    ],
)
def test_found(text: str, expected: list[str]) -> None:
    assert uris(text, rules=RULES) == expected


@pytest.mark.parametrize(
    "text",
    [
        "e.g. this",
        "example.notatld",
        "a.b.c",
        "bob@example.com",  # an address
        "/usr/lib/x.com",  # a path
        "1.2.3",
        "version 1.2.com3",
        "x-.com",
    ],
)
def test_not_found(text: str) -> None:
    assert uris(text, rules=RULES) == []


def test_context_and_off_by_default() -> None:
    assert [h.context for h in hits("w3.org www.w3.org", rules=RULES)] == ["domains", "abbreviated"]
    assert uris("w3.org") == []
