"""The Spark job (issue 6) agrees with the single-machine pipeline, in local mode.

Skipped unless pyspark and Java are installed and ../shared/corpora is present. One
SparkSession (``local[2]``, no UI, 4 shuffle partitions, C1-only JIT, which starts about
twice as fast for jobs this small) serves the whole module.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from urimine.errors import SourceError
from urimine.pipeline import Options, iter_records

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
TRUNCATED = ROOT / "corpora" / "fixtures" / "truncated.txt.gz"


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """A local SparkSession whose Python workers run this interpreter."""
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("Java is not installed")
    from pyspark.sql import SparkSession

    old = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("urimine-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
    if old is None:
        os.environ.pop("PYSPARK_PYTHON", None)
    else:
        os.environ["PYSPARK_PYTHON"] = old


@pytest.fixture(scope="module")
def inputs() -> list[str]:
    """A mail archive, an RFC and a corrupt file."""
    files = [
        SHARED / "mail" / "notmuch-test-corpora.mbox",
        SHARED / "docs" / "rfc" / "rfc3986.txt",
        TRUNCATED,
    ]
    if not all(f.is_file() for f in files):
        pytest.skip("../shared/corpora or the fixtures are not present")
    return [str(f) for f in files]


def single_machine(paths: list[str]) -> tuple[dict[str, int], Counter[str], list[str]]:
    """Documents per key, occurrences per key and failed sources, without Spark."""
    docs: dict[str, set[tuple[str, int]]] = defaultdict(set)
    occ: Counter[str] = Counter()
    failed: list[str] = []

    def on_error(err: SourceError) -> None:
        failed.append(err.source)

    for rec in iter_records(paths, Options(), on_error=on_error):
        docs[rec.hit.key].add(rec.document)
        occ[rec.hit.key] += 1
    return {k: len(v) for k, v in docs.items()}, occ, failed


def run_job(spark: Any, tmp: Path, entries: list[str], **kwargs: Any) -> dict[str, int]:
    from urimine.spark import run

    listing = tmp / "listing.txt"
    listing.write_text("# inputs\n\n" + "\n".join(entries) + "\n", "utf-8")
    return run(spark, str(listing), str(tmp / "out"), Options(), **kwargs)


def jsonl(folder: Path) -> list[dict[str, Any]]:
    """The rows of a JSON Lines output directory, read without Spark."""
    parts = sorted(folder.glob("part-*"))
    return [json.loads(line) for part in parts for line in part.read_text("utf-8").splitlines()]


@contextmanager
def http_server(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 in a thread; yields the base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_jsonl_matches_single_machine(spark: Any, inputs: list[str], tmp_path: Path) -> None:
    """Same keys and counts as the pipeline; the RFC is fetched over HTTP by the executor."""
    rfc = Path(inputs[1])
    with http_server(rfc.parent) as base:
        entries = [inputs[0], f"{base}/{rfc.name}", inputs[2]]
        totals = run_job(spark, tmp_path, entries, fmt="jsonl", links=True)
    out = tmp_path / "out"
    uris = {r["key"]: r for r in jsonl(out / "uris")}
    want_docs, want_occ, failed = single_machine(inputs)

    assert set(uris) == set(want_docs)
    assert {k: r["documents"] for k, r in uris.items()} == want_docs
    assert {k: r["occurrences"] for k, r in uris.items()} == dict(want_occ)
    assert totals["hits"] == sum(want_occ.values())
    assert totals["errors"] == 1 and totals["inputs"] == 3

    assert [e["path"] for e in jsonl(out / "errors")] == failed == [str(TRUNCATED)]

    sample = uris["http://www.ietf.org/rfc/rfc2396.txt"]
    assert sample["canonical"] == sample["key"]
    assert sample["host"] == "www.ietf.org" and sample["scheme"] == "http"
    assert sample["uri"].lower().startswith("http://www.ietf.org/rfc/rfc2396.txt")

    links = jsonl(out / "links")
    per_key: Counter[str] = Counter()
    for r in links:
        per_key[r["key"]] += r["occurrences"]
    assert per_key == want_occ
    assert any(r["message_id"] for r in links)
    assert any(r["source"] == entries[1] for r in links)
    assert set(links[0]) == {"source", "doc_index", "message_id", "record_id", "target_uri",
                             "key", "occurrences"}  # fmt: skip


def test_parquet_via_hadoop_and_missing(spark: Any, inputs: list[str], tmp_path: Path) -> None:
    """Reading through binaryFiles gives the same counts; a missing input is an error row."""
    small = inputs[1:]  # the RFC and the corrupt file
    missing = str(tmp_path / "no-such-file.txt")
    totals = run_job(spark, tmp_path, [*small, missing], via_hadoop=True)
    out = tmp_path / "out"
    assert any(p.name.endswith(".zstd.parquet") for p in (out / "uris").iterdir())
    uris = spark.read.parquet(str(out / "uris")).select("key", "documents").collect()
    want_docs, _, _ = single_machine(small)
    assert {r["key"]: r["documents"] for r in uris} == want_docs
    errors = {r["path"] for r in spark.read.parquet(str(out / "errors")).collect()}
    assert missing in errors and any(p.endswith("truncated.txt.gz") for p in errors)
    assert totals["errors"] == 2


def test_bad_options_exit_2() -> None:
    from urimine.spark import main

    assert main(["listing.txt", "out", "--rules", "no-such-rule"]) == 2
    assert main(["listing.txt", "out", "--encoding", "no-such-codec"]) == 2
