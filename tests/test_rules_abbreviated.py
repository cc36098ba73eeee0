"""The abbreviated rule (on by default): seed 002 Appendix F, "a reference consisting of
only the authority and path portions of the identified resource, such as
www.w3.org/Addressing/ ... most hostnames beginning with "www" are likely to have a URI
prefix of "http://"". Delimited as bare URIs are (Appendix E), checked under every
chunking."""

from __future__ import annotations

import subprocess

import pytest

from helpers import hits, urimine_exe, uris
from urimine import Scanner, dedup_key, extract, finditer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The seed's own example, and the DNS host name on its own.
        ("See www.w3.org/Addressing/ for more.", ["http://www.w3.org/Addressing/"]),
        ("www.w3.org", ["http://www.w3.org"]),
        # Any case; port, path, query, fragment.
        ("WWW.W3.ORG/Addressing/", ["http://WWW.W3.ORG/Addressing/"]),
        ("Www.Example.com:8080/a/b?q=1&r=2#top", ["http://Www.Example.com:8080/a/b?q=1&r=2#top"]),
        # ftp. hosts are completed with ftp://.
        ("get it from ftp.gnu.org/gnu/emacs/", ["ftp://ftp.gnu.org/gnu/emacs/"]),
        ("FTP.ietf.org", ["ftp://FTP.ietf.org"]),
        # Trailing punctuation and closers left out as for bare URIs (Appendix E).
        ("Visit www.example.com.", ["http://www.example.com"]),
        ("(see www.example.com/a)", ["http://www.example.com/a"]),
        ("www.example.com/wiki/Foo_(bar), then", ["http://www.example.com/wiki/Foo_(bar)"]),
        (
            "'www.example.com', \"www.example.org\"",
            ["http://www.example.com", "http://www.example.org"],
        ),
        ("<www.example.com/x>", ["http://www.example.com/x"]),
        ("*www.example.com*", ["http://www.example.com"]),
        (
            "a list: www.a.com, www.b.org; www.c.net!",
            ["http://www.a.com", "http://www.b.org", "http://www.c.net"],
        ),
        (
            "_www.example.com_ and **www.example.org**",
            ["http://www.example.com", "http://www.example.org"],
        ),
        # A mail quote marker before the line.
        ("> www.example.com/x\n", ["http://www.example.com/x"]),
        # An internationalised TLD and host.
        ("www.example.рф/путь", ["http://www.example.рф/путь"]),
        # www. and one more label that is itself a TLD.
        ("www.com", ["http://www.com"]),
        # Written in full: the bare rule's hit only.
        (
            "http://www.w3.org/ and HTTP://www.example.com",
            ["http://www.w3.org/", "HTTP://www.example.com"],
        ),
        ("<http://www.w3.org/Addressing/>", ["http://www.w3.org/Addressing/"]),
    ],
)
def test_found(text: str, expected: list[str]) -> None:
    assert uris(text) == expected
    assert all(h.context == "abbreviated" for h in hits(text) if "://" not in h.raw)


@pytest.mark.parametrize(
    "text",
    [
        "xwww.example.com",  # a longer word
        "bob@www.example.com",  # inside an e-mail address
        "a.www.example.com",  # a longer host
        "/www.example.com/x",  # a path
        "see_www.example.com",
        "x*www.example.com",
        "www.example",  # .example is no top-level domain of the root zone
        "www.example.notatld",
        "www.localhost",
        "ftp.example.invalid",
        "www.",
        "www",
        "www..com",
        "www.-bad.com",
        "www.bad-.com",
        "www.a_b.com",
        "www.example.com@evil.example",  # a user name: an address's, not this host's
        "w3.org/Addressing/",  # no www.: the domains rule's (opt-in)
        "setup.py",
        "the www. prefix",
        "wwww.example.com",
        "ftp.",
    ],
)
def test_not_found(text: str) -> None:
    assert uris(text) == []


def test_raw_and_offsets_are_the_text_as_written_and_the_key_dedups_with_the_full_link() -> None:
    text = "Read WWW.W3.org/Addressing/. Or http://www.w3.org/Addressing/"
    short, full = hits(text)
    assert (short.raw, short.start, short.end, short.column) == ("WWW.W3.org/Addressing/", 5, 27, 6)
    assert short.uri == "http://WWW.W3.org/Addressing/"
    assert (short.context, short.kind, short.scheme) == ("abbreviated", "uri", "http")
    assert short.key == full.key == dedup_key("http://www.w3.org/Addressing/")
    assert extract(text) == ["http://WWW.W3.org/Addressing/"]  # deduplicated


def test_on_in_default_and_lenient_off_in_strict_and_alone_by_name() -> None:
    text = "www.example.com/a"
    assert [h.uri for h in finditer(text, rules="lenient")] == ["http://www.example.com/a"]
    assert list(finditer(text, rules="strict")) == []
    assert [h.uri for h in finditer(text, rules=["abbreviated"])] == ["http://www.example.com/a"]
    assert [h.uri for h in finditer(text, rules="strict,abbreviated")] == [
        "http://www.example.com/a"
    ]


def test_a_list_may_leave_a_rule_out_of_a_preset() -> None:
    """``default,-abbreviated``: the default rules without this one (what the older
    speed costs), in every form a rule list is written, and on the command line."""
    text = "see www.example.com/a and http://b.example/c"
    want = ["http://b.example/c"]
    assert [h.uri for h in finditer(text, rules="default,-abbreviated")] == want
    assert [h.uri for h in finditer(text, rules=("-abbreviated", "default"))] == want
    assert [h.uri for h in finditer(text, rules="lenient,-abbreviated,-any-scheme")] == want
    assert uris(text, rules="default,-bare,-abbreviated") == []
    for bad, reason in (("default,-nothing", "unknown rule"), ("strict,-strict", "no rule")):
        with pytest.raises(ValueError, match=reason):
            list(finditer(text, rules=bad))
    done = subprocess.run(
        [urimine_exe(), "--no-progress", "--rules", "default,-abbreviated", "-"],
        input=text.encode(),
        capture_output=True,
        check=True,
    )
    assert done.stdout.decode().split() == want


def test_a_long_host_split_across_feeds_is_found_once() -> None:
    host = "www." + "a" * 60 + "." + "b" * 60 + ".com/" + "p" * 100
    scanner = Scanner()
    out = []
    for k in range(0, len(host), 3):
        out += scanner.feed(host[k : k + 3])
    out += scanner.close()
    assert [h.uri for h in out] == ["http://" + host]


def test_too_long_is_rejected_not_cut() -> None:
    text = "www.example.com/" + "a" * 200 + " www.example.org"
    found = list(Scanner(max_candidate_len=100, rejections=True).hits([text]))
    assert [h.uri for h in found] == ["http://www.example.org"]
