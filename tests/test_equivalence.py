"""The oracle: every speed mechanism answers exactly as the plain rule-by-rule path.

``Speed.all()`` and each mechanism off alone are compared with ``Speed.none()`` on
generated text (with knobs small enough for every mechanism to act within a few hundred
characters), on the regressions of ``tests/fixtures/equivalence-regressions.txt``, and
on slices of every shared corpus and of the repository's ``corpora/``: hits and
rejections, whole, chunked and given whole to ``Scanner.hits`` (whose final scan
pauses). ``tests/fuzz/differential.py`` runs the same comparison for longer in CI.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import chunkings, scan
from strategies import OPT_IN_RULES, SMALL_KNOBS, knobs, speeds, texts, word_texts
from urimine import Hit, Rejection, Scanner, Speed

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
REGRESSIONS = ROOT / "tests" / "fixtures" / "equivalence-regressions.txt"
RULE_REGRESSIONS = ROOT / "tests" / "fixtures" / "equivalence-regressions-rules.jsonl"
"""The same, for texts that need rules, a length bound and the small knobs (JSON Lines:
``text``, ``rules``, ``max_len`` and ``why``)."""


def every_way(
    text: str,
    speed: Speed,
    rejections: bool,
    max_len: int,
    chunked: bool = True,
    rules: str = "default",
) -> list[list[Hit | Rejection]]:
    """The scan of *text* fed whole, in chunks of 7 characters, and given whole to
    ``Scanner.hits`` (hits only)."""
    options = {
        "rejections": rejections,
        "max_candidate_len": max_len,
        "speed": speed,
        "rules": rules,
    }
    runs = [scan([text], **options)]
    if chunked:
        runs.append(scan([text[k : k + 7] for k in range(0, len(text), 7)], **options))
    hits = list(Scanner(**options).hits([text]))  # type: ignore[arg-type]
    runs.append(hits if not rejections else [h for h in runs[0] if isinstance(h, Hit)])
    return runs


def assert_as_plain(
    text: str, tuning: dict[str, int], rejections: bool, max_len: int = 8192, rules: str = "default"
) -> None:
    """Every mechanism on, and each one off alone, gives what the plain path gives."""
    plain = scan(
        [text], rejections=rejections, max_candidate_len=max_len, speed=Speed.none(), rules=rules
    )
    plain_hits = [h for h in plain if isinstance(h, Hit)]
    for name, speed in speeds(tuning).items():
        whole, *others = every_way(text, speed, rejections, max_len, rules=rules)
        assert whole == plain, (name, "whole")
        assert others[-1] == plain_hits, (name, "Scanner.hits")
        for run in others[:-1]:
            assert run == plain, (name, "chunked")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts(), knobs, st.booleans(), st.sampled_from([8192, 100, 40]))
def test_mechanisms_answer_as_the_plain_path_on_generated_text(
    text: str, tuning: dict[str, int], rejections: bool, max_len: int
) -> None:
    assert_as_plain(text, tuning, rejections, max_len)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_texts(), knobs, st.sampled_from([8192, 64]))
def test_mechanisms_answer_as_the_plain_path_on_repeated_words(
    text: str, tuning: dict[str, int], max_len: int
) -> None:
    """Words repeated with gaps of every kind: where the word leaps act (hits only)."""
    assert_as_plain(text, tuning, rejections=False, max_len=max_len)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(texts(), word_texts()),
    knobs,
    st.booleans(),
    st.sampled_from([8192, 100, 40]),
    st.sampled_from(OPT_IN_RULES),
)
def test_mechanisms_answer_as_the_plain_path_with_the_opt_in_rules(
    text: str, tuning: dict[str, int], rejections: bool, max_len: int, rules: str
) -> None:
    """The rules beyond the scheme (email, domains, the uts58 preset) too."""
    assert_as_plain(text, tuning, rejections, max_len, rules)


def _regressions() -> Iterator[str]:
    for line in REGRESSIONS.read_text("ascii").splitlines():
        if line and not line.startswith("#"):
            yield line.encode("ascii").decode("unicode_escape")


@pytest.mark.parametrize("text", list(_regressions()), ids=lambda t: t[:30])
@pytest.mark.parametrize("tuning", [{}, SMALL_KNOBS], ids=["default", "small"])
@pytest.mark.parametrize("rejections", [False, True])
def test_mechanisms_answer_as_the_plain_path_on_regressions(
    text: str, tuning: dict[str, int], rejections: bool
) -> None:
    for max_len in (8192, 40):
        assert_as_plain(text, tuning, rejections, max_len)


def test_every_chunking_of_a_regression_gives_the_plain_path() -> None:
    """Each chunking of the helpers (one character at a time, every split in two)."""
    text = "<URL:x:y> http://a-\nb urn:ab:c- \n d <URN:a:b:c:d> tel:1]~ ab:ab:<w:t>"
    plain = scan([text], rejections=True, speed=Speed.none())
    for parts in chunkings(text):
        assert scan(parts, rejections=True, speed=Speed.all().tuned(**SMALL_KNOBS)) == plain


def _slices() -> Iterator[tuple[str, str]]:
    """Slices of every shared corpus and of the repository's corpora: 48 KB of each text
    file (at its start and its middle), whole for the small ones."""
    paths: list[Path] = []
    if SHARED.is_dir():
        for sub in ("docs", "mail", "peers", "conformance"):
            paths += sorted(p for p in (SHARED / sub).rglob("*") if p.is_file())
    paths += sorted(p for p in (ROOT / "corpora").rglob("*") if p.is_file())
    for path in paths:
        if path.suffix not in (".txt", ".gz", ".mbox", ".jsonl", ".tsv", ".md", ".eml"):
            continue
        try:
            with gzip.open(path) if path.suffix == ".gz" else path.open("rb") as f:
                data = f.read(8 << 20)
        except (OSError, EOFError):
            continue  # (a fixture truncated on purpose)
        text = data.decode("utf-8", errors="replace")
        name = str(path.relative_to(path.parents[1]))
        yield name, text[: 48 << 10]
        if len(text) > 96 << 10:
            middle = len(text) // 2
            yield name + "@middle", text[middle : middle + (48 << 10)]


@pytest.mark.parametrize("name,text", list(_slices()), ids=lambda v: str(v)[:48])
def test_mechanisms_answer_as_the_plain_path_on_corpora(name: str, text: str) -> None:
    for rejections in (False, True):
        plain = scan([text], rejections=rejections, speed=Speed.none())
        for tuning in ({}, SMALL_KNOBS):
            for label, speed in speeds(tuning).items():
                runs = every_way(text, speed, rejections, 8192, chunked=label == "all")
                assert runs[0] == plain, (name, label, tuning is SMALL_KNOBS)
                if label == "all":
                    assert runs[1] == plain, (name, "chunked")


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        # The word leaps' block ended before the next line: "http://" at its end was
        # not seen as joined (issue 30 item 5 with a label dot's trigger, issue 31).
        ("g.p:/http://\ng", "default,email,domains,unwrap"),
        # The hyphen-join shortcut took "^" as the end, where web-chars runs on past it.
        ("mailto:-\n~^", "default"),
        ("http://a-\nb^ ", "default"),
    ],
)
def test_fuzz_differences_found_at_the_merge_of_issues_30_and_31(text: str, rules: str) -> None:
    assert_as_plain(text, SMALL_KNOBS, rejections=False, max_len=300, rules=rules)
    assert_as_plain(text, {}, rejections=True, rules=rules)


@pytest.mark.parametrize(
    "case",
    [json.loads(line) for line in RULE_REGRESSIONS.read_text("ascii").splitlines()],
    ids=lambda case: case["why"][:40],
)
def test_fuzz_differences_with_rules_and_a_length_bound(case: dict[str, Any]) -> None:
    assert_as_plain(case["text"], SMALL_KNOBS, False, case["max_len"], case["rules"])
    assert_as_plain(case["text"], {}, True, case["max_len"], case["rules"])
