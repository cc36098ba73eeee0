"""Tests of reference resolution (seed 002 section 5.2, Appendix C; seed 001 Appendix C)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urimine.resolve import resolve

CORPORA = Path(__file__).resolve().parent.parent / "corpora"
BASE = "http://a/b/c/d;p?q"


def rows(name: str) -> list[list[str]]:
    """Tab-separated rows of a corpora file, without comment lines."""
    text = (CORPORA / name).read_text("utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize(
    ("ref", "expected", "strict"), rows("rfc/resolution-2396bis-appendix-c.tsv")
)
def test_002_appendix_c(ref: str, expected: str, strict: str) -> None:
    assert resolve(BASE, ref, strict=strict == "1", mode="rfc2396bis") == expected


URL_SYNTAX_05 = rows("rfc/resolution-url-syntax-05-appendix-c.tsv")


@pytest.mark.parametrize(
    ("ref", "expected_001", "strict"),
    [row[:3] for row in URL_SYNTAX_05 if row[3] == "="],
)
def test_001_appendix_c_where_001_and_002_agree(ref: str, expected_001: str, strict: str) -> None:
    assert resolve(BASE, ref, strict=strict == "1", mode="rfc2396bis") == expected_001


# Where 001 and 002 differ we follow 002 (and RFC 3986 agrees on every row but the last):
#   ?y               001 http://a/b/c/?y     002 http://a/b/c/d;p?y
#   g?y/./x          001 http://a/b/c/g?y/x  002 http://a/b/c/g?y/./x
#   g?y/../x         001 http://a/b/c/x      002 http://a/b/c/g?y/../x
#   http://a/../b/c  001 http://a/b/c ("some parsers inappropriately strip" it),
#                    002 leaves a scheme reference alone: http://a/../b/c;
#                    RFC 3986 5.2.2 removes its dot segments: http://a/b/c
DIFFERENCES = {
    "?y": ("http://a/b/c/?y", "http://a/b/c/d;p?y", "http://a/b/c/d;p?y"),
    "g?y/./x": ("http://a/b/c/g?y/x", "http://a/b/c/g?y/./x", "http://a/b/c/g?y/./x"),
    "g?y/../x": ("http://a/b/c/x", "http://a/b/c/g?y/../x", "http://a/b/c/g?y/../x"),
    "http://a/../b/c": ("http://a/b/c", "http://a/../b/c", "http://a/b/c"),
}


def test_the_differing_rows_are_listed() -> None:
    differing = {row[0]: (row[1], row[3]) for row in URL_SYNTAX_05 if row[3] != "="}
    assert differing == {ref: (v[0], v[1]) for ref, v in DIFFERENCES.items()}


@pytest.mark.parametrize("ref", sorted(DIFFERENCES))
def test_001_002_differences(ref: str) -> None:
    said_001, said_002, rfc3986 = DIFFERENCES[ref]
    assert said_001 != said_002
    assert resolve(BASE, ref, mode="rfc2396bis") == said_002
    assert resolve(BASE, ref, mode="rfc3986") == rfc3986


RESOLUTION = [
    json.loads(line)
    for line in (CORPORA / "peers/rfc3986-resolution.jsonl").read_text("utf-8").splitlines()
]


@pytest.mark.parametrize(
    "case", RESOLUTION, ids=lambda c: f"{c['base']}+{c['ref']}/{c.get('strict', True)}"
)
def test_peer_rfc3986_resolution(case: dict[str, object]) -> None:
    strict = bool(case.get("strict", True))
    assert resolve(str(case["base"]), str(case["ref"]), strict=strict) == case["expect"]


def test_fragment_and_empty_references() -> None:
    assert resolve("http://a/b?q#f", "#s") == "http://a/b?q#s"
    assert resolve("http://a/b?q#f", "") == "http://a/b?q"
    assert resolve("http://a/b?q#f", "", mode="rfc2396bis") == "http://a/b?q"


def test_modes_differ_on_excess_dot_dot() -> None:
    assert resolve(BASE, "../../../g") == "http://a/g"
    assert resolve(BASE, "../../../g", mode="rfc2396bis") == "http://a/../g"
    assert resolve(BASE, "/./g") == "http://a/g"
    assert resolve(BASE, "/./g", mode="rfc2396bis") == "http://a/./g"


def test_unknown_mode() -> None:
    with pytest.raises(ValueError, match="mode"):
        resolve(BASE, "g", mode="rfc1808")
