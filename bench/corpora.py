"""The real corpora and the hostile inputs the core's speed is judged on, as text.

Used by ``bench/ablation.py`` and ``bench/side_by_side.py``; standard library only, so
that it runs unchanged against any commit of urimine. Real corpora, from
``../shared/corpora``:

- ``rfc``: the RFC bulk sample (``docs/rfc-bulk-sample.txt.gz``);
- ``prose``: the Gutenberg newsletters;
- ``mail``: every shared mbox decompressed and concatenated (raw, no MIME decoding);
- ``html``: every ``text/html`` part of those mboxes, decoded (markup as written);
- ``wordxml``: the prose as the ``document.xml`` of a Word file (WordprocessingML runs,
  paragraph and run properties, hyperlinks as ``HYPERLINK`` field codes);
- ``wet``: the HTML parts' text as WARC/WET conversion records (WARC headers, text).

Hostile inputs: the pathological rows of ``bench/run.py`` and the worst shapes named in
issue 27, each repeated to a given size.
"""

from __future__ import annotations

import gzip
import html
import html.parser
import importlib.util
import mailbox
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CORPORA = BENCH.parent.parent / "shared" / "corpora"
DOCS = CORPORA / "docs"
MAIL = CORPORA / "mail"

REAL = ("rfc", "prose", "mail", "html", "wordxml", "wet")

# The worst shapes issue 27 names (about 2-6 MB/s at dc5a8c1), beside bench/run.py's.
WORST: dict[str, bytes] = {
    "colon-mix": b"x:y:z:http:https:urn:URL:<URN:mailto:",
    "legacy-backslash": b"<URN:ietf:rfc\\",
    "crlf-hyphens": b"http://a-\r\nb-\r\n\rc-\n\r\n-\r\nx:-\r\n",
    "abbreviated-www": b"www.a.com/ ",
    # one word a line of 7 KB, a hit at its end, every other colon a rejection
    "http-http-7kb-lines": (b"http:http://" * 584)[:7000] + b"\n",
    "rejected-urn-inner-colon": b"urn:ab:%00:x ",
    # a hyphen on every line, each URI's host no DNS name (the chain read to the bound)
    "hyphen-chain-bad-host": b"#f-\nhttp://a.-,b.c",
    "angle-http-space": b"<http:// ",
    "abbreviated-no-tld": b".\\www.isbn1",
    # hits only the full rules decide, one every 6 bytes
    "sip-hash": b"sip:# ",
}


def _read(path: Path) -> bytes:
    with gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb") as f:
        return f.read()


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def mail_paths() -> list[Path]:
    """The shared mboxes: every ``*.mbox.gz`` and the uncompressed notmuch one."""
    paths = sorted(MAIL.glob("*.mbox.gz"))
    extra = MAIL / "notmuch-test-corpora.mbox"
    if extra.exists():
        paths.append(extra)
    return paths


def _html_parts() -> Iterator[str]:
    for path in mail_paths():
        with tempfile.NamedTemporaryFile(delete=False) as f:
            f.write(_read(path))
        try:
            for message in mailbox.mbox(f.name):
                for part in message.walk():
                    if part.get_content_type() != "text/html":
                        continue
                    payload = part.get_payload(decode=True)
                    if isinstance(payload, bytes) and payload:
                        yield _decode(payload)
        finally:
            os.unlink(f.name)


class _Text(html.parser.HTMLParser):
    """The text of an HTML page, as a crawler's WET record has it (scripts and styles
    left out, a line break after each block)."""

    _BLOCKS = frozenset({"p", "div", "br", "tr", "li", "h1", "h2", "h3", "table", "td"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in self._BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.out.append(data)


def _wet(pages: list[str]) -> str:
    records = []
    for n, page in enumerate(pages):
        parser = _Text()
        parser.feed(page)
        text = re.sub(r"\n\s*\n+", "\n", "".join(parser.out)).strip() + "\n"
        body = text.encode("utf-8")
        records.append(
            "WARC/1.0\r\nWARC-Type: conversion\r\n"
            f"WARC-Target-URI: http://www.example{n % 97}.com/page/{n}.html\r\n"
            "WARC-Date: 2024-02-20T10:11:12Z\r\n"
            f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012d}>\r\n"
            f"WARC-Refers-To: <urn:uuid:00000000-0000-4000-9000-{n:012d}>\r\n"
            "Content-Type: text/plain\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{text}\r\n\r\n"
        )
    return "".join(records)


_WORD_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<w:document xmlns:wpc="http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'mc:Ignorable="w14 wp14"><w:body>'
)
_URL = re.compile(r"(?:https?|ftp)://[^\s<>\"]+")


def _word_run(text: str) -> str:
    return (
        '<w:r w:rsidRPr="00D41C2B"><w:rPr><w:rFonts w:ascii="Times New Roman" '
        'w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr>'
        f'<w:t xml:space="preserve">{html.escape(text, quote=False)}</w:t></w:r>'
    )


def _word_paragraph(n: int, text: str) -> str:
    runs = []
    at = 0
    for m in _URL.finditer(text):
        runs.append(_word_run(text[at : m.start()]))
        runs.append(
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space='
            f'"preserve"> HYPERLINK "{html.escape(m.group())}" </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'<w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>{html.escape(m.group())}'
            '</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
        )
        at = m.end()
    runs.append(_word_run(text[at:]))
    return (
        f'<w:p w:rsidR="00A77B3E" w:rsidRDefault="{n % 7919:08X}" w14:paraId="{n:08X}">'
        '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:jc w:val="both"/>'
        f"</w:pPr>{''.join(runs)}</w:p>"
    )


def _wordxml(prose: str) -> str:
    paragraphs = [p.replace("\n", " ").strip() for p in prose.split("\n\n")]
    body = "".join(_word_paragraph(n, p) for n, p in enumerate(paragraphs) if p)
    return _WORD_HEAD + body + "<w:sectPr/></w:body></w:document>"


@cache
def real(name: str) -> str:
    """The real corpus *name* (one of :data:`REAL`) as text."""
    if name == "rfc":
        return _decode(_read(DOCS / "rfc-bulk-sample.txt.gz"))
    if name == "prose":
        return _decode(_read(DOCS / "gutenberg-newsletters.txt.gz"))
    if name == "mail":
        parts = [_read(p) for p in mail_paths()]
        return _decode(b"".join(p if p.endswith(b"\n") else p + b"\n" for p in parts))
    if name == "html":
        return "\n".join(_html_parts())
    if name == "wordxml":
        return _wordxml(real("prose")[: 4 << 20])
    if name == "wet":
        return _wet(list(_html_parts()))
    raise KeyError(name)


def _run_module() -> object:
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


def hostile() -> dict[str, Callable[[int], bytes]]:
    """Every hostile input by name: bench/run.py's pathological rows and :data:`WORST`,
    each a function of the size wanted in bytes."""
    rows: dict[str, Callable[[int], bytes]] = {
        name: make
        for name, (_, make) in _run_module().PATHOLOGICAL.items()  # type: ignore[attr-defined]
    }
    for name, piece in WORST.items():
        rows[name] = lambda n, piece=piece: (piece * (n // len(piece) + 1))[:n]
    return rows


def hostile_text(name: str, size: int) -> str:
    """The hostile input *name* at *size* bytes, decoded as the bench decodes."""
    return _decode(hostile()[name](size))
