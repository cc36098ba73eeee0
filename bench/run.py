"""Throughput and memory benchmark of urimine against peer URL extractors (issue 5).

One command, from the repository root::

    python bench/run.py                 # full: 3 runs per cell, median
    python bench/run.py --quick         # 1 run per cell, peers' inputs capped harder
    python bench/run.py --scale         # also -j 2 vs -j 1 and the 1 GB memory test

Every measurement runs in a fresh child process (this file, re-executed with
``--child SPEC``) so that peak memory is that tool's alone. The child loads and
decompresses its input *before* the clock starts; it then resets the kernel's peak-RSS
mark (``/proc/self/clear_refs``), reads the CPU clock (user+sys), runs the extraction,
consumes every result, and reports CPU seconds, the process' peak RSS and how far that
peak rose above the resident size just before extraction. MB/s is uncompressed input
bytes / 1e6 / CPU seconds; the cell reports the median of the runs.

The parent imports nothing heavy so that its own size cannot leak into the children's
``ru_maxrss``; the chart (matplotlib) is drawn at the very end.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import gc
import gzip
import importlib.metadata as md
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SRC = REPO / "src"
CORPORA = REPO.parent / "shared" / "corpora"
DOCS = CORPORA / "docs"
MAIL = CORPORA / "mail"
RFC = DOCS / "rfc-bulk-sample.txt.gz"
PROSE = DOCS / "gutenberg-newsletters.txt.gz"
MB = 1_000_000
MIB = 1 << 20

TOOLS = ("urimine", "urimine-extract", "linkify", "urlextract", "ural")
TOOL_LABEL = {
    "urimine": "urimine `finditer`",
    "urimine-extract": "urimine `extract` (dedup)",
    "urimine-mail": "urimine pipeline (mbox + MIME)",
    "urimine-mail-zlib": "urimine pipeline, stdlib zlib",
    "linkify": "linkify-it-py",
    "urlextract": "urlextract",
    "ural": "ural",
}
DIST = {
    "urimine": "urimine",
    "urimine-extract": "urimine",
    "urimine-mail": "urimine",
    "urimine-mail-zlib": "urimine",
    "linkify": "linkify-it-py",
    "urlextract": "urlextract",
    "ural": "ural",
}
CORPUS_LABEL = {
    "rfc": "RFC text (URL-dense)",
    "prose": "Gutenberg prose (sparse)",
    "mail": "mail mbox set",
}
# The targets of issue 5 (single process, CPU time).
TARGET_TEXT = 150.0
TARGET_MAIL = 50.0
TARGET_J2 = 1.8
TARGET_RSS_MB = 100.0
TARGET_PATHO_RATIO = 10.0
# The naive pattern of the floors: a scheme, its colon and what follows up to white
# space, "<", ">" or '"' (no delimiting rule, no validation).
NAIVE = r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>\"]+"
REF_MB = 50  # size of the ordinary text the pathological inputs are compared with


def mail_paths() -> list[Path]:
    """The shared mbox corpus: every ``*.mbox.gz`` plus the uncompressed notmuch one."""
    paths = sorted(MAIL.glob("*.mbox.gz"))
    extra = MAIL / "notmuch-test-corpora.mbox"
    if extra.exists():
        paths.append(extra)
    return paths


def _open_raw(path: Path) -> BinaryIO:
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def read_raw(path: Path) -> bytes:
    with _open_raw(path) as f:
        return f.read()


def raw_mail() -> bytes:
    """All the mboxes decompressed and concatenated, each ending in a newline."""
    parts = []
    for p in mail_paths():
        data = read_raw(p)
        parts.append(data if data.endswith(b"\n") else data + b"\n")
    return b"".join(parts)


def raw_size(paths: list[Path]) -> int:
    """Uncompressed bytes of *paths*, streamed (the parent stays small)."""
    total = 0
    for p in paths:
        with _open_raw(p) as f:
            while block := f.read(MIB):
                total += len(block)
    return total


# --------------------------------------------------------------------------- child side


def _fill(pattern: bytes, n: int) -> bytes:
    return (pattern * (n // len(pattern) + 1))[:n]


def _long_url(n: int) -> bytes:
    head = b"see http://x/"
    return head + b"a" * (n - len(head))


# Reduced from usrp-users.mbox.gz (offset ~1.74 MB of the decoded text): a stray `<x:`
# followed by mail-quoted lines of tabs. It made the scanner backtrack exponentially (the
# mail corpus never finished) until 5a65172; kept as a regression case.
QUOTED_TABLE = (
    b"> start<td:l;\n> \t\n> \t\n> \t\n> No  (ave) ms \tTx Ho \n> nd\n> 100 \t041818\n"
    b"> 19602.8\t\n>\t\n>\t\n>\t\n>\t\n>\t\n>\t\n> \n>\t\n> of hops \tTx t"
)

WORD_XML = (
    b'<w:p w:rsidR="00A77B3E"><w:pPr><w:spacing w:after="0"/></w:pPr>'
    b"<w:r><w:t>text</w:t></w:r></w:p>\n"
)

PATHOLOGICAL: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "no-space-line": (
        "one line without spaces or newlines (URI characters)",
        lambda n: _fill(b"abcdefghijklmnopqrstuvwxyz0123456789-._~/", n),
    ),
    "lt-runs": (
        "runs of 100k `<` (newline after each)",
        lambda n: _fill(b"<" * 100_000 + b"\n", n),
    ),
    "open-parens": ("`((((…` one run", lambda n: b"(" * n),
    "a-colon": ("`a:a:a:…` one run", lambda n: _fill(b"a:", n)),
    "word-colons": ("`ab:ab:ab:…` one run (unregistered words)", lambda n: _fill(b"ab:", n)),
    "numbered-words": (
        "`ab0:ab1:…ab999:` repeated (a thousand distinct unregistered words)",
        lambda n: _fill(b"".join(b"ab%d:" % i for i in range(1000)), n),
    ),
    "hyphen-words": (
        "`x-http:x-http:…` one run (a registered name inside each word)",
        lambda n: _fill(b"x-http:", n),
    ),
    "long-words": (
        "70 letters then `:`, repeated (words too long for a scheme)",
        lambda n: _fill(b"a" * 70 + b":", n),
    ),
    "dotted-words": (
        "`e.g.ab:e.g.ab:…` one run (dotted words whose last part is no scheme)",
        lambda n: _fill(b"e.g.ab:", n),
    ),
    "xml-markup": (
        "a paragraph of a Word document's XML (`<w:p …><w:r><w:t>`), repeated",
        lambda n: _fill(WORD_XML, n),
    ),
    "xml-tags": ("`<td:x><td:x>…` XML tags back to back", lambda n: _fill(b"<td:x>", n)),
    "numbered-tags": (
        "`<a:b0><a:b1>…<a:b999>` repeated (a thousand distinct XML tags)",
        lambda n: _fill(b"".join(b"<a:b%d>" % i for i in range(1000)), n),
    ),
    "digit-colons": ("`1:1:1:…` one run (a colon after every digit)", lambda n: _fill(b"1:", n)),
    "rejected-uris": (
        "`http:x http:x …`: a registered scheme without the `//` it needs (each a rejection)",
        lambda n: _fill(b"http:x ", n),
    ),
    "rejected-joined": (
        "`news:+_%zz-` at every line end: rejected candidates joined at hyphens (Appendix E)",
        lambda n: _fill(b"news:+_%zz-\nz39.50r:/-\n", n),
    ),
    "rejected-quoted": (
        '`"tel:1]~", "HTTP://A.B[a", …`: rejected candidates in double quotes (a JSON list)',
        lambda n: _fill(b'"tel:1]~", "HTTP://A.B[a", ', n),
    ),
    "rejected-in-markup": (
        "`<td>tel:1]~</td><td>mailto:.</td>…`: rejected candidates in markup, no white space",
        lambda n: _fill(b"<tr><td>tel:1]~</td><td>mailto:.</td></tr>" * 50 + b"\n", n),
    ),
    "urn-no-nid": (
        "`urn:a:urn:a:…`: `urn:` before no NID (each could only be rejected)",
        lambda n: _fill(b"urn:a:", n),
    ),
    "legacy-urn-shapes": (
        "`<URN:a:b:<URN:a:b:…`: `<URN:` where a 1993 URN's shape fails",
        lambda n: _fill(b"<URN:a:b:", n),
    ),
    "hyphen-lines": (
        "`http://x-` on every line: URIs of 8 KB joined at hyphens at line ends",
        lambda n: _fill(b"http://x-\n", n),
    ),
    "hyphen-ends": (
        "`http://x- ` repeated on one line: URIs ending in `-`, no line break after any",
        lambda n: _fill(b"http://x- ", n),
    ),
    "long-bad-uris": (
        "`http://` then 8,000 `a` then `%zz `, repeated: long URIs that fail at their end",
        lambda n: _fill(b"http://" + b"a" * 8000 + b"%zz ", n),
    ),
    "http-repeated": ("`http://http://…` one run", lambda n: _fill(b"http://", n)),
    "angle-http": ("`<http://<http://…` one run", lambda n: _fill(b"<http://", n)),
    "long-url": ("`http://x/` then one path of `a` (longer than max length)", _long_url),
    "quoted-table": (
        "a 118-byte excerpt of usrp-users.mbox (quoted table after `<td:`), repeated",
        lambda n: _fill(QUOTED_TABLE, n),
    ),
    "nul-bytes": ("NUL bytes", lambda n: b"\0" * n),
    # Candidates every few bytes that a rule must parse to reject, none a hit: each
    # costs a Python-level decision (no C-level prefilter can tell a URI's validity).
    "rejected-angle-uris": (
        "`<http://[x]> ` repeated: URIs in brackets whose host is no IP literal "
        "(rejected by the angle rule, then by the bare one)",
        lambda n: _fill(b"<http://[x]> ", n),
    ),
    "bad-escapes": (
        "`mailto:%zz ` repeated: a bad percent escape right after the scheme "
        "(cut there, nothing is left)",
        lambda n: _fill(b"mailto:%zz ", n),
    ),
    "legacy-urn-rejects": (
        "`<URN:a:b:c:d> ` repeated: a 1993 URN's shape, its encoding and NID bad "
        "(rejected by both URN rules)",
        lambda n: _fill(b"<URN:a:b:c:d> ", n),
    ),
    "chain-rejects": (
        "`http://[-` on every line after a quote marker: every line ends in `-`, so each "
        "candidate's run is joined to the lines after it up to the length bound (8 KB), "
        "and rejected (no IP literal)",
        lambda n: _fill(b"http://[-\n> ", n),
    ),
    "urn-reserved": (
        "`urn:urn:x ` repeated: URNs of the NID `urn`, which seed 003 2.1 reserves "
        "(each rejected by the URN rule)",
        lambda n: _fill(b"urn:urn:x ", n),
    ),
    "urn-no-nss": (
        "`urn:ab: ` repeated: an NID and its colon, no NSS (each rejected by the URN rule)",
        lambda n: _fill(b"urn:ab: ", n),
    ),
    "urn-nul": (
        "`urn:ab:%00 ` repeated: an NSS of `%00`, which seed 003 2.5.3 forbids even "
        "encoded (each rejected by the URN rule)",
        lambda n: _fill(b"urn:ab:%00 ", n),
    ),
    "url-list": (
        "one URL per line, all distinct (`https://wN.example.org/a/N/index.html?q=N`)",
        lambda n: _fill(
            b"".join(
                b"https://w%d.example.org/a/%d/index.html?q=%d\n" % (i % 97, i, i)
                for i in range(n // 40 + 1)
            ),
            n,
        ),
    ),
    "words-and-uris": (
        "`ab:` thirty times then `tel:1 `: a URI every 96 bytes among unregistered words",
        lambda n: _fill(b"ab:" * 30 + b"tel:1 ", n),
    ),
    "uri-dense": (
        "`tel:1 tel:1 …`: nothing but URIs, one every 6 bytes (each is a hit to report)",
        lambda n: _fill(b"tel:1 ", n),
    ),
    "invalid-utf8": (
        "invalid UTF-8 (`ff fe c3 28 a0 a1`…), decoded with errors=replace",
        lambda n: _fill(b"\xff\xfe\xc3\x28\xa0\xa1", n),
    ),
}


# The rows dense with candidates that a rule must parse to reject (none a hit): the
# targets table shows each apart, with its cost per candidate.
REJECTED_DENSE = frozenset(
    {
        "rejected-angle-uris",
        "bad-escapes",
        "legacy-urn-rejects",
        "chain-rejects",
        "urn-reserved",
        "urn-no-nss",
        "urn-nul",
    }
)


def sample(raw: bytes, cap: int, pieces: int = 20) -> bytes:
    """*cap* bytes of *raw* as *pieces* evenly spaced slices, each cut at line starts,
    so a capped peer sees the whole corpus' mix rather than only its head."""
    size = cap // pieces
    step = len(raw) // pieces
    out = []
    for i in range(pieces):
        start = raw.find(b"\n", i * step) + 1 if i else 0
        out.append(raw[start : start + size])
    return b"\n".join(out)[:cap]


