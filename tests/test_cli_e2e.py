"""End to end: the installed ``urimine`` command on real files (issue 3).

Every test runs the console script as a subprocess, on the shared corpora
(``../shared/corpora``, skipped when absent) and on the small fixtures in
``corpora/fixtures``. Expected values come from the data itself (decoded with
the standard library's ``email``, ``quopri``, ``html.parser``), not from what
the command printed when the test was written. Errors, signals and atomic
output are in ``test_cli_errors.py``.
"""

from __future__ import annotations

import csv
import email
import email.policy
import functools
import gzip
import io
import json
import quopri
import re
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from helpers import urimine_exe
from urimine import Hit, Scanner

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "corpora" / "fixtures"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPORA = SHARED / "corpora"
MAIL = CORPORA / "mail"
DOCS = CORPORA / "docs"

MBOX_GZ = (
    "spamassassin-easy_ham",
    "spamassassin-hard_ham",
    "spamassassin-spam",
    "usrp-users",
    "linux-man",
    "open-iscsi",
    "jfs-discussion",
)
FIELDS = [
    "uri",
    "key",
    "kind",
    "scheme",
    "context",
    "source",
    "line",
    "column",
    "start",
    "end",
    "alternative",
    "strict",  # issue 30 item 1
    "wrapper",  # issue 31, the unwrap rule
    "message_index",
    "message_id",
    "part",
    "record_index",
    "record_id",
    "target_uri",
]
CONTEXTS = {"angle", "url-prefix", "quote", "bare", "legacy-urn", "abbreviated"}
KINDS = {"uri", "urn", "urn-legacy"}
URI_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+\Z")
"""Only characters RFC 3986 allows in a URI (for picking expectations out of data)."""


