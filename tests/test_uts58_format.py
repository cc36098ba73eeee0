"""UTS #58 minimal escaping (`urimine.format_link`) against Unicode's
LinkFormattingTest.txt, 17.0.0 and dev copies.

Each pair's comment gives the URL's structure (a ``/`` may be data inside a path
segment), so every pair is checked from that structure with `format_parts`; where the
fully escaped source line says the same structure, `format_link` is checked on it too.
The dev copy corrects ten results of the 17.0.0 copy (a Soft character at the very end
left unescaped, against the rule the same file shows in its "Escape soft at end"
pairs): for those pairs the dev result is the one expected.
"""

from __future__ import annotations

import pytest

import urimine
from urimine.uts58.format import LinkParts, format_parts, split_link
from uts58_files import VERSIONS, formatting_pairs, parts_of


def _dev_results() -> dict[str, str]:
    return {comment: result for comment, _source, result in formatting_pairs("dev")}


@pytest.mark.parametrize("version", VERSIONS)
def test_every_pair_of_the_link_formatting_test(version: str) -> None:
    pairs = formatting_pairs(version)
    assert len(pairs) == 55
    dev = _dev_results()
    corrected = {c for c, _s, result in pairs if dev.get(c, result) != result}
    assert len(corrected) == (10 if version == "17.0.0" else 0)
    wrong, from_source = [], 0
    for comment, source, result in pairs:
        expected = dev[comment] if comment in corrected else result
        if format_parts(parts_of(comment)) != expected:
            wrong.append((comment, expected))
        if split_link(source) == parts_of(comment):
            from_source += 1
            if urimine.format_link(source) != expected:
                wrong.append((source, expected))
    assert not wrong, wrong[:5]
    assert from_source == 50


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com", "https://example.com"),
        ("https://example.com/", "https://example.com/"),
        ("https://example.com/a%20b", "https://example.com/a%20b"),
        ("https://example.com/%FF%41", "https://example.com/%FFA"),
        ("https://example.com/a(b/c)d", "https://example.com/a(b/c%29d"),
        ("https://example.com/a%E3%80%80b", "https://example.com/a%E3%80%80b"),
        ("https://example.com#a:~:text=%CE%B1.", "https://example.com#a:~:text=α%2E"),
        ("https://example.com?a=%26%3D", "https://example.com?a=%26%3D"),
    ],
)
def test_format_link_escapes_only_what_detection_would_misread(url: str, expected: str) -> None:
    assert urimine.format_link(url) == expected


def test_split_and_format_are_inverse_for_structured_parts() -> None:
    parts = LinkParts("https://example.com", ("a/b", "c?"), (("k&", "v="),), ("f",))
    assert format_parts(parts) == "https://example.com/a%2Fb/c%3F?k%26=v%3D#f"
    assert split_link(format_parts(parts)) == parts