def _load_text(spec: dict) -> tuple[str, int]:
    """The decoded input of a text measurement and its size in bytes."""
    corpus, cap = spec["corpus"], spec.get("cap")
    if corpus == "rfc":
        raw = read_raw(RFC)
    elif corpus == "prose":
        raw = read_raw(PROSE)
    elif corpus == "mail":
        raw = raw_mail()
    elif corpus == "ordinary":  # ordinary text for the pathological table: its head,
        # repeated (the reference is measured on more text than the inputs, the same text)
        head = read_raw(Path(spec["source"]))[: spec.get("head")]
        raw = _fill(head, spec["size"])
    else:
        raw = PATHOLOGICAL[corpus][1](spec["size"])
    if cap and cap < len(raw):
        raw = sample(raw, cap)
    # As urimine's text source does: UTF-8, undecodable bytes replaced.
    return raw.decode("utf-8", errors="replace"), len(raw)


# Run through every tool once before the clock starts: each compiles its patterns and
# imports its lazy modules on first use. That one-time cost is reported apart (startup),
# so the rate is the steady state a long run sees. The warm-up text has its own URIs:
# no cache (urimine's dedup keys) is warmed for the corpus.
WARMUP_TEXT = (
    "Warm-up: see http://warmup.example/a?b=c#d, <URL:ftp://warmup.example/x> and\n"
    "<http://warmup.example/wrapped-\n  line> (mailto:warm@up.example) urn:isbn:0\n"
    '"https://warmup.example/q" [http://warmup.example/%7Ez] x:y <a:b c> \u00e9 \u3002\n'
    "bare http://warmup.example/broken-\nline, http://warmup.example/p[1] q?x[1]#f[1]\n"
    "http://b\u00fccher.example/\u00e9t\u00e9 > quoted <http://warmup.example/\n> z>\n"
    # A break after a hyphen with white space around it, and URIs rejected in each part
    # (their diagnosis): urimine compiles the patterns of these slow paths at the first.
    "http://warmup.example/two-\n   words http://warmup.example/%zz http://warmup.example/q?%zz "
    "http://warmup.example/f#%zz "
    "http://warmup%zz.example/ http://u%zz@warmup.example/ http://warmup.example/\u00e9%zz\n"
    # The same in a quoted mail line (the patterns are compiled per quote depth).
    "> http://warmup.example/quoted-\n>  line <http://warmup.example/q\n> uoted>\n"
    # Text dense with colons: urimine compiles the patterns of its leaps at the first one.
    + "ab:" * 60
    + "tel:1 "
    + "ab:" * 60
    + "\n"
)


