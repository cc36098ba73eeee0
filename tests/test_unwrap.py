"""Unwrapping security wrappers and redirectors (`urimine.unwrap`), from the wrappers'
published formats."""

from __future__ import annotations

import pytest

from urimine.unwrap import unwrap, unwrap_all

V3 = (
    "https://urldefense.com/v3/__https://firebasestorage.googleapis.com/v0/b/gund-50757"
    ".appspot.com/o/owa*2Findex2gun.html?alt=media&token=02497332*vicky@rsrchxchange.com"
    "__;JSM!!Fjc1LPEtn8I!xxxxx$"
)


@pytest.mark.parametrize(
    ("uri", "target"),
    [
        (
            "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2&data=05%7C01&sdata=x&reserved=0",
            "https://example.com/a?b=1&c=2",
        ),
        (
            "https://gcc02.safelinks.protection.office365.us/?url=http%3A%2F%2Fexample.gov%2F&data=x",
            "http://example.gov/",
        ),
        (
            "https://urldefense.proofpoint.com/v1/url?u=http://www.example.com/a%3Fb&k=abc&r=x",
            "http://www.example.com/a?b",
        ),
        (
            "https://urldefense.proofpoint.com/v2/url?u=http-3A__www.example.org_url&d=BwdwBAg&c=TIwfCwd",
            "http://www.example.org/url",
        ),
        (
            "https://urldefense.proofpoint.com/v2/url?u=https-3A__example.com_a-3Fq-3D1-26r-3D2&d=x&c=y",
            "https://example.com/a?q=1&r=2",
        ),
        (
            V3,
            "https://firebasestorage.googleapis.com/v0/b/gund-50757.appspot.com/o/owa%2F"
            "index2gun.html?alt=media&token=02497332#vicky@rsrchxchange.com",
        ),
        # v3 run lengths: "**A" stands for the next 2 characters, "**B" for 3.
        (
            "https://urldefense.com/v3/__https://a.example/x**Ay**Bz__;JSMmLyE!!k!",
            "https://a.example/x%#y&/!z",
        ),
        ("https://www.google.com/url?q=https://example.com/x&sa=D&ust=1", "https://example.com/x"),
        (
            "https://www.google.co.uk/url?url=http%3A%2F%2Fexample.com%2F&rct=j",
            "http://example.com/",
        ),
        (
            "https://www.youtube.com/redirect?q=https%3A%2F%2Fexample.com%2F&v=x",
            "https://example.com/",
        ),
        (
            "https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.com%2F&h=AT0",
            "https://example.com/",
        ),
        (
            "https://linkprotect.cudasvc.com/url?a=https%3a%2f%2fexample.com%2f&c=E,1,x",
            "https://example.com/",
        ),
        ("https://slack-redir.net/link?url=https%3A%2F%2Fexample.com", "https://example.com"),
    ],
)
def test_unwrap(uri: str, target: str) -> None:
    assert unwrap(uri) == target


@pytest.mark.parametrize(
    "uri",
    [
        "https://example.com/?url=https://example.org/",  # not a wrapper host
        "https://nam12.safelinks.protection.outlook.com/?data=x",  # no target
        "https://nam12.safelinks.protection.outlook.com/?url=javascript%3Aalert(1)",
        "https://nam12.safelinks.protection.outlook.com/?url=example.org",  # not absolute
        "https://urldefense.com/v3/__https://a.example/x*__;!!k!",  # a placeholder too many
        "https://urldefense.com/v3/__https://a.example/x*__;%%%!!k!",  # no base64url
        "https://urldefense.com/v3/garbage",
        "https://protect-eu.mimecast.com/s/AbCdEfGh?domain=example.com",  # opaque
        "https://t.co/abc123",
        "https://www.google.com/search?q=https://example.com/",  # a search, not a redirect
        "not a uri",
        "http://[::1",
    ],
)
def test_not_unwrapped(uri: str) -> None:
    assert unwrap(uri) is None
    assert unwrap_all(uri) == []


def test_nested_wrappers_unwrap_fully() -> None:
    inner = "https://urldefense.proofpoint.com/v2/url?u=https-3A__example.com_final&d=x&c=y"
    middle = "https://www.google.com/url?q=" + inner.replace("&", "%26").replace("=", "%3D")
    outer = (
        "https://eur01.safelinks.protection.outlook.com/?url="
        + middle.replace("%", "%25")
        .replace(":", "%3A")
        .replace("/", "%2F")
        .replace("?", "%3F")
        .replace("=", "%3D")
        .replace("&", "%26")
        + "&data=x"
    )
    assert unwrap_all(outer) == [middle, inner, "https://example.com/final"]


def test_a_loop_of_redirects_stops() -> None:
    a = "https://www.google.com/url?q=https%3A%2F%2Fwww.google.com%2Furl%3Fq%3Dhttps%253A%252F%252Fwww.google.com%252Furl"
    assert len(unwrap_all(a)) <= 16
