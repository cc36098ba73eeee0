"""The top-level domains of the DNS root zone, from IANA's list shipped as package data.

``data/tlds.txt`` is written by ``scripts/refresh_tlds.py`` into the source tree (never
at run time), so that every run on every machine gives the same answer; its second line
is the IANA list's version line. Names compare as DNS does, without regard to case,
and an internationalized TLD matches in its Unicode form (U-label) and in its ASCII
form (A-label, ``xn--...``), as UTS #46 maps them.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path


@cache
def _table() -> tuple[str, frozenset[str], frozenset[str]]:
    text = (Path(__file__).resolve().parent / "data" / "tlds.txt").read_text("utf-8")
    version, a_labels, u_labels = "", set(), set()
    for line in text.split("\n"):
        if line.startswith("# Version"):
            version = line[2:]
        elif line and not line.startswith("#"):
            a_label, _, u_label = line.partition("\t")
            a_labels.add(a_label)
            if u_label:
                u_labels.add(u_label)
    return version, frozenset(a_labels), frozenset(u_labels)


def tld_list_version() -> str:
    """The version line of the shipped IANA list, e.g. ``"Version 2023053000, Last
    Updated Tue May 30 07:07:01 2023 UTC"``."""
    return _table()[0]


def tlds() -> frozenset[str]:
    """Every top-level domain of the shipped list, as lower-case A-labels."""
    return _table()[1]


def _fold(label: str) -> str:
    """The label as UTS #46 mapping would give it, near enough for comparing TLDs:
    compatibility-normalized (full-width letters) and case-folded."""
    return unicodedata.normalize("NFKC", label).casefold()


def is_tld(label: str) -> bool:
    """Whether *label* (one label, without dots) is a top-level domain of the root zone.

    >>> is_tld("com"), is_tld("COM"), is_tld("xn--p1ai"), is_tld("рф"), is_tld("invalid")
    (True, True, True, True, False)
    """
    if not label or len(label) > 63:
        return False
    if label.isascii():
        return label.lower() in _table()[1]
    return _is_unicode_tld(label)


@lru_cache(maxsize=4096)
def _is_unicode_tld(label: str) -> bool:
    """:func:`is_tld` of a label that is not ASCII (cached, within a bound: the scanner
    asks it of every word after a dot)."""
    _version, a_labels, u_labels = _table()
    folded = _fold(label)
    if folded.isascii():
        return folded in a_labels
    if folded in u_labels:
        return True
    try:
        return "xn--" + folded.encode("punycode").decode("ascii") in a_labels
    except UnicodeError:
        return False
