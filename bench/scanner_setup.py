"""What a scanner costs per small file: ``Scanner()`` alone, then ``Scanner()`` with one
``feed`` of a 2 KB text and ``close``, and ``Scanner().hits`` of it (the CLI's way for a
file read whole before it reused one scanner), and where ``Scanner.reset`` exists, one
scanner reset and then ``hits`` of the text (the CLI's way now), each repeated, the best
of a few rounds (CPU time, microseconds each).

    python bench/scanner_setup.py
    python bench/scanner_setup.py --count 20000 --rounds 5

Standard library and urimine only, so that it runs unchanged against another commit
(``--python`` of another version's interpreter is not needed: run it with that one).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from urimine import Scanner

TEXT = (
    "Some prose with a link http://example.com/a/b, mail <mailto:a@b.example> and a "
    'quoted "https://c.example/d?e=f" at times; www.g.example too. More words follow. ' * 20
)[:2048]
PLAIN = ("Plain prose of a small file, words and punctuation: nothing to find here. " * 30)[:2048]


def best(fn: Callable[[], object], count: int, rounds: int) -> float:
    """The best of *rounds* runs of *fn* repeated *count* times, in µs per call."""
    out = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(count):
            fn()
        out = min(out, time.process_time() - started)
    return out / count * 1e6


def fed(text: str) -> Callable[[], object]:
    def run() -> object:
        scanner = Scanner()
        scanner.feed(text)
        return scanner.close()

    return run


def whole(text: str) -> Callable[[], object]:
    return lambda: list(Scanner().hits((text,)))


def reused(text: str) -> Callable[[], object]:
    scanner = Scanner()

    def run() -> object:
        scanner.reset()
        return list(scanner.hits((text,)))

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    for _ in range(200):  # (patterns compiled lazily are compiled here)
        fed(TEXT)()
        whole(TEXT)()
    rows = [
        ("Scanner()", Scanner),
        ("Scanner() + feed(2 KB, links) + close", fed(TEXT)),
        ("Scanner() + feed(2 KB, no links) + close", fed(PLAIN)),
        ("Scanner().hits(2 KB, links)", whole(TEXT)),
        ("Scanner().hits(2 KB, no links)", whole(PLAIN)),
    ]
    if hasattr(Scanner, "reset"):  # (not in older versions)
        rows += [
            ("reset()", Scanner().reset),
            ("reset() + hits(2 KB, links)", reused(TEXT)),
            ("reset() + hits(2 KB, no links)", reused(PLAIN)),
        ]
    print("| per small file | µs |\n|---|--:|")
    for name, fn in rows:
        print(f"| {name} | {best(fn, args.count, args.rounds):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
