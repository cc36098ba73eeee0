"""urimine as an Apache Spark job: mine a listing of inputs on a cluster (issue 6).

Usage::

    python -m urimine.spark LISTING OUTPUT_DIR [--master local[2]] [-f/--format parquet|jsonl]
                            [--links] [--rules ...] [--extra-scheme S] [--max-length N]
                            [--encoding E] [--partitions N]
    spark-submit --master yarn "$(python -c 'import urimine.spark as m; print(m.__file__)')" \\
        LISTING OUTPUT_DIR

LISTING is a text file Spark can read (local path, ``file://``, ``s3a://``, ``hdfs://``)
with one input per line (blank lines and ``#`` comments are skipped). The inputs are cut
into ``--partitions`` slices (default 4 per core) and each task reads its inputs with the
CLI's own source adapters (:func:`urimine.sources.open_units`) and extraction :class:`Options`:

* local paths and ``file://`` URLs are opened on the executor with the standard library
  (on a cluster they must be on a filesystem mounted on every node: NFS, Lustre, a FUSE
  mount); directories are expanded as the CLI does;
* ``http://`` and ``https://`` URLs (e.g. ``https://data.commoncrawl.org/...``) are
  streamed by the executor into a local temporary file first;
* any other scheme (``s3a://``, ``hdfs://``, ``gs://`` ...) is read through Spark's Hadoop
  FileSystem with ``SparkContext.binaryFiles``: the driver checks the paths exist through
  the JVM gateway (which exists only on the driver), executors receive each file's bytes
  (so one file must fit in executor memory, and less than 2 GB) and spill them to a
  temporary file for ``open_units``.

Each task pre-aggregates per file, so only one row per (file, key) is shuffled; Spark
then reduces by dedup key. Outputs (directories under OUTPUT_DIR, zstd Parquet or JSON
Lines): ``uris`` (key, canonical, uri, scheme, host, kind, documents, occurrences; ``uri``
is the spelling with the smallest (source, doc_index, start)), ``links`` with ``--links``
(source, doc_index, message_id, record_id, target_uri, key, occurrences) and ``errors``
(path, reason). A file that cannot be read (completely) never fails the job: what was
readable is kept and the file is named in ``errors``. pyspark is imported only here.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from urimine.errors import ConfigError, SourceError, UrimineError
from urimine.normalize import normalize_uri
from urimine.parser import split_reference
from urimine.pipeline import Options, unit_records
from urimine.sources import iter_inputs, open_units

__all__ = ["main", "mine_paths", "run"]

LOCAL_SCHEMES = frozenset({"", "file"})
"""Listing entries opened directly by the executor's standard library."""
HTTP_SCHEMES = frozenset({"http", "https"})
"""Listing entries downloaded by the executor with :mod:`urllib`."""

Row = tuple[Any, ...]
Tagged = tuple[str, Row]
"""("u", uri row) / ("l", link row) / ("e", error row) / ("s", (documents, hits)) ."""


def _scheme(entry: str) -> str:
    """The URL scheme of a listing entry, ``""`` for a plain path (``C:\\`` included)."""
    scheme = urllib.parse.urlsplit(entry).scheme.lower()
    return "" if len(scheme) <= 1 else scheme


def _local_paths(entry: str) -> Iterator[str]:
    """A local listing entry as the CLI's inputs (a directory becomes its files)."""
    if entry.startswith("file:"):
        entry = urllib.request.url2pathname(urllib.parse.urlsplit(entry).path)
    return iter_inputs([entry])


def _download(url: str, tmpdir: str) -> str:
    """Stream ``url`` into a file in ``tmpdir``; the name keeps the URL's file name."""
    name = os.path.basename(urllib.parse.urlsplit(url).path) or "download"
    local = os.path.join(tmpdir, name)
    with urllib.request.urlopen(url, timeout=300) as resp, open(local, "wb") as out:
        shutil.copyfileobj(resp, out, 1 << 20)
    return local


