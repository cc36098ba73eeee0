"""What each speed mechanism is worth: ``finditer`` with every mechanism on, with each one
off in turn, and with none, on the real corpora and on the hostile inputs.

    python bench/ablation.py                        # every corpus and hostile input
    python bench/ablation.py --corpora rfc,mail --no-hostile --rounds 7
    python bench/ablation.py --markdown bench/results/core-ablation.md

In-process CPU time (``time.process_time``) of ``Scanner(speed=...).hits([text])``,
consumed; each configuration is run once per round, the configurations in a new random
order every round (the machine is shared: the order spreads its noise), and the median
of the rounds is kept. A mechanism's worth on a corpus is how much longer the scan takes
without it (a median ratio to all on, in per cent); on a hostile input, the rate without
it, set against the bound of issue 27 (5 MB/s).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora

from urimine import Scanner
from urimine.speed import Speed

BOUND_MB_S = 5.0


def configs() -> dict[str, Speed]:
    """``all``, ``-name`` for each mechanism off alone, and ``none``."""
    out = {"all": Speed.all()}
    for name in Speed.names():
        out[f"-{name}"] = Speed.all().without(name)
    out["none"] = Speed.none()
    return out


def seconds(text: str, speed: Speed) -> float:
    """CPU seconds of one scan of *text* (hits only, as ``finditer``)."""
    scanner = Scanner(speed=speed)
    started = time.process_time()
    for _ in scanner.hits((text,)):
        pass
    return time.process_time() - started


def measure(text: str, runs: dict[str, Speed], rounds: int, seed: int) -> dict[str, float]:
    """The median CPU seconds of each configuration over *rounds* shuffled rounds."""
    rnd = random.Random(seed)
    times: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for name in names:  # (warm-up: lazily compiled patterns are not timed)
        seconds(text[:200_000], runs[name])
    for _ in range(rounds):
        rnd.shuffle(names)
        for name in names:
            times[name].append(seconds(text, runs[name]))
    return {name: statistics.median(values) for name, values in times.items()}


def corpus_table(names: list[str], rounds: int, seed: int) -> list[str]:
    runs = configs()
    head = ["corpus", "MB", "all MB/s", *[n for n in runs if n != "all"]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        text = corpora.real(name)
        mb = len(text.encode()) / 1e6
        med = measure(text, runs, rounds, seed)
        cells = [name, f"{mb:.1f}", f"{mb / med['all']:.1f}"]
        cells += [f"{100 * (med[n] / med['all'] - 1):+.1f}%" for n in runs if n != "all"]
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def hostile_table(size: int, rounds: int, seed: int, only: list[str] | None) -> list[str]:
    runs = configs()
    head = ["input", "all", *[n for n in runs if n != "all"]]
    lines = ["| " + " | ".join(head) + " | (MB/s)", "|" + "---|" * len(head)]
    for name in corpora.hostile():
        if only and name not in only:
            continue
        text = corpora.hostile_text(name, size)
        mb = len(text.encode()) / 1e6
        med = measure(text, runs, rounds, seed)
        cells = [name]
        for n in runs:
            rate = mb / max(med[n], 1e-6)
            cells.append(f"{rate:.1f}" + ("!" if rate < BOUND_MB_S else ""))
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default=",".join(corpora.REAL))
    parser.add_argument("--no-corpora", action="store_true")
    parser.add_argument("--no-hostile", action="store_true")
    parser.add_argument("--hostile", default="", help="only these hostile inputs (comma list)")
    parser.add_argument("--hostile-bytes", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hostile-rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)
    out: list[str] = []
    if not args.no_corpora:
        print("Real corpora: time added with each mechanism off (median of rounds)")
        out += corpus_table(args.corpora.split(","), args.rounds, args.seed)
    if not args.no_hostile:
        print("Hostile inputs: MB/s with each mechanism off ('!' below the bound)")
        only = [s for s in args.hostile.split(",") if s] or None
        out += ["", *hostile_table(args.hostile_bytes, args.hostile_rounds, args.seed, only)]
    if args.markdown:
        args.markdown.write_text("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
