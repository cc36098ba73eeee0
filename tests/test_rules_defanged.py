"""The defanged rule (opt-in, never on by default): indicators as threat reports write
them, reported refanged; ``raw`` and the offsets are the text as written."""

from __future__ import annotations

import subprocess
import sys

import pytest

from helpers import hits, uris
from urimine import finditer
from urimine.rules.config import PRESETS

RULES = "default,defanged"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Beacon to hxxp://203[.]0[.]113[.]7/c2 now",
            [("hxxp://203[.]0[.]113[.]7/c2", "http://203.0.113.7/c2")],
        ),
        (
            "hxxps://evil[.]example[.]com/a?b=1.",
            [("hxxps://evil[.]example[.]com/a?b=1", "https://evil.example.com/a?b=1")],
        ),
        ("HXXPS[://]x.evil[.]org/a", [("HXXPS[://]x.evil[.]org/a", "https://x.evil.org/a")]),
        ("hxxp[:]//evil.com/x", [("hxxp[:]//evil.com/x", "http://evil.com/x")]),
        ("fxp://files.evil.net/x", [("fxp://files.evil.net/x", "ftp://files.evil.net/x")]),
        ("evil[.]com", [("evil[.]com", "http://evil.com")]),
        (
            "evil(.)com and evil{.}net, evil[dot]org",
            [
                ("evil(.)com", "http://evil.com"),
                ("evil{.}net", "http://evil.net"),
                ("evil[dot]org", "http://evil.org"),
            ],
        ),
        ("(see evil[.]com[.])", [("evil[.]com", "http://evil.com")]),
        ("bob[@]evil[.]com", [("bob[@]evil[.]com", "mailto:bob@evil.com")]),
        ("bob[at]evil(.)com", [("bob[at]evil(.)com", "mailto:bob@evil.com")]),
        # Written plainly: the bare rule's hit, once.
        ("http://evil.com/x", [("http://evil.com/x", "http://evil.com/x")]),
    ],
)
def test_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(h.raw, h.uri) for h in hits(text, rules=RULES)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "the end [.] Next",  # prose
        "see note (at) 3",
        "array[.]length",  # no top-level domain
        "hxxp://",
        "hxxp[.]" * 50,
        "evil[.]notatld",
        "[@]",
    ],
)
def test_not_found(text: str) -> None:
    assert uris(text, rules=RULES) == []


def test_a_longer_word_is_not_refanged() -> None:
    """``xhxxp`` is no defanged ``http``; with the default rules it is a scheme nobody
    registered written with ``//`` (issue 30 item 2), taken as written."""
    found = list(finditer("xhxxp://evil.com/", rules=RULES))
    assert [(h.uri, h.context) for h in found] == [("xhxxp://evil.com/", "bare")]
    assert uris("xhxxp://evil.com/", rules="angle,defanged") == []


def test_never_on_by_default_nor_in_a_preset() -> None:
    assert all("defanged" not in rules for rules in PRESETS.values())
    assert list(finditer("hxxp://evil[.]com/")) == []


def test_context_and_other_rules_in_the_same_token() -> None:
    found = hits("x[.]y http://a.example/ [.]http://b.example/", rules=RULES)
    assert [(h.uri, h.context) for h in found] == [
        ("http://a.example/", "bare"),
        ("http://b.example/", "bare"),
    ]
    (hit,) = hits("IOC: hxxp://evil[.]com", rules=RULES)
    assert (hit.context, hit.scheme, hit.start, hit.end) == ("defanged", "http", 5, 22)


def test_an_indicator_far_from_its_first_mark() -> None:
    """Up to 256 characters before the first mark (a host name's length): found however
    the text is fed; further back, not."""
    near = "hxxp://" + "a" * 200 + ".example.com/x[.]y"
    assert [h.raw for h in hits(near, rules=RULES)] == [near]
    far = "http://" + "a" * 300 + ".example.com/x[.]y"
    assert [h.context for h in hits(far, rules=RULES)] != ["defanged"]


def test_a_mark_far_into_a_token_with_a_small_length_bound_ends() -> None:
    """A mark more than the length bound into its token: no indicator, and the scan goes
    on (it once went back to the token's start, again and again)."""
    code = (
        "import urimine\n"
        "text = ('\\x85' + 'a' * 100 + '[dot][dot].org') * 20 + ' hxxp://evil[.]com'\n"
        "scanner = urimine.Scanner(rules=('lenient', 'defanged', 'email', 'domains'),"
        " max_candidate_len=40, speed=urimine.Speed.none())\n"
        "print([h.uri for h in scanner.hits([text])])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "['http://evil.com']"