def mine_file(path: str, options: Options, source: str | None = None) -> Iterator[Tagged]:
    """Mine one local file, aggregated per key and per document, as tagged rows.

    ``source`` names the input in the rows when ``path`` is a temporary copy. The uri
    row carries the file's first spelling as (source, doc_index, start, uri, canonical,
    host, scheme, kind) so that Spark can take the minimum across files; documents are
    additive across files because a document never spans two files.
    """
    name = source or path
    first: dict[str, Row] = {}
    docs: dict[str, set[int]] = {}
    occ: dict[str, int] = {}
    links: dict[tuple[int, str], list[Any]] = {}
    documents = hits = 0
    last_doc = -1
    error: SourceError | None = None
    try:
        for unit in open_units(path, encoding=options.encoding):
            if unit.doc_index != last_doc:
                documents, last_doc = documents + 1, unit.doc_index
            for rec in unit_records(unit, options):
                hit, doc = rec.hit, rec.doc_index
                hits += 1
                occ[hit.key] = occ.get(hit.key, 0) + 1
                docs.setdefault(hit.key, set()).add(doc)
                spot = (name, doc, hit.start, hit.uri)
                if hit.key not in first or spot < first[hit.key][:4]:
                    first[hit.key] = (*spot, hit.scheme, hit.kind)
                link = links.get((doc, hit.key))
                if link is None:
                    ids = (rec.message_id, rec.record_id, rec.target_uri)
                    links[(doc, hit.key)] = link = [name, doc, *ids, hit.key, 0]
                link[-1] += 1
    except SourceError as err:
        error = err
    for key, (src, doc, start, uri, scheme, kind) in first.items():
        canonical = key if scheme == "urn" else normalize_uri(uri)
        host = None if scheme == "urn" else split_reference(canonical).host
        yield (
            "u",
            (key, src, doc, start, uri, canonical, host, scheme, kind, len(docs[key]), occ[key]),
        )
    for link in links.values():
        yield "l", tuple(link)
    yield "s", (documents, hits)
    if error is not None:
        yield "e", (name, error.reason)


def mine_paths(entries: Iterable[str], options: Options) -> Iterator[Tagged]:
    """Mine the local and http(s) listing entries of one task (runs on an executor)."""
    for entry in entries:
        try:
            if _scheme(entry) in HTTP_SCHEMES:
                with tempfile.TemporaryDirectory(prefix="urimine-") as tmpdir:
                    try:
                        local = _download(entry, tmpdir)
                    except (OSError, ValueError) as exc:
                        yield "e", (entry, f"download failed: {exc}")
                        continue
                    yield from mine_file(local, options, source=entry)
            else:
                for path in _local_paths(entry):
                    yield from mine_file(path, options)
        except UrimineError as exc:  # anything the sources raise on purpose
            yield "e", (entry, str(exc))


def mine_blobs(blobs: Iterable[tuple[str, bytes]], options: Options) -> Iterator[Tagged]:
    """Mine (path, bytes) pairs from ``binaryFiles`` through a temporary local copy."""
    for path, data in blobs:
        with tempfile.TemporaryDirectory(prefix="urimine-") as tmpdir:
            local = os.path.join(tmpdir, os.path.basename(urllib.parse.urlsplit(path).path))
            with open(local, "wb") as out:
                out.write(data)
            del data
            yield from mine_file(local, options, source=path)


_URIS = (
    "key string, uri struct<source:string, doc_index:bigint, start:bigint, uri:string, "
    "canonical:string, host:string, scheme:string, kind:string>, "
    "documents bigint, occurrences bigint"
)
_LINKS = (
    "source string, doc_index bigint, message_id string, record_id string, "
    "target_uri string, key string, occurrences bigint"
)
_ERRORS = "path string, reason string"


def _hadoop_missing(spark: Any, paths: Sequence[str]) -> list[str]:
    """Paths the driver's Hadoop FileSystem cannot find (checked through the JVM gateway)."""
    jvm, conf = spark._jvm, spark._jsc.hadoopConfiguration()
    missing = []
    for p in paths:
        jpath = jvm.org.apache.hadoop.fs.Path(p)
        try:
            if not jpath.getFileSystem(conf).exists(jpath):
                missing.append(p)
        except Exception:  # Py4JJavaError: no FileSystem for the scheme, no credentials
            missing.append(p)
    return missing


