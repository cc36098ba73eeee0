"""A random search of hostile pieces: short pieces made of random tokens, each repeated
to a few hundred KB and scanned (urimine.finditer, CPU time, best of three), listed from
the slowest, as a multiple of the benchmark's ordinary-text rate.

    python bench/hostile_search.py SEED COUNT                 # any tokens
    python bench/hostile_search.py SEED COUNT --rejected      # a registered scheme's
                                                              # colon, then tokens
    python bench/hostile_search.py SEED COUNT --wrapped       # the same in quotes,
                                                              # tags or brackets
    python bench/hostile_search.py SEED COUNT --tokens hyphen # one rule's tokens:
                                                              # hyphen, legacy-urn
    python bench/hostile_search.py SEED COUNT --pieces --bound 512
                                   # the tests' edge pieces (tests/strategies.py), each
                                   # shape timed again with a length bound of 512

The second family is where candidates the rules reject crowd: it found the shapes that
the word leaps (urimine/fast/words.py) now pass over. Pieces with hits cost what
their hits cost (see bench/run.py's naive floor) and are listed apart. With
``--bound``, a shape that runs much faster under a short length bound reads at each
trigger what it should read once a run (the column "bound x": the default bound's
time over the short one's).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import sweep  # its timing of finditer

from urimine import finditer

ORDINARY_MB_S = 360.0
"""The benchmark's ordinary RFC text, MB/s (bench/results/latest.md, its first row of
the pathological table): the rate the bound of issue 5 is a multiple of."""

TOKENS = [
    *("<", ">", ":", "a", "ab", "URL", "urn", "URN", "http", "//", "-", ".", "[", "]"),
    *("%", "x", " ", "\n", "(", ")", '"', "1", "@", "?", "#", "=", "&", "'", "\u00e9"),
    *("mailto", "tel", "www.", "/", "\t", "> ", ";", ",", "!", "*", "~", "\\", "{", "}"),
    *("|", "^", "`", "data", "file", "ftp", "HTTP", "e.g.", "x-", "+", "0", "12", "isbn"),
    *("%41", "%0", "A"),
]
SCHEMES = ["http", "https", "mailto", "tel", "ftp", "data", "file", "news", "urn", "sip"]
SCHEMES += ["HTTP", "about", "ldap", "z39.50r"]
AFTER_COLON = [
    *("//", "/", "a", "1", "[", "]", "%", "%zz", "%0", "%41", "@", ":", "?", "#", "~"),
    *("-", ".", "x.y", "\u00e9", "(", ")", "'", "!", "*", "+", "=", "&", ";", ",", "_"),
    *("[::1]", "\\", "^", "|", "{", "}", "`", "\x00", "\x7f", "\u00a0"),
]
# The tokens of one rule: the hyphen at a line break (seed 002 Appendix E: schemes,
# hyphens, line ends and what may follow them) and the 1993 URN (seed 000 3.3: its
# head, colons, "\\" escapes and ">").
RULE_TOKENS = {
    "hyphen": [
        *("http://", "https://", "mailto:", "tel:", "news:", "urn:ab:", "a", "b1", "-", "-"),
        *("-\n", "-\r\n", "- \n", "\r\n", "\n", "\r", " ", "\t", "> ", "\n> ", "x:", "%41"),
        *("/", ".", "?", "#", "=", "(", ")", "'", '"', "e.g.", ":80", "@", "[", "\u00e9"),
    ],
    "legacy-urn": [
        *("<URN:", "<urn:", "URN:", "urn:", "\\", "\\:", "\\>", "\\\\", "\\ ", ":", ">"),
        *("<", "ietf", "rfc", "ascii", "IANA", "a", "1", " ", "\n", "%41", "-", "-\n", "x"),
    ],
}
ENDS = [" ", "\n", "-\n", "\t"]
WRAPPERS = [('"', '" '), ('"', '", '), ("<b>", "</b> "), ("<td>", "</td>\n"), ("(", ") ")]
WRAPPERS += [("'", "' "), ("[", "]\t"), ("<", "> "), ("*", "* ")]
SIZE = 300_000


def _edge_pieces() -> list[str]:
    """The pieces the equivalence tests and the fuzz driver build text of."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from strategies import ALL_PIECES

    return list(ALL_PIECES)


