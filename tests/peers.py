"""Run the peers' converted test suites (corpora/peers/*.jsonl) through urimine.

``python tests/peers.py`` prints the per-suite table of the closing note; the test in
test_peers.py checks that every case we answer differently is a documented, deliberate
difference (corpora/peers/DIFFERENCES.tsv).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import urimine

PEERS = Path(__file__).resolve().parents[1] / "corpora" / "peers"
SUITES = ("rfc-context-examples", "linkify-it", "xurls", "uri-find", "urlextract", "twitter-text")
# Out of scope for an RFC 3986 extractor by default (SOURCES.md: filter on these tags).
OUT_OF_SCOPE_TAGS = frozenset({"schemeless", "email", "protocol-relative"})


def cases(suite: str) -> Iterator[dict[str, object]]:
    """The suite's cases, in file order."""
    for line in (PEERS / f"{suite}.jsonl").read_text("utf-8").splitlines():
        yield json.loads(line)


def in_scope(case: dict[str, object]) -> bool:
    tags = case.get("tags") or []
    return not (set(tags) & OUT_OF_SCOPE_TAGS)  # type: ignore[arg-type]


def agrees(case: dict[str, object]) -> tuple[bool, list[str]]:
    """Whether urimine gives the peer's answer, in the peer's expect_mode."""
    got = [h.uri for h in urimine.finditer(str(case["text"]))]
    expect = case["expect"]
    mode = case.get("expect_mode", "all")
    if mode == "first":
        return got[:1] == expect, got
    if mode == "none":
        return got == [], got
    return got == expect, got


def case_id(suite: str, case: dict[str, object]) -> str:
    options = json.dumps(case.get("options") or {}, sort_keys=True)
    return f"{suite}\t{json.dumps(case['text'], ensure_ascii=False)}\t{options}"


def table() -> list[tuple[str, int, int, int]]:
    """(suite, agreeing, in-scope cases, out-of-scope cases) per suite."""
    rows = []
    for suite in SUITES:
        ok = total = skipped = 0
        for case in cases(suite):
            if not in_scope(case):
                skipped += 1
                continue
            total += 1
            ok += agrees(case)[0]
        rows.append((suite, ok, total, skipped))
    return rows


if __name__ == "__main__":
    print("| suite | agree | in scope | out of scope (schemeless, e-mail, //host) |")
    print("|---|---:|---:|---:|")
    for suite, ok, total, skipped in table():
        print(f"| {suite} | {ok} | {total} | {skipped} |")
    sys.exit(0)