def _runner(tool: str) -> Callable[[str], int]:
    """A callable that runs *tool* over a text and returns the hit count."""
    if tool == "urimine":
        import urimine

        return lambda text: sum(1 for _ in urimine.finditer(text))
    if tool == "urimine-extract":
        import urimine

        return lambda text: len(urimine.extract(text))
    if tool == "floor":
        # The least a Python extractor can do per hit: one C-level match of a naive
        # pattern (no delimiting rule, no validation, no key) and one tuple, dropped at
        # once as the benchmark drops urimine's hits. An input dense with hits costs
        # this much per hit whatever the extractor does.
        naive = re.compile(NAIVE)
        return lambda text: sum(1 for m in naive.finditer(text) if (m.start(), m.end(), m.group()))
    if tool == "floor-parse":
        # The least a Python extractor that parses what it finds can do per hit: the
        # naive match, split by the standard library's parser (urllib.parse.urlsplit,
        # which checks next to nothing), uncached (its lru_cache would spare a URL met
        # before the parse that urimine makes of each hit's text), and one tuple.
        from urllib.parse import urlsplit

        split = urlsplit.__wrapped__
        naive = re.compile(NAIVE)
        return lambda text: sum(
            1 for m in naive.finditer(text) if (m.start(), m.end(), split(m.group()))
        )
    if tool == "floor-c":
        # Less still: the naive pattern's matches as a list of strings made in C, no
        # Python code per match at all (nor its place in the text).
        naive = re.compile(NAIVE)
        return lambda text: len(naive.findall(text))
    if tool == "linkify":
        from linkify_it import LinkifyIt

        linkify = LinkifyIt()
        return lambda text: len(linkify.match(text) or ())
    if tool == "urlextract":
        from urlextract import URLExtract

        extractor = URLExtract()
        return lambda text: len(extractor.find_urls(text))
    if tool == "ural":
        import ural

        return lambda text: sum(1 for _ in ural.urls_from_text(text))
    raise ValueError(tool)


def _mail_runner() -> Callable[[list[str]], int]:
    from urimine.pipeline import iter_records

    return lambda paths: sum(1 for _ in iter_records(paths, jobs=1))


def _rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def child(spec: dict) -> dict:
    """Run one measurement in this (fresh) process and return its numbers."""
    import resource

    inflater = None
    try:
        t0 = time.process_time()
        if spec["tool"].startswith("urimine-mail"):
            from urimine.sources import compress

            if spec["tool"] == "urimine-mail-zlib":  # as without the isal extra
                compress._GZIP = zlib
            inflater = "isal" if compress._gzip_module() is not zlib else "stdlib zlib"
            mail_run = _mail_runner()
            with tempfile.TemporaryDirectory() as tmp:
                warm = Path(tmp, "warm.mbox")
                warm.write_text("From x\nSubject: warm-up\n\n" + WARMUP_TEXT, "utf-8")
                mail_run([str(warm)])
            startup = time.process_time() - t0
            paths = [str(p) for p in mail_paths()]
            nbytes = spec["bytes"]

            def run() -> int:
                return mail_run(paths)
        else:
            tool_run = _runner(spec["tool"])
            tool_run(WARMUP_TEXT)
            startup = time.process_time() - t0
            text, nbytes = _load_text(spec)

            def run() -> int:
                return tool_run(text)
    except ImportError as err:
        return {"status": "not installed", "detail": str(err)}
    except Exception as err:  # e.g. urlextract's TLD list unavailable offline
        return {"status": "unavailable", "detail": f"{type(err).__name__}: {err}"}
    gc.collect()
    reset = _reset_peak()
    before_kib = _rss_kib()
    t0 = time.process_time()
    hits = run()
    cpu = time.process_time() - t0
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "status": "ok",
        "bytes": nbytes,
        "hits": hits,
        "cpu": cpu,
        "startup": startup,
        "peak_mib": peak_kib / 1024,
        "delta_mib": (peak_kib - before_kib) / 1024 if reset else None,
        **({"inflater": inflater} if inflater else {}),
    }


