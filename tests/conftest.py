"""Shared fixtures: where the corpora are, and the seed documents."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"
SEEDS = CORPORA / "seeds"
SHARED = ROOT.parent / "shared"


def seed_text(prefix: str) -> str:
    """The text of the seed document whose file name starts with ``prefix`` (e.g. "001")."""
    (path,) = SEEDS.glob(f"{prefix}_*.txt")
    return path.read_text("utf-8")


@pytest.fixture
def shared() -> Path:
    """The shared corpora beside the repository; the test is skipped when absent."""
    if not (SHARED / "corpora").is_dir():
        pytest.skip("../shared is not present")
    return SHARED
