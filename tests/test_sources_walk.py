"""iter_inputs: PATH expansion, and content-first input sniffing."""

from __future__ import annotations

from pathlib import Path

import pytest

from urimine.errors import SourceError
from urimine.sources import iter_inputs, open_units
from urimine.sources.detect import sniff


def test_no_path_means_stdin() -> None:
    assert list(iter_inputs([])) == ["-"]
    assert list(iter_inputs(["-"])) == ["-"]


def test_directories_are_walked_sorted_and_maildirs_kept_whole(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.txt").write_text("z")
    (tmp_path / "b" / "a.txt").write_text("a")
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "mail" / "cur").mkdir(parents=True)
    (tmp_path / "mail" / "cur" / "1").write_text("Subject: x\n\nbody\n")
    got = [str(Path(p).relative_to(tmp_path)) for p in iter_inputs([str(tmp_path)])]
    assert got == ["a.txt", "b/a.txt", "b/z.txt", "mail"]


def test_missing_paths_pass_through_to_open_units(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    assert list(iter_inputs([missing])) == [missing]


def test_plain_directory_given_to_open_units_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="directory"):
        list(open_units(str(tmp_path)))


@pytest.mark.parametrize(
    ("head", "name", "kind"),
    [
        (b"\x1f\x8b\x08\x00", "x.txt", "gzip"),
        (b"BZh91AY", "x", "bzip2"),
        (b"\xfd7zXZ\x00\x00", "x", "xz"),
        (b"\x28\xb5\x2f\xfd", "x", "zstd"),
        (b"WARC/1.1\r\nWARC-Type: warcinfo\r\n", "x.txt", "warc"),
        (b"From a@b Mon Jan  1 00:00:00 2001\nSubject: x\n", "x.txt", "mbox"),
        (b"Received: from x\n\tby y\nFrom: a@b\nSubject: s\n\nbody", "x.txt", "eml"),
        (b"Just text: with a colon\nand more\n", "x.eml", "eml"),  # name second
        (b"Just text: with a colon\nand more\n", "x.txt", "text"),
        (b"<!DOCTYPE html><html>", "x.txt", "html"),
        (b"plain words", "page.htm", "html"),
        (b"abc\x00def", "x.txt", "binary"),
    ],
)
def test_sniff_content_first_then_name(head: bytes, name: str, kind: str) -> None:
    assert sniff(head, name) == kind
