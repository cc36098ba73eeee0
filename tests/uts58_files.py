"""Reading Unicode's UTS #58 test and property files from the shared conformance folder
(``../shared/corpora/conformance/uts58/{17.0.0,dev}``), as their headers say: UTF-8,
lines split on line feeds only and never stripped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from urimine.uts58.format import LinkParts

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FOLDER = SHARED / "corpora" / "conformance" / "uts58"
VERSIONS = ("17.0.0", "dev")
OPEN, CLOSE = "\u2e20", "\u2e21"
_TAG = re.compile(" (?=[𝑺𝑯𝑷𝑸𝑽𝑭𝑫]=)")


def read(version: str, name: str) -> str:
    path = FOLDER / version / name
    if not path.exists():
        pytest.skip(f"{path} is not present")
    return path.read_text("utf-8")


def detection_lines(version: str) -> list[tuple[int, str]]:
    """(line number, line) of each test line: not empty, not a comment."""
    lines = read(version, "LinkDetectionTest.txt").split("\n")
    return [(i, s) for i, s in enumerate(lines, 1) if s and not s.startswith("#")]


def parts_of(comment: str) -> LinkParts:
    """The structure a formatting pair's comment gives (``# {𝑺=https:// 𝑯=... 𝑷=...}``)."""
    body = comment[comment.index("{") + 1 : comment.rindex("}")]
    prefix, path, query, fragment = "", [], [], []
    for item in _TAG.split(body):
        tag, value = item[0], item[2:]
        if tag in "𝑺𝑯":
            prefix += value
        elif tag == "𝑷":
            path.append(value)
        elif tag == "𝑸":
            query.append((value, None))
        elif tag == "𝑽":
            query[-1] = (query[-1][0], value)
        else:
            fragment.append(value)
    return LinkParts(prefix, tuple(path) or None, tuple(query) or None, tuple(fragment) or None)


def formatting_pairs(version: str) -> list[tuple[str, str, str]]:
    """(structure comment, fully escaped source, minimally escaped result) of each pair."""
    pairs, comment, pending = [], "", []
    for line in read(version, "LinkFormattingTest.txt").split("\n"):
        if line.startswith("# {"):
            comment, pending = line, []
        elif line and not line.startswith("#"):
            pending.append(line)
            if len(pending) == 2:
                pairs.append((comment, pending[0], pending[1]))
                pending = []
    return pairs
