"""Hostile inputs finish in time linear in their size (issue 2; issue 5: within 10x).

Times are CPU seconds and compared as ratios against the same amount of ordinary text
scanned in the same test, never as absolute bounds, so a slow or busy machine does not
make the test flaky; each measurement is the best of three.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest

import urimine.scanner as scanner_module
from helpers import cpu_seconds
from urimine import Scanner

SIZE = 500_000
ORDINARY_LINE = (
    "The IETF publishes its RFCs at https://www.rfc-editor.org/rfc/rfc3986.txt; see also "
    '<URL:ftp://ftp.example.org/pub/> and "http://example.com/a?b=c". Note: 10:30 Re:\n'
)


# A paragraph of a Word document's XML (document.xml): every tag a prefixed name.
WORD_XML = (
    '<w:p w:rsidR="00A77B3E"><w:pPr><w:spacing w:after="0"/></w:pPr>'
    "<w:r><w:t>text</w:t></w:r></w:p>\n"
)


def _scan(text: str, **options: int) -> None:
    scanner = Scanner(**options)  # type: ignore[arg-type]
    scanner.feed(text)
    scanner.close()


def _scan_time(text: str) -> float:
    # Each measure from the same collector state: a full collection falling in one run
    # and not in the other, its cost set by whatever else the test process holds, is no
    # part of the scanner's scaling.
    gc.collect()
    return cpu_seconds(lambda: _scan(text))


def _fill(piece: str, n: int) -> str:
    return (piece * (n // len(piece) + 1))[:n]


def _ordinary(n: int) -> str:
    return (ORDINARY_LINE * (n // len(ORDINARY_LINE) + 1))[:n]


HOSTILE: dict[str, Callable[[int], str]] = {
    "line without spaces": lambda n: "abcdefghij" * (n // 10),
    "url without spaces": lambda n: "http://x.example/" + "a" * n,
    "open angle": lambda n: "<http://" + "a" * n,
    "runs of <": lambda n: "<" * n,
    "runs of < and space": lambda n: "< " * (n // 2),
    "runs of (": lambda n: "(" * n,
    "a:a:a:": lambda n: "a:" * (n // 2),
    "ab:ab:ab:": lambda n: "ab:" * (n // 3),
    "numbered words": lambda n: _fill("".join(f"ab{i}:" for i in range(1000)), n),
    "registered name after a hyphen": lambda n: "x-http:" * (n // 7),
    "words with a < now and then": lambda n: _fill("ab:" * 30 + "<", n),
    "words with a dotted word now and then": lambda n: _fill("ab:" * 30 + "a.b:", n),
    "words with a URI now and then": lambda n: _fill("ab:" * 30 + "tel:1 ", n),
    "long words before colons": lambda n: _fill("a" * 70 + ":", n),
    "dotted words": lambda n: _fill("e.g.ab:", n),
    "Word XML": lambda n: _fill(WORD_XML, n),
    "XML tags back to back": lambda n: _fill("<w:p>", n),
    "colons": lambda n: ":" * n,
    "http:// repeated": lambda n: "http://" * (n // 7),
    "http:// and space repeated": lambda n: "http:// " * (n // 8),
    "<a: repeated": lambda n: "<a:" * (n // 3),
    "<http:// repeated": lambda n: "<http://" * (n // 8),
    "<http:// and space repeated": lambda n: "<http:// " * (n // 9),
    "lines of <": lambda n: ("<" * 9999 + "\n") * (n // 10000),
    "NUL bytes": lambda n: "\x00" * n,
    "replacement characters": lambda n: "\ufffd" * n,
    "quotes": lambda n: '"' * n,
    "quoted code": lambda n: '> x << "s" << std::endl;\n' * (n // 25),
    "urn: repeated": lambda n: "urn:" * (n // 4),
    # Neither an NID after "urn:" (seed 003 2.1) nor a 1993 URN's shape (seed 000 3.3):
    # each once cost a trip through the rules; "<URN:" read on for a ">" 1024 characters.
    "urn: without an NID": lambda n: "urn:a:" * (n // 6),
    "1993 URN shapes that fail": lambda n: "<URN:a:b:" * (n // 9),
    # In brackets, neither a 1993 URN's encoding (seed 000 3.3.2) nor an NID: a scanner
    # of hits only passes over them in C (each once cost both URN rules, 10 us).
    "1993 URN shapes, bad encoding and NID": lambda n: _fill("<URN:a:b:c:d> ", n),
    "URNs in brackets without an NID": lambda n: _fill("<urn:a:b> ", n),
    # URNs in text that the URN rule rejects whatever follows (seed 003 2.1 reserves
    # the NID "urn"; an NSS holds at least one character, and no "%00", 2.5.3): a
    # scanner of hits only passes over them in C (a "%00" once cost 8 us each).
    "URNs of the reserved NID": lambda n: _fill("urn:urn:x ", n),
    "URNs without an NSS": lambda n: _fill("urn:ab: ", n),
    "URNs with a NUL": lambda n: _fill("urn:ab:%00 ", n),
    "URNs with a NUL after a character": lambda n: _fill("urn:ab:x%00 ", n),
    # What no URI holds right after its scheme's colon: a scanner of hits only passes
    # over such colons in C (each once cost the colon rule's parse, 6 us).
    "bad escapes after the scheme": lambda n: _fill("mailto:%zz ", n),
    "brackets after the scheme": lambda n: _fill("tel:[x] ", n),
    # A host "[" before what starts no IP literal (RFC 3986 3.2.2), in brackets and in
    # a hyphen chain (every line ends in "-", so each candidate's run is joined to the
    # lines after it), and in brackets a bad escape or a "[" right after the scheme: a
    # scanner of hits only passes over them in C, its leaps too (each once cost a parse
    # in Python: 3.6 us in brackets).
    "bad IP literals in brackets": lambda n: _fill("<http://[x]> ", n),
    "bad IP literals in a hyphen chain": lambda n: _fill("http://[-\n> ", n),
    "bad escapes in brackets": lambda n: _fill("<tel:%> ", n),
    "brackets after the scheme, in brackets": lambda n: _fill("<tel:[x]> ", n),
    # A hyphen at every line end (seed 002 Appendix E): URIs of 8 KB joined line by
    # line, once a Python step a line.
    "a hyphen at every line end": lambda n: "http://x-\n" * (n // 10),
    # From real mail (usrp-users.mbox): a quoted table after "<td:", the quote markers
    # read as closing brackets of a multi-line angle candidate.
    "quoted table after <td:": lambda n: _fill(
        "> start<td:l;\n> \t\n> \t\n> \t\n> No  (ave) ms \tTx Ho \n> nd\n> 100 \t041818\n"
        "> 19602.8\t\n>\t\n>\t\n>\t\n>\t\n>\t\n>\t\n> \n>\t\n> of hops \tTx t",
        n,
    ),
    "XML tags with prefixes": lambda n: _fill('<o:p></o:p><v:shape id="x" o:spt="75">', n),
    # Each tag recurs, but only a dozen times: masking them one by one must stay cheap.
    "XML tags each a dozen times": lambda n: _fill(
        "".join(f"<a:b{i}>" * 12 for i in range(2000)), n
    ),
    # Tags that never recur, of one prefix: masked by their prefix ("<a:").
    "XML tags that never recur": lambda n: _fill("".join(f"<a:b{i}>" for i in range(20000)), n),
    # Long URIs that fail at their end, 8 KB each: the shortcut's pattern once gave
    # the text back a character at a time, retrying what follows at each (1 ms a URI).
    "a long host, then a bad escape": lambda n: _fill("http://" + "a" * 8000 + "%zz ", n),
    "a long path, then a bad escape": lambda n: _fill("http://a/" + "b" * 8000 + "%zz ", n),
    "a long opaque URI, then a bad escape": lambda n: _fill("mailto:" + "b" * 8000 + "%zz ", n),
    "a long port, then a letter": lambda n: _fill("http://a:" + "1" * 8000 + "x ", n),
    "dots in every segment": lambda n: _fill("http://a/" + "b." * 4000 + " ", n),
    # 2,600 dot segments a URI (RFC 3986 5.2.4 on each): once a prefix test a step.
    "dot segments": lambda n: _fill("http://a/" + "../" * 2600 + " ", n),
    # URIs ending in "-" on one long line: the hyphen rule looks for a line break after
    # each, which once cost the rest of the text (quadratic).
    "URIs ending in a hyphen, no line end": lambda n: _fill("http://x- ", n),
    # Candidates of registered schemes that the rules reject one at a time, some 5 us
    # each (found by a random search of hostile pieces): a character no URI holds
    # after the first, a bad host, nothing left once trailing punctuation is cut. A
    # scanner of hits only leaps over blocks of words none of which holds a hit on its
    # own, each distinct word decided once (Scanner._word_leap; 1.5 MB/s before).
    "a bad character after the scheme's first": lambda n: _fill("tel:1]~ ", n),
    "a bad host": lambda n: _fill("HTTP://A.B[a ", n),
    "only punctuation after the scheme": lambda n: _fill("mailto:. ", n),
    "rejected candidates, tab-separated": lambda n: _fill("tel:;\tnews:;,\t", n),
    "rejected candidates among words": lambda n: _fill("see tel:1]~ and mailto:) or file:? ", n),
    # The same joined at a hyphen before every line break (Appendix E), each candidate
    # to the lines after it, up to 8 KB: rejected whatever is joined, a "%zz" or no
    # authority before the hyphen (rules.bare.joins_no_hit), so leapt over too (each
    # some 18 us to join and reject: 0.5 MB/s before).
    "rejected candidates joined at line ends": lambda n: _fill("news:+_%zz-\n", n),
    "no authority, joined at line ends": lambda n: _fill("z39.50r:/-\nhttp:/-\n", n),
    # In double quotes (a JSON list) or between tags whose ">" is in the same word: the
    # quote rule and the angle rule read no further (1.5 to 2.8 MB/s before).
    "rejected candidates in double quotes": lambda n: _fill('"tel:1]~", "HTTP://A.B[a", ', n),
    "rejected candidates between tags": lambda n: _fill("<b>mailto:.</b> <td>sip:|</td>\n", n),
    # Markup glued to the text, no white space for a line: words end with their ">".
    "rejected candidates in glued markup": lambda n: _fill(
        "<tr><td>tel:1]~</td><td>HTTP://A.B[a</td></tr>" * 40 + "\n", n
    ),
    "header field lists": lambda n: _fill("h=from:to:subject:date:message-id:cc:", n),
    "clock times": lambda n: _fill("Thu Jan  1 00:00:00 1970 12:34:56.789 ", n),
}


@pytest.fixture(scope="module")
def ordinary_time() -> float:
    return _scan_time(_ordinary(SIZE))


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_within_ten_times_ordinary_text(name: str, ordinary_time: float) -> None:
    ordinary = ordinary_time
    hostile = _scan_time(HOSTILE[name](SIZE))
    assert hostile / ordinary < 10, f"{name}: {hostile:.3f}s vs ordinary {ordinary:.3f}s"


# Prose without a single URI: the fastest ordinary text (about 1.7 times the rate of
# the RFC text the benchmark compares with). Against it the bound above would not hold
# for every input: this guard is looser, and catches a cliff (an input that needs Python
# work per few bytes) that the URI-dense reference above hides.
SPARSE_LINE = (
    "The IETF publishes its documents as plain text; this sentence has no links at all, "
    "only words, numbers like 10:30 and 2002, and punctuation (here), Re: and Note: too.\n"
)


@pytest.fixture(scope="module")
def sparse_time() -> float:
    return _scan_time(_fill(SPARSE_LINE, 4 * SIZE))


# Not held to the bound below: "words with a URI now and then" has a hit every 96
# bytes, each costing what a hit costs (see bench: words-and-uris), some 30x this
# prose; "URIs ending in a hyphen, no line end" a hit every 10 bytes.
_NOT_SPARSE_BOUND = {"words with a URI now and then", "URIs ending in a hyphen, no line end"}


@pytest.mark.parametrize("name", sorted(n for n in HOSTILE if n not in _NOT_SPARSE_BOUND))
def test_hostile_input_within_thirty_times_sparse_text(name: str, sparse_time: float) -> None:
    """Every input without hits but those of _NOT_SPARSE_BOUND."""
    hostile = _scan_time(HOSTILE[name](4 * SIZE))
    assert hostile / sparse_time < 30, f"{name}: {hostile:.3f}s vs sparse {sparse_time:.3f}s"


@pytest.mark.parametrize(
    "name",
    [
        "runs of <",
        "a:a:a:",
        "ab:ab:ab:",
        "open angle",
        "quoted code",
        "quoted table after <td:",
        "URIs ending in a hyphen, no line end",
    ],
)
def test_hostile_input_scales_linearly(name: str) -> None:
    small = _scan_time(HOSTILE[name](SIZE // 2))
    large = _scan_time(HOSTILE[name](SIZE * 2))
    assert large / small < 4 * 2, f"{name}: x4 input took {large / small:.1f}x time"


# Candidates every few bytes that a rule parses to reject, none a hit: each costs a
# decision in Python (whether "<urn:ab:>" is a URN the prefilter does not tell), so
# these are not within the bounds above, but their cost per candidate is bounded:
# linear in the text, whatever its length.
REJECTED: dict[str, Callable[[int], str]] = {
    "URNs in brackets without an NSS": lambda n: _fill("<urn:ab:> ", n),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_candidates_cost_linear_time(name: str) -> None:
    small = _scan_time(REJECTED[name](SIZE // 8))
    large = _scan_time(REJECTED[name](SIZE // 2))
    assert large / small < 4 * 2, f"{name}: x4 input took {large / small:.1f}x time"


@pytest.mark.parametrize(
    "piece",
    [
        "http://[-\n> ",
        "http://a-\n%zz-\n",
        "urn:ab:x-\n",
        "urn:urn:x-\n",
        "urn:ab:x%00-\n",
        "urn:ab:x-\n%00-\n",
    ],
)
def test_candidates_in_one_hyphen_chain_cost_no_more_for_a_longer_bound(piece: str) -> None:
    """Lines that all end in "-" with a candidate on each (seed 002 Appendix E: the
    hyphen at a line break joins a URI's pieces, up to the length bound): each
    candidate's chain is most of the one before it, read again (rules.chains), not
    matched and joined afresh, which cost every candidate the length bound (0.06 MB/s
    at 8 KB, six times less than at 1 KB). A URN's chain is matched once: a URN joined
    is a hit, or a rejection that passes over its pieces, and one whose first piece is
    rejected is not joined."""
    text = _fill(piece, SIZE // 4)
    short = cpu_seconds(lambda: _scan(text, max_candidate_len=1024))
    long = cpu_seconds(lambda: _scan(text, max_candidate_len=8192))
    assert long / short < 2, f"{long:.3f}s at 8 KB vs {short:.3f}s at 1 KB"


@pytest.mark.parametrize(
    "piece",
    ["[tel:1[a]", "tel:1[a]", "tel:[", "http:[", "mailto:%zz", "_urn:urn:-", "http:http://"],
)
def test_colons_in_long_runs_cost_about_what_they_cost_in_short_ones(piece: str) -> None:
    """Lines just under the length bound with a scheme's colon every few characters,
    each candidate cut short or rejected (seed 002 Appendix E: a URI ends at the first
    character its grammar does not allow; after an opener, at the first closer without
    its opener). Each candidate's run is the rest of the line: once it was matched to
    its end, and its brackets counted closer by closer, for every candidate (0.1 MB/s
    for "[tel:1[a]" in lines of 7 KB); now the run's end and its bracket levels are
    kept for the candidates after the first (rules.bare._run_end, rules.brackets; a
    URN's end likewise, _urn_end: "_urn:urn:-", whose NID is reserved, 0.1 MB/s). A
    scanner of hits only asked at every colon before "[" or a bad escape how far its
    run goes (0.5 MB/s for "tel:[" in lines of 7 KB, 11 times less than in lines of
    500), and at every "http:" without "//" (_no_hit_at); now where the line breaks
    and spaces are (scanner._Triggers._near_stops). The word leaps are off here: they
    pass over lines that repeat, short ones much sooner than long ones (see
    test_rejected_candidates_that_repeat_are_leapt_over)."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_WORD_MISSES", 1 << 60)
        short = _scan_time(_fill(_fill(piece, 500) + "\n", SIZE // 8))
        long = _scan_time(_fill(_fill(piece, 7000) + "\n", SIZE // 8))
    assert long / short < 3, f"lines of 7 KB took {long / short:.1f}x the time of lines of 500"


def _hits_time(text: str) -> float:
    return cpu_seconds(lambda: list(Scanner().hits([text])))


def test_a_long_text_given_whole_scales_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text given whole is scanned a slice at a time (Scanner.hits); a text with hits
    in every slice but no "<" at all once cost a search for "<" to its end in every
    slice: time quadratic in its length. Slices are made small here so that it shows
    at a test's size."""
    monkeypatch.setattr(scanner_module, "_SLICE", 4096)
    line = "See https://a.example/x for more on the topic of today's text, in prose.\n"
    small = _hits_time(_fill(line, SIZE // 2))
    large = _hits_time(_fill(line, SIZE * 4))
    assert large / small < 8 * 2, f"x8 input took {large / small:.1f}x time"


def _bracketed_time(length: int, closers: bool = False) -> float:
    """Scan 400 KB of URIs in brackets, each ``length`` long and full of balanced
    brackets (or, with *closers*, a URI the general path takes, then closers and
    punctuation to drop), with a length bound just above it."""
    half = length // 2 - 8
    if closers:
        piece = "http://a/\u00e9" + ").]" * (length // 3 - 6) + " "
    else:
        piece = "(http://a/" + "(" * half + ")" * half + " "
    text = _fill(piece, SIZE - SIZE % len(piece))
    return cpu_seconds(lambda: _scan(text, max_candidate_len=length + 16), floor=0)


def test_long_bracketed_uris_cost_linear_time() -> None:
    """Where a URI in brackets ends (Appendix E: at the first closer without its opener
    inside) is found in time linear in its length: counted from its start at every
    closer, eight times longer URIs cost eight times more per byte."""
    short, long = _bracketed_time(1024), _bracketed_time(8192)
    assert long / short < 3, f"{long:.3f}s vs {short:.3f}s"


def test_trailing_closers_cost_linear_time() -> None:
    """Trailing punctuation and unbalanced closers (Appendix E) are dropped in time
    linear in their number: a character at a time, counting brackets from the start
    at each, cost time quadratic in it."""
    short, long = _bracketed_time(1024, closers=True), _bracketed_time(8192, closers=True)
    assert long / short < 3, f"{long:.3f}s vs {short:.3f}s"


def test_masking_recurring_tags_never_costs_much() -> None:
    """The leaps mask a recurring tag once decided (scanner._angle_alarm): tags that
    recur, but each only a dozen times, must not cost much more than tags that never
    recur (which are not masked at all). A mask for every tag once cost 6x."""
    dozen = _scan_time(_fill("".join(f"<a:b{i}>" * 12 for i in range(2000)), SIZE * 4))
    distinct = _scan_time(_fill("".join(f"<a:b{i}>" for i in range(20000)), SIZE * 4))
    assert dozen / distinct < 1.5, f"{dozen:.3f}s vs {distinct:.3f}s"


def test_tags_of_one_prefix_cost_as_one_tag_repeated() -> None:
    """Tags that differ but share their prefix ("<a:b0>", "<a:b1>"…, XML of one
    namespace) are masked by that prefix (scanner._mask_prefix): no dearer than one tag
    repeated, which is masked whole. Each unmasked "<" cost three times as much."""
    same = _scan_time(_fill("<a:b>", SIZE * 4))
    distinct = _scan_time(_fill("".join(f"<a:b{i}>" for i in range(20000)), SIZE * 4))
    assert distinct / same < 2, f"{distinct:.3f}s vs {same:.3f}s"


def test_leaps_among_frequent_hits_search_what_they_pass_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Among frequent hits (here one every 96 bytes, among words no rule takes) a leap
    keeps every name its block holds, and the dense loop goes from one to the next
    without searching again (scanner._Triggers._to_alarm): far fewer leaps than hits,
    and the blocks they search add up to a small multiple of the text, not a block of
    a kilobyte per hit. Counted, not timed."""
    blocks: list[int] = []
    leap = scanner_module._Triggers._leap

    def counting(self: scanner_module._Triggers, pos: int) -> int:
        blocks.append(max(min(self.stride, self.dense_until - pos), 0))
        return leap(self, pos)

    monkeypatch.setattr(scanner_module._Triggers, "_leap", counting)
    text = _fill("ab:" * 30 + "tel:1 ", SIZE)
    hits = list(Scanner().hits([text]))
    assert len(hits) == SIZE // 96
    assert 0 < sum(blocks) < 3 * SIZE
    assert len(blocks) < len(hits) / 8, (len(blocks), len(hits))


def test_ten_megabyte_line_without_spaces(ordinary_time: float) -> None:
    text = "x" * 10_000_000
    assert _scan_time(text) / (ordinary_time * 20) < 10


def _partial_patterns() -> dict[str, object]:
    """The patterns the rules match by ``regex`` with ``partial=True`` (rules.unfinished
    and the 1993 URN's shape), each with what it matches at."""
    from urimine import rules

    cfg = rules.Config.build("default", 8192, ())
    return {
        "head": rules._LT_HEAD_PARTIAL,
        "URL: head": rules._LT_URL_HEAD_PARTIAL,
        "one line": cfg.angle_line_partial,
        "several lines": rules._angle_multiline(0, 8192),
        "several quoted lines": rules._angle_multiline(2, 8192),
        "1993 shape": rules.LEGACY_SHAPE,
    }


@pytest.mark.parametrize("name", sorted(_partial_patterns()))
@pytest.mark.parametrize("piece", ["<http://a b ", "<URN:a:b:c:d ", "<URL: x "])
def test_partial_matches_cost_what_they_read_not_the_rest_of_the_text(
    name: str, piece: str
) -> None:
    """``regex`` may look for a character its pattern needs (">", ":", a line end) from
    the position to the end of the text before matching: a pattern asked at every
    candidate would then cost the rest of the text each time (the hyphen rule's gap
    did: quadratic). The patterns asked per candidate cost the same at the start of
    a text without their character whatever its length (the hyphen gap is asked only
    where the text may end within it, rules.GAP_TO_END)."""
    pattern = _partial_patterns()[name]
    short, long = piece * 100, piece * 100_000

    def cost(text: str) -> float:
        return cpu_seconds(lambda: [pattern.match(text, 0, partial=True) for _ in range(20)], 1e-5)  # type: ignore[attr-defined]

    assert cost(long) / cost(short) < 20, f"{name}: {cost(long):.4f}s vs {cost(short):.4f}s"


def _fed(text: str, size: int) -> None:
    scanner = Scanner()
    for at in range(0, len(text), size):
        scanner.feed(text[at : at + size])
    scanner.close()


@pytest.mark.parametrize("chunk", [0, 1 << 14])
@pytest.mark.parametrize(
    "piece", ["tel:1]~ ", "mailto:a%zz\n", "HTTP://A.B[a\t", "news:+_%zz-\n", '"tel:1]~", ']
)
def test_rejected_candidates_that_repeat_are_leapt_over(piece: str, chunk: int) -> None:
    """The word leaps of a scanner of hits only (Scanner._word_leap) serve text that
    repeats words of rejected candidates: scanned with them, it costs a fraction of
    what the rules' rejection of each costs (1.5 to 2 MB/s without). Also fed in
    chunks of 16 KB, where every scan ends near the end of an unfinished buffer: no
    block fits there, and the text after it is tried at once (a try that had failed
    there waited a block's length, 64 KB, each time: the same time as without)."""
    text = _fill(piece, SIZE)

    def scan() -> None:
        if chunk:
            _fed(text, chunk)
        else:
            _scan(text)

    leaping = cpu_seconds(scan)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_WORD_MISSES", 1 << 60)
        stepping = cpu_seconds(scan)
    assert stepping / leaping > 5, f"{leaping:.3f}s with the word leaps, {stepping:.3f}s without"


# Text dense with hits costs what its hits cost: at a hit every few bytes no extractor
# in Python that reports each hit stays within 10x of ordinary text, and such text is
# held to a bound per hit instead (issue 5; docs/decisions.md, "Where the per-byte
# bound does not hold").
DENSE_HITS: dict[str, Callable[[int], str]] = {
    "short URIs and nothing else": lambda n: _fill("tel:1 ", n),
    "URIs ending in a hyphen, one line": lambda n: _fill("http://x- ", n),
    "a list of distinct URLs": lambda n: "".join(
        f"https://w{i % 97}.example.org/a/{i}/index.html?q={i}\n" for i in range(n // 45)
    ),
}
_NAIVE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>\"]+")


@pytest.mark.parametrize("name", sorted(DENSE_HITS))
def test_hits_cost_no_more_than_a_naive_parse_of_each(name: str) -> None:
    """Each hit, delimited by Appendix E's rules, validated by the RFC 3986 grammar,
    keyed by the section 6 ladder and reported with its place, costs no more than the
    least a Python extractor that parses what it finds does: a naive pattern's match,
    split by the standard library's parser (uncached, as each hit is parsed here; it
    validates next to nothing), and a tuple."""
    text = DENSE_HITS[name](SIZE)
    split = urlsplit.__wrapped__  # type: ignore[attr-defined]

    def parse_floor() -> int:
        return sum(1 for m in _NAIVE.finditer(text) if (m.start(), m.end(), split(m.group())))

    hits = sum(1 for _ in Scanner().hits([text]))
    assert hits >= parse_floor() - 1  # (every naive match is a hit here; the last may be cut)
    assert cpu_seconds(lambda: sum(1 for _ in Scanner().hits([text]))) <= cpu_seconds(parse_floor)
