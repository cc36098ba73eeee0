"""Two versions of urimine side by side: in-process ``finditer`` throughput on the real
corpora and the hostile inputs, each version in its own interpreter, runs alternated.

    git worktree add /tmp/base dc5a8c1
    python3 -m venv /tmp/base/.venv && /tmp/base/.venv/bin/pip install -e /tmp/base
    python bench/side_by_side.py --before /tmp/base/.venv/bin/python --after .venv/bin/python

Each measurement is a fresh child process of one interpreter: it reads the text (made
once by the parent, ``bench/corpora.py``), scans a warm-up text unlike any corpus
(patterns compiled lazily are compiled there, and no memo is warmed for the corpus),
then times one ``finditer`` over the text (CPU seconds, every hit consumed). The two
versions alternate, in a new random order every round, and the median of the rounds
is kept: the machine is shared, and only same-run ratios are worth comparing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora

WARM_UP = (
    "see http://a.example/x and <mailto:b@c.example> urn:isbn:0451450523 "
    + "ab:" * 400
    + "<w:t>x</w:t>" * 100
    + '"tel:1]~", ' * 60
    + "http://x- " * 60
    + "<URN:a:b:" * 40
    + ("ab:" * 200 + "-" * 70 + " ") * 3
    + "\n"
    + "w " * 30
    + "see http://wrap.example/final/\n> appendix-b/file.html\n"
    # at each quote depth (patterns made per depth): a hyphen, "//", angle brackets
    # across a line break
    + "".join(
        f"{q}see http://h.example/a-\n{q}b and <http://h.example/\n{q}c> or http://\n"
        f"{q}h.example/d <URL:ftp://h.\n{q}example/e>\n"
        for q in ("", "> ", "> > ", ">> ", "> > > ", ">>> ")
    )
)

CHILD = """
import json, sys, time
import urimine
text = open(sys.argv[1], encoding="utf-8").read()
options = {"rules": sys.argv[3].split(",")} if len(sys.argv) > 3 else {}
for _ in urimine.finditer(sys.argv[2], **options):
    pass
started = time.process_time()
hits = 0
for _ in urimine.finditer(text, **options):
    hits += 1
print(json.dumps({"seconds": time.process_time() - started, "hits": hits}))
"""


def child(python: str, path: Path, timeout: float, rules: str = "") -> dict[str, float]:
    done = subprocess.run(
        [python, "-c", CHILD, str(path), WARM_UP, *([rules] if rules else [])],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def compare(
    pythons: dict[str, str],
    path: Path,
    rounds: int,
    rnd: random.Random,
    timeout: float,
    rules: dict[str, str] | None = None,
) -> dict[str, dict[str, float]]:
    times: dict[str, list[float]] = {name: [] for name in pythons}
    hits: dict[str, int] = {}
    for _ in range(rounds):
        order = list(pythons)
        rnd.shuffle(order)
        for name in order:
            out = child(pythons[name], path, timeout, (rules or {}).get(name, ""))
            times[name].append(out["seconds"])
            hits[name] = int(out["hits"])
    size = path.stat().st_size / 1e6
    return {
        name: {"mb_s": size / max(statistics.median(values), 1e-6), "hits": hits[name]}
        for name, values in times.items()
    }


def two_versions(description: str) -> argparse.ArgumentParser:
    """A parser with the options of a comparison of two versions: their interpreters,
    the corpora, and the rules the new one scans with."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--before", required=True, help="the interpreter of the old version")
    parser.add_argument("--after", default=sys.executable, help="the new version's")
    parser.add_argument("--corpora", default=",".join(corpora.REAL))
    parser.add_argument(
        "--after-rules",
        default="",
        help="the rules the new version scans with, comma-separated (default: its default)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = two_versions(__doc__.split("\n")[0])
    parser.add_argument("--hostile", default="all", help="comma list, 'all' or 'none'")
    parser.add_argument("--hostile-bytes", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hostile-rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    pythons = {"before": args.before, "after": args.after}
    rnd = random.Random(args.seed)
    lines = [
        "| input | before MB/s | after MB/s | after/before | hits before | hits after |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    print("\n".join(lines), flush=True)
    jobs: list[tuple[str, str, int]] = [
        (name, corpora.real(name), args.rounds) for name in args.corpora.split(",") if name
    ]
    names = list(corpora.hostile()) if args.hostile == "all" else args.hostile.split(",")
    for name in names if args.hostile != "none" else []:
        jobs.append((name, corpora.hostile_text(name, args.hostile_bytes), args.hostile_rounds))
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, rounds in jobs:
            path = Path(tmp) / f"{name}.txt"
            path.write_text(text, encoding="utf-8")
            res = compare(pythons, path, rounds, rnd, args.timeout, {"after": args.after_rules})
            b, a = res["before"], res["after"]
            line = (
                f"| {name} | {b['mb_s']:.1f} | {a['mb_s']:.1f} | {a['mb_s'] / b['mb_s']:.3f} "
                f"| {b['hits']} | {a['hits']} |"
            )
            lines.append(line)
            print(line, flush=True)
            path.unlink()
    if args.markdown:
        args.markdown.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
