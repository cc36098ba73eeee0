"""Hit-dense hostile shapes against their floor: what a scan costs a hit, and what the
least an extractor that reports each hit does costs it (the parser's check, the key,
the ``Hit``), over the same hits.

    python bench/hit_floor.py              # each shape repeated to 500 KB
    python bench/hit_floor.py --kb 2000
    python bench/hit_floor.py --kb 1000 --shapes legacy-backslash,crlf-joined

In-process, CPU time, best of three. The key is computed uncached for the floor (the
scanner's is cached, which text that repeats its URIs gains from). The last column is
the per-hit bound of text dense with hits (``tests/test_pathological.py``): the scan's
time against a naive pattern's matches each split by ``urllib.parse.urlsplit``.
"""

from __future__ import annotations

import argparse
import gc
import re
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from urimine import Hit, Scanner, dedup_key
from urimine.parser import check_uri

SHAPES: dict[str, tuple[str, str]] = {
    "legacy-backslash": ("<URN:ietf:rfc\\", "default"),
    "crlf-hyphens": ("http://a-\r\nb-\r\n\rc-\n\r\n-\r\nx:-\r\n", "default"),
    "crlf-joined": ("http://a/-\r\nb-\r\n\rc-\n\r\n-\r\nx:-\r\n", "default"),
    "lf-joined": ("see https://example.org/a-\nb/c-\nd.html and\n", "default"),
    "colon-mix": ("x:y:z:http:https:urn:URL:<URN:mailto:", "default"),
    "www.a.com/": ("www.a.com/ ", "default"),
    "a@b.com. (email)": ("a@b.com. ", "default,email"),
    "a[.]com (defanged)": ("a[.]com ", "default,defanged"),
    # hits only the general path decides, a trigger every 6 to 10 bytes
    "sip:#": ("sip:# ", "default"),
    "*file:1]*": ("*file:1]* ", "default"),
    "{tel:a}[": ("{tel:a}[", "default"),
    "'data:_'": ("'data:_' ", "default"),
}


def _best(run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        gc.collect()
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


NAIVE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>\"]+")
"""The naive pattern of the per-hit bound: a scheme, its colon, a run."""


def measure(piece: str, rules: str, size: int) -> tuple[int, float, float, float | None]:
    """The hits of *piece* repeated to *size* characters, the scan's seconds, the
    floor's and the naive parse's (None where the naive pattern matches fewer than the
    hits: a shape without a scheme)."""
    text = (piece * (size // len(piece) + 1))[:size]
    hits = list(Scanner(rules=rules).hits([text]))
    key = dedup_key.__wrapped__  # type: ignore[attr-defined]

    def floor() -> None:
        for h in hits:
            check_uri(h.uri)
            Hit(h.uri, h.raw, h.start, h.end, h.line, h.column, h.context, h.kind,
                h.scheme, key(h.uri), h.alternative, h.strict, None)  # fmt: skip

    split = urlsplit.__wrapped__  # type: ignore[attr-defined]

    def naive() -> int:
        return sum(1 for m in NAIVE.finditer(text) if (m.start(), m.end(), split(m.group())))

    scan = _best(lambda: sum(1 for _ in Scanner(rules=rules).hits([text])))
    parsed = _best(naive) if naive() >= len(hits) > 0 else None
    return len(hits), scan, _best(floor), parsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", type=int, default=500)
    parser.add_argument("--shapes", default="", help="comma list of shapes (default: all)")
    args = parser.parse_args()
    chosen = [name for name in args.shapes.split(",") if name] or list(SHAPES)
    unknown = sorted(set(chosen) - set(SHAPES))
    if unknown:
        parser.error(f"unknown shapes: {', '.join(unknown)}")
    size = args.kb * 1000
    print(
        "| shape | MB/s | hits | us a hit | floor us a hit | scan / floor | floor MB/s "
        "| scan / naive parse |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for name in chosen:
        piece, rules = SHAPES[name]
        count, scan, floor, naive = measure(piece, rules, size)
        per = max(count, 1)
        print(
            f"| {name} | {size / scan / 1e6:.1f} | {count} | {scan / per * 1e6:.2f} "
            f"| {floor / per * 1e6:.2f} | {scan / floor:.1f} | {size / floor / 1e6:.1f} "
            f"| {'-' if naive is None else f'{scan / naive:.2f}'} |"
        )


if __name__ == "__main__":
    main()
