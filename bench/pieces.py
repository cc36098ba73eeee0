"""urimine's rate on a piece of text repeated, against ordinary text (a quick look).

    python bench/pieces.py '<http://[x]> ' 'mailto:%zz ' --mb 2

Each piece (backslash escapes such as ``\\n`` understood) is repeated to ``--mb`` MB
and scanned by ``urimine.finditer`` in this process, best of ``--runs`` (CPU time);
the first line is the RFC corpus' first 10 MB repeated to the same size. In-process
and warm, so rates read higher than the benchmark's fresh processes; compare a change
against a checkout of the commit before it (``PYTHONPATH=<tree>/src``).
"""

from __future__ import annotations

import argparse
import time

import run as bench  # the benchmark: its corpora

from urimine import finditer


def rate(text: str, runs: int) -> tuple[int, float]:
    """Hits and the best CPU seconds of *runs* scans of *text*."""
    finditer(text[:1000])  # compile what the first scan would
    best, hits = float("inf"), 0
    for _ in range(runs):
        start = time.process_time()
        hits = sum(1 for _ in finditer(text))
        best = min(best, time.process_time() - start)
    return hits, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pieces", nargs="+", help="text to repeat (escapes understood)")
    parser.add_argument("--mb", type=float, default=2.0, help="size of each input")
    parser.add_argument("--runs", type=int, default=3, help="scans of each, best kept")
    args = parser.parse_args()
    size = int(args.mb * bench.MB)
    head = bench.read_raw(bench.RFC)[: 10 * bench.MB]
    inputs = [("ordinary RFC text", bench._fill(head, size).decode("utf-8", "replace"))]
    for piece in args.pieces:
        unit = piece.encode().decode("unicode_escape")
        inputs.append((repr(piece), (unit * (size // len(unit) + 1))[:size]))
    for name, text in inputs:
        hits, cpu = rate(text, args.runs)
        print(f"{name:32} {hits:9,} hits {len(text) / cpu / bench.MB:9.1f} MB/s")


if __name__ == "__main__":
    main()
