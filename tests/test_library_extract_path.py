"""``urimine.extract_path`` (issue 32): every source kind the command reads, with the
command's provenance, its walk and its error policy.

Each kind is checked against the command itself (``urimine --all -f jsonl``, every
occurrence with every field): the library call and the CLI read the same inputs the same
way, so their records must be the same rows.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

import urimine
from helpers import urimine_exe
from urimine import ConfigError, SourceError
from urimine.files import Record, Walk

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "corpora" / "fixtures"
MBOX = (
    "From alice@example.org Mon Jan  1 00:00:00 2001\nMessage-ID: <m1@example.org>\n"
    "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
    "See http://example.org/a=\n/b and <URL:ftp://ftp.example.org/pub/>\n\n"
    "From bob@example.org Mon Jan  1 00:00:00 2001\nMessage-ID: <m2@example.org>\n\n"
    "urn:ietf:rfc:3986\n"
)
HTML = (
    "<!DOCTYPE html><html><head><base href='http://base.example/dir/'></head>"
    "<body><a href='../up.html'>up</a> text http://text.example/ <img src=i.png></body></html>"
)


def cli_rows(path: Path | str, *args: str) -> list[dict[str, object]]:
    proc = subprocess.run(
        [urimine_exe(), "--all", "-f", "jsonl", "-j", "1", *args, str(path)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def rows(records: list[Record]) -> list[dict[str, object]]:
    return [r.as_dict() for r in records]


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    made = {
        "text": ("notes.txt", b"plain http://plain.example/x and mailto:a@example.org\n"),
        "gzip": ("notes.txt.gz", gzip.compress(b"gz http://gzip.example/\n")),
        "bzip2": ("notes.bz2", bz2.compress(b"bz http://bzip2.example/\n")),
        "xz": ("notes.xz", lzma.compress(b"xz http://xz.example/\n")),
        "mbox": ("list.mbox", MBOX.encode()),
        "mbox.gz": ("list.mbox.gz", gzip.compress(MBOX.encode())),
        "html": ("page.html", HTML.encode()),
    }
    out = {}
    for kind, (name, data) in made.items():
        (tmp_path / name).write_bytes(data)
        out[kind] = tmp_path / name
    for name in ("crawl.warc.gz", "crawl.warc.wet.gz", "maildir", "nested.eml", "sample.eml.xz"):
        out[name] = FIXTURES / name
    out["zstd"] = FIXTURES / "sample.txt.zst"
    return out


@pytest.mark.parametrize(
    "kind",
    [
        *("text", "gzip", "bzip2", "xz", "zstd", "mbox", "mbox.gz", "html"),
        *("crawl.warc.gz", "crawl.warc.wet.gz", "maildir", "nested.eml", "sample.eml.xz"),
    ],
)
def test_every_source_kind_as_the_command_reads_it(inputs: dict[str, Path], kind: str) -> None:
    if kind == "zstd":
        pytest.importorskip("zstandard")
    path = inputs[kind]
    got = list(urimine.extract_path(path))
    assert got, kind
    assert all(isinstance(r, Record) for r in got)
    assert rows(got) == cli_rows(path)


def test_provenance_of_mail_and_warc(inputs: dict[str, Path]) -> None:
    mail = list(urimine.extract_path(inputs["mbox"]))
    first = mail[0]
    assert (first.source, first.doc_index, first.message_id, first.part) == (
        str(inputs["mbox"]),
        0,
        "m1@example.org",
        "1",
    )
    # offsets count in the decoded part: the soft line break of quoted-printable is gone
    assert first.hit.uri == "http://example.org/a/b"
    assert (first.hit.line, first.hit.column, first.hit.start) == (1, 5, 4)
    assert mail[-1].hit.kind == "urn" and mail[-1].message_id == "m2@example.org"
    crawl = list(urimine.extract_path(inputs["crawl.warc.gz"]))
    assert crawl[0].record_id == "urn:uuid:22222222-2222-2222-2222-222222222222"
    assert crawl[0].target_uri == "https://site.example.com/dir/page.html"
    assert crawl[0].is_warc and not crawl[0].is_mail


def test_html_links_are_resolved(inputs: dict[str, Path]) -> None:
    uris = [r.hit.uri for r in urimine.extract_path(inputs["html"])]
    assert "http://base.example/up.html" in uris and "http://text.example/" in uris


def test_folders_are_walked_as_the_command_walks_them(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    (tmp_path / ".hidden.txt").write_text("http://hidden.example/\n")
    (tmp_path / ".gitignore").write_text("page.html\n")
    got = list(urimine.extract_path(tmp_path))
    assert rows(got) == cli_rows(tmp_path)
    sources = {r.source for r in got}
    assert str(tmp_path / ".hidden.txt") not in sources
    assert str(inputs["html"]) not in sources
    everything = list(urimine.extract_path(tmp_path, walk=Walk(hidden=True, ignore_files=False)))
    assert rows(everything) == cli_rows(tmp_path, "--hidden", "--no-ignore")
    assert {str(tmp_path / ".hidden.txt"), str(inputs["html"])} <= {r.source for r in everything}


def test_binary_streams_and_stdin(inputs: dict[str, Path]) -> None:
    data = inputs["mbox.gz"].read_bytes()
    from_stream = list(urimine.extract_path(io.BytesIO(data)))
    assert [r.hit.uri for r in from_stream] == [
        r.hit.uri for r in urimine.extract_path(inputs["mbox"])
    ]
    assert {r.source for r in from_stream} == {"-"}
    code = "import sys, urimine; print([r.hit.uri for r in urimine.extract_path('-')])"
    proc = subprocess.run(
        [sys.executable, "-c", code], input=data, capture_output=True, timeout=60, check=False
    )
    assert proc.stdout.decode().strip() == repr([r.hit.uri for r in from_stream])


def test_options_are_named(inputs: dict[str, Path], tmp_path: Path) -> None:
    odd = tmp_path / "odd.txt"
    odd.write_text("see web+demo:x.example/p and http://a.example/a http://a.example/a\n")
    assert [r.hit.uri for r in urimine.extract_path(odd)] == ["http://a.example/a"] * 2
    assert [r.hit.uri for r in urimine.extract_path(odd, unique=True)] == ["http://a.example/a"]
    extra = [r.hit.uri for r in urimine.extract_path(odd, extra_schemes=["web+demo"])]
    assert extra[0] == "web+demo:x.example/p"
    assert [r.hit.context for r in urimine.extract_path(odd, rules=["angle"])] == []
    latin = [r.hit.uri for r in urimine.extract_path(FIXTURES / "latin1.txt", encoding="latin-1")]
    assert latin[0].startswith("http://example.org/caf")
    assert rows(list(urimine.extract_path(inputs["mbox"], jobs=2))) == rows(
        list(urimine.extract_path(inputs["mbox"]))
    )
    long = tmp_path / "long.txt"
    long.write_text("http://a.example/" + "x" * 100 + " http://b.example/\n")
    assert [r.hit.uri for r in urimine.extract_path(long, max_length=64)] == ["http://b.example/"]


@pytest.mark.parametrize("headers", ["all", "links", "none"])
def test_header_fields_are_chosen_as_the_command_chooses_them(tmp_path: Path, headers: str) -> None:
    """``headers`` is ``--headers``: a Subject is an unstructured field (RFC 5322
    section 3.6.5), List-Archive a field that holds URIs (RFC 2369)."""
    mail = tmp_path / "m.eml"
    mail.write_bytes(
        b"Message-ID: <h1@example.org>\nSubject: see http://subject.example/\n"
        b"List-Archive: <http://list.example/archive>\n\nbody http://body.example/\n"
    )
    got = rows(list(urimine.extract_path(mail, headers=headers)))
    assert got == cli_rows(mail, "--headers", headers)
    expected = {
        "all": ["header:list-archive", "header:subject"],  # the URI fields come first
        "links": ["header:list-archive"],
        "none": [],
    }[headers]
    assert [r["context"] for r in got if r["part"] == "headers"] == expected
    assert [r["uri"] for r in got if r["part"] != "headers"] == ["http://body.example/"]


@pytest.mark.parametrize(
    "options",
    [
        {"rules": "nonsense"},
        {"encoding": "no-such-codec"},
        {"max_length": 3},
        {"jobs": 0},
        {"headers": "some"},
    ],
)
def test_bad_options_raise_config_error_before_reading(
    tmp_path: Path, options: dict[str, object]
) -> None:
    with pytest.raises(ConfigError):
        urimine.extract_path(tmp_path / "not-read", **options)  # type: ignore[arg-type]


def test_errors_raise_after_the_readable_part_or_go_to_on_error(tmp_path: Path) -> None:
    cut = FIXTURES / "truncated.txt.gz"
    got: list[str] = []
    with pytest.raises(SourceError) as raised:
        for rec in urimine.extract_path(cut):
            got.append(rec.hit.uri)
    assert raised.value.source == str(cut) and len(got) >= 50
    (tmp_path / "a.txt").write_text("http://a.example/\n")
    (tmp_path / "b.txt.gz").write_bytes(cut.read_bytes())
    (tmp_path / "c.txt").write_text("http://c.example/\n")
    errors: list[SourceError] = []
    uris = [r.hit.uri for r in urimine.extract_path(tmp_path, on_error=errors.append)]
    assert uris[0] == "http://a.example/" and uris[-1] == "http://c.example/"
    assert [e.source for e in errors] == [str(tmp_path / "b.txt.gz")]
    stream_errors: list[SourceError] = []
    part = list(urimine.extract_path(io.BytesIO(cut.read_bytes()), on_error=stream_errors.append))
    assert len(part) >= 50 and [e.source for e in stream_errors] == ["-"]


def test_extract_names_its_options() -> None:
    text = "see web+x:a.example/p and <http://b.example/q> http://c.example/" + "r" * 80
    assert urimine.extract(text) == ["http://b.example/q", "http://c.example/" + "r" * 80]
    assert urimine.extract(text, extra_schemes=["web+x"])[0] == "web+x:a.example/p"
    assert urimine.extract(text, rules="strict") == ["http://b.example/q"]
    assert urimine.extract(text, max_length=64) == ["http://b.example/q"]
    assert [h.uri for h in urimine.finditer(text, rules=["angle"])] == ["http://b.example/q"]
    chunks = [text[:20], text[20:]]
    assert list(urimine.extract_chunks(chunks, max_length=64)) == list(
        urimine.finditer(text, max_length=64)
    )
    with pytest.raises(TypeError):
        urimine.extract(text, max_candidate_len=64)  # type: ignore[call-arg]


def test_import_stays_light() -> None:
    """``import urimine`` loads no sources, pipeline or walk matcher (start-up time):
    ``extract_path`` imports them when first called."""
    code = (
        "import sys, urimine; urimine.extract_path\n"
        "print(sorted(m for m in ('urimine.pipeline', 'urimine.sources', 'pathspec',"
        " 'publicsuffixlist', 'shtab') if m in sys.modules))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout == "[]\n", proc.stderr
