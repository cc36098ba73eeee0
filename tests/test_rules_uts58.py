"""The uts58 preset through the public API: every line of Unicode's
LinkDetectionTest.txt, in both the 17.0.0 and the dev copies of the shared conformance
folder (the marks removed, the hits must mark the line again), through ``finditer``
and through a ``Scanner`` fed in chunks."""

from __future__ import annotations

import pytest

from urimine import Scanner, finditer
from uts58_files import CLOSE, OPEN, VERSIONS, detection_lines


def _marked(plain: str, spans: list[tuple[int, int]]) -> str:
    out, last = [], 0
    for start, end in spans:
        out += [plain[last:start], OPEN, plain[start:end], CLOSE]
        last = end
    return "".join([*out, plain[last:]])


def _chunked(plain: str, size: int) -> list[tuple[int, int]]:
    scanner = Scanner(rules="uts58")
    found = []
    for k in range(0, len(plain), size):
        found += scanner.feed(plain[k : k + size])
    found += scanner.close()
    return [(h.start, h.end) for h in found]


@pytest.mark.parametrize("version", VERSIONS)
def test_every_line_of_the_link_detection_test_through_finditer(version: str) -> None:
    lines = detection_lines(version)
    assert len(lines) == 345
    failures = []
    for no, line in lines:
        plain = line.replace(OPEN, "").replace(CLOSE, "")
        got = _marked(plain, [(h.start, h.end) for h in finditer(plain, rules="uts58")])
        if got != line:
            failures.append((no, line, got))
    assert not failures, failures[:5]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("size", [1, 2, 5, 13])
def test_every_line_of_the_link_detection_test_in_chunks(version: str, size: int) -> None:
    lines = detection_lines(version)
    failures = [
        (no, line)
        for no, line in lines
        if _marked(plain := line.replace(OPEN, "").replace(CLOSE, ""), _chunked(plain, size))
        != line
    ]
    assert not failures, failures[:5]


def test_the_whole_file_as_one_text() -> None:
    """The lines joined by line feeds: each link is found where it is in its line."""
    lines = [line for _no, line in detection_lines("dev")]
    text = "\n".join(line.replace(OPEN, "").replace(CLOSE, "") for line in lines)
    spans = [(h.start, h.end) for h in finditer(text, rules="uts58")]
    assert _marked(text, spans).split("\n") == lines


def test_hits_are_links_as_uts58_completes_them() -> None:
    text = "Mail a.b@example.com or see example.com/α and HTTPS://www.example.org."
    found = [(h.uri, h.scheme, h.context) for h in finditer(text, rules="uts58")]
    assert found == [
        ("mailto:a.b@example.com", "mailto", "uts58"),
        ("http://example.com/α", "http", "uts58"),
        ("HTTPS://www.example.org", "https", "uts58"),
    ]
    # Schemes other than http and https are not UTS #58's.
    found = [h.uri for h in finditer("ftp://ftp.example.org/ tel:+1", rules="uts58")]
    assert found == ["http://ftp.example.org/"]


def test_a_link_that_holds_a_closing_angle_bracket_whatever_the_speed() -> None:
    """UTS #58 does not end a query at ">", where the word leaps end words: they are off
    under the preset (the fuzz driver found a link cut there with small knobs)."""
    from strategies import SMALL_KNOBS
    from urimine import Speed

    text = (
        "x:y:z: a'http://q.example/'\n<td>'http://q.example/'  a \n"
        + "https://w1.example.org/a/1/index.html?q=1<td>'http://q.example/'aa "
    ) * 40
    fast = Speed.all().tuned(**SMALL_KNOBS)
    found = [(h.start, h.end) for h in Scanner(rules="uts58", speed=fast).hits([text])]
    plain = [(h.start, h.end) for h in Scanner(rules="uts58", speed=Speed.none()).hits([text])]
    assert found == plain
    assert text[plain[0][0] : plain[0][1]].endswith("?q=1<td>'http://q.example/'aa")
