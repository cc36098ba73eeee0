"""JSON and JSON Lines inputs (issue 30 item 7): their strings are decoded before
scanning, streaming; a malformed line is a defect and the rest is read."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers import urimine_exe
from urimine.sources.json import json_chunks

RECORDS = [
    {"url": "https://host.example/a/b", "text": "see http://b.example/x?q=1&r=2 now"},
    {"nested": {"list": ["mailto:c@d.example", "plain"]}, "n": 3, "ok": True},
    {"escaped": "caf\u00e9 https://e.example/\u00e9t\u00e9 \ud83d\ude00"},
]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [urimine_exe(), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_json_lines_strings_are_decoded(tmp_path: Path) -> None:
    path = tmp_path / "dump.jsonl"
    # json.dumps escapes "/" nowhere, non-ASCII everywhere; escape the slashes as PHP does
    text = "\n".join(json.dumps(r).replace("/", "\\/") for r in RECORDS) + "\n"
    path.write_text(text, "utf-8")
    out = _run(str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "https://host.example/a/b",
        "http://b.example/x?q=1&r=2",
        "mailto:c@d.example",
        "https://e.example/\u00e9t\u00e9",
    ]


def test_a_malformed_line_is_a_defect_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "broken.ndjson"
    path.write_text(
        '{"a": "http://a.example/1"}\n{"b": "unclosed http://b.example/2\n'
        '{"c": "bad \\q escape http://c.example/3"}\n{"d": "http:\\/\\/d.example\\/4"}\n',
        "utf-8",
    )
    out = _run("-v", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "http://a.example/1",
        "http://b.example/2",
        "http://c.example/3",
        "http://d.example/4",
    ]
    assert "line 2: a string not closed before the line end" in out.stderr
    assert "line 3: an escape JSON does not know" in out.stderr


def test_json_is_sniffed_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_text('{"u": "https:\\/\\/x.example\\/p\\u0026q"}', "utf-8")
    assert _run(str(path)).stdout.split() == ["https://x.example/p&q"]


def test_any_chunking_gives_the_same_text() -> None:
    text = "\n".join(json.dumps(r, ensure_ascii=True) for r in RECORDS) + '\n{"x": "a\\u00'
    whole: list[str] = []
    expected = "".join(json_chunks([text], whole))
    for size in (1, 2, 3, 5, 7, 64):
        defects: list[str] = []
        parts = [text[k : k + size] for k in range(0, len(text), size)]
        assert "".join(json_chunks(parts, defects)) == expected
        assert defects == whole
    assert "https://e.example/\u00e9t\u00e9 \U0001f600" in expected


def test_a_long_string_is_handed_out_in_pieces() -> None:
    """A string longer than a window is not held whole (memory stays bounded)."""
    body = "a" * 300_000 + " http://z.example/ "
    parts = ['{"s": "', *(body[k : k + 4096] for k in range(0, len(body), 4096)), '"}']
    pieces = list(json_chunks(parts, []))
    assert max(len(p) for p in pieces) < 100_000
    assert "".join(pieces).endswith(" http://z.example/ \n")