def run(
    *args: str, stdin: bytes | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[bytes]:
    """Run ``urimine ARGS``; no run may ever print a traceback."""
    proc = subprocess.run(
        [urimine_exe(), *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr.decode("utf-8", "replace")
    return proc


@functools.cache
def cached(*args: str) -> tuple[int, bytes, bytes]:
    """``run`` once per argument list for the whole session (the corpora are big)."""
    proc = run(*args)
    return proc.returncode, proc.stdout, proc.stderr


def ok(*args: str) -> bytes:
    """stdout of a run that must succeed completely (exit 0)."""
    status, out, err = cached(*args)
    assert status == 0, err.decode("utf-8", "replace")
    return out


def jsonl(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def lines(data: bytes) -> list[str]:
    return data.decode("utf-8").splitlines()


@pytest.fixture(scope="module")
def corpora() -> Path:
    if not (MAIL.is_dir() and DOCS.is_dir()):
        pytest.skip("../shared/corpora is not present")
    return CORPORA


def mail_rows(name: str) -> list[dict[str, Any]]:
    """``--all --format jsonl`` rows of one mail source, from one run over all of mail/."""
    rows = jsonl(ok("--no-progress", "-j", "1", "--all", "-f", "jsonl", str(MAIL)))
    return [r for r in rows if r["source"] == str(MAIL / name)]


def by_message(rows: Iterable[dict[str, Any]]) -> dict[int, set[str]]:
    out: dict[int, set[str]] = defaultdict(set)
    for r in rows:
        out[r["message_index"]].add(r["uri"])
    return out


def mbox_messages(path: Path) -> list[email.message.Message]:
    """The messages of a shared mboxrd file, split on its ``From `` lines."""
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    raw = re.split(rb"^From .*\n", data, flags=re.M)[1:]
    return [email.message_from_bytes(m, policy=email.policy.compat32) for m in raw]


def text_parts(msg: email.message.Message) -> Iterable[tuple[str, str]]:
    """(subtype, decoded text) of every text/* part."""
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes | type(None))
        charset = part.get_content_charset() or "utf-8"
        try:
            text = (payload or b"").decode(charset, "replace")
        except LookupError:
            text = (payload or b"").decode("utf-8", "replace")
        yield part.get_content_subtype(), text


class _Hrefs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs += [v.strip() for k, v in attrs if k == "href" and v]


def hrefs(html: str) -> list[str]:
    parser = _Hrefs()
    parser.feed(html)
    return parser.hrefs


# --- every source is read completely, -j 1 and -j 2 agree ----------------------------


def test_every_mail_source_reads_cleanly(corpora: Path) -> None:
    names = [f"{n}.mbox.gz" for n in MBOX_GZ] + ["notmuch-test-corpora.mbox"]
    names += [f"perceval/{p.name}" for p in sorted((MAIL / "perceval").iterdir())]
    assert len(names) == 8 + 16
    rows = jsonl(ok("--no-progress", "-j", "1", "--all", "-f", "jsonl", str(MAIL)))
    sources = Counter(r["source"] for r in rows)
    for name in names:
        assert (MAIL / name).exists(), name
    # every mbox source yields URIs; the manifests (.tsv) are read as text too
    for name in [f"{n}.mbox.gz" for n in MBOX_GZ] + ["notmuch-test-corpora.mbox"]:
        assert sources[str(MAIL / name)] > 50, name
    perceval = [s for s in sources if "/perceval/" in s]
    assert len(perceval) >= 8
    for r in rows:
        if r["source"].endswith((".mbox.gz", ".mbox")):
            assert isinstance(r["message_index"], int) and r["message_index"] >= 0
            assert r["part"]


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_jobs_give_identical_output_on_mail(corpora: Path, fmt: str) -> None:
    mode = ["--all"] if fmt == "jsonl" else []
    one = ok("--no-progress", "-j", "1", *mode, "-f", fmt, str(MAIL))
    two = ok("--no-progress", "-j", "2", *mode, "-f", fmt, str(MAIL))
    assert one == two
    assert len(one.splitlines()) > 10_000


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_jobs_give_identical_output_on_docs(corpora: Path, fmt: str) -> None:
    mode = ["--all"] if fmt == "jsonl" else []
    one = ok("--no-progress", "-j", "1", *mode, "-f", fmt, str(DOCS))
    two = ok("--no-progress", "-j", "2", *mode, "-f", fmt, str(DOCS))
    assert one == two
    assert len(one.splitlines()) > 5_000


@pytest.mark.parametrize(
    "rel", ["mail/linux-man.mbox.gz", "mail/notmuch-test-corpora.mbox", "docs/drafts"]
)
def test_stdin_and_path_give_the_same_uris(corpora: Path, rel: str) -> None:
    path = CORPORA / rel
    if path.is_dir():
        (path,) = path.iterdir()
    by_path = run("--no-progress", "-j", "1", str(path))
    by_stdin = run("--no-progress", "-j", "1", "-", stdin=path.read_bytes())
    assert by_path.returncode == by_stdin.returncode == 0
    assert by_path.stdout == by_stdin.stdout
    assert by_path.stdout


def _scan(text: str, size: int) -> list[Hit]:
    scanner = Scanner()
    out = []
    for i in range(0, len(text), size):
        out += scanner.feed(text[i : i + size])
    out += scanner.close()
    return [h for h in out if isinstance(h, Hit)]


@pytest.mark.parametrize(
    "rel",
    [
        "docs/drafts/draft-ietf-uri-url-03.txt",
        "docs/rfc/rfc3986.txt",
        "docs/rfc/rfc2141.txt",
        "mail/linux-man.mbox.gz",
        "mail/spamassassin-easy_ham.mbox.gz",
    ],
)
def test_scanner_chunk_size_does_not_change_hits(corpora: Path, rel: str) -> None:
    path = CORPORA / rel
    data = (
        gzip.decompress(path.read_bytes())[:400_000] if path.suffix == ".gz" else path.read_bytes()
    )
    text = data.decode("utf-8", "replace")
    whole = _scan(text, len(text) or 1)
    assert whole
    for hit in whole:
        assert text[hit.start : hit.end] == hit.raw
    for size in (1, 7, 4096):
        assert _scan(text, size) == whole, size


# --- what the data says must come out -----------------------------------------------


def test_linux_man_quoted_printable_urls_come_out_whole(corpora: Path) -> None:
    raw = gzip.decompress((MAIL / "linux-man.mbox.gz").read_bytes())
    broken = re.findall(rb"<(https://git\.kernel\.org/[^>\s]*=\r?\n[^>\s]*)>", raw)
    expected = {quopri.decodestring(b).decode("ascii") for b in broken}
    assert sum("?id=" in uri for uri in expected) >= 2  # the ?id=3D=\n... commit links
    for uri in expected:
        assert "=3D" not in uri and "=\n" not in uri
    rows = mail_rows("linux-man.mbox.gz")
    found = {r["uri"] for r in rows}
    assert expected <= found
    for r in rows:
        if r["uri"].startswith("https://git.kernel.org/"):
            assert "=3D" not in r["uri"] and not r["uri"].endswith("="), r


def test_open_iscsi_unclosed_list_archive(corpora: Path) -> None:
    raw = gzip.decompress((MAIL / "open-iscsi.mbox.gz").read_bytes())
    unclosed = len(
        re.findall(rb"^List-Archive: <https://groups\.google\.com/group/open-iscsi\r?$", raw, re.M)
    )
    assert unclosed == len(re.findall(rb"^From ", raw, re.M)) == 382
    rows = [r for r in mail_rows("open-iscsi.mbox.gz") if r["part"] == "headers"]
    archive = {
        r["message_index"] for r in rows if r["uri"] == "https://groups.google.com/group/open-iscsi"
    }
    subscribe = {
        r["message_index"]
        for r in rows
        if r["uri"] == "https://groups.google.com/group/open-iscsi/subscribe"
    }
    assert len(archive) == len(subscribe) == unclosed
    for r in rows:
        assert "List-" not in r["uri"] and not re.search(r"\s", r["uri"]), r


def test_open_iscsi_every_msgid_footer_url(corpora: Path) -> None:
    prefix = "https://groups.google.com/d/msgid/"
    rows = mail_rows("open-iscsi.mbox.gz")
    found = by_message(rows)
    # A footer URL cut at the wrap column of a quoted line is joined to the next line
    # (issue 30 item 5): the URL on its line is the joined hit's alternative.
    joined = by_message(
        {**r, "uri": r["alternative"]}
        for r in rows
        if r["alternative"] and r["uri"].startswith(r["alternative"])
    )
    expected = 0
    for index, msg in enumerate(mbox_messages(MAIL / "open-iscsi.mbox.gz")):
        for subtype, text in text_parts(msg):
            if subtype == "html":
                want = [h for h in hrefs(text) if h.startswith(prefix)]
            else:
                want = [u.rstrip(".") for u in re.findall(re.escape(prefix) + r'[^\s<>"]+', text)]
            for uri in want:
                expected += 1
                assert uri in found[index] or uri in joined[index], (index, uri)
    assert expected > 400


def test_spamassassin_url_prefix_forms(corpora: Path) -> None:
    raw = gzip.decompress((MAIL / "spamassassin-easy_ham.mbox.gz").read_bytes()).decode("latin-1")
    forms = re.findall(r"<URL:( ?)([^>\s]+)\s*>", raw)
    assert {space for space, _ in forms} == {"", " "}  # both spellings occur
    rows = mail_rows("spamassassin-easy_ham.mbox.gz")
    # In a header field (X-Uri: <URL:http://...>) the context names the field instead.
    prefixed = {r["uri"] for r in rows if r["context"] in ("url-prefix", "header:x-uri")}
    checked = 0
    for _space, uri in forms:
        if URI_CHARS.match(uri):
            checked += 1
            assert uri in prefixed
    assert checked >= 3
    for r in rows:
        assert not r["uri"].lower().startswith("url:"), r


def test_usrp_users_list_header_uris(corpora: Path) -> None:
    rows = [r for r in mail_rows("usrp-users.mbox.gz") if r["part"] == "headers"]
    found = by_message(rows)
    expected = 0
    for index, msg in enumerate(mbox_messages(MAIL / "usrp-users.mbox.gz")):
        for name, value in msg.items():
            if not name.lower().startswith("list-") or name.lower() == "list-id":
                continue
            for uri in re.findall(r"<([^>]+)>", str(value)):
                expected += 1
                assert uri.strip() in found[index], (index, name, uri)
    assert expected > 3000


def test_html_part_hrefs_are_found(corpora: Path) -> None:
    found = by_message(mail_rows("usrp-users.mbox.gz"))
    expected = 0
    for index, msg in enumerate(mbox_messages(MAIL / "usrp-users.mbox.gz")):
        for subtype, text in text_parts(msg):
            if subtype != "html":
                continue
            for href in hrefs(text):
                if re.match(r"https?://[^/]", href) and URI_CHARS.match(href):
                    expected += 1
                    assert href in found[index], (index, href)
    assert expected > 500


def test_html_stray_quote_does_not_swallow_links(tmp_path: Path) -> None:
    eml = tmp_path / "stray.eml"
    eml.write_bytes(
        b"Content-Type: text/html\n\n"
        b'<img src="http://a.example/1.gif""></p>\n'
        b'<a href="http://b.example/">b</a>\n'
        b'<img src="http://c.example/2.gif""></p>\n'
    )
    out = lines(run("--no-progress", str(eml)).stdout)
    assert out == ["http://a.example/1.gif", "http://b.example/", "http://c.example/2.gif"]


def test_html_links_resolved_against_base() -> None:
    rows = jsonl(ok("--no-progress", "--all", "-f", "jsonl", str(FIXTURES / "nested.eml")))
    html = [r["uri"] for r in rows if r["part"] == "1.2"]
    assert "https://www.example.org/docs/faq.html?a=1&b=2" in html  # ../ and &amp;
    assert "https://www.example.org/docs/guide/img/logo.png" in html
    assert not any(u.startswith("javascript:") or "&amp;" in u for u in html)


# --- output formats -------------------------------------------------------------------


def _check_types(r: dict[str, Any]) -> None:
    for name in ("uri", "key", "kind", "scheme", "context", "source"):
        assert isinstance(r[name], str), (name, r)
    for name in ("line", "column", "start", "end"):
        assert isinstance(r[name], int) and not isinstance(r[name], bool), (name, r)
    assert r["line"] >= 1 and r["column"] >= 1 and 0 <= r["start"] < r["end"]
    assert r["alternative"] is None or isinstance(r["alternative"], str)
    assert r["kind"] in KINDS
    # A delimiting rule, or where the source found it: a header field, an HTML attribute.
    context = r["context"]
    assert context in CONTEXTS or re.fullmatch(r"(?:header|html):[!-~]+", context), r
    assert r["scheme"] == r["scheme"].lower()
    if r["kind"] == "uri":
        assert r["uri"].lower().startswith(r["scheme"] + ":")


def test_jsonl_fields_and_types(corpora: Path) -> None:
    rows = jsonl(ok("--no-progress", "-j", "1", "--all", "-f", "jsonl", str(MAIL)))
    for r in rows:
        _check_types(r)
        if "message_index" in r:
            assert isinstance(r["message_index"], int)
            assert r["message_id"] is None or isinstance(r["message_id"], str)
            assert isinstance(r["part"], str)
        assert list(r)[: len(FIELDS) - 6] == FIELDS[:-6]
    wet = jsonl(ok("--no-progress", "--all", "-f", "jsonl", str(FIXTURES / "crawl.warc.wet.gz")))
    assert [r["target_uri"] for r in wet] == [
        "https://a.example.com/",
        "https://b.example.com/",
        "https://b.example.com/",
    ]
    for r in wet:
        _check_types(r)
        assert isinstance(r["record_index"], int)
        assert r["record_id"].startswith("urn:uuid:")
    assert {r["uri"] for r in wet} == {
        "http://a.example.com/link",
        "urn:isbn:0451450523",
        "https://b.example.com/x",
    }


def test_jsonl_positions_point_at_the_raw_span(corpora: Path) -> None:
    """In a plain-text file, line/column and start/end locate the same raw span."""
    rows = jsonl(ok("--no-progress", "-j", "1", "--all", "-f", "jsonl", str(DOCS)))
    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_source[r["source"]].append(r)
    assert len(by_source) >= 100
    checked = 0
    for source, found in by_source.items():
        data = Path(source).read_bytes()
        if source.endswith(".gz"):
            data = gzip.decompress(data)
        text = data.decode("utf-8-sig", "replace")
        text_lines = text.split("\n")
        starts = [0]
        for line in text_lines:
            starts.append(starts[-1] + len(line) + 1)
        for r in found:
            assert starts[r["line"] - 1] + r["column"] - 1 == r["start"], r
            raw = text[r["start"] : r["end"]]
            squeezed = re.sub(r"\s", "", raw).lower()
            # or with escapes read (issue 30: &amp; and JSON's \/ item 7, LaTeX's item 10);
            # an abbreviated URI (seed 002 Appendix F) is written without its scheme.
            read = re.sub(r"\\([#%&_~$])", r"\1", squeezed.replace("&amp;", "&"))
            squeezed += " " + read.replace("\\/", "/")  # (no white space in either)
            written = r["uri"].split("://", 1)[1] if r["context"] == "abbreviated" else r["uri"]
            assert written.lower() in squeezed or (r["alternative"] or "\0").lower() in squeezed
            head = text_lines[r["line"] - 1][r["column"] - 1 :].replace("\\/", "/")
            n = min(len(written), len(head.split()[0]))
            assert (
                head[:1] in ("<", '"', "'", "\\")
                or head[:4].upper() == "URL:"
                or head.startswith(("&lt;", "&quot;"))
                or head[:n].lower() == written[:n].lower()
            ), (head[:60], r)
            checked += 1
    assert checked > 10_000


def test_csv_matches_jsonl(corpora: Path) -> None:
    path = str(MAIL / "open-iscsi.mbox.gz")
    as_csv = list(csv.reader(io.StringIO(ok("--no-progress", "-f", "csv", path).decode())))
    as_json = jsonl(ok("--no-progress", "-f", "jsonl", path))
    assert as_csv[0] == FIELDS
    assert len(as_csv) - 1 == len(as_json) > 100
    for row, obj in zip(as_csv[1:], as_json, strict=True):
        assert len(row) == len(FIELDS)
        for name, value in zip(FIELDS, row, strict=True):
            want = obj.get(name)
            assert value == ("" if want is None else str(want)), (name, row, obj)
    counted = list(
        csv.reader(io.StringIO(ok("--no-progress", "--count", "-f", "csv", path).decode()))
    )
    assert counted[0] == [*FIELDS, "occurrences", "documents"]


# --- dedup modes and filters ----------------------------------------------------------


def test_all_per_document_unique_and_count(corpora: Path) -> None:
    path = str(MAIL / "linux-man.mbox.gz")
    every = jsonl(ok("--no-progress", "--all", "-f", "jsonl", path))
    per_doc = jsonl(ok("--no-progress", "--per-document", "-f", "jsonl", path))
    unique = jsonl(ok("--no-progress", "-f", "jsonl", path))
    counted = jsonl(ok("--no-progress", "--count", "-f", "jsonl", path))
    text = lines(ok("--no-progress", path))
    text_count = lines(ok("--no-progress", "--count", path))

    # unique: first spelling of each key, in order of first appearance
    first: dict[str, str] = {}
    for r in every:
        first.setdefault(r["key"], r["uri"])
    assert [r["uri"] for r in unique] == list(first.values()) == text
    # per document: each document's keys once, first spelling within the document
    want_doc: dict[tuple[int, str], str] = {}
    for r in every:
        want_doc.setdefault((r["message_index"], r["key"]), r["uri"])
    assert [((r["message_index"], r["key"]), r["uri"]) for r in per_doc] == list(want_doc.items())
    # counts
    occurrences = Counter(r["key"] for r in every)
    documents = Counter(k for (_, k) in want_doc)
    assert [r["key"] for r in counted] == list(first)
    for r in counted:
        assert r["occurrences"] >= r["documents"] >= 1
        assert r["occurrences"] == occurrences[r["key"]]
        assert r["documents"] == documents[r["key"]]
    assert sum(r["occurrences"] for r in counted) == len(every)
    assert text_count == [f"{r['uri']}\t{r['occurrences']}\t{r['documents']}" for r in counted]


def test_canonical_prints_the_key(corpora: Path) -> None:
    path = str(DOCS / "rfc")
    unique = jsonl(ok("--no-progress", "-f", "jsonl", path))
    canonical = lines(ok("--no-progress", "--canonical", path))
    assert canonical == [r["key"] for r in unique]
    assert any(r["key"] != r["uri"] for r in unique)  # the corpus has non-normal spellings


def test_strip_fragment(corpora: Path) -> None:
    path = str(DOCS / "rfc")
    every = jsonl(ok("--no-progress", "--all", "-f", "jsonl", path))
    stripped = jsonl(ok("--no-progress", "--all", "--strip-fragment", "-f", "jsonl", path))
    assert len(every) == len(stripped)
    assert sum("#" in r["uri"] for r in every if r["kind"] == "uri") > 10
    for before, after in zip(every, stripped, strict=True):
        if before["kind"] == "uri":
            assert after["uri"] == before["uri"].split("#", 1)[0]
            assert "#" not in after["key"]
        else:
            assert after["uri"] == before["uri"]


def test_scheme_and_kind_filters(corpora: Path) -> None:
    path = str(DOCS / "rfc")
    unique = jsonl(ok("--no-progress", "-f", "jsonl", path))
    web = lines(ok("--no-progress", "--scheme", "http,https", path))
    assert web == [r["uri"] for r in unique if r["scheme"] in ("http", "https")]
    assert 0 < len(web) < len(unique)
    upper = lines(ok("--no-progress", "--scheme", "HTTP, https", path))
    assert upper == web
    urns = jsonl(ok("--no-progress", "--kind", "urn", "-f", "jsonl", path))
    assert [r["uri"] for r in urns] == [r["uri"] for r in unique if r["kind"] != "uri"]
    assert len(urns) > 50 and {r["kind"] for r in urns} <= {"urn", "urn-legacy"}
    assert all(r["uri"].lower().startswith(("urn:", "<urn:")) for r in urns)


def test_kind_urn_includes_the_1993_form() -> None:
    text = (
        b"The 1993 form <URN:ASCII:IANA:merit.edu:1929642>, RFC 8141 urn:isbn:0451450523,\n"
        b"and a plain http://www.example.org/ that is no URN.\n"
    )
    urns = jsonl(run("--no-progress", "--kind", "urn", "-f", "jsonl", "-", stdin=text).stdout)
    assert [(r["uri"], r["kind"]) for r in urns] == [
        ("<URN:ASCII:IANA:merit.edu:1929642>", "urn-legacy"),
        ("urn:isbn:0451450523", "urn"),
    ]
    legacy = lines(run("--no-progress", "--kind", "urn-legacy", "-", stdin=text).stdout)
    assert legacy == ["<URN:ASCII:IANA:merit.edu:1929642>"]
    uris = lines(run("--no-progress", "--kind", "uri", "-", stdin=text).stdout)
    assert uris == ["http://www.example.org/"]


# --- fixtures of each kind ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "maildir",
            [
                "http://maildir.example.org/1",
                "http://maildir.example.org/2",
                "http://maildir.example.org/3",
            ],
        ),
        ("sample.eml.xz", ["http://maildir.example.org/9"]),
        ("sample.txt.bz2", ["http://example.org/plain", "ftp://ftp.example.net/pub/file.txt"]),
        ("sample.txt.zst", ["http://example.org/plain", "ftp://ftp.example.net/pub/file.txt"]),
        ("flowed.eml", ["https://example.org/a/very/long/path/that/was/flowed"]),
        (
            "crawl.warc.wet.gz",
            ["http://a.example.com/link", "urn:isbn:0451450523", "https://b.example.com/x"],
        ),
    ],
)
def test_fixture_kinds(name: str, expected: list[str]) -> None:
    proc = run("--no-progress", str(FIXTURES / name))
    assert proc.returncode == 0 and proc.stderr == b""
    assert lines(proc.stdout) == expected