def piece(
    rnd: random.Random,
    rejected: bool,
    wrapped: bool = False,
    tokens: list[str] = TOKENS,
    pieces: list[str] | None = None,
) -> str:
    """A random piece of the chosen family."""
    if pieces:
        return "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6)))
    if rejected or wrapped:
        after = "".join(rnd.choice(AFTER_COLON) for _ in range(rnd.randint(1, 4)))
        if wrapped:
            before, end = rnd.choice(WRAPPERS)
            return before + rnd.choice(SCHEMES) + ":" + after + end
        return rnd.choice(SCHEMES) + ":" + after + rnd.choice(ENDS)
    return "".join(rnd.choice(tokens) for _ in range(rnd.randint(1, 5)))


def rate(text: str, bound: int = 0) -> tuple[float, int]:
    """MB/s of finditer on *text* (best of three, as bench/sweep.py times) and its hits;
    with *bound*, under that length bound."""
    scan = (lambda: sum(1 for _ in finditer(text, max_length=bound))) if bound else None
    seconds, hits = sweep._best(scan or (lambda: sweep._scan(text)))
    return len(text.encode()) / seconds / 1e6, hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--rejected", action="store_true", help="a registered scheme first")
    parser.add_argument("--wrapped", action="store_true", help="the same, in quotes or tags")
    parser.add_argument("--tokens", choices=sorted(RULE_TOKENS), help="one rule's tokens")
    parser.add_argument("--pieces", action="store_true", help="the tests' edge pieces")
    parser.add_argument("--bound", type=int, default=0, help="also time under this bound")
    parser.add_argument("--show", type=int, default=20, help="pieces listed (20)")
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    sum(1 for _ in finditer("see http://x.org/ urn:isbn:1 <http://a.b/> " * 100))  # warm-up
    tokens = RULE_TOKENS[args.tokens] if args.tokens else TOKENS
    pieces = _edge_pieces() if args.pieces else None
    found = []
    for _ in range(args.count):
        text = piece(rnd, args.rejected, args.wrapped, tokens, pieces)
        found.append((*rate(text * (SIZE // len(text))), text))
    found.sort()
    if args.bound:
        _by_bound(found[: args.show], args.bound)
    without = [(mb_s, text) for mb_s, hits, text in found if not hits]
    over = sum(1 for mb_s, _ in without if ORDINARY_MB_S / mb_s > 10)
    print(f"{len(without)} pieces without hits, {over} of them over 10x ordinary text")
    for mb_s, text in without[: args.show]:
        print(f"{mb_s:8.1f} MB/s {ORDINARY_MB_S / mb_s:7.1f}x  {text!r}")
    print(f"{len(found) - len(without)} pieces with hits, slowest per hit:")
    per_hit = sorted(
        (
            (len(text.encode()) * (SIZE // len(text)) / (mb_s * 1e6) / hits * 1e6, mb_s, text)
            for mb_s, hits, text in found
            if hits
        ),
        reverse=True,
    )
    for micros, mb_s, text in per_hit[: args.show // 2]:
        print(f"{micros:8.2f} us a hit {mb_s:8.1f} MB/s  {text!r}")
    slow = sorted((mb_s, text) for mb_s, hits, text in found if hits and mb_s < 5)
    print(f"{len(slow)} pieces with hits under 5 MB/s, slowest first:")
    for mb_s, text in slow[: args.show]:
        print(f"{mb_s:8.1f} MB/s  {text!r}")


def _by_bound(slowest: list[tuple[float, int, str]], bound: int) -> None:
    """The slowest pieces timed again under a short length bound."""
    print(f"slowest {len(slowest)}, timed again with a length bound of {bound}:")
    print(f"| MB/s | hits | MB/s at {bound} | bound x | piece |\n|--:|--:|--:|--:|---|")
    for mb_s, hits, text in slowest:
        short, _ = rate(text * (SIZE // len(text)), bound)
        print(f"| {mb_s:.2f} | {hits} | {short:.2f} | {short / mb_s:.1f} | `{text!r}` |")


if __name__ == "__main__":
    main()
