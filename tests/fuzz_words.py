"""Fuzz the word leaps of a scanner of hits only (not part of the test run).

Each text repeats a few words (candidates of registered schemes that the rules reject,
hits, words without a colon, what joins words: angle brackets, quotes, ``URL:``, a
hyphen before a line break) between white space, now and then another piece. A scanner
of hits only, with its word leaps (Scanner._word_leap) tried after any number of
fruitless triggers, from any block size and budget, given the text whole or in chunks
(short ones, or long ones of a long text), must find the hits that a scanner reporting
rejections finds (it never leaps so):

    python tests/fuzz_words.py SEED COUNT

It prints "ok" and how many blocks were leapt, or the first text that differs.
"""

from __future__ import annotations

import argparse
import random
import sys

import urimine.scanner as scanner_module
from urimine import Hit, Rejection, Scanner

PIECES = [
    "tel:1]~",
    "mailto:.",
    "tel:;",
    "HTTP://A.B[a",
    "mailto:a%zz",
    "http://a.b/%zz",
    "file::",
    "sip:#[::1]",
    "http://x.org/a",
    "tel:+1-555",
    "urn:isbn:123",
    "urn:ab:",
    "https://a.example/x-",
    "news:+_%zz-",
    "z39.50r:/-",
    "HTTP:.-",
    "(http://p.example/)%zz-",
    "http://x.org/a%zz-",
    "urn:ab:%00-",
    "http://[v1.x-\n]/a",
    "x-http:",
    "ab:",
    "e.g.http://e.example",
    "(http://a.b/c)",
    "[tel:1]",
    "'http://q.example/'",
    "URL:",
    "url: ",
    "<",
    ">",
    '"',
    "-",
    "-\n",
    "- \n",
    "\n> ",
    "> ",
    "<tel:",
    "1>",
    " ",
    "\n",
    "\t",
    "\r\n",
    "\u00a0",
    "\u2028",
    "\x0c",
    "\x1c",
    "http:",
    "//",
    "a",
    "\u00e9",
    "http://\u00e9.example/\u00fc",
    "mailto:a@b.example",
    "data:12->",
    "urn:urn:x",
    "<URN:a:b:c>",
    "*http://star.example*",
    "_http://u.example_",
    "{",
    "}",
]
BRIDGES = {"<", '"', "URL:", "url: ", "-\n", "- \n", "<URN:a:b:c>", "<tel:"}
REJECTED = [
    "tel:1]~",
    "mailto:.",
    "tel:;",
    "HTTP://A.B[a",
    "mailto:a%zz",
    "file::",
    "sip:#[::1]",
    "urn:ab:",
    "urn:urn:x",
    "urn:ab:%00",
    "news:+_%zz",
    "z39.50r:/",
    "HTTP:.",
    "%zz",
    "http://[v1.x",
    "]/a",
    '"',
    "<td>",
    "</td>",
    "<a:b>",
    "<",
    ">",
    "<tel:",
    "<URN:a:b:c\\",
    "\\>",
    "x-http:",
    "ab:",
    "a",
    "\u00e9",
    "\u00a0",
    "\x0c",
    "http:",
    "{",
    "}",
    "-",
    "(",
    ")",
    "[",
    "]",
]
GAPS = [" ", "\n", "\t", "\r\n", " ", "\n> ", "-\n", "- \n", "-\n> "]


def hits(text: str, chunks: list[int], rejections: bool) -> list[Hit]:
    """The hits of *text*, given whole (Scanner.hits) or fed in *chunks* then the rest."""
    scanner = Scanner(rejections=rejections)
    found: list[Hit | Rejection] = []
    if not chunks:
        found += scanner.hits([text])
    else:
        at = 0
        for size in chunks:
            found += scanner.feed(text[at : at + size])
            at += size
        found += scanner.feed(text[at:]) + scanner.close()
    return [item for item in found if isinstance(item, Hit)]


def random_text(rnd: random.Random) -> str:
    """Words repeated between white space: of rejected candidates with a piece now and
    then, or phrases of any pieces (with or without what joins words)."""
    if rnd.random() < 0.5:
        words = ["".join(rnd.choices(REJECTED, k=rnd.randint(1, 3))) for _ in range(6)]
        words = words[: rnd.randint(1, 6)]
        parts = []
        for _ in range(rnd.randint(10, 400)):
            parts.append(rnd.choice(words) if rnd.random() > 0.03 else rnd.choice(PIECES))
            parts.append(rnd.choice(GAPS))
        return "".join(parts)
    clean = rnd.random() < 0.6
    weights = [0 if clean and p in BRIDGES else rnd.random() ** 3 for p in PIECES]
    phrase = "".join(rnd.choices(PIECES, weights, k=rnd.randint(1, 6)))
    return "".join(
        phrase if rnd.random() < 0.7 else "".join(rnd.choices(PIECES, weights, k=rnd.randint(1, 4)))
        for _ in range(rnd.randint(1, 60))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("count", type=int)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    leapt = 0
    block_hits = Scanner._block_hits

    def counted(self: Scanner, buf: str, i: int, pos: int, floor: int, final: bool) -> object:
        nonlocal leapt
        block = block_hits(self, buf, i, pos, floor, final)
        leapt += block is not None
        return block

    Scanner._block_hits = counted  # type: ignore[method-assign,assignment]
    for n in range(args.count):
        scanner_module._WORD_MISSES = rnd.choice([1, 2, 16])
        scanner_module._WORD_BLOCK = rnd.choice([8, 64, 4096])
        scanner_module._WORD_GAP = rnd.choice([64, 1 << 20])
        scanner_module._WORD_UNKNOWN = rnd.choice([4, 64])
        scanner_module._WORD_ALONE = rnd.choice([1, 8, 64])
        text = random_text(rnd)
        chunks = [rnd.randint(1, 300) for _ in range(rnd.randint(0, 4))]
        if rnd.random() < 0.1:  # long enough for scans that end before the text does
            text *= 200_000 // len(text) + 1
            chunks = [rnd.randint(1, 70_000) for _ in range(rnd.randint(1, 8))]
        every = hits(text, [], rejections=True)
        for feed in ([], chunks):
            if hits(text, feed, rejections=False) != every:
                print(f"text {n} differs (chunks {feed}): {text!r}")
                return 1
    print(f"ok ({leapt} blocks leapt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
