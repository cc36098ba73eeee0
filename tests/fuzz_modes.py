"""Fuzz the scanner's trigger finders against each other (not part of the test run).

The sparse finders, dense mode and dense mode with leaps must give the same hits and
rejections for any text, any chunking and any setting of the knobs that only decide
speed (first block, stretch length, masking). The property tests in
test_fast_paths.py check this on short texts; this runs long ones, thousands at a time:

    python tests/fuzz_modes.py SEED COUNT [--hits-only]

It prints "ok", or the first difference; the failing text and its knobs are written to
fuzz-failure.json, shrunk (whole stretches cut while the difference stays) so that it
can become a regression test. It found three bugs of the leaps and the angle rule.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import test_fast_paths as pieces  # the property tests' pieces (tests/ is on the path)
import urimine.scanner as scanner_module
from urimine import Scanner

TOKENS = [
    "x" * 3000,
    "http:y" + "z" * 2000,
    "http:x ",
    "ftp:y",
    "x-https:z",
    "https://a.example/ ",
    *pieces._DENSE_PIECES.elements,  # type: ignore[attr-defined]
    *pieces._ANGLE_PIECES.elements,  # type: ignore[attr-defined]
    "<URL: http://a.example/>",
    "<\n  http://b.example/x\n>",
    "URL:http://c.example ",
    "  <" + " " * 70 + "http://d.example/>",
    "e.g.http://e.example ",
    "Main.java:12 ",
    "urn://<",
    "a" * 70 + "-http:",
]
KNOBS = {
    "_LEAP_MIN": [4, 64, 1024],
    "_LEAP_FLOOR": [1, 16, 128],
    "_DENSE_SPAN": [256, 4096, 1 << 16],
    "_MASK_FROM": [0, 8192],
    "_MASK_COPIES": [1, 2, 8],
    "_MASK_SAMPLE": [16, 2048],
    "_MASK_MAX": [1, 16],
    "_MASK_SPREAD": [0, 8],
    "_SLICE": [1 << 20, 4096, 37],  # Scanner.hits only (the leaping scanner of hits)
}
_LEAP = scanner_module._Triggers._leap


def scan(
    text: str, chunks: list[int], mode: str, knobs: dict[str, int], hits_only: bool
) -> list[Any]:
    """Everything a scanner reports for *text* fed in *chunks* (then the rest), with
    only the sparse finders, dense mode without leaps, or dense mode with leaps. A
    leaping scanner of hits only is given the pieces through Scanner.hits, whose final
    scan pauses every _SLICE characters."""
    saved = {
        name: getattr(scanner_module, name) for name in [*knobs, "_DENSE_MISSES", "_LEAP_SHORT"]
    }
    try:
        for name, value in knobs.items():
            setattr(scanner_module, name, value)
        scanner_module._LEAP_SHORT = max(1, knobs["_LEAP_MIN"] // 4)
        scanner_module._DENSE_MISSES = 1 << 60 if mode == "sparse" else saved["_DENSE_MISSES"]
        if mode != "leap":
            scanner_module._Triggers._leap = lambda self, pos: pos  # type: ignore[method-assign]
        scanner = Scanner(rejections=not hits_only)
        out: list[Any] = []
        at = 0
        if hits_only and mode == "leap":
            pieces = []
            for size in chunks:
                pieces.append(text[at : at + size])
                at += size
            return list(scanner.hits([*pieces, text[at:]]))
        for size in chunks:
            out += scanner.feed(text[at : at + size])
            at += size
        return out + scanner.feed(text[at:]) + scanner.close()
    finally:
        scanner_module._Triggers._leap = _LEAP  # type: ignore[method-assign]
        for name, value in saved.items():
            setattr(scanner_module, name, value)


def differs(text: str, chunks: list[int], knobs: dict[str, int], hits_only: bool) -> str | None:
    """The mode that differs from the sparse finders, or None."""
    sparse = scan(text, chunks, "sparse", knobs, hits_only)
    for mode in ("dense", "leap"):
        if scan(text, chunks, mode, knobs, hits_only) != sparse:
            return mode
    return None


def _fails(text: str, knobs: dict[str, int], hits_only: bool) -> bool:
    return differs(text, [], knobs, hits_only) is not None


def shrink(text: str, still_fails: Callable[[str], bool]) -> str:
    """*text* with every stretch cut (halving their length) whose loss keeps it failing."""
    step = 1 << max(len(text).bit_length() - 2, 0)
    while step:
        at = 0
        while at < len(text):
            shorter = text[:at] + text[at + step :]
            if still_fails(shorter):
                text = shorter
            else:
                at += step
        step //= 2
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--hits-only", action="store_true", help="a scanner of hits only")
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    for n in range(args.count):
        weights = [rnd.random() ** 3 for _ in TOKENS]
        text = "".join(rnd.choices(TOKENS, weights, k=rnd.randint(200, 5000)))
        knobs = {name: rnd.choice(values) for name, values in KNOBS.items()}
        chunks = [rnd.randint(1, 5000) for _ in range(rnd.randint(0, 5))]
        mode = differs(text, chunks, knobs, args.hits_only)
        if mode is None:
            continue
        print(f"text {n}: {mode} mode differs from the sparse finders; shrinking", flush=True)
        if chunks and differs(text, [], knobs, args.hits_only) is not None:
            chunks = []  # it fails given whole too: then it can be shrunk
        if not chunks:  # (with chunks, cutting the text moves them: kept whole then)
            text = shrink(text, partial(_fails, knobs=knobs, hits_only=args.hits_only))
        failure = {"text": text, "chunks": chunks, "knobs": knobs, "hits_only": args.hits_only}
        Path("fuzz-failure.json").write_text(json.dumps(failure, indent=1))
        print(f"{len(text)} characters, written to fuzz-failure.json")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
