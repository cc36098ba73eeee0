"""The unwrap rule (opt-in) through the public API: a wrapper's hit as without the rule,
then its final target as a second hit (context ``unwrapped``, the wrapper's text and
offsets, ``Hit.wrapper`` naming the wrapper); the formats are the wrappers' published
ones (tests/test_unwrap.py)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from helpers import hits
from urimine import Scanner, dedup_key, extract, finditer

RULES = "default,unwrap"
SAFE = "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&data=05%7C01&reserved=0"
PP2 = "https://urldefense.proofpoint.com/v2/url?u=http-3A__www.example.org_url&d=BwdwBAg&c=TIwfCwd"
PP1 = "https://urldefense.proofpoint.com/v1/url?u=http://www.example.com/a%3Fb&k=abc&r=x"
PP3 = "https://urldefense.com/v3/__https://a.example/x*2Fy__;JSM!!k!"
GOOGLE = "https://www.google.com/url?q=https://example.com/x&sa=D&ust=1"


@pytest.mark.parametrize(
    ("wrapper", "target"),
    [
        (SAFE, "https://example.com/a?b=1"),
        (PP1, "http://www.example.com/a?b"),
        (PP2, "http://www.example.org/url"),
        (PP3, "https://a.example/x%2Fy"),
        (GOOGLE, "https://example.com/x"),
    ],
)
def test_the_wrapper_then_its_target(wrapper: str, target: str) -> None:
    text = f"Click <{wrapper}> now."
    found = hits(text, rules=RULES)
    assert [(h.uri, h.context, h.wrapper) for h in found] == [
        (wrapper, "angle", None),
        (target, "unwrapped", wrapper),
    ]
    outer, inner = found
    assert (inner.raw, inner.start, inner.end, inner.line, inner.column) == (
        outer.raw,
        outer.start,
        outer.end,
        outer.line,
        outer.column,
    )
    assert inner.key == dedup_key(target)
    assert inner.scheme == target.split(":")[0]


def test_nested_wrappers_give_the_final_target() -> None:
    inner = "https://urldefense.proofpoint.com/v2/url?u=https-3A__example.com_final&d=x&c=y"
    outer = (
        "https://eur01.safelinks.protection.outlook.com/?url=" + quote(inner, safe="") + "&data=x"
    )
    found = [(h.uri, h.context) for h in finditer(outer, rules=RULES)]
    assert found == [(outer, "bare"), ("https://example.com/final", "unwrapped")]


@pytest.mark.parametrize(
    "wrapper",
    [
        "https://nam12.safelinks.protection.outlook.com/?data=x",  # no target
        "https://urldefense.com/v3/__https://a.example/x*__;!!k$",  # a placeholder too many
        "https://urldefense.com/v3/__https://a.example/x**Ay__;JSMmLyE!!k$",  # target no URI ("%#")
        "https://www.google.com/search?q=https://example.com/",  # a search, not a redirect
        "https://protect-eu.mimecast.com/s/AbCdEfGh?domain=example.com",  # opaque
        "https://example.com/?url=https://example.org/",
    ],
)
def test_a_malformed_or_unknown_wrapper_gives_the_wrapper_only(wrapper: str) -> None:
    assert [h.uri for h in finditer(wrapper, rules=RULES)] == [wrapper]


def test_off_by_default_and_dedup_with_the_target_written_in_full() -> None:
    assert [h.context for h in finditer(SAFE)] == ["bare"]
    text = f"{SAFE} and https://example.com/a?b=1"
    assert extract(text, rules=RULES) == [SAFE, "https://example.com/a?b=1"]


def test_in_chunks_and_with_rejections() -> None:
    text = f"x {PP2} y tel:1]~ {GOOGLE}\n"
    whole = list(finditer(text, rules=RULES))
    scanner = Scanner(rules=RULES, rejections=True)
    out = []
    for k in range(0, len(text), 3):
        out += scanner.feed(text[k : k + 3])
    out += scanner.close()
    assert [h for h in out if h.__class__.__name__ == "Hit"] == whole
    assert [h.context for h in whole] == ["bare", "unwrapped", "bare", "unwrapped"]


def test_word_leaps_do_not_unwrap_twice() -> None:
    text = ("tel:1]~ " + GOOGLE + " ") * 300
    found = list(finditer(text, rules=RULES))
    assert [h.context for h in found] == ["bare", "unwrapped"] * 300
