"""The differential fuzz driver: random text on the rules' edges, scanned with every
speed mechanism on and each one off, against the plain path (``Speed.none()``).

    python tests/fuzz/differential.py --seconds 90            # a new seed, printed
    python tests/fuzz/differential.py --seed 123 --seconds 600
    python tests/fuzz/differential.py --seed 123 --case 4711  # one case again

Each case is made from the seed and its number alone (a failure names both, and
``--case`` makes it again): a few kinds of pieces (``tests/strategies.py``) repeated to
a few hundred or thousand characters, knobs small or not, a length bound, hits only or
with rejections. Each speed is scanned whole, fed in random chunks, and given whole to
``Scanner.hits`` (whose final scan pauses). Not part of ``pytest``: ``.ci/run`` runs it
time-boxed after the tests; it exits 1 at the first difference.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from strategies import ALL_PIECES, OPT_IN_RULES, SMALL_KNOBS, WORD_GAPS, WORD_PIECES, speeds
from urimine import Hit, Rejection, Scanner, Speed

_KNOBS = [{}, SMALL_KNOBS, {"dense_misses": 1, "dense_block": 1, "word_misses": 1}]


def make_case(seed: int, case: int) -> tuple[str, dict[str, int], int, bool]:
    """The text, knobs, length bound and rejections of case *case* of *seed*."""
    rnd = random.Random(f"{seed}:{case}")
    if rnd.random() < 0.3:
        words = ["".join(rnd.sample(WORD_PIECES, rnd.randint(1, 3))) for _ in range(4)]
        text = "".join(
            rnd.choice(words) + rnd.choice(WORD_GAPS) for _ in range(rnd.randint(10, 400))
        )
    else:
        alphabet = rnd.sample(ALL_PIECES, rnd.randint(1, 8))
        if rnd.random() < 0.5:
            alphabet += ["a", " ", "\n"]
        size = rnd.choice([200, 2000, 20000])
        parts: list[str] = []
        while sum(map(len, parts)) < size:
            parts.append(rnd.choice(alphabet))
        text = "".join(parts)
    return text, rnd.choice(_KNOBS), rnd.choice([8192, 8192, 300, 40]), rnd.random() < 0.4


def _scan(
    chunks: list[str], speed: Speed, rejections: bool, max_len: int, rules: str = "default"
) -> list[object]:
    scanner = Scanner(speed=speed, rejections=rejections, max_candidate_len=max_len, rules=rules)
    out: list[Hit | Rejection] = []
    for chunk in chunks:
        out += scanner.feed(chunk)
    return [*out, *scanner.close()]


def differences(seed: int, case: int) -> list[str]:
    """What differs from the plain path in case *case* of *seed* ([] if nothing)."""
    text, tuning, max_len, rejections = make_case(seed, case)
    rnd = random.Random(f"{seed}:{case}:chunks")
    cuts = sorted(rnd.sample(range(1, len(text)), min(len(text) - 1, 30))) if len(text) > 1 else []
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    rules = rnd.choice(["default", "default", *OPT_IN_RULES])
    plain = _scan([text], Speed.none(), rejections, max_len, rules)
    plain_hits = [h for h in plain if isinstance(h, Hit)]
    found = []
    for name, speed in speeds(tuning).items():
        if _scan([text], speed, rejections, max_len, rules) != plain:
            found.append(f"{name} ({rules}): whole")
        if _scan(chunks, speed, rejections, max_len, rules) != plain:
            found.append(f"{name} ({rules}): chunked")
        options = {
            "speed": speed,
            "rejections": rejections,
            "max_candidate_len": max_len,
            "rules": rules,
        }
        if list(Scanner(**options).hits([text])) != plain_hits:  # type: ignore[arg-type]
            found.append(f"{name}: Scanner.hits")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--seed", type=int, default=None, help="default: a new one")
    parser.add_argument("--case", type=int, default=None, help="only this case")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    print(f"fuzz/differential: seed {seed}", flush=True)
    cases = [args.case] if args.case is not None else range(1 << 62)
    deadline = time.monotonic() + args.seconds
    done = 0
    for case in cases:
        if args.case is None and time.monotonic() > deadline:
            break
        found = differences(seed, case)
        done += 1
        if found:
            text, tuning, max_len, rejections = make_case(seed, case)
            print(f"DIFFERENCE at --seed {seed} --case {case}: {', '.join(found)}")
            print(f"  max_len={max_len} rejections={rejections} knobs={tuning}")
            print(f"  text={text[:2000]!r}")
            return 1
    print(f"fuzz/differential: {done} cases, no difference (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
