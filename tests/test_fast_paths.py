"""The speed mechanisms' own contracts, beside the oracle (tests/test_equivalence.py):
the keys the shortcuts compute are dedup_key's, the algorithms that replaced stepwise
ones give the stepwise answer, the guards say each mechanism really acts, and what a
scanner remembers stays bounded."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import scan
from urimine import Hit, Scanner, Speed, dedup_key
from urimine.normalize import normalize_uri, simple_uri_key
from urimine.rules.brackets import cut_unbalanced
from urimine.rules.chains import join_breaks
from urimine.rules.config import Config
from urimine.rules.context import Context
from urimine.rules.delimit import trim
from urimine.rules.patterns import CLOSERS, OPENERS, TRAIL, URN_HEAD

# ---------------------------------------------------------------------------- keys

_HOST = st.from_regex(r"\A[A-Za-z0-9\-._~]{1,12}\Z")
_PORT = st.none() | st.from_regex(r"\A[0-9]{1,4}\Z")
_PATH = st.from_regex(r"\A(/[A-Za-z0-9\-._~!$&+,;=:@]{0,6}){0,4}\Z")
_TAIL = st.from_regex(r"\A(\?[A-Za-z0-9\-._~!$&+,;=:@/?]{0,8})?(#[A-Za-z0-9/?.]{0,8})?\Z")


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["http", "https", "ftp", "ws", "gopher", "foo"]), _HOST, _PORT, _PATH, _TAIL)
def test_simple_key_is_normalize_uri(
    scheme: str, host: str, port: str | None, path: str, tail: str
) -> None:
    uri = f"{scheme}://{host}{'' if port is None else ':' + port}{path}{tail}"
    assert simple_uri_key(scheme, host, port, path, tail) == normalize_uri(uri)


_KEY_PIECES = st.sampled_from(
    [
        *("http", "HTTPS", "ftp", "x+y", ":", "//", "/", "/./", "/../", ".", "..", "?", "#"),
        *("@", "[", "]", ":80", ":0080", "a", "B", "1", "-", "~", "%41", " ", "<", "'"),
    ]
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_KEY_PIECES, max_size=14).map("".join) | st.text(max_size=40))
def test_dedup_key_shortcut_is_normalize_uri(text: str) -> None:
    """dedup_key's shortcut (ASCII, no "%", scheme://host...) is normalize_uri (002 6.2)."""
    dedup_key.cache_clear()
    if text[:4].lower() == "urn:" or text.startswith("<"):
        return
    assert dedup_key(text) == normalize_uri(text)


_OPAQUE = st.from_regex(r"\A(tel|TEL|mailto|Mailto|news|sip|data):[A-Za-z0-9+@.=;,%]{1,12}\Z")
_URN = st.from_regex(r"\A(urn|URN):[A-Za-z0-9][A-Za-z0-9\-]{0,4}[A-Za-z0-9]:[A-Za-z0-9.:@=]{1,9}\Z")


@settings(max_examples=500, deadline=None)
@given(_OPAQUE | _URN | st.builds("{}://{}{}".format, st.just("HTTP"), _HOST, _PATH))
def test_the_keys_the_shortcut_gives_are_dedup_keys(uri: str) -> None:
    """Where the shortcut takes a URI or a URN whole it gives its key itself: the one
    dedup_key gives (RFC 3986 6.2.2; seed 003 5)."""
    scanner = Scanner()
    found = [h for h in scanner.hits([f"see {uri} here"]) if h.raw == uri]
    for hit in found:
        assert hit.key == dedup_key(hit.uri)


@pytest.mark.parametrize(
    "text",
    [
        *("tel::x ", "tel:/x ", "tel:?x ", "tel:#x ", "mailto:a@b-\nc ", "mailto:a@b.example. "),
        *("sip:a@b) (sip:c@d) ", "news:x%41%7e ", "news:x%zz ", "TEL:+1;ext=2 ", "tel:1'2 "),
        *("tel:1*2 ", "e.g.tel:1 ", "URL:tel:1 ", '"tel:1" ', "data:text/plain;base64,SGk= "),
        *("http:x ", "urn:isbn:1 ", "urn:urn:x ", "URN:A-B:x- y", "urn:ab:c.d. ", "urn:ab:c) "),
        *("urn:ab:c\\x", "(urn:ab:(c)) ", "urn:ab:c-\nd ", "'urn:ab:c' ", "urn:ab:%41 "),
    ],
)
def test_shortcut_edges(text: str) -> None:
    """The shortcuts' edges: what they must leave to the general path, and what they may
    take with the same answer."""
    for before in ("", "see ", "\n> ", "<"):
        full = before + text + "and more"
        plain = scan([full], rejections=True, speed=Speed.none())
        assert scan([full], rejections=True) == plain


