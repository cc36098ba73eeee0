"""Compression layers, plain-text decoding, and the read-what-you-can-then-raise contract."""

from __future__ import annotations

import codecs
import gzip
import io
import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urimine.errors import ConfigError, SourceError
from urimine.sources import compress, open_units
from urimine.sources.text import decode_blocks

FIXTURES = Path(__file__).resolve().parents[1] / "corpora" / "fixtures"
NUMBERED = "".join(f"line {i}: http://example.org/{i * i}\n" for i in range(150))
PLAIN = "See <http://example.org/plain> and ftp://ftp.example.net/pub/file.txt here.\n"


@pytest.fixture(autouse=True, params=["zlib", "isal"])
def inflater(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test with the stdlib's zlib and with isal's (the ``isal`` extra), which
    inflates gzip where installed: the two must read and fail alike."""
    if request.param == "isal":
        pytest.importorskip("isal.isal_zlib")
    assert compress.use_inflater(str(request.param)) == request.param
    yield str(request.param)
    compress.use_inflater(None)


def read_all(path: str | Path, **kw: object) -> list[tuple[str, str | None]]:
    """(text, part) of every unit of *path*."""
    return [("".join(u.chunks), u.part) for u in open_units(str(path), **kw)]  # type: ignore[arg-type]


def read_until_error(path: Path) -> tuple[str, SourceError]:
    """All text read before the SourceError that must follow it."""
    texts = []
    with pytest.raises(SourceError) as info:
        for unit in open_units(str(path)):
            texts.append("".join(unit.chunks))
    return "".join(texts), info.value


@pytest.mark.parametrize("name", ["sample.txt.bz2", "sample.txt.zst"])
def test_compressed_text_is_decompressed(name: str) -> None:
    assert read_all(FIXTURES / name) == [(PLAIN, None)]


def test_xz_wraps_a_mail_message() -> None:
    units = list(open_units(str(FIXTURES / "sample.eml.xz")))
    assert [u.message_id for u in units] == ["md9@example.org"]
    assert "http://maildir.example.org/9" in "".join(units[0].chunks)


def test_multi_member_gzip_reads_every_member(tmp_path: Path) -> None:
    path = tmp_path / "two.txt.gz"
    path.write_bytes(gzip.compress(b"first http://a.example/\n") + gzip.compress(b"second\n"))
    assert read_all(path) == [("first http://a.example/\nsecond\n", None)]


@pytest.mark.parametrize(
    ("name", "kind"), [("truncated.txt.gz", "gzip"), ("truncated.txt.zst", "zstd")]
)
def test_truncated_stream_yields_prefix_then_source_error(name: str, kind: str) -> None:
    text, error = read_until_error(FIXTURES / name)
    assert len(text) > 1000  # the readable part came out first
    assert NUMBERED.startswith(text)
    assert error.source == str(FIXTURES / name)
    assert f"truncated {kind} stream" in error.reason


def test_trailing_garbage_after_gzip_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.gz"
    path.write_bytes(gzip.compress(b"ok http://ok.example/\n") + b"garbage")
    text, error = read_until_error(path)
    assert text == "ok http://ok.example/\n"
    assert "garbage" in error.reason


def test_progress_counts_raw_compressed_bytes() -> None:
    seen: list[int] = []
    path = FIXTURES / "crawl.warc.gz"
    for unit in open_units(str(path), progress=seen.append):
        list(unit.chunks)
    assert sum(seen) == path.stat().st_size


def test_missing_zstandard_is_reported_as_source_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(SourceError, match=r"urimine\[zstd\]"):
        list(open_units(str(FIXTURES / "sample.txt.zst")))


def test_binary_file_is_skipped_with_a_notice() -> None:
    notes: list[str] = []
    path = str(FIXTURES / "binary.bin")
    assert list(open_units(path, notice=notes.append)) == []
    assert notes == [f"{path}: binary file skipped"]


def test_latin1_needs_the_encoding_argument() -> None:
    default = read_all(FIXTURES / "latin1.txt")[0][0]
    assert "\ufffd" in default
    latin = read_all(FIXTURES / "latin1.txt", encoding="latin-1")[0][0]
    assert "<http://example.org/café>" in latin


def test_unknown_encoding_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        list(open_units(str(FIXTURES / "latin1.txt"), encoding="no-such-codec"))


def test_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="No such file") as info:
        list(open_units(str(tmp_path / "absent.txt")))
    assert info.value.source == str(tmp_path / "absent.txt")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("x")
    path.chmod(0)
    with pytest.raises(SourceError, match="Permission denied"):
        list(open_units(str(path)))


def test_stdin_is_sniffed_without_seeking(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeStdin:
        buffer = io.BytesIO(gzip.compress(PLAIN.encode()))

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    assert read_all("-") == [(PLAIN, None)]


def test_utf16_with_bom_is_text(tmp_path: Path) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + "wide http://w.example/".encode("utf-16-le"))
    assert read_all(path) == [("wide http://w.example/", None)]


# Chunk invariance of the incremental decoder (GUIDE 8.6): the text must not depend
# on where the byte stream was cut, even inside a UTF-8 sequence or a CRLF.

SAMPLE = "café €uro 𝄞 <http://ex.org/ü>\r\nnext\r\n".encode()


def split_at(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


def test_split_inside_multibyte_and_crlf() -> None:
    inside_euro = SAMPLE.index("€".encode()) + 1
    between_cr_lf = SAMPLE.index(b"\r\n") + 1
    pieces = split_at(SAMPLE, [inside_euro, between_cr_lf])
    assert "".join(decode_blocks(iter(pieces))) == SAMPLE.decode()


def test_one_byte_at_a_time() -> None:
    pieces = [SAMPLE[i : i + 1] for i in range(len(SAMPLE))]
    assert "".join(decode_blocks(iter(pieces))) == SAMPLE.decode()


@given(st.binary(max_size=200), st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_decoding_is_split_invariant(data: bytes, cuts: list[int]) -> None:
    whole = data.decode("utf-8", errors="replace")
    assert "".join(decode_blocks(iter(split_at(data, cuts)))) == whole


def test_an_unknown_inflater_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown inflater"):
        compress.use_inflater("brotli")
