"""Fuzz the scanner with random hostile text (not part of the test run).

Each text is a random mix of a few pieces that sit on the rules' edges (brackets,
quotes, escapes, colons, hyphens at line breaks with quote markers, 1993 URNs, markup),
at a random length bound. Every scan must give the hits that a scan reporting
rejections gives, whether it reports hits only or not, whole or chunked, or given
whole as a text the scanner pauses in (Scanner.hits); with the shortcuts, the
remembered decisions and the chains read again switched off, the hits and the
rejections must be the same:

    python tests/fuzz_hostile.py SEED COUNT

It prints "ok" or each text that differs (seed, pieces, bound, and which scan). It
found a hits-only scan passing over a colon whose run was too long (the rules end the
scan at the next white space there), where tests/fuzz_modes.py, which compares the
trigger finders within one kind of scan, could not.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import test_fast_paths as fast  # its stand-ins for the shortcuts (tests/ is on the path)
import urimine.scanner as scanner_module
from helpers import scan
from urimine import Hit, Scanner
from urimine.rules import angle, bare, brackets

PIECES = [
    *("http://", "https://", "<", ">", "(", ")", "[", "]", "{", "}", '"', "'", ":", "::"),
    *("a:", "ab:", "x-http:", "e.g.", "urn:", "URN:", "<URN:", "urn:isbn:", "mailto:"),
    *("tel:", "%", "%zz", "%41", "-\n", "-\n> ", "-\n>> ", "- \n ", "-\r\n", "\n", "\n> "),
    *(" ", "\t", "URL:", "<URL:", "a", "abc", "1", "1:", ".", ",", ";", "!", "?", "#"),
    *("/", "//", "\u00e9", "\u3002", "\x00", "*", "_", "=", "&", "@", "[::1]", "[x]"),
    *("<http://", "http://[", "www.", "file:", "data:", "news:", "sip:", "<tel:"),
    *("<mailto:", "<a:b>", "<w:t>", "</", "/>", "a.b", "ftp:", "-", "--", ":/", ":80"),
    *("\\", "<URN:a:b:", "<url:", '"http://', "'http://", "URL: ", "(http://", "(((("),
    *("))))", ".....", "http:x", "\u00a0", "x:x ", "http://a.example/x", "tel:+1-555"),
    *("https://B.Example/p?q=1#f", "(http://a/b_(c))", "http://a/./b/../c", "http://a:80/"),
    *("\u200c", "\u200d", "\u200b", "\u060c", "\u0964", "\u0f0d", "\u3000", "//[x"),
    *("\x0b", "\x0c", "\x1c", "\x85", "\u2028", "<URL:\u00a0", "<\u3000", "-\x0c\n"),
    *("urn:ab:c-", "URN:ISBN:0-", "-\n", "-\n> ", "-\n  ", "?q-", "#f-", "%00", "urn:urn:"),
]


def _text(rnd: random.Random) -> str:
    pieces = rnd.sample(PIECES, rnd.randint(1, 8))
    if rnd.random() < 0.5:
        pieces += ["a", " ", "\n"]
    size = rnd.choice([200, 2000, 20000])
    out: list[str] = []
    length = 0
    while length < size:
        piece = rnd.choice(pieces)
        out.append(piece)
        length += len(piece)
    return "".join(out)[:size]


def _scan(chunks: list[str], max_len: int, rejections: bool) -> list:
    return scan(chunks, max_candidate_len=max_len, rejections=rejections)


@contextmanager
def _general_path_only() -> Iterator[None]:
    """Every candidate decided afresh by the rule-by-rule path (the stand-ins of
    tests/test_fast_paths.py for each shortcut, memo and chain read again; no run end
    nor bracket count kept for the candidates after it)."""
    saved = (bare._FAST, angle._plain, bare._DELIMITED_LEN)
    chain_end, joined = bare.chain_end, bare.joined
    kept = bare._RUN_KEPT, brackets._COUNTED
    bare._FAST = fast._NEVER
    angle._plain = lambda *args: None  # type: ignore[assignment]
    bare._DELIMITED_LEN = -1
    bare.chain_end, bare.joined = fast._chain_unread, fast._joined_afresh
    bare._RUN_KEPT = brackets._COUNTED = 1 << 40
    try:
        yield
    finally:
        bare._FAST, angle._plain, bare._DELIMITED_LEN = saved
        bare.chain_end, bare.joined = chain_end, joined
        bare._RUN_KEPT, brackets._COUNTED = kept


def _differences(seed: int) -> list[str]:
    rnd = random.Random(seed)
    text = _text(rnd)
    max_len = rnd.choice([16, 40, 100, 300, 8192])
    everything = _scan([text], max_len, True)
    hits = [item for item in everything if isinstance(item, Hit)]
    cuts = sorted(rnd.sample(range(1, len(text)), min(len(text) - 1, rnd.choice([1, 5, 50]))))
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    slice_size = rnd.choice([64, 500, 4096])
    scans: dict[str, Callable[[], list]] = {
        "hits only": lambda: _scan([text], max_len, False),
        "hits only, chunked": lambda: _scan(chunks, max_len, False),
        "chunked": lambda: [i for i in _scan(chunks, max_len, True) if isinstance(i, Hit)],
        "hits only, paused": lambda: list(Scanner(max_candidate_len=max_len).hits([text])),
    }
    # The train (Scanner._train) tried after every shortcut, or where the scanner does.
    train_gap = rnd.choice([scanner_module._TRAIN_GAP, 1 << 40])
    found = []
    for name, scanned in scans.items():
        saved = scanner_module._SLICE, scanner_module._TRAIN_GAP
        scanner_module._SLICE, scanner_module._TRAIN_GAP = slice_size, train_gap
        try:
            if scanned() != hits:
                found.append(name)
        finally:
            scanner_module._SLICE, scanner_module._TRAIN_GAP = saved
    with _general_path_only():
        if _scan([text], max_len, True) != everything:
            found.append("general path")
    return [f"{seed} bound {max_len}: {name}" for name in found]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("count", type=int)
    args = parser.parse_args()
    bad = 0
    for seed in range(args.seed, args.seed + args.count):
        for line in _differences(seed):
            print("differs:", line, flush=True)
            bad += 1
    print("ok" if not bad else f"{bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