def test_the_shortcuts_are_taken() -> None:
    """Guard for the oracle: the common cases really take the shortcuts."""
    scanner = Scanner()
    text = (
        "see http://example.org/a/b?c=d#e. and HTTP://x.example:8080 ok, mailto:a@b.example,"
        " tel:+1-555-0100. <http://a.example/> urn:isbn:0451450523.\n"
    )
    found = list(scanner.hits([text]))
    assert [h.raw for h in found] == [
        "http://example.org/a/b?c=d#e",
        "HTTP://x.example:8080",
        "mailto:a@b.example",
        "tel:+1-555-0100",
        "<http://a.example/>",
        "urn:isbn:0451450523",
    ]
    assert scanner.stats.shortcut_hits == len(found)
    plain = Scanner(speed=Speed.none())
    assert list(plain.hits([text])) == found
    assert plain.stats.shortcut_hits == 0


# ---------------------------------------------------------------------------- algorithms


def _trim_stepwise(uri: str, min_len: int, before: str) -> str:
    """Trailing punctuation and unbalanced closers dropped (seed 002 Appendix E) as the
    rule was first written: a character at a time, counting from the start at each."""
    n = len(uri)
    while n > min_len:
        c = uri[n - 1]
        if c == "'" and uri.count("'", 0, n) % 2 == 0:
            break
        if c in TRAIL:
            n -= 1
        elif c in CLOSERS:
            if uri.count(CLOSERS[c], 0, n) < uri.count(c, 0, n):
                n -= 1
            else:
                break
        elif c in "*_" and before == c:
            n -= 1
        else:
            break
    return uri[:n]


@settings(max_examples=3000, deadline=None)
@given(
    st.text(st.sampled_from("ab.,;:!?'\"()[]{}*_"), max_size=24),
    st.integers(0, 6),
    st.sampled_from(["", "(", "[", "*", "_", "'", "x"]),
)
@example("]!\"?._([a])]'.", 4, "_")  # a closer's count kept for one not yet met
@example('_!}"[b}{;:["b,]?', 5, "_")  # a closer with more openers than closers
def test_trim_by_runs_drops_as_character_by_character(uri: str, min_len: int, before: str) -> None:
    """trim drops runs at a time, counting brackets and quotes once: the same end as a
    character at a time."""
    assert trim(uri, min_len, before) == _trim_stepwise(uri, min_len, before)


def _first_unbalanced(uri: str, opener: str, closer: str) -> str:
    """Seed 002 Appendix E one character at a time: a URI after an opener ends at the
    first closer without its opener inside it."""
    depth = 0
    for k, c in enumerate(uri):
        depth += (c == opener) - (c == closer)
        if depth < 0:
            return uri[:k]
    return uri


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(["(", ")", "[", "]", "{", "}", "a", "tel:1", "(a)", "[a]"])).map(
        "".join
    ),
    st.sampled_from(list(OPENERS.items())),
    st.randoms(use_true_random=False),
    st.sampled_from([1, 2, 16]),
)
@example("[a][a][a]]", ("[", "]"), random.Random(0), 1)
def test_bracket_levels_end_each_tail_at_its_first_unbalanced_closer(
    text: str, pair: tuple[str, str], order: random.Random, counted: int
) -> None:
    """The levels of a run, kept and read by tails of it in any order and by texts that
    are not tails, give each the end the rule gives it."""
    opener, closer = pair
    ctx = Context(Config.build("default", 8192, ()), Speed().tuned(brackets_counted=counted))
    tails = [text[k:] for k in range(len(text) + 1)] + [text[: len(text) // 2]]
    order.shuffle(tails)
    for tail in tails:
        assert cut_unbalanced(ctx, tail, opener, closer) == _first_unbalanced(tail, opener, closer)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["b", "b-", "-", "\n", "\r\n", " ", "\t", "x.y", "%41"]), max_size=30
    ).map("".join),
    st.sampled_from(["", "> ", ">> "]),
)
@example("\nb-\nb-\nb", "")  # bare line ends only: str.replace
@example("\nb-\r\nb- \nb", "> ")
def test_join_breaks_cuts_every_break_of_a_chain(rest: str, quote: str) -> None:
    """join_breaks on a hyphen chain: the pieces joined, or each without the hyphen
    before its break (the other reading), as a line-by-line join finds them."""
    first = "http://a.example/x-"
    lines = [first, *[line for line in (quote + rest).split("\n")]]
    pieces = [first]
    for line in lines[1:]:
        if not pieces[-1].endswith("-"):
            break
        body = line.removeprefix(quote).lstrip(" \t").rstrip("\r \t")
        if not body or " " in body or "\t" in body:
            break
        pieces.append(body)
    if len(pieces) < 2:
        return
    chain = "\n".join([pieces[0], *(quote + p for p in pieces[1:])])
    depth = quote.count(">")
    assert join_breaks(chain, depth, False) == "".join(pieces)
    assert join_breaks(chain, depth, True) == "".join(p[:-1] for p in pieces[:-1]) + pieces[-1]


