"""Command-line interface (placeholder until the pipeline lands)."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    return 0
