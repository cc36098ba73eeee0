"""The argparse types of the command line's options: whole numbers in a range and
scheme names, each refused with a message that says what was expected."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

__all__ = ["scheme_list", "scheme_name", "whole_number"]

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")  # RFC 3986 section 3.1


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise argparse.ArgumentTypeError(f"expected a whole number {bound}, got {text[:40]!r}")
        return value

    return parse


def scheme_name(text: str) -> str:
    """An argparse type: a scheme name (RFC 3986 section 3.1), lower-cased."""
    if not _SCHEME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"expected a scheme name (RFC 3986 section 3.1: a letter, then letters, "
            f"digits, '+', '-' or '.'), got {text[:40]!r}"
        )
    return text.lower()


def scheme_list(text: str) -> list[str]:
    """An argparse type: comma-separated scheme names (at least one)."""
    names = [scheme_name(item.strip()) for item in text.split(",") if item.strip()]
    if not names:
        scheme_name(text)  # the error, naming what was given
    return names
