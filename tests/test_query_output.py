"""Index queries people can read (issue 32): a header row and the same named columns in
text, CSV and JSON Lines for every query; ``hosts --by domain``; ``links-to`` a host or a
prefix; ``export`` as CSV, JSON Lines and Parquet; the exit statuses of index and query."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import urimine_exe
from urimine.index.cli import index_main, query_main

TEXT_A = (
    "See <http://Example.COM/a> and http://www.example.com/b, http://www.example.com/b\n"
    "and http://sub.example.co.uk/x http://10.0.0.1/ip urn:ISBN:0-395-36341-1\n"
)
TEXT_B = "Again HTTP://example.com:80/a, http://x.example.co.uk/ and http://example.com/docs/1\n"

COLUMNS = {
    "top": ["documents", "occurrences", "scheme", "host", "key", "uri"],
    "hosts": ["documents", "links", "occurrences", "uris", "host"],
    "stats": ["name", "value"],
    "links-to": [
        *("occurrences", "start", "context", "source", "doc_index"),
        *("message_id", "record_id", "target_uri", "key", "uri"),
    ],
}
COLUMNS["links-from"] = COLUMNS["links-to"]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("query")
    (root / "in").mkdir()
    (root / "in" / "a.txt").write_text(TEXT_A)
    (root / "in" / "b.txt").write_text(TEXT_B)
    path = root / "links.db"
    assert index_main([str(path), str(root / "in")]) == 0
    return path


def query(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = query_main([str(db), *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _args(name: str, db: Path) -> list[str]:
    return {
        "links-to": ["links-to", "example.com"],
        "links-from": ["links-from", str(db.parent / "in" / "a.txt")],
    }.get(name, [name])


@pytest.mark.parametrize("name", list(COLUMNS))
def test_same_columns_in_every_format(
    capsys: pytest.CaptureFixture[str], db: Path, name: str
) -> None:
    _, text, _ = query(capsys, db, *_args(name, db))
    _, table, _ = query(capsys, db, *_args(name, db), "-f", "csv")
    _, lines, _ = query(capsys, db, *_args(name, db), "--format", "jsonl")
    header, *rows = text.splitlines()
    assert header.split() == COLUMNS[name]
    csv_rows = list(csv.reader(io.StringIO(table)))
    assert csv_rows[0] == COLUMNS[name]
    objects = [json.loads(line) for line in lines.splitlines()]
    assert all(list(o) == COLUMNS[name] for o in objects)
    assert len(rows) == len(csv_rows) - 1 == len(objects) > 0
    for line, cells, obj in zip(rows, csv_rows[1:], objects, strict=True):
        values = ["" if v is None else str(v) for v in obj.values()]
        assert cells == values
        assert line.split() == [v or "-" for v in values]


def test_top_ranks_and_counts(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    _, out, _ = query(capsys, db, "top", "-n", "2", "-f", "jsonl")
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == {
        "documents": 2,
        "occurrences": 2,
        "scheme": "http",
        "host": "example.com",
        "key": "http://example.com/a",
        "uri": "http://Example.COM/a",
    }
    assert (second["documents"], second["occurrences"]) == (1, 2)
    _, out, _ = query(capsys, db, "top", "--host", "co.uk", "-f", "csv")
    assert [r["host"] for r in csv.DictReader(io.StringIO(out))] == [
        "sub.example.co.uk",
        "x.example.co.uk",
    ]


def test_hosts_by_registrable_domain(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    status, out, _ = query(capsys, db, "hosts", "--by", "domain", "-f", "jsonl")
    assert status == 0
    rows = {r["domain"]: r for r in map(json.loads, out.splitlines())}
    # co.uk is a public suffix: the registrable domain is one label under it
    assert rows["example.co.uk"] == {
        "documents": 2,
        "links": 2,
        "occurrences": 2,
        "uris": 2,
        "hosts": 2,
        "domain": "example.co.uk",
    }
    assert rows["example.com"]["hosts"] == 2  # example.com and www.example.com
    assert rows["example.com"]["documents"] == 2 and rows["example.com"]["uris"] == 3
    assert rows["10.0.0.1"]["hosts"] == 1  # an IP address is its own group
    _, text, _ = query(capsys, db, "hosts", "--by", "domain")
    assert text.splitlines()[0].split() == [*COLUMNS["hosts"][:4], "hosts", "domain"]


@pytest.mark.parametrize(
    ("target", "keys"),
    [
        ("HTTP://example.com:80/a", {"http://example.com/a"}),  # a URI, any spelling
        (
            "Example.COM",
            {"http://example.com/a", "http://www.example.com/b"} | {"http://example.com/docs/1"},
        ),  # a host and its subdomains
        ("www.example.com", {"http://www.example.com/b"}),
        ("http://EXAMPLE.com/d*", {"http://example.com/docs/1"}),  # a prefix
        ("http://example.com*", {"http://example.com/a", "http://example.com/docs/1"}),
        ("urn:isbn:*", {"urn:isbn:0-395-36341-1"}),
    ],
)
def test_links_to_a_uri_a_host_or_a_prefix(
    capsys: pytest.CaptureFixture[str], db: Path, target: str, keys: set[str]
) -> None:
    status, out, err = query(capsys, db, "links-to", target, "-f", "jsonl")
    assert (status, err) == (0, "")
    assert {json.loads(line)["key"] for line in out.splitlines()} == keys


@pytest.mark.parametrize("target", ["http://nowhere.example/", "nowhere.example", "ftp://*"])
def test_links_to_nothing_exits_1(
    capsys: pytest.CaptureFixture[str], db: Path, target: str
) -> None:
    status, out, err = query(capsys, db, "links-to", target)
    assert (status, out, err) == (1, "", f"urimine: {target}: not in the index\n")


def test_top_of_nothing_exits_1(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    status, out, _ = query(capsys, db, "top", "--scheme", "gopher")
    assert status == 1 and [line.split() for line in out.splitlines()] == [COLUMNS["top"]]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_export(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path, fmt: str) -> None:
    status, out, _ = query(capsys, db, "export", "-f", fmt)
    assert status == 0
    target = tmp_path / f"links.{fmt}"
    assert query(capsys, db, "export", "-f", fmt, "-o", str(target)) == (0, "", "")
    assert target.read_bytes().decode() == out
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
    else:
        rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 8  # one per (document, URI): 5 in a.txt, 3 in b.txt
    assert {r["key"] for r in rows} >= {"http://example.com/a", "urn:isbn:0-395-36341-1"}
    assert list(rows[0]) == [
        "source",
        "doc_index",
        "message_id",
        "record_id",
        "target_uri",
        "key",
        "uri",
        "scheme",
        "host",
        "kind",
        "occurrences",
        "start",
        "context",
    ]


def test_export_parquet(capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "links.parquet"
    assert query(capsys, db, "export", "-f", "parquet", "-o", str(target)) == (0, "", "")
    table = pq.read_table(target).to_pylist()
    _, out, _ = query(capsys, db, "export", "-f", "jsonl")
    assert table == [json.loads(line) for line in out.splitlines()]
    assert [p.name for p in tmp_path.iterdir()] == ["links.parquet"]


def test_export_parquet_needs_a_file(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    status, out, err = query(capsys, db, "export", "-f", "parquet")
    assert (status, out) == (2, "")
    assert err.startswith("urimine: query: export -f parquet needs -o FILE")


def test_export_parquet_without_pyarrow_names_the_extra(db: Path, tmp_path: Path) -> None:
    """Run where ``import pyarrow`` fails, as it does without the extra installed."""
    code = (
        "import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
        "from urimine.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    target = tmp_path / "links.parquet"
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "query",
            str(db),
            "export",
            "-f",
            "parquet",
            "-o",
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "urimine: export -f parquet needs the optional extra: pip install 'urimine[parquet]'\n"
    )
    assert not target.exists()


def test_index_exit_statuses(tmp_path: Path) -> None:
    (tmp_path / "ok.txt").write_text("http://a.example/\n")
    db = tmp_path / "links.db"
    run = [urimine_exe(), "index", str(db)]
    ok = subprocess.run([*run, str(tmp_path / "ok.txt")], capture_output=True, timeout=60)
    assert ok.returncode == 0 and ok.stderr == b""
    missing = tmp_path / "missing.txt"
    bad = subprocess.run(
        [*run, str(tmp_path / "ok.txt"), str(missing)], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2
    assert bad.stderr == f"urimine: {missing}: No such file or directory\n"
    usage = subprocess.run([*run, "--rules", "nonsense", "x"], capture_output=True, timeout=60)
    assert usage.returncode == 2


def test_query_of_a_missing_index_exits_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [urimine_exe(), "query", str(tmp_path / "none.db"), "stats"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("urimine: ")


def test_control_characters_are_escaped_in_text_csv_and_messages(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "ctl\x1b[2J\nname.txt"
    bad.write_text("see http://ctl.example/\n")
    db = tmp_path / "links.db"
    assert index_main([str(db), str(bad)]) == 0
    status, text, _ = query(capsys, db, "links-to", "http://ctl.example/")
    assert status == 0 and "\x1b" not in text and text.count("\n") == 2
    assert "ctl\\x1b[2J\\nname.txt" in text
    _, table, _ = query(capsys, db, "links-to", "http://ctl.example/", "-f", "csv")
    assert "ctl\\x1b[2J\\x0aname.txt" in table and "\x1b" not in table
    _, lines, _ = query(capsys, db, "links-to", "http://ctl.example/", "-f", "jsonl")
    assert json.loads(lines)["source"] == str(bad)  # exact in JSON Lines
    status, _, err = query(capsys, db, "links-from", str(tmp_path / "gone\x1b]0;x\x07.txt"))
    assert status == 1 and err == f"urimine: {tmp_path}/gone\\x1b]0;x\\x07.txt: not in the index\n"
