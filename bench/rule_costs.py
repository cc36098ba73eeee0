"""What each rule of issue 31 costs: in-process ``finditer`` throughput on the real
corpora (``bench/corpora.py``) with the default rules and with each opt-in rule added,
and on hostile inputs built for these rules (each repeated to a size, at two sizes:
linear time shows as the same rate at both).

    python bench/rule_costs.py                     # every corpus, 3 rounds
    python bench/rule_costs.py --corpora rfc,mail --rounds 5 --markdown out.md

Each figure is the median CPU time of its rounds in this process, after a warm-up
(patterns compiled at first use); only ratios within one run are worth comparing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora

import urimine

RULE_SETS = {
    "default": "default",
    "+email": "default,email",
    "+domains": "default,domains",
    "+defanged": "default,defanged",
    "+unwrap": "default,unwrap",
    "uts58": "uts58",
    "+all": "default,email,domains,defanged,unwrap",
}

# (piece repeated, rules): the shapes that make these rules read back and forth.
HOSTILE = {
    "www.www.": ("www.", "default"),
    "www. host per 11 chars": ("www.a.com/ ", "default"),
    "a@a@": ("a@", "default,email"),
    "a@b.com.": ("a@b.com.", "default,email"),
    "x.com.": ("x.com.", "default,domains"),
    "a.b ": ("a.b ", "default,domains"),
    "uts58 a.com": ("a.com", "uts58"),
    "uts58 a@b.": ("a@b.", "uts58"),
    "hxxp[.]": ("hxxp[.]", "default,defanged"),
    "[.]": ("[.]", "default,defanged"),
    "(at)": ("(at)", "default,defanged"),
    "a[.]com per 8 chars": ("a[.]com ", "default,defanged"),
    "google redirect": ("https://www.google.com/url?q=https://a.example/ ", "default,unwrap"),
    "(bare, for scale) http://a.com/ ": ("http://a.com/ ", "default"),
}


def seconds(text: str, rules: str, rounds: int) -> tuple[float, int]:
    """Median CPU seconds of one ``finditer`` over *text*, and its hit count."""
    hits = sum(1 for _ in urimine.finditer(text, rules=rules))
    times = []
    for _ in range(rounds):
        started = time.process_time()
        for _ in urimine.finditer(text, rules=rules):
            pass
        times.append(time.process_time() - started)
    return statistics.median(times), hits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default=",".join(corpora.REAL))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hostile-sizes", default="500000,1000000")
    parser.add_argument("--markdown", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)
    for _ in urimine.finditer("www.a.com a@b.com hxxp://a[.]com " * 50, rules=RULE_SETS["+all"]):
        pass
    lines = ["| corpus | MB | " + " | ".join(RULE_SETS) + " |"]
    lines.append("|---" * (len(RULE_SETS) + 2) + "|")
    for name in args.corpora.split(","):
        text = corpora.real(name)
        size = len(text.encode("utf-8")) / 1e6
        base, _ = seconds(text, "default", args.rounds)
        cells = []
        for rules in RULE_SETS.values():
            took, hits = seconds(text, rules, args.rounds) if rules != "default" else (base, 0)
            rate = size / took
            cells.append(
                f"{rate:.1f} MB/s" + ("" if rules == "default" else f" ({took / base - 1:+.0%})")
            )
        lines.append(f"| {name} | {size:.1f} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    sizes = [int(s) for s in args.hostile_sizes.split(",")]
    lines += [
        "",
        "| hostile input | rules | " + " | ".join(f"{s / 1e6:g} MB" for s in sizes) + " |",
    ]
    lines.append("|---" * (len(sizes) + 2) + "|")
    for name, (piece, rules) in HOSTILE.items():
        cells = []
        for size in sizes:
            text = piece * (size // len(piece))
            took, hits = seconds(text, rules, 1)
            cells.append(f"{len(text) / took / 1e6:.1f} MB/s ({hits} hits)")
        lines.append(f"| `{name}` | {rules} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    if args.markdown:
        args.markdown.write_text("\n".join(lines) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
