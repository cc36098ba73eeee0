"""Never raises: any bytes through open_units give units or a SourceError, nothing else."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urimine.errors import SourceError
from urimine.sources import open_units
from urimine.sources.mail import message_units

FIXTURES = Path(__file__).resolve().parents[1] / "corpora" / "fixtures"

PREFIXES = [
    b"",
    b"WARC/1.0\r\n",
    b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 40\r\n\r\nHTTP/1.1 200 OK\r\n",
    b"From x\n",
    b"From x\nContent-Type: multipart/mixed; boundary=b\n\n--b\n",
    b"Subject: s\nContent-Type: text/html; charset=utf-7\nContent-Transfer-Encoding: base64\n\n",
    b"Content-Type: message/rfc822\n\nContent-Type: multipart/digest; boundary=q\n\n--q\n",
    b"<html><a href='",
    b"\x1f\x8b",
    b"\x28\xb5\x2f\xfd",
]


def consume(path: str) -> None:
    try:
        for unit in open_units(path, notice=lambda _msg: None):
            for chunk in unit.chunks:
                assert isinstance(chunk, str)
    except SourceError as exc:
        assert exc.source == path


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PREFIXES), st.binary(max_size=600), st.sampled_from(["", "gz", "bz2", "xz"]))
def test_arbitrary_bytes_only_ever_raise_source_error(
    prefix: bytes, data: bytes, wrap: str
) -> None:
    payload = prefix + data
    if wrap == "gz":
        payload = gzip.compress(payload)
    elif wrap == "bz2":
        payload = bz2.compress(payload)
    elif wrap == "xz":
        payload = lzma.compress(payload)
    fd, name = tempfile.mkstemp(suffix=".eml" if prefix.startswith(b"Subject") else ".bin")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        consume(name)
    finally:
        os.unlink(name)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=800))
def test_message_parser_never_raises(data: bytes) -> None:
    for unit in message_units(PREFIXES[4] + data, "m", 0):
        assert isinstance("".join(unit.chunks), str)


@pytest.mark.parametrize(
    "name", sorted(p.name for p in FIXTURES.iterdir() if p.is_file() and p.suffix != ".py")
)
def test_every_prefix_of_every_fixture_is_handled(name: str, tmp_path: Path) -> None:
    data = (FIXTURES / name).read_bytes()
    path = tmp_path / name
    for cut in sorted({*range(0, len(data), max(1, len(data) // 40)), len(data) - 1}):
        path.write_bytes(data[:cut])
        consume(str(path))
