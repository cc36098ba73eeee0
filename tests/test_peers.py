"""The peers' suites (corpora/peers, see SOURCES.md section C) against urimine.

Every in-scope case either agrees with the peer or is listed, with its reason, in
corpora/peers/DIFFERENCES.tsv; a listed case that starts agreeing fails the test too,
so the list stays exact. Schemeless hosts, bare e-mail addresses and "//host" are out
of scope by default (tags of SOURCES.md). The RFC appendix examples must all agree.
"""

from __future__ import annotations

import pytest

import peers


def _documented() -> dict[str, str]:
    out = {}
    for line in (peers.PEERS / "DIFFERENCES.tsv").read_text("utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        suite, text, options, category, _reason = line.split("\t")
        out[f"{suite}\t{text}\t{options}"] = category
    return out


@pytest.mark.parametrize("suite", peers.SUITES)
def test_every_difference_from_a_peer_is_documented(suite: str) -> None:
    documented = {k: v for k, v in _documented().items() if k.startswith(suite + "\t")}
    undocumented, stale = [], []
    for case in peers.cases(suite):
        if not peers.in_scope(case):
            continue
        ok, got = peers.agrees(case)
        cid = peers.case_id(suite, case)
        if not ok and cid not in documented:
            undocumented.append((case["text"], case["expect"], got))
        if ok and cid in documented:
            stale.append(case["text"])
    assert not undocumented, f"differences not in DIFFERENCES.tsv: {undocumented[:5]}"
    assert not stale, f"documented differences that now agree: {stale[:5]}"


def test_specification_examples_all_agree() -> None:
    suite, ok, total, _ = peers.table()[0]
    assert suite == "rfc-context-examples"
    assert ok == total == 5