def _nid_colon_end(text: str, start: int) -> int | None:
    """Where seed 003 2.1's NID and its colon end, read at *start* by hand."""
    end = start
    while end < len(text) and end - start < 33 and (text[end].isalnum() or text[end] == "-"):
        end += 1
    run = text[start:end]
    if not (2 <= len(run) <= 32 and run.isascii() and end < len(text) and text[end] == ":"):
        return None
    return end + 1 if run[0] != "-" and run[-1] != "-" else None


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="aZ9-:", max_size=40))
@example("a" * 32 + ":")
@example("a" * 33 + ":")
@example("a" * 31 + "-:")
def test_a_urn_head_is_seed_003s_nid_and_colon(rest: str) -> None:
    """The head of a URN in text ("urn:", the NID, its colon) ends where seed 003 2.1's
    NID does: at most 32 letters, digits and hyphens, neither first nor last a hyphen."""
    head = URN_HEAD.match("urn:" + rest)
    assert (head.end() if head else None) == _nid_colon_end("urn:" + rest, 4)


# ---------------------------------------------------------------------------- guards


def test_dense_text_is_searched_in_stretches() -> None:
    """Guard: text dense with colons and markup no rule takes starts dense stretches,
    and they change nothing."""
    text = ("ab:cd:" * 40 + "<o:p>x</o:p>" * 20 + " tel:1 ") * 50
    scanner = Scanner(speed=Speed().without("word_leaps"))
    found = list(scanner.hits([text]))
    assert scanner.stats.dense_stretches > 0
    assert found == list(Scanner(speed=Speed.none()).hits([text]))
    assert len(found) == 50


def test_words_met_before_are_not_decided_again() -> None:
    """Text that repeats a few rejected candidates is leapt over a block at a time: each
    distinct word is decided alone once, and a word with a hit, met again, gives its
    hits from what was found in it alone (at its place: offsets, line and column)."""
    text = (
        "tel:1]~ mailto:. HTTP://A.B[a\n" * 20_000
        + "see tel:+1-555-0100 "
        + "tel:;\t" * 30_000
        + "\n(tel:+1-555-0100), tel:;\n" * 5000
    )
    scanner = Scanner()
    hits = list(scanner.hits([text]))
    assert [hit for hit in hits if hit.uri != "tel:+1-555-0100"] == []
    assert len(hits) == 5001
    assert hits == [item for item in scan([text], rejections=True) if isinstance(item, Hit)]
    assert scanner.stats.word_blocks > 10
    assert 5 <= scanner.stats.words_decided <= 10


def test_words_remembered_are_bounded() -> None:
    """The words the word leaps remember are forgotten at once when they would hold more
    than ``Tuning.word_kept`` characters: text whose words keep changing does not make
    the scanner grow."""
    text = "".join(
        # (a stray "%": "sip:#[0]" is a URI by the web-chars rule, issue 30 item 1)
        f"HTTP://A.B[{k} sip:#%[{k}] file::{k}\n" * (8192 // (30 + 3 * len(str(k))))
        for k in range(300)
    )
    bounded = Scanner(speed=Speed().tuned(word_kept=2000))
    assert list(bounded.hits([text])) == []
    assert bounded.stats.words_decided > 300
    assert bounded.stats.words_forgotten >= 4  # some 13 KB of words, kept 2 KB at most
    roomy = Scanner()
    assert list(roomy.hits([text])) == []
    assert roomy.stats.words_forgotten < bounded.stats.words_forgotten


def test_speed_switches_are_named_and_frozen() -> None:
    names = Speed.names()
    assert names == (
        "shortcut",
        "angle_shortcut",
        "scheme_guess",
        "kept",
        "dense",
        "hits_only",
        "word_leaps",
    )
    assert not any(getattr(Speed.none(), name) for name in names)
    assert all(getattr(Speed.all(), name) for name in names)
    assert Speed.all().without("dense").dense is False
    assert Speed().tuned(slice=7).tuning.slice == 7
    with pytest.raises(AttributeError):
        Speed().dense = False  # type: ignore[misc]