# -------------------------------------------------------------------------- parent side


def child_env() -> dict[str, str]:
    """Benchmark the urimine of this working tree, whatever the venv has installed."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def spawn(spec: dict, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)]
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env=child_env(), check=False
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "detail": f"> {timeout:.0f} s"}
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
        return {"status": "error", "detail": tail[0]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure(spec: dict, repeat: int, timeout: float, log: Callable[[str], None]) -> dict:
    """Median CPU over *repeat* fresh children; the peak memory is the largest seen."""
    runs = []
    for _ in range(repeat):
        res = spawn(spec, timeout)
        if res["status"] != "ok":
            log(f"    {spec.get('tool')} {spec.get('corpus', '')}: {res['status']} {res['detail']}")
            return res
        runs.append(res)
    cpu = statistics.median(r["cpu"] for r in runs)
    out = dict(runs[0])
    out.update(
        cpu=cpu,
        cpus=[r["cpu"] for r in runs],
        startup=statistics.median(r.get("startup", 0.0) for r in runs),
        mbps=runs[0]["bytes"] / MB / cpu if cpu > 0 else float("inf"),
        peak_mib=max(r["peak_mib"] for r in runs),
        delta_mib=(
            max(0.0, *(r["delta_mib"] for r in runs)) if runs[0]["delta_mib"] is not None else None
        ),
    )
    log(
        f"    {spec.get('tool')} {spec.get('corpus', '')}: {out['mbps']:.2f} MB/s "
        f"(cpu {', '.join(f'{c:.2f}' for c in out['cpus'])} s), peak {out['peak_mib']:.0f} MiB"
    )
    return out


def run_tools(args: argparse.Namespace, log: Callable[[str], None]) -> list[dict]:
    """The main table: every tool on every corpus."""
    mail_bytes = raw_size(mail_paths())
    rows = []
    for corpus in ("rfc", "prose", "mail"):
        log(f"  corpus {corpus}")
        for tool in args.tools:
            cap = args.caps.get(tool)
            specs = []
            if corpus == "mail" and tool == "urimine":
                for pipeline in ("urimine-mail", "urimine-mail-zlib"):
                    specs.append({"tool": pipeline, "corpus": "mail", "bytes": mail_bytes})
            specs.append({"tool": tool, "corpus": corpus, "cap": cap})
            for spec in specs:
                res = measure(spec, args.repeat, args.timeout, log)
                res.update(corpus=corpus, tool=spec["tool"], cap=cap)
                if spec["tool"].startswith("urimine-mail"):
                    res["mode"] = f"files → MIME → text (gzip: {res.get('inflater', '?')})"
                else:
                    res["mode"] = "raw mbox text, no MIME" if corpus == "mail" else "decoded text"
                rows.append(res)
    return rows


def run_pathological(args: argparse.Namespace, log: Callable[[str], None]) -> list[dict]:  # noqa: C901
    """urimine's text API on hostile inputs, against same-sized ordinary text."""
    size = args.patho_mb * MB
    rows = []
    log(f"  pathological inputs, {args.patho_mb} MB each")
    refs = {}
    # The reference, every ratio's denominator: the first 10 MB of a corpus, repeated
    # to 50 MB (10 MB of it take some 20 ms, too short a time to measure well on a busy
    # machine).
    ref_size = max(size, REF_MB * MB)
    for name, path in (("ordinary RFC text", RFC), ("ordinary prose", PROSE)):
        spec = {
            "tool": "urimine",
            "corpus": "ordinary",
            "source": str(path),
            "head": size,
            "size": ref_size,
        }
        res = measure(spec, args.repeat, args.timeout, log)
        res.update(
            name=name,
            what=f"first {args.patho_mb} MB of {path.name}, repeated to {ref_size // MB} MB",
        )
        refs[name] = res
        rows.append(res)
    ref = refs["ordinary RFC text"]
    for name, (what, _) in PATHOLOGICAL.items():
        spec = {"tool": "urimine", "corpus": name, "size": size}
        res = measure(spec, args.repeat, args.timeout, log)
        res.update(name=name, what=what)
        if res["status"] == "ok" and (res["hits"] or name in REJECTED_DENSE):
            # What its hits (or, without any, its candidates) cost at the least; the
            # naive pattern's matches are the candidates a rule must decide.
            floor = measure({**spec, "tool": "floor"}, args.repeat, args.timeout, log)
            if floor["status"] == "ok":
                res["floor_mbps"] = floor["mbps"]
                res["candidates"] = floor["hits"]
            floor = measure({**spec, "tool": "floor-c"}, args.repeat, args.timeout, log)
            if floor["status"] == "ok":
                res["floor_c_mbps"] = floor["mbps"]
            if res["hits"]:
                floor = measure({**spec, "tool": "floor-parse"}, args.repeat, args.timeout, log)
                if floor["status"] == "ok":
                    res["floor_parse_mbps"] = floor["mbps"]
        rows.append(res)
    for res in rows:
        if res["status"] == "ok" and ref["status"] == "ok":
            res["ratio"] = ref["mbps"] / res["mbps"]
            if "floor_mbps" in res:
                res["floor_ratio"] = ref["mbps"] / res["floor_mbps"]
            if "floor_c_mbps" in res:
                res["floor_c_ratio"] = ref["mbps"] / res["floor_c_mbps"]
            if "floor_parse_mbps" in res:
                res["floor_parse_ratio"] = ref["mbps"] / res["floor_parse_mbps"]
    return rows


# ------------------------------------------------------------------------------- scale


def write_repeated(dest: Path, sources: list[Path], target: int, sep: bytes = b"") -> int:
    """Write the decompressed *sources* to *dest*, repeated until *target* bytes.

    The first round is decompressed into the file; later rounds copy that prefix in
    blocks, so the parent's memory stays at one block.
    """
    with open(dest, "wb") as out:
        for p in sources:
            with _open_raw(p) as f:
                last = b""
                while block := f.read(MIB):
                    out.write(block)
                    last = block
            if sep and not last.endswith(sep):
                out.write(sep)
        unit = out.tell()
    with open(dest, "rb") as src, open(dest, "ab") as out:
        written = unit
        while written < target:
            src.seek(0)
            left = unit
            while left:
                block = src.read(min(MIB, left))
                out.write(block)
                left -= len(block)
            written += unit
    return written


