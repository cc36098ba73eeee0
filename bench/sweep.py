"""A quick sweep of hostile inputs, beyond the benchmark's table: text for the scanner,
HTML for the mail and WARC adapters' HTML to text, mbox files for the whole pipeline.

Each input is a short piece repeated (or one long candidate, repeated), timed in this
process (CPU, best of three, after a warm-up) against ordinary text of the same size:
a quick way to find an input that costs far more per byte than text does. Rows with
many hits are marked: those cost what their hits cost (see bench/run.py's naive floor).

    python bench/sweep.py            # text, HTML and mbox inputs, 2 MB each
    python bench/sweep.py --mb 10 --only text
    python bench/sweep.py --pieces '<http://[x]> ' 'mailto:%zz '   # pieces of your own
    python bench/sweep.py --pieces 'tel:[' --line 7000   # in lines of 7,000 characters

    python bench/sweep.py --rows all --mb 4   # the benchmark's pathological inputs

The last two are the quickest before/after of one change: run them again with
``PYTHONPATH=<a checkout of the commit before>/src``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import run as bench  # the benchmark: its corpora and warm-up text

from urimine import finditer
from urimine.pipeline import iter_records
from urimine.sources.html import html_to_text

E = "\u00e9"
TEXT: dict[str, str] = {
    # the URN rules (seed 003, seed 000)
    "urn: before no NID": "urn:a:",
    "urn:NID: and no NSS": "urn:ab: ",
    "<URN: whose 1993 shape fails": "<URN:a:b:",
    "1993 URNs that fail their check": "<URN:a:b:c:d>",
    "<urn: not closed": "<urn:a:b ",
    # the hyphen at a line end (seed 002 Appendix E)
    "a hyphen at every line end": "http://x-\n",
    "hyphens and quote markers": "> http://x-\n> ",
    "URIs ending in a hyphen, one line": "http://x- ",
    # lines just under the length bound, a colon every few characters (each candidate's
    # run is the rest of its line)
    "'tel:[' in lines of 7 KB": "tel:[" * 1400 + "\n",
    "'[tel:1[a]' in lines of 7 KB": "[tel:1[a]" * 778 + "\n",
    "'_urn:urn:-' in lines of 7 KB": "_urn:urn:-" * 700 + "\n",
    # long candidates: trailing punctuation, brackets, dot segments, a bad host
    "closers after an IRI": "http://a/" + E + ")" * 8000 + " ",
    "punctuation and closers": "http://a/" + E + ".)" * 4000 + " ",
    "balanced brackets, in brackets": "(http://a/" + "(" * 4000 + ")" * 4000 + " ",
    "dot segments": "http://a/" + "../" * 2600 + " ",
    "a long host, a bad escape": "http://" + "a" * 8000 + "%zz ",
    "a long port": "http://a:" + "1" * 8000 + "x ",
    "a long query, a bad escape": "http://a/?" + "a" * 8000 + "%zz ",
    "a long userinfo, a bad escape": "http://" + "a" * 8000 + "@%zz ",
    "a long angle candidate, a bad escape": "<http://a/" + "a" * 8000 + "%zz>",
    # angle brackets and prefixes
    "<a<a<a": "<a",
    "<URL:<": "<URL:<",
    "< URL: ": "< URL: ",
    "<a:>": "<a:>",
    "a+b: words": "a+b:",
    "'<' after a letter, no colon": "a<",
    # rejected candidates the C-level prefilters do not know: each takes the rules'
    # general path (some 5 us), unless the word leaps of a scanner of hits only pass
    # over their words (fast/words.py); not those joined at hyphens at line ends
    # (some 18 us each), nor those that never repeat
    "a bad character after the colon": "tel:1]~ ",
    "a bad host": "HTTP://A.B[a ",
    "nothing but punctuation after the colon": "mailto:. ",
    "the same, joined at hyphens": "tel:1]~-\n",
    "rejected, none repeated": "".join(f"tel:{i}]~ " for i in range(100_000)),
    # dense with hits (each costs what a hit costs)
    "URIs before '>'": "data:12-> ",
    "URIs in quotes": '{"u":"http://a.example/"}',
    "URIs with closers": "http://a.example/)]}>",
    "IRIs": "http://a/\u05d0 ",
}
HTML: dict[str, str] = {
    "tags that never close": "<div ",
    "<a<a": "<a<a",
    "<a href = ": "<a href = ",
    "CDATA not closed": "<![CDATA[",
    "runs of <": "<",
    "entities": "&amp;",
}
ORDINARY_HTML = (
    '<p>See <a href="http://a.example/x">this</a> and <b>that</b>, '
    '<img src="http://a.example/i.png" alt="i"><br>&amp; more text here.</p>\n'
)


def _mbox(messages: list[str]) -> str:
    return "".join(f"From x@y Mon Jan  1 00:00:00 2024\n{m}\n" for m in messages)


def _mboxes(size: int) -> dict[str, str]:
    parts = "--b\nContent-Type: text/plain\n\nhttp://a.example/\n"
    nest = '--b\nContent-Type: multipart/mixed; boundary="b"\n\n'
    return {
        "ordinary messages": _mbox(
            ["Subject: hi\n\nsee http://a.example/x and more words\n"] * (size // 90)
        ),
        "empty messages": "From x\n" * (size // 7),
        "tiny parts": _mbox(
            [
                f'Content-Type: multipart/mixed; boundary="b"\n\n'
                f"{parts * (size // len(parts))}--b--\n"
            ]
        ),
        "nested multiparts": _mbox(
            [f'Content-Type: multipart/mixed; boundary="b"\n\n{nest * (size // len(nest))}']
        ),
        "a long folded header": _mbox(["Subject: a\n" + " x\n" * (size // 3) + "\nb\n"]),
        "Content-Type parameters": _mbox(
            ["Content-Type: text/plain; " + "a=b; " * (size // 5) + "\n\nb\n"]
        ),
        "an HTML part of open tags": _mbox(
            ["Content-Type: text/html\n\n" + "<div " * (size // 5) + "\n"]
        ),
    }


def _fill(piece: str, size: int) -> str:
    return (piece * (size // len(piece) + 1))[:size]


def _best(fn: Callable[[], int]) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(3):
        started = time.process_time()
        count = fn()
        best = min(best, time.process_time() - started)
    return max(best, 1e-6), count


def _scan(text: str) -> int:
    return sum(1 for _ in finditer(text))


def _table(rows: list[tuple[str, int, float, int]], reference: float) -> None:
    print("| input | MB | MB/s | × ordinary | hits |")
    print("|---|--:|--:|--:|--:|")
    for name, size, seconds, hits in rows:
        rate = size / seconds / 1e6
        print(f"| {name} | {size / 1e6:.1f} | {rate:.1f} | {reference / rate:.1f} | {hits:,} |")
    print()


def sweep_text(size: int, pieces: dict[str, str] = TEXT) -> None:
    _text_table(
        size, {name: lambda piece=piece: _fill(piece, size) for name, piece in pieces.items()}
    )


def sweep_rows(size: int, names: list[str]) -> None:
    """The benchmark's pathological inputs (bench/run.py's table) named, or all."""
    rows = bench.PATHOLOGICAL if names == ["all"] else {n: bench.PATHOLOGICAL[n] for n in names}
    _text_table(
        size,
        {
            name: lambda make=make: make(size).decode("utf-8", "replace")
            for name, (_, make) in rows.items()
        },
    )


def _text_table(size: int, texts: dict[str, Callable[[], str]]) -> None:
    ordinary = bench._fill(bench.read_raw(bench.RFC), size).decode("utf-8", "replace")
    seconds, hits = _best(lambda: _scan(ordinary))
    rows = [("ordinary RFC text", size, seconds, hits)]
    for name, make in texts.items():
        text = make()
        seconds, hits = _best(lambda text=text: _scan(text))  # type: ignore[misc]
        rows.append((name, len(text.encode()), seconds, hits))
    print("### Text (urimine finditer)\n")
    _table(rows, size / rows[0][2] / 1e6)


def sweep_html(size: int) -> None:
    rows = []
    for name, piece in {"ordinary HTML": ORDINARY_HTML, **HTML}.items():
        text = _fill(piece, size)
        seconds, _ = _best(lambda text=text: len(html_to_text(text, None)))  # type: ignore[misc]
        rows.append((name, size, seconds, 0))
    print("### HTML to text (sources.html.html_to_text)\n")
    _table(rows, size / rows[0][2] / 1e6)


def sweep_mbox(size: int) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in _mboxes(size).items():
            path = Path(tmp, "x.mbox")
            path.write_text(text, "utf-8")
            seconds, hits = _best(lambda p=str(path): sum(1 for _ in iter_records([p])))  # type: ignore[misc]
            rows.append((name, len(text.encode()), seconds, hits))
    print("### mbox files (urimine.pipeline.iter_records, the CLI's path)\n")
    _table(rows, rows[0][1] / rows[0][2] / 1e6)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mb", type=float, default=2, help="size of each input (default 2)")
    p.add_argument("--only", choices=["text", "html", "mbox"], help="one kind of input")
    p.add_argument(
        "--pieces", nargs="+", metavar="PIECE", help="text pieces of your own (escapes as \\n)"
    )
    p.add_argument(
        "--line", type=int, metavar="N", help="each piece repeated in lines of N characters"
    )
    p.add_argument(
        "--rows",
        nargs="+",
        metavar="NAME",
        choices=["all", *bench.PATHOLOGICAL],
        help="the benchmark's pathological inputs by name (bench/run.py), or all",
    )
    args = p.parse_args()
    size = int(args.mb * 1e6)
    _scan(bench.WARMUP_TEXT)
    if args.rows:
        sweep_rows(size, args.rows)
        return
    if args.pieces:
        pieces = {repr(p): p.encode().decode("unicode_escape") for p in args.pieces}
        if args.line:
            pieces = {name: _fill(piece, args.line) + "\n" for name, piece in pieces.items()}
        sweep_text(size, pieces)
        return
    if args.only in (None, "text"):
        sweep_text(size)
    if args.only in (None, "html"):
        sweep_html(size)
    if args.only in (None, "mbox"):
        sweep_mbox(size // 4)


if __name__ == "__main__":
    main()
