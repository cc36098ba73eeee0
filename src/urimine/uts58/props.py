"""The character properties of UTS #58 ("Property Data"): Link_Term, Link_Bracket and
Link_Email, plus the characters a domain name may hold (UTS #46 valid, mapped or
deviation).

The data (``data/uts58.txt``, made by ``scripts/gen_uts58_data.py`` from Unicode's
LinkTerm.txt, LinkBracket.txt and LinkEmail.txt) is read on first use, never at import:
the Basic Multilingual Plane goes into byte tables indexed by code point, the other
planes into sorted range lists searched by bisection.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

LinkTerm = Literal["Include", "Hard", "Soft", "Close", "Open"]

# Byte codes of the Link_Term table; HARD (0) is the default of the files' @missing line.
HARD, INCLUDE, SOFT, CLOSE, OPEN = 0, 1, 2, 3, 4
TERM_NAMES: tuple[LinkTerm, ...] = ("Hard", "Include", "Soft", "Close", "Open")
_CODES = {"Include": INCLUDE, "Soft": SOFT, "Close": CLOSE, "Open": OPEN}
_BMP = 0x10000
# The full stop and the three characters UTS #46 maps to it.
LABEL_DOTS = frozenset(".\u3002\uff0e\uff61")


class _Table:
    """A code point -> small int map: a byte table for the BMP, ranges above it."""

    __slots__ = ("bmp", "ends", "starts", "values")

    def __init__(self) -> None:
        self.bmp = bytearray(_BMP)
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.values: list[int] = []

    def fill(self, first: int, last: int, value: int) -> None:
        if first < _BMP:
            top = min(last, _BMP - 1)
            self.bmp[first : top + 1] = bytes((value,)) * (top - first + 1)
            first = top + 1
        if first <= last:
            self.starts.append(first)
            self.ends.append(last)
            self.values.append(value)

    def sort(self) -> None:
        order = sorted(range(len(self.starts)), key=self.starts.__getitem__)
        self.starts = [self.starts[i] for i in order]
        self.ends = [self.ends[i] for i in order]
        self.values = [self.values[i] for i in order]

    def get(self, cp: int) -> int:
        if cp < _BMP:
            return self.bmp[cp]
        i = bisect_right(self.starts, cp) - 1
        return self.values[i] if i >= 0 and cp <= self.ends[i] else 0


@dataclass(frozen=True, slots=True)
class _Data:
    term: _Table
    email: _Table
    host: _Table
    brackets: dict[str, str]


def _ranges(fields: list[str]) -> list[tuple[int, int]]:
    out = []
    for field in fields:
        first, _, last = field.partition("-")
        out.append((int(first, 16), int(last or first, 16)))
    return out


@cache
def data() -> _Data:
    """The property tables, read from the package data on first use."""
    text = (Path(__file__).resolve().parents[1] / "data" / "uts58.txt").read_text("utf-8")
    term, email, host = _Table(), _Table(), _Table()
    brackets: dict[str, str] = {}
    for line in text.split("\n"):
        fields = line.split()
        if not fields or line.startswith("#"):
            continue
        if fields[0] == "term":
            for first, last in _ranges(fields[2:]):
                term.fill(first, last, _CODES[fields[1]])
        elif fields[0] == "bracket":
            for pair in fields[1:]:
                close, _, opener = pair.partition(":")
                brackets[chr(int(close, 16))] = chr(int(opener, 16))
        else:
            table = email if fields[0] == "email" else host
            for first, last in _ranges(fields[1:]):
                table.fill(first, last, 1)
    for dot in LABEL_DOTS:
        host.bmp[ord(dot)] = 0
    for table in (term, email, host):
        table.sort()
    return _Data(term, email, host, brackets)


def term_code(ch: str) -> int:
    """Link_Term of *ch* as one of the byte codes HARD, INCLUDE, SOFT, CLOSE, OPEN."""
    return data().term.get(ord(ch))


def link_term(ch: str) -> LinkTerm:
    """The Link_Term property of the character *ch* (UTS #58, "Property Data"):
    ``"Include"``, ``"Hard"``, ``"Soft"``, ``"Close"`` or ``"Open"``; unlisted code
    points are ``"Hard"``.

    >>> link_term("a"), link_term("."), link_term(")"), link_term("("), link_term(" ")
    ('Include', 'Soft', 'Close', 'Open', 'Hard')
    """
    return TERM_NAMES[data().term.get(ord(ch))]


def link_bracket(ch: str) -> str | None:
    """The Link_Bracket property of *ch*: the opening bracket a closing one pairs with
    (``")"`` -> ``"("``, ``">"`` -> ``"<"``), or None (the property's ``<none>``).

    >>> link_bracket(")"), link_bracket("»"), link_bracket("a")
    ('(', None, None)
    """
    return data().brackets.get(ch)


def link_email(ch: str) -> bool:
    """The Link_Email property of *ch*: whether it may stand in the local part of an
    e-mail address that link detection finds (UTS #58, "Email Addresses").

    >>> link_email("a"), link_email("+"), link_email("é"), link_email("@"), link_email(" ")
    (True, True, True, False, False)
    """
    return data().email.get(ord(ch)) == 1


def is_host_char(ch: str) -> bool:
    """Whether *ch* may stand in a domain label: an ASCII letter, digit or hyphen, or a
    non-ASCII character of UTS #46 status valid, mapped or deviation. Label
    separators (full stops) are not host characters here; see `is_label_dot`."""
    return data().host.get(ord(ch)) == 1


def is_label_dot(ch: str) -> bool:
    """Whether *ch* separates domain labels: the full stop and the three characters
    UTS #46 maps to it (ideographic, fullwidth and halfwidth ideographic full stop)."""
    return ch in LABEL_DOTS