def _proc_peek(pid: int) -> str:
    """How far a child got: bytes it had read and its peak RSS so far (Linux /proc)."""
    got = []
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                got.append(f"{int(line.split()[1]) / MB:.0f} MB read")
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                got.append(f"peak RSS so far {int(line.split()[1]) / 1024:.0f} MiB")
    return f"; {', '.join(got)}" if got else ""


def run_cli(path: Path, jobs: int, timeout: float) -> dict:
    """``python -m urimine -j N --no-progress FILE > /dev/null``: wall, CPU and peak RSS."""
    cmd = [sys.executable, "-m", "urimine", "-j", str(jobs), "--no-progress", str(path)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=child_env())
    deadline = t0 + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            seen = _proc_peek(proc.pid)
            proc.kill()
            os.wait4(proc.pid, 0)
            return {"status": "timeout", "detail": f"> {timeout:.0f} s{seen}"}
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    size = path.stat().st_size
    cpu = usage.ru_utime + usage.ru_stime
    return {
        "status": "ok" if proc.returncode == 0 else f"exit {proc.returncode}: {err[-200:]}",
        "bytes": size,
        "wall": wall,
        "cpu": cpu,
        "wall_mbps": size / MB / wall,
        "cpu_mbps": size / MB / cpu if cpu else float("inf"),
        # ru_maxrss of wait4: the largest of the child and its waited-for workers
        "peak_mib": usage.ru_maxrss / 1024,
    }


def run_scale(args: argparse.Namespace, log: Callable[[str], None]) -> dict:
    """-j 2 vs -j 1 on ~200 MB, and peak memory at ~200 MB vs ~1 GB (text and mbox)."""
    tmp = Path(tempfile.mkdtemp(prefix="urimine-bench-", dir=args.tmpdir))
    out: dict = {"jobs": [], "memory": [], "mb": {"small": args.scale_mb, "big": args.big_mb}}
    try:
        files = {}
        for kind, sources, sep, suffix in (
            ("text", [RFC, PROSE], b"", ".txt"),
            ("mbox", mail_paths(), b"\n", ".mbox"),
        ):
            for label, target in (("small", args.scale_mb * MB), ("big", args.big_mb * MB)):
                path = tmp / f"{kind}-{target // MB}MB{suffix}"
                log(f"  writing {path.name}")
                write_repeated(path, sources, target, sep)
                files[kind, label] = path
        empty = tmp / "empty.txt"
        empty.write_bytes(b"\n")
        log("  CLI on an empty file (start-up baseline)")
        out["baseline"] = run_cli(empty, 1, args.timeout)
        for kind in ("text", "mbox"):
            _scale_kind(kind, files, args, out, log)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _scale_kind(
    kind: str, files: dict, args: argparse.Namespace, out: dict, log: Callable[[str], None]
) -> None:
    """-j 1 on the small file (memory at two sizes), then -j 1 and -j 2 on the big one:
    the speed-up is measured on a large input, where start-up no longer counts. Each
    big run is done twice and the faster kept (wall time on a shared machine is noisy).
    The big file is skipped when the small run did not finish: it repeats the same
    content and would not finish either."""
    path = files[kind, "small"]
    log(f"  -j 1 {path.name}")
    small = run_cli(path, 1, args.scale_timeout)
    small.update(kind=kind, jobs=1, size_label="small")
    log(f"    {_fmt_cli(small)}")
    out["memory"].append(small)
    path = files[kind, "big"]
    for jobs in (1, 2):
        if small["status"] != "ok":
            res = {"status": "skipped", "detail": f"the {args.scale_mb} MB run did not finish"}
        else:
            log(f"  -j {jobs} {path.name} (best of 2)")
            runs = [run_cli(path, jobs, args.scale_timeout * 5) for _ in range(2)]
            ok = [r for r in runs if r["status"] == "ok"]
            res = min(ok, key=lambda r: r["wall"]) if ok else runs[0]
            log(f"    {_fmt_cli(res)}")
        res.update(kind=kind, jobs=jobs, size_label="big")
        out["jobs"].append(res)
        if jobs == 1:
            out["memory"].append(res)
    path.unlink()


def _fmt_cli(res: dict) -> str:
    if res["status"] != "ok":
        return _status_cell(res)
    return (
        f"{res['bytes'] / MB:.0f} MB wall {res['wall']:.1f} s ({res['wall_mbps']:.1f} MB/s) "
        f"cpu {res['cpu']:.1f} s ({res['cpu_mbps']:.1f} MB/s) peak {res['peak_mib']:.0f} MiB"
    )


# ------------------------------------------------------------------------------ report


def version(tool: str) -> str:
    try:
        return md.version(DIST[tool])
    except md.PackageNotFoundError:
        return "not installed"


def _status_cell(res: dict) -> str:
    status = res["status"]
    if status in ("timeout", "skipped"):
        return f"{status} ({res['detail']})"
    return "unavailable offline" if status == "unavailable" else status


def _check(ok: bool) -> str:
    return "✅" if ok else "❌"


