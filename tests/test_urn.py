"""Tests of URN syntax (seed 003 section 2), the 1993 form (seed 000) and URN equivalence."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from urimine.errors import InvalidURN, Reason
from urimine.normalize import dedup_key
from urimine.urn import (
    URN,
    LegacyURN,
    check_legacy_urn,
    check_urn,
    parse_urn,
    query_is_directives,
)

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


def rows(name: str) -> list[list[str]]:
    """Tab-separated rows of a corpora file, without comment lines."""
    text = (CORPORA / name).read_text("utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


SECTION_5_1 = {int(n): urn for n, urn in rows("normalize/urn-5.1.tsv")}


def test_section_5_1_examples_are_valid() -> None:
    assert all(check_urn(urn) is None for urn in SECTION_5_1.values())


def test_section_5_1_equivalence_classes() -> None:
    # "URNs 1, 2, 3 and 8 are all lexically equivalent, and URN 7 is also lexically
    # equivalent to these if step 5a is applied"; "URN 4 is not lexically equivalent to
    # any of the other URNs"; "URNs 5 and 6 are only lexically equivalent to each other."
    classes = [{1, 2, 3, 7, 8}, {4}, {5, 6}]
    for a, b in combinations(SECTION_5_1, 2):
        same_class = any(a in c and b in c for c in classes)
        assert (dedup_key(SECTION_5_1[a]) == dedup_key(SECTION_5_1[b])) == same_class, (a, b)


EQUIVALENCE = [
    json.loads(line)
    for line in (CORPORA / "peers/urn-equivalence.jsonl").read_text("utf-8").splitlines()
]


@pytest.mark.parametrize("case", EQUIVALENCE, ids=lambda c: f"{c['a']} ~ {c['b']}")
def test_peer_urn_equivalence(case: dict[str, object]) -> None:
    a, b = str(case["a"]), str(case["b"])
    assert (dedup_key(a) == dedup_key(b)) == case["equivalent"]


@pytest.mark.parametrize(
    "urn",
    [
        "urn:example:a123,z456",
        "urn:ietf:rfc:2141",
        "URN:ISBN:0-395-36341-1",
        "urn:a1:x",
        "urn:" + "a" * 32 + ":x",  # 003 2.1: at most 32 characters
        "urn:x-y:@:!$&'()*+,;=",  # every pchar
        "urn:foo:a%2Fb",  # "/" percent-encoded (2.5.1)
        "urn:example:a/b/c",  # RFC 8141 2: NSS = pchar *( pchar / "/" ) (issue 30 item 9)
        "urn:foo:bar?s=I2L&c=ToC",  # 2.3.2
        "urn:foo:bar?+abc",  # 2.3: any RFC 3986 query is accepted
        "urn:foo:bar#frag/?",  # 2.4
    ],
)
def test_valid_urns(urn: str) -> None:
    assert check_urn(urn) is None
    assert isinstance(parse_urn(urn), URN)


@pytest.mark.parametrize(
    ("urn", "reason", "position"),
    [
        ("", Reason.EMPTY, 0),
        ("http://x", Reason.NOT_A_URI, 0),
        ("urn", Reason.NO_SCHEME, 0),
        ("urn:urn:x", Reason.BAD_NID, 4),  # 2.1: "urn" is reserved
        ("urn:URN:x", Reason.BAD_NID, 4),
        ("urn:-ab:x", Reason.BAD_NID, 4),
        ("urn:ab-:x", Reason.BAD_NID, 6),
        ("urn:a:x", Reason.BAD_NID, 4),  # at least two characters
        ("urn:" + "a" * 33 + ":x", Reason.BAD_NID, 36),
        ("urn:a_b:x", Reason.BAD_NID, 5),
        ("urn:ab", Reason.BAD_NSS, 6),
        ("urn:ab:", Reason.BAD_NSS, 7),  # NSS = 1*pchar
        ("urn:ab:?x=y", Reason.BAD_NSS, 7),
        ("urn:ab:/b", Reason.BAD_NSS, 7),  # RFC 8141 2: the NSS starts with a pchar
        ("urn:ab:a[b", Reason.BAD_NSS, 8),
        ("urn:ab:a b", Reason.ILLEGAL_CHAR, 8),  # 2.5.3 excluded
        ("urn:ab:a%zz", Reason.BAD_PERCENT, 8),
        ("urn:ab:a%00", Reason.BAD_NSS, 8),  # 2.5.3: no NUL, not even percent-encoded
        ("urn:ab:a?b#c#d", Reason.BAD_FRAGMENT, 12),
        ("urn:ab:a?b[", Reason.BAD_QUERY, 10),
    ],
)
def test_invalid_urns(urn: str, reason: Reason, position: int) -> None:
    assert check_urn(urn) == (reason, position)
    with pytest.raises(InvalidURN) as info:
        parse_urn(urn)
    assert (info.value.reason, info.value.position) == (reason, position)


def test_parse_urn_components() -> None:
    assert parse_urn("URN:foo:a123,456?x=y#f") == URN(
        "URN:foo:a123,456?x=y#f", "foo", "a123,456", "x=y", "f"
    )


@pytest.mark.parametrize(
    ("query", "ok"),
    [
        ("s=I2L&c=ToC", True),  # 2.3.2
        ("s=I2U", True),  # 2.3.1
        ("k-1=a/b?c:d@e", True),
        ("s=", True),  # value = *v-pchar
        ("+abc", False),
        ("=xyz", False),
        ("a=b&&c=d", False),
        ("", False),
        ("1a=b", False),  # keywd starts with ALPHA
        ("a--b=c", False),  # keywd = ALPHA *( ["-"] (ALPHA / DIGIT) )
    ],
)
def test_query_directive_syntax(query: str, ok: bool) -> None:
    assert query_is_directives(query) is ok


@pytest.mark.parametrize(
    ("text", "expected", "encoding", "scheme", "authority", "opaque"),
    rows("normalize/legacy-urns.tsv"),
)
def test_legacy_urns(
    text: str, expected: str, encoding: str, scheme: str, authority: str, opaque: str
) -> None:
    if expected == "valid":
        assert check_legacy_urn(text) is None
        assert parse_urn(text) == LegacyURN(text, encoding, scheme, authority, opaque)
    else:
        bad = check_legacy_urn(text)
        assert bad is not None and bad[0] == Reason[expected]
        with pytest.raises(InvalidURN):
            parse_urn(text)


def test_legacy_keys_share_empty_and_ascii_encoding() -> None:
    assert dedup_key("<URN::X:y:z>") == dedup_key("<urn:ascii:x:y:z>")
    assert dedup_key("<URN:ASCII:IANA:merit.edu:1929642>") == dedup_key(
        "<urn::iana:MERIT.EDU:1929642>"
    )
