"""The UTS #58 character properties against the published property files."""

from __future__ import annotations

import subprocess
import sys

import pytest

from urimine.uts58 import is_host_char, is_label_dot, link_bracket, link_email, link_term
from uts58_files import read


def _entries(text: str) -> list[tuple[int, int, str]]:
    out = []
    for line in text.split("\n"):
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        cps, _, value = data.partition(";")
        first, _, last = cps.strip().partition("..")
        out.append((int(first, 16), int(last or first, 16), value.strip()))
    return out


def test_link_term_matches_every_range_of_linkterm_txt() -> None:
    entries = _entries(read("17.0.0", "LinkTerm.txt"))
    assert len(entries) > 2000
    listed = set()
    for first, last, value in entries:
        for cp in {first, last, (first + last) // 2}:
            assert link_term(chr(cp)) == value, hex(cp)
        listed.update(range(first, last + 1))
    # Unlisted code points are Hard (the file's @missing line).
    unlisted = [cp for cp in range(0, 0x3000) if cp not in listed]
    assert unlisted and all(link_term(chr(cp)) == "Hard" for cp in unlisted)
    assert link_term("\U000e0001") == "Hard"


def test_link_bracket_matches_linkbracket_txt() -> None:
    entries = _entries(read("17.0.0", "LinkBracket.txt"))
    assert len(entries) == 64
    for close, _last, opener in entries:
        assert link_bracket(chr(close)) == chr(int(opener, 16))
        assert link_term(chr(close)) == "Close"
        assert link_term(chr(int(opener, 16))) == "Open"
    assert link_bracket("(") is None and link_bracket("a") is None


def test_link_email_matches_linkemail_txt() -> None:
    entries = _entries(read("17.0.0", "LinkEmail.txt"))
    listed = set()
    for first, last, _value in entries:
        listed.update(range(first, last + 1))
    for cp in range(0, 0x20000):
        assert link_email(chr(cp)) == (cp in listed), hex(cp)


@pytest.mark.parametrize(
    ("ch", "host"),
    [
        ("a", True),
        ("Z", True),
        ("-", True),
        ("ß", True),
        ("Ω", True),
        ("香", True),
        ("་", True),
        ("_", False),
        ("😎", False),
        (".", False),
        ("。", False),
        (" ", False),
    ],
)
def test_host_characters(ch: str, host: bool) -> None:
    assert is_host_char(ch) is host


def test_label_dots() -> None:
    assert [is_label_dot(c) for c in ".。．｡,"] == [True, True, True, True, False]


def test_the_data_is_read_on_first_use_not_at_import() -> None:
    code = (
        "import urimine, urimine.uts58.props as p\n"
        "assert p.data.cache_info().currsize == 0\n"
        "assert p.link_term('.') == 'Soft'\n"
        "assert p.data.cache_info().currsize == 1\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
