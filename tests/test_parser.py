"""Tests of the RFC 3986 grammar, splitting and validation (seed 002 sections 1.3, 3, 4)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urimine import _abnf, finditer
from urimine.errors import InvalidURI, Reason
from urimine.parser import (
    URI,
    _diagnose,
    check_reference,
    check_uri,
    could_start_uri,
    parse_reference,
    parse_uri,
    split_reference,
)

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


def rows(name: str) -> list[list[str]]:
    """Tab-separated rows of a corpora file, without comment lines."""
    text = (CORPORA / name).read_text("utf-8")
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


def jsonl(name: str) -> list[dict[str, object]]:
    """The objects of a JSON Lines file under corpora/."""
    lines = (CORPORA / name).read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


EXAMPLES = [line[0] for line in rows("rfc/example-uris.txt")]


@pytest.mark.parametrize("uri", EXAMPLES)
def test_section_1_3_examples_are_valid(uri: str) -> None:
    assert check_uri(uri, iri=False) is None
    assert parse_uri(uri).unsplit() == uri


def _validity_cases() -> list[tuple[str, bool, str, str]]:
    cases = []
    for text, mode, expected, position, *_ in rows("rfc/uri-validity.tsv"):
        text = "" if text == "<empty>" else text
        for iri in {"both": (False, True), "iri": (True,), "uri": (False,)}[mode]:
            cases.append((text, iri, expected, position))
    return cases


@pytest.mark.parametrize(("text", "iri", "expected", "position"), _validity_cases())
def test_validity_table(text: str, iri: bool, expected: str, position: str) -> None:
    got = check_uri(text, iri=iri)
    if expected == "valid":
        assert got is None
    else:
        assert got == (Reason[expected], int(position))


# The peer (python-hyper/rfc3986 is_valid) and RFC 3986 differ on these rows:
PEER_VALIDITY_DIFFERENCES = {
    # RFC 3986 3.2.2: "256.256.256.256" is not an IPv4address but matches reg-name.
    "https://256.256.256.256": True,
}


@pytest.mark.parametrize("case", jsonl("peers/uri-validity.jsonl"), ids=lambda c: c["input"])
def test_peer_validity(case: dict[str, object]) -> None:
    text = str(case["input"])
    expected = PEER_VALIDITY_DIFFERENCES.get(text, case["valid"])
    assert (check_uri(text, iri=False) is None) == expected


def test_peer_snowman_is_a_valid_iri() -> None:
    # The peer rejects "https://☃" (a URI check); U+2603 is an RFC 3987 ucschar.
    assert check_uri("https://☃", iri=True) is None


@pytest.mark.parametrize("case", jsonl("peers/uri-split.jsonl"), ids=lambda c: repr(c["input"]))
def test_peer_split(case: dict[str, object]) -> None:
    u = split_reference(str(case["input"]))
    got = {k: getattr(u, k) for k in ("scheme", "authority", "path", "query", "fragment")}
    assert got == case["expect"]
    assert u.unsplit() == case["input"]


def test_split_subcomponents_and_absent_versus_empty() -> None:
    u = split_reference("foo://user:pw@example.com:8042/over/there?name=ferret#nose")
    assert (u.userinfo, u.host, u.port) == ("user:pw", "example.com", "8042")
    assert split_reference("http://[::1]:80/").host == "[::1]"
    empty = split_reference("http://@h:?#")
    assert (empty.userinfo, empty.port, empty.query, empty.fragment) == ("", "", "", "")
    absent = split_reference("http://h")
    assert (absent.userinfo, absent.port, absent.query, absent.fragment) == (None,) * 4
    assert split_reference("mailto:x").authority is None


@pytest.mark.parametrize(("address", "valid", "note"), rows("rfc/ipv6.tsv"))
def test_ipv6address(address: str, valid: str, note: str) -> None:
    assert bool(_abnf.IPV6ADDRESS_RE.fullmatch(address)) == (valid == "1")
    expected = None if valid == "1" else (Reason.BAD_IPV6, 7)
    assert check_uri(f"http://[{address}]/") == expected


def test_ipv6_has_the_nine_alternatives() -> None:
    assert len(_abnf.IPV6_ALTERNATIVES) == 9


@pytest.mark.parametrize(("text", "ipv4"), rows("rfc/ipv4.tsv"))
def test_ipv4address(text: str, ipv4: str) -> None:
    assert bool(_abnf.IPV4ADDRESS_RE.fullmatch(text)) == (ipv4 == "1")
    assert check_uri(f"http://{text}/") is None  # reg-name either way (3.2.2)


@pytest.mark.parametrize(
    ("text", "reason", "position"),
    [("http://a/ b", Reason.ILLEGAL_CHAR, 9), ("http://a:70000/", Reason.BAD_PORT, 9)],
)
def test_parse_uri_raises(text: str, reason: Reason, position: int) -> None:
    with pytest.raises(InvalidURI) as info:
        parse_uri(text)
    assert (info.value.reason, info.value.position, info.value.text) == (reason, position, text)


def test_parse_uri_returns_components() -> None:
    u = parse_uri("http://a/b?c#d")
    assert u == URI("http://a/b?c#d", "http", "a", None, "a", None, "/b", "c", "d")


APPENDIX_C_REFS = [row[0] for row in rows("rfc/resolution-2396bis-appendix-c.tsv")]


@pytest.mark.parametrize("ref", [*APPENDIX_C_REFS, "//g", "?y", "#s", "", "a/b:c", "./this:that"])
def test_relative_references_are_valid(ref: str) -> None:
    assert check_reference(ref) is None
    assert parse_reference(ref).unsplit() == ref


@pytest.mark.parametrize(
    ("ref", "reason", "position"),
    [
        ("this:that x", Reason.ILLEGAL_CHAR, 9),
        ("_:x", Reason.BAD_SCHEME, 0),  # RFC 3986 4.2: first segment of a relative path
        ("a b", Reason.ILLEGAL_CHAR, 1),
        ("//[::1/", Reason.BAD_IPV6, 2),
    ],
)
def test_invalid_references(ref: str, reason: Reason, position: int) -> None:
    assert check_reference(ref) == (reason, position)
    with pytest.raises(InvalidURI):
        parse_reference(ref)


URIISH = st.text(alphabet="aZ09%:/?#[]@.-_~!$'()+,;=<> \\\"{}éü\ue000", max_size=30)


@given(st.one_of(URIISH, st.builds("http://{}".format, URIISH), st.text(max_size=30)))
def test_split_is_lossless_and_unsplit_reparses(s: str) -> None:
    u = split_reference(s)
    assert u.unsplit() == s
    assert split_reference(u.unsplit()) == u


@given(st.one_of(URIISH, st.builds("http://{}".format, URIISH), st.builds("x:{}".format, URIISH)))
def test_fast_and_slow_paths_agree(s: str) -> None:
    for iri in (False, True):
        regex = _abnf.IRI_RE if iri else _abnf.URI_RE
        assert (regex.fullmatch(s) is None) == (_diagnose(s, iri=iri, absolute=True) is not None)


ABNF_RE = re.compile(_abnf.URI_ABNF)


@given(st.one_of(URIISH, st.builds("http://{}".format, URIISH), st.builds("x:{}".format, URIISH)))
def test_fast_regex_equals_the_literal_abnf(s: str) -> None:
    assert bool(_abnf.URI_RE.fullmatch(s)) == bool(ABNF_RE.fullmatch(s))


LABEL = st.text(alphabet="abcXYZ019-", min_size=1, max_size=8)
SEGMENT = st.text(alphabet="abc019-._~!$&'()*+,;=:@", max_size=8)


@given(
    st.sampled_from(["http", "HTTPS", "ftp", "x-y+z"]),
    st.lists(LABEL, min_size=1, max_size=3),
    st.one_of(st.none(), st.integers(0, 65535).map(str)),
    st.lists(SEGMENT, max_size=4),
    st.one_of(st.none(), SEGMENT),
    st.one_of(st.none(), SEGMENT),
)
def test_parse_of_unsplit_equals_parse(
    scheme: str,
    labels: list[str],
    port: str | None,
    segments: list[str],
    query: str | None,
    fragment: str | None,
) -> None:
    text = f"{scheme}://{'.'.join(labels)}" + (f":{port}" if port is not None else "")
    text += "".join("/" + seg for seg in segments)
    text += (f"?{query}" if query is not None else "") + (f"#{fragment}" if fragment else "")
    u = parse_uri(text)
    assert parse_uri(u.unsplit()) == u


@pytest.mark.parametrize(
    ("port", "refused"),
    [
        ("65535", False),
        ("65536", True),
        ("0000065535", False),
        ("0000065536", True),
        ("0" * 6000 + "80", False),
        ("1" * 6000, True),  # past int()'s 4300 digits: once a ValueError
    ],
)
def test_ports_above_65535_are_refused_however_many_digits(port: str, refused: bool) -> None:
    """RFC 3986 3.2.3: a port is digits; above 65535 it is refused for a scheme with a
    default port. Compared as text past five digits, so no length of digits raises."""
    found = check_uri(f"http://a.example:{port}/")
    assert (found is not None and found[0] is Reason.BAD_PORT) is refused


@pytest.mark.parametrize("digits", [10, 6000])
def test_a_text_ending_in_a_long_port_is_scanned(digits: int) -> None:
    """A text (or a chunk given whole) may end inside a port of any length: the URI is
    refused for its port, whatever its length, and nothing raises."""
    hits = list(finditer("see http://a.example:" + "1" * digits))
    assert not [hit for hit in hits if hit.scheme == "http"]


def _valid_texts() -> list[str]:
    """Valid URIs and IRIs from the seeds' examples and the tables and peers' suites."""
    texts = list(EXAMPLES)
    texts += [t for t, _, expected, _ in _validity_cases() if expected == "valid" and t]
    texts += [str(c["input"]) for c in jsonl("peers/uri-validity.jsonl") if c["valid"]]
    return [t for t in texts if check_uri(t) is None]


def test_every_prefix_of_a_valid_uri_could_start_one() -> None:
    """:func:`could_start_uri` says no only where no text added could make a URI: every
    prefix of every valid URI or IRI of the examples (seed 002 1.3), the validity
    table and the peers' suite could start one."""
    texts = _valid_texts()
    assert len(texts) > 50
    for text in texts:
        for k in range(1, len(text) + 1):
            assert could_start_uri(text[:k]), (text, k)


@pytest.mark.parametrize(
    ("text", "could"),
    [
        ("news:+_%zz-", False),  # "%z": no escape (2.1)
        ("http://a%4", True),  # an escape the text has not ended yet
        ("http://a%g", False),
        ("http://[-", False),  # an IP-literal holds no "-" (3.2.2)
        ("http://[::1]-", False),  # after the IP-literal only ":port", "/", "?", "#"
        ("tel:1]~-", False),  # "]" only in an IP-literal
        ("mailto:.-", True),
        ("http:-", True),  # the grammar's path-rootless (bare text's rules refuse it)
        ("http://a b", False),
        ("http://ex\u00e4mple-", True),  # an IRI (RFC 3987)
    ],
)
def test_could_start_uri(text: str, could: bool) -> None:
    assert could_start_uri(text) is could


@given(URIISH, URIISH)
def test_what_could_start_no_uri_is_no_uri_whatever_follows(head: str, tail: str) -> None:
    """A text that :func:`could_start_uri` says starts no URI starts no valid one."""
    for text in ("x:" + head, "http://" + head):
        if not could_start_uri(text):
            assert check_uri(text + tail) is not None
            assert check_uri(text + tail, iri=False) is not None