def test_nested_multipart_eml() -> None:
    rows = jsonl(ok("--no-progress", "--all", "-f", "jsonl", str(FIXTURES / "nested.eml")))
    uris = [r["uri"] for r in rows]
    for uri in (
        "https://lists.example.org/archive",  # unclosed < in List-Archive
        "https://lists.example.org/subscribe",
        "mailto:list-request@example.org?subject=subscribe",  # folded header
        "https://git.example.org/repo.git/commit/?id=0123456789abcdef",  # QP =3D and =\n
        "mailto:fwd@example.org",  # message/rfc822 headers
        "http://forwarded.example.org/x",
        "http://b64.example.org/é",  # base64, iso-8859-1
    ):
        assert uri in uris
    assert not any("not:a-uri" in u or "not.scanned" in u for u in uris)
    assert {r["message_id"] for r in rows} == {"nested-1@example.org"}


def test_latin1_with_encoding() -> None:
    path = str(FIXTURES / "latin1.txt")
    guessed = lines(ok("--no-progress", path))
    assert "http://example.org/café" not in guessed
    latin1 = lines(ok("--no-progress", "--encoding", "latin-1", path))
    assert latin1 == ["http://example.org/café", "ftp://ftp.example.org/"]


def test_binary_file_skipped_with_notice_and_summary() -> None:
    path = str(FIXTURES / "binary.bin")
    quiet = run("--no-progress", path)
    assert quiet.returncode == 1 and quiet.stdout == b""  # nothing written: no error
    assert quiet.stderr == b"urimine: 1 file was skipped as binary (-v lists them)\n"
    verbose = run("--no-progress", "-v", path, str(FIXTURES / "sample.txt.bz2"))
    assert verbose.returncode == 0
    err = verbose.stderr.decode()
    assert f"urimine: {path}: binary file skipped" in err.splitlines()
    assert re.search(
        r"^urimine: 2 inputs, 1 documents, 2 URIs, 2 written, 0 defects, 0 errors, "
        r"[0-9.]+ MB decoded in [0-9.]+ s \([0-9.-]+ MB/s, no worker processes\)$",
        err,
        re.M,
    ), err
    assert lines(verbose.stdout) == [
        "http://example.org/plain",
        "ftp://ftp.example.net/pub/file.txt",
    ]


def test_broken_base64_part_salvaged_with_defect_notice() -> None:
    path = str(FIXTURES / "broken-base64.eml")
    proc = run("--no-progress", "-v", path)
    assert proc.returncode == 0
    assert lines(proc.stdout) == ["http://salvage.example.org/ok"]
    assert "base64" in proc.stderr.decode()
    assert "1 defects" in proc.stderr.decode()


def test_progress_bar_goes_to_stderr_only(corpora: Path) -> None:
    path = str(MAIL / "linux-man.mbox.gz")
    plain = run("--no-progress", path)
    forced = run("--progress", path)
    assert plain.returncode == forced.returncode == 0
    assert forced.stdout == plain.stdout
    assert plain.stderr == b""
    assert b"\r" in forced.stderr and b"B/s" in forced.stderr
    assert b"\r" not in forced.stdout