def table_tools(rows: list[dict], repeat: int) -> list[str]:
    lines = [
        f"| corpus | tool | input | MB | hits | CPU s (median of {repeat}) | MB/s | "
        "startup ms | peak RSS MiB | Δ RSS MiB |",
        "|---|---|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        head = f"| {CORPUS_LABEL[r['corpus']]} | {TOOL_LABEL[r['tool']]} | {r['mode']}"
        if r["status"] != "ok":
            lines.append(f"{head} | | | | {_status_cell(r)} | | | |")
            continue
        capped = " (capped)" if r.get("cap") else ""
        delta = "" if r["delta_mib"] is None else f"{r['delta_mib']:.1f}"
        lines.append(
            f"{head} | {r['bytes'] / MB:.1f}{capped} | {r['hits']:,} | {r['cpu']:.2f} | "
            f"**{r['mbps']:.2f}** | {r.get('startup', 0.0) * 1000:.0f} | "
            f"{r['peak_mib']:.0f} | {delta} |"
        )
    return lines


def table_pivot(rows: list[dict]) -> list[str]:
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    corpora = list(dict.fromkeys(r["corpus"] for r in rows))
    lines = [
        "| tool | " + " | ".join(CORPUS_LABEL[c] for c in corpora) + " |",
        "|---|" + "--:|" * len(corpora),
    ]
    for tool in tools:
        cells = []
        for c in corpora:
            r = next((r for r in rows if r["tool"] == tool and r["corpus"] == c), None)
            if r is None:
                cells.append("—")
            elif r["status"] != "ok":
                cells.append(_status_cell(r))
            else:
                cells.append(f"{r['mbps']:.2f} MB/s · {r['peak_mib']:.0f} MiB")
        lines.append(f"| {TOOL_LABEL[tool]} | " + " | ".join(cells) + " |")
    return lines


def _target_rates(rows: list[dict]) -> list[str]:
    lines = []
    for corpus, tool, target in (
        ("rfc", "urimine", TARGET_TEXT),
        ("prose", "urimine", TARGET_TEXT),
        ("mail", "urimine-mail", TARGET_MAIL),
    ):
        r = next((r for r in rows if r["tool"] == tool and r["corpus"] == corpus), None)
        if r is None:
            continue
        ok = r["status"] == "ok" and r["mbps"] >= target
        got = f"{r['mbps']:.1f} MB/s" if r["status"] == "ok" else _status_cell(r)
        lines.append(
            f"| {CORPUS_LABEL[corpus]} ≥ {target:.0f} MB/s (CPU, {TOOL_LABEL[tool]}) "
            f"| {got} | {_check(ok)} |"
        )
    return lines


def _target_scale(scale: dict) -> list[str]:
    lines = []
    for kind in ("text", "mbox"):
        j = {r["jobs"]: r for r in scale["jobs"] if r["kind"] == kind}
        name = f"`-j 2` ≥ {TARGET_J2}× `-j 1`, {kind} {scale['mb']['big']} MB (wall)"
        if all(j.get(n, {}).get("status") == "ok" for n in (1, 2)):
            speedup = j[1]["wall"] / j[2]["wall"]
            lines.append(f"| {name} | {speedup:.2f}× | {_check(speedup >= TARGET_J2)} |")
        else:
            bad = next(r for r in j.values() if r["status"] != "ok")
            lines.append(f"| {name} | {_status_cell(bad)} | {_check(False)} |")
    for r in scale["memory"]:
        if r["size_label"] != "big":
            continue
        name = f"peak RSS < {TARGET_RSS_MB:.0f} MB, {r['kind']} {scale['mb']['big']} MB"
        if r["status"] == "ok":
            peak_mb = r["peak_mib"] * MIB / MB
            lines.append(f"| {name} | {peak_mb:.0f} MB | {_check(peak_mb < TARGET_RSS_MB)} |")
        else:
            lines.append(f"| {name} | {_status_cell(r)} | {_check(False)} |")
    return lines


def table_targets(rows: list[dict], scale: dict | None, patho: list[dict] | None) -> list[str]:
    lines = ["| target | measured | met |", "|---|--:|:-:|", *_target_rates(rows)]
    if scale:
        lines += _target_scale(scale)
    if patho:
        rated = [r for r in patho if "ratio" in r and not r["name"].startswith("ordinary")]
        bad = [r for r in patho if r["status"] != "ok"]
        failed = f" (+ {len(bad)} failed)" if bad else ""
        silent = max(
            (r for r in rated if not r["hits"] and r["name"] not in REJECTED_DENSE),
            key=lambda r: r["ratio"],
            default=None,
        )
        if silent is not None:
            lines.append(
                f"| no input without hits > {TARGET_PATHO_RATIO:.0f}× slower per byte than "
                f"ordinary text (but those dense with rejected candidates, below) "
                f"| worst: {silent['name']} {silent['ratio']:.1f}×{failed} "
                f"| {_check(silent['ratio'] <= TARGET_PATHO_RATIO and not bad)} |"
            )
        # Inputs dense with candidates that a rule must parse to reject: a Python-level
        # decision each, as a hit is. An input dense with hits costs what its output
        # costs: one Python object per hit at least, which at one hit every few bytes
        # is beyond the bound by itself (the naive floor, and C's findall at a hit
        # every 6 bytes). Where its bytes are over the bound, such an input is held
        # to a bound per hit instead (docs/decisions.md, "Where the per-byte bound
        # does not hold"): each hit, delimited, validated, keyed and reported, costs
        # no more than the naive match and the standard library's urlsplit of it.
        for r in (r for r in rated if r["name"] in REJECTED_DENSE and r.get("candidates")):
            lines.append(_per_item_target(r, r["candidates"], "rejected candidate", "candidate"))
        for r in (r for r in rated if r["hits"]):
            lines.append(_per_item_target(r, r["hits"], "hit", "hit"))
    return lines


def _per_item_target(r: dict, count: int, item: str, per: str) -> str:
    """The target line of a pathological input dense with *count* hits or rejected
    candidates: its ratio, its cost per one and its naive floor; for hits over the
    per-byte bound, the bound per hit: no more than the parse floor's."""
    floor = f"; naive floor {r['floor_ratio']:.0f}×" if "floor_ratio" in r else ""
    if "floor_c_ratio" in r:
        floor += f", in C {r['floor_c_ratio']:.0f}×"
    met = _check(r["ratio"] <= TARGET_PATHO_RATIO)
    if r["ratio"] > TARGET_PATHO_RATIO and "floor_parse_ratio" in r:
        parsed = r["bytes"] / MB / r["floor_parse_mbps"]  # (its CPU s)
        floor += f"; parse floor {parsed / count * 1e6:.1f} µs per {per}"
        met = f"{_check(r['ratio'] <= r['floor_parse_ratio'])} per {per}"
    return (
        f"| the same for an input with a {item} every {r['bytes'] / count:.0f} bytes "
        f"({r['name']}) | {r['ratio']:.0f}× ({r['cpu'] / count * 1e6:.1f} µs per {per}{floor}) "
        f"| {met} |"
    )


def table_patho(rows: list[dict], repeat: int) -> list[str]:
    lines = [
        f"| input | what | MB | hits | CPU s (median of {repeat}) | MB/s | slower than RFC text "
        "| naive floor MB/s (× RFC text) | in C | parse floor | peak RSS MiB |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"| {r['name']} | {r['what']} | | | {_status_cell(r)} | | | | | | |")
            continue
        ratio = f"{r['ratio']:.2f}×" if "ratio" in r else ""
        floor = f"{r['floor_mbps']:.1f} ({r['floor_ratio']:.0f}×)" if "floor_ratio" in r else ""
        in_c = ""
        if "floor_c_ratio" in r:
            in_c = f"{r['floor_c_mbps']:.1f} ({r['floor_c_ratio']:.0f}×)"
        parsed = ""
        if "floor_parse_ratio" in r:
            parsed = f"{r['floor_parse_mbps']:.1f} ({r['floor_parse_ratio']:.0f}×)"
        lines.append(
            f"| {r['name']} | {r['what']} | {r['bytes'] / MB:.0f} | {r['hits']:,} | {r['cpu']:.2f} "
            f"| **{r['mbps']:.1f}** | {ratio} | {floor} | {in_c} | {parsed} | {r['peak_mib']:.0f} |"
        )
    return lines


def table_scale(scale: dict) -> list[str]:
    lines = [
        "| input | jobs | MB | wall s | MB/s (wall) | CPU s (all processes) | MB/s (CPU) "
        "| peak RSS MiB (largest process) |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    base = scale.get("baseline")
    rows = [*(r for r in scale["memory"] if r["size_label"] == "small"), *scale["jobs"]]
    for r in rows:
        name = f"{r['kind']} {scale['mb'][r['size_label']]} MB"
        if r["status"] != "ok":
            lines.append(f"| {name} | {r['jobs']} | | {_status_cell(r)} | | | | |")
            continue
        lines.append(
            f"| {name} | {r['jobs']} | {r['bytes'] / MB:.0f} | {r['wall']:.1f} | "
            f"**{r['wall_mbps']:.1f}** | {r['cpu']:.1f} | {r['cpu_mbps']:.1f} "
            f"| {r['peak_mib']:.0f} |"
        )
    if base and base["status"] == "ok":
        lines.append(
            f"| empty file (start-up) | 1 | 0 | {base['wall']:.2f} | | {base['cpu']:.2f} | "
            f"| {base['peak_mib']:.0f} |"
        )
    return lines


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    except OSError:
        return "?"
    return f"{out}{' + uncommitted changes in src/' if dirty else ''}" if out else "?"


def report(args: argparse.Namespace, results: dict) -> str:
    versions = ", ".join(
        f"{TOOL_LABEL[t].split(' ')[0]} {version(t)}" for t in args.tools if t != "urimine-extract"
    )
    caps = ", ".join(f"{t} {c / MB:g} MB" for t, c in args.caps.items() if t in args.tools)
    md_lines = [
        "## Results",
        "",
        f"Run {results['date']} on {machine()}; urimine at commit {results['commit']}; {versions}.",
        "",
        f"Command: `{results['command']}`",
        "",
        "### Throughput and memory per tool and corpus",
        "",
        *table_pivot(results["tools"]),
        "",
        *table_tools(results["tools"], args.repeat),
        "",
        "Notes:",
        "",
        "- CPU seconds (user + sys) of extraction only, in a fresh process per run; the "
        "text tools get the corpus already decompressed and decoded in memory "
        "(UTF-8, errors=replace) before the clock starts. MB = 10⁶ bytes of uncompressed "
        "input.",
        "- startup: CPU time to import the tool and run it once over a 3-line warm-up text "
        "(its own URIs, so no cache is warmed for the corpus), before the clock starts: "
        "pattern compilation and lazy imports are a one-time cost per process, reported "
        "here rather than mixed into the rate.",
        "- *urimine pipeline (mbox + MIME)* is the CLI's path, "
        "`urimine.pipeline.iter_records(paths, jobs=1)`: it **includes** gzip decompression, "
        "mbox splitting and MIME decoding (base64, quoted-printable, charsets, HTML parts).",
        "- On the mail corpus the other rows get the raw mbox text (all files decompressed "
        "and concatenated, no MIME handling): they see base64 bodies as text.",
        f"- Capped inputs (marked): {caps or 'none'}, taken as 20 evenly spaced slices of "
        "the corpus (cut at line starts) so the sample has the corpus' mix.",
        "- hits: occurrences reported (`extract`: unique); each tool has its own idea of a "
        "URL, so compare hits only loosely.",
        "- peak RSS: the process' high-water mark during the run, including the in-memory "
        "input; Δ RSS: how far it rose above the resident size just before extraction.",
    ]
    if results.get("patho"):
        md_lines += [
            "",
            f"### Pathological inputs (urimine `finditer`, {args.patho_mb} MB each)",
            "",
            *table_patho(results["patho"], args.repeat),
            "",
            "The ratio is the rate on the first row's ordinary RFC text divided by the rate on "
            "that input (higher is slower). Naive floor, for the inputs with hits and those "
            "over the bound: the rate of "
            "the least a Python extractor can do per hit, one match of a naive pattern "
            '(`[A-Za-z][A-Za-z0-9+.-]*:[^\\s<>"]+`, no delimiting rule, no validation) and '
            "one tuple; "
            "an input dense with hits is that much slower than ordinary text whatever "
            "the extractor does. Its matches are the candidates of an input without hits, "
            "each of which urimine parses to reject. In C: the same pattern's `findall`, "
            "its matches as a list of strings made in C with no Python code per match, the "
            "least any extractor in Python can do that reports each hit as a string. Parse "
            "floor, for the inputs with hits: the naive match split by the standard "
            "library's parser, `urllib.parse.urlsplit` (uncached: it checks next to nothing, "
            "where urimine validates each hit by the RFC 3986 grammar and keys it), the "
            "least a Python extractor that parses what it finds can do per hit; an input "
            "with hits over the per-byte bound is held to it per hit (the targets below).",
        ]
    if results.get("scale"):
        md_lines += [
            "",
            f"### Scale: `-j 2` vs `-j 1` at {args.big_mb} MB, and peak memory at "
            f"{args.scale_mb} MB vs {args.big_mb} MB",
            "",
            "`python -m urimine -j N --no-progress FILE > /dev/null` in a child process; "
            "wall time, CPU (user + sys of the process and its workers) and peak RSS from "
            "`wait4`. Text: the RFC and prose corpora decompressed and repeated; mbox: "
            "the shared mboxes decompressed and repeated. Temporary files are deleted "
            "afterwards. This is the whole CLI: reading, decoding, scanning, dedup, output.",
            "",
            *table_scale(results["scale"]),
        ]
    md_lines += [
        "",
        "### Issue 5 targets",
        "",
        *table_targets(results["tools"], results.get("scale"), results.get("patho")),
        "",
    ]
    return "\n".join(md_lines)


def chart(rows: list[dict], path: Path) -> str:  # noqa: C901
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib not installed: no chart (pip install -e '.[bench]')"
    ok = [r for r in rows if r["status"] == "ok"]
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    corpora = list(dict.fromkeys(r["corpus"] for r in rows))
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.4))
    width = 0.8 / max(1, len(tools))
    for i, tool in enumerate(tools):
        for ax, key in zip(axes, ("mbps", "peak_mib"), strict=True):
            xs, ys = [], []
            for j, c in enumerate(corpora):
                r = next((r for r in ok if r["tool"] == tool and r["corpus"] == c), None)
                if r:
                    xs.append(j + (i - (len(tools) - 1) / 2) * width)
                    ys.append(r[key])
            bars = ax.bar(xs, ys, width, color=f"C{i}", label=TOOL_LABEL[tool].replace("`", ""))
            if key == "mbps":
                ax.bar_label(bars, fmt="%.3g", fontsize=7, rotation=90, padding=2)
    for i, tool in enumerate(tools):
        for j, c in enumerate(corpora):
            r = next((r for r in rows if r["tool"] == tool and r["corpus"] == c), None)
            if r and r["status"] != "ok":
                x = j + (i - (len(tools) - 1) / 2) * width
                axes[0].text(
                    x,
                    0.02,
                    r["status"],
                    rotation=90,
                    fontsize=7,
                    ha="center",
                    va="bottom",
                    transform=axes[0].get_xaxis_transform(),
                    color="red",
                )
    for ax, title in zip(
        axes, ("throughput, MB/s of CPU time (log)", "peak RSS, MiB"), strict=True
    ):
        ax.set_xticks(range(len(corpora)), [CORPUS_LABEL[c] for c in corpora], fontsize=8)
        ax.set_title(title)
    axes[0].set_yscale("log")
    axes[0].axhline(TARGET_TEXT, color="grey", ls="--", lw=0.8, label="text target")
    axes[0].axhline(TARGET_MAIL, color="grey", ls=":", lw=0.8, label="mail target")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.suptitle("urimine vs peers (one run, same machine; see bench/results/latest.md)")
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return f"chart written to {path}"


README_START = "<!-- bench:results:start -->"
README_END = "<!-- bench:results:end -->"


def update_readme(path: Path, text: str) -> str:
    if not path.exists():
        return f"{path}: not found, not updated"
    body = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(README_START) + r".*?" + re.escape(README_END), re.S)
    if not pattern.search(body):
        return f"{path}: no {README_START} … {README_END} markers, not updated"
    new = pattern.sub(lambda _: f"{README_START}\n{text}\n{README_END}", body)
    path.write_text(new, encoding="utf-8")
    return f"{path}: results section updated"