def run(
    spark: Any,
    listing: str,
    output: str,
    options: Options,
    *,
    fmt: str = "parquet",
    links: bool = False,
    partitions: int | None = None,
    via_hadoop: bool = False,
) -> dict[str, int]:
    """Run the job in ``spark`` (a SparkSession); returns the accumulator totals.

    ``via_hadoop`` reads every input, local ones included, through ``binaryFiles``.
    """
    from pyspark import StorageLevel

    sc = spark.sparkContext
    acc = {n: sc.accumulator(0) for n in ("inputs", "documents", "hits", "errors")}
    lines = sc.textFile(listing).map(str.strip).filter(lambda s: s and not s.startswith("#"))
    entries = list(dict.fromkeys(lines.collect()))  # the listing is small; the inputs are not
    hadoop = [e for e in entries if via_hadoop or _scheme(e) not in LOCAL_SCHEMES | HTTP_SCHEMES]
    direct = sorted(set(entries) - set(hadoop))
    missing = _hadoop_missing(spark, hadoop) if hadoop else []
    found = [p for p in hadoop if p not in set(missing)]
    cap = partitions or 4 * sc.defaultParallelism  # enough slices to even out stragglers

    def tally(rows: Iterable[Tagged]) -> Iterator[Tagged]:
        for tag, row in rows:
            if tag == "s":
                acc["inputs"].add(1)
                acc["documents"].add(row[0])
                acc["hits"].add(row[1])
                continue
            if tag == "e":
                acc["errors"].add(1)
            yield tag, row

    parts = [sc.parallelize([("e", (p, "not found or not readable")) for p in missing], 1)]
    if direct:
        n = min(cap, len(direct))
        spread = sc.parallelize(direct, n)  # contiguous, equal-count slices: no shuffle
        parts.append(spread.mapPartitions(lambda it: mine_paths(it, options)))
    if found:
        blobs = sc.binaryFiles(",".join(found), minPartitions=min(cap, len(found)))
        parts.append(blobs.mapPartitions(lambda it: mine_blobs(it, options)))
    tagged = sc.union(parts).mapPartitions(tally).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        from pyspark.sql import functions as F

        def frame(tag: str, schema: str) -> Any:
            rows = tagged.filter(lambda t: t[0] == tag).map(lambda t: t[1])
            return spark.createDataFrame(rows, schema)

        uri_rows = tagged.filter(lambda t: t[0] == "u").map(
            lambda t: (t[1][0], t[1][1:9], t[1][9], t[1][10])
        )
        uris = (
            spark.createDataFrame(uri_rows, _URIS)
            .groupBy("key")
            .agg(
                F.min("uri").alias("first"),
                F.sum("documents").alias("documents"),
                F.sum("occurrences").alias("occurrences"),
            )
            .select("key", "first.canonical", "first.uri", "first.scheme", "first.host",
                    "first.kind", "documents", "occurrences")
        )  # fmt: skip
        _write(frame("e", _ERRORS).repartition(1), os.path.join(output, "errors"), fmt)
        _write(uris, os.path.join(output, "uris"), fmt)
        if links:
            _write(frame("l", _LINKS), os.path.join(output, "links"), fmt)
    finally:
        tagged.unpersist()
    return {name: int(a.value) for name, a in acc.items()}


def _write(df: Any, path: str, fmt: str) -> None:
    """Write a DataFrame as zstd Parquet or as JSON Lines (nulls kept, like the CLI)."""
    if fmt == "parquet":
        df.write.option("compression", "zstd").parquet(path)
    else:
        df.write.option("ignoreNullFields", "false").json(path)


def build_parser() -> argparse.ArgumentParser:
    """Arguments of ``python -m urimine.spark``; extraction options as in the CLI."""
    from urimine.cli_args import add_extraction_arguments

    p = argparse.ArgumentParser(prog="urimine.spark", description=__doc__.split("\n", 1)[0])
    p.add_argument("listing", help="text file of input paths or URLs, one per line")
    p.add_argument("output", help="output directory (uris/, links/, errors/ go under it)")
    p.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    p.add_argument(
        "-f",
        "--format",
        choices=("parquet", "jsonl"),
        default="parquet",
        help="output format (default: parquet)",
    )
    p.add_argument(
        "--links", action="store_true", help="also write per-document links (default: off)"
    )
    p.add_argument(
        "--partitions", type=int, help="input partitions (default: 4 x default parallelism)"
    )
    add_extraction_arguments(p)  # the CLI's own options, names and checks
    return p


def options_from(args: argparse.Namespace) -> Options:
    """Validated extraction options, built exactly as the CLI builds them (on the
    driver, not in a thousand tasks)."""
    from urimine.cli_options import extraction_options

    return extraction_options(args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the job; 0 when every input was read, 1 when some were not, 2 on usage errors."""
    args = build_parser().parse_args(argv)
    try:
        options = options_from(args)
        if args.partitions is not None and args.partitions < 1:
            raise ConfigError("--partitions must be at least 1")
    except (ConfigError, ValueError) as exc:
        print(f"urimine.spark: {exc}", file=sys.stderr)
        return 2
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        print("urimine.spark: pip install 'urimine[spark]' (and Java 17)", file=sys.stderr)
        return 2
    builder = SparkSession.builder.appName("urimine")
    master = args.master
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:  # not under spark-submit
        master = "local[*]"
    if master is not None:
        builder = builder.master(master)
        if master.startswith("local"):  # workers must run this interpreter (the venv)
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = builder.config("spark.sql.parquet.compression.codec", "zstd").getOrCreate()
    started = time.perf_counter()
    try:
        totals = run(spark, args.listing, args.output, options, fmt=args.format,
                     links=args.links, partitions=args.partitions)  # fmt: skip
    finally:
        spark.stop()
    print(
        f"urimine.spark: {totals['inputs']} inputs, {totals['documents']} documents, "
        f"{totals['hits']} URIs, {totals['errors']} errors in "
        f"{time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 1 if totals["errors"] else 0


if __name__ == "__main__":
    if not __package__:  # run as a file by spark-submit: drop urimine/ from sys.path
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    from urimine.spark import main as _main  # functions pickle by reference, not by value

    sys.exit(_main())
