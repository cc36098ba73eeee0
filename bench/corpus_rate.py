"""urimine.finditer on the benchmark's RFC and prose corpora, in this process: CPU time,
best and median of N runs after a warm-up. Quicker and steadier than the table's cells
(each of which is some 0.1 s in a fresh process); for a before/after of one change, run
it alternately with ``PYTHONPATH=<a checkout of the commit before>/src``:

    python bench/corpus_rate.py [--runs 7]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import run as bench  # the benchmark: its corpora

import urimine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rates = []
    for name, path in (("RFC text", bench.RFC), ("prose", bench.PROSE)):
        text = bench.read_raw(path).decode("utf-8", "replace")
        size = len(text.encode())
        sum(1 for _ in urimine.finditer(text))  # warm-up: patterns compiled, caches filled
        seconds = []
        for _ in range(args.runs):
            gc.collect()
            start = time.process_time()
            sum(1 for _ in urimine.finditer(text))
            seconds.append(time.process_time() - start)
        best, median = size / min(seconds) / 1e6, size / statistics.median(seconds) / 1e6
        rates.append(f"{name} best {best:.1f} median {median:.1f} MB/s")
    print(f"{Path(urimine.__file__).parent}: " + "; ".join(rates))


if __name__ == "__main__":
    main()