# -------------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="1 run per cell, smaller caps")
    p.add_argument("--repeat", type=int, help="runs per cell (default 3, --quick 1)")
    p.add_argument("--tools", default=",".join(TOOLS), help=f"comma-separated: {','.join(TOOLS)}")
    p.add_argument("--no-tools", action="store_true", help="skip the tool × corpus table")
    p.add_argument("--no-patho", action="store_true", help="skip the pathological inputs")
    p.add_argument("--patho-mb", type=int, default=10, help="size of each pathological input")
    p.add_argument("--scale", action="store_true", help="also -j 2 vs -j 1 and the 1 GB test")
    p.add_argument("--scale-mb", type=int, default=200, help="smaller input of the memory test")
    p.add_argument("--big-mb", type=int, default=1000, help="input for -j 1 vs -j 2 and memory")
    p.add_argument(
        "--scale-timeout", type=float, default=900, help="seconds per small CLI run (big: 5×)"
    )
    p.add_argument("--tmpdir", default=None, help="where --scale writes its temporary files")
    p.add_argument("--timeout", type=float, help="seconds per child (default 300, --quick 120)")
    p.add_argument("--cap-urlextract-mb", type=float, help="default 2 (--quick 1)")
    p.add_argument("--cap-linkify-mb", type=float, help="default none (--quick 5)")
    p.add_argument("--out", default=str(BENCH / "results" / "latest.md"))
    p.add_argument("--chart", default=None, help="PNG path, e.g. bench/results/chart.png")
    p.add_argument(
        "--update-readme",
        nargs="?",
        const=str(BENCH / "README.md"),
        default=None,
        help="replace the results section of this README (default bench/README.md)",
    )
    p.add_argument("--replot", metavar="JSON", help="only redraw --chart from a latest.json")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return args
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.timeout = args.timeout or (120.0 if args.quick else 300.0)
    args.tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = set(args.tools) - set(TOOLS)
    if unknown:
        p.error(f"unknown tools: {', '.join(sorted(unknown))}")
    cap_ue = (
        args.cap_urlextract_mb if args.cap_urlextract_mb is not None else (1 if args.quick else 2)
    )
    cap_li = args.cap_linkify_mb if args.cap_linkify_mb is not None else (5 if args.quick else 0)
    args.caps = {t: int(c * MB) for t, c in (("urlextract", cap_ue), ("linkify", cap_li)) if c}
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    if args.replot:
        data = json.loads(Path(args.replot).read_text(encoding="utf-8"))
        log(chart(data["tools"], Path(args.chart or BENCH / "results" / "chart.png")))
        return 0
    missing = [p for p in (RFC, PROSE, *mail_paths()) if not p.exists()] or (
        [] if mail_paths() else [MAIL / "*.mbox.gz"]
    )
    if missing:
        log(f"corpus missing: {', '.join(map(str, missing))} (expected ../shared/corpora)")
        return 2
    results: dict = {
        "date": _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "commit": commit(),
        "command": "python bench/run.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "tools": [],
    }
    t0 = time.perf_counter()
    if not args.no_tools:
        log("tools × corpora")
        results["tools"] = run_tools(args, log)
    if not args.no_patho:
        results["patho"] = run_pathological(args, log)
    if args.scale:
        log("scale")
        results["scale"] = run_scale(args, log)
    text = report(args, results)
    print(text)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    log(f"written {out} and {out.with_suffix('.json')} in {time.perf_counter() - t0:.0f} s")
    if args.chart and results["tools"]:
        log(chart(results["tools"], Path(args.chart)))
    if args.update_readme:
        log(update_readme(Path(args.update_readme), text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
