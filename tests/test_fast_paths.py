"""The scanner's shortcuts are optimisations only: with them switched off (every
candidate taking the general rule-by-rule path), the output is the same, field by field.

The shortcuts are the one-match bare URIs of :mod:`urimine.rules.bare` (``_FAST``:
"scheme://..." with its precomputed dedup key, :func:`urimine.normalize.simple_uri_key`,
and opaque ones, "mailto:a@b.example"), the plain
``<scheme:...>`` of :mod:`urimine.rules.angle` (``_plain``), and the scanner's leaps over
dense text whose colons follow no registered name (``scanner._Triggers._leap``). So are
what the rules keep for the candidates after one (remembered decisions, hyphen chains,
run ends, bracket levels) and the dense prefilter of a scanner of hits only where runs
are known to end within the bound.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from helpers import scan
from urimine import Hit, Scanner
from urimine import rules as rules_module
from urimine import scanner as scanner_module
from urimine.normalize import dedup_key, normalize_uri, simple_uri_key
from urimine.rules import angle, bare, brackets, chains
from urimine.schemes import AUTHORITY_SCHEMES
from urimine.urn import check_urn

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "corpora"
_NEVER = re.compile(r"(?!)")


def _both(text: str, monkeypatch: pytest.MonkeyPatch, **options: object) -> tuple[list, list]:
    fast = scan([text], rejections=True, **options)
    with monkeypatch.context() as m:
        m.setattr(bare, "_FAST", _NEVER)
        m.setattr(angle, "_plain", lambda *args: None)
        general = scan([text], rejections=True, **options)
    return fast, general


# Pieces that sit on the edges of the shortcut: what may stand before a scheme, the
# characters its grammar leaves out, trailing punctuation, hyphens at line ends, ports.
PIECES = st.sampled_from(
    [
        "http://",
        "https://",
        "ftp://",
        "HTTP://",
        "file://",
        "mailto:",
        "tel:",
        "news:",
        "sip:",
        "TEL:",
        "+1",
        "=",
        "urn:isbn:1",
        "URL:",
        "url: ",
        "e.g.",
        "a.example",
        "EXAMPLE.org",
        "/",
        "/./",
        "/../",
        "/.",
        "?",
        "#",
        "&x=1",
        "%41",
        "%7e",
        "%zz",
        "%",
        ":80",
        ":8080",
        ":0080",
        ":99999",
        ":",
        "@",
        "user@",
        ".",
        ",",
        ";",
        "!",
        "-",
        "-\n",
        "_",
        "*",
        "~",
        "'",
        '"',
        "(",
        ")",
        "[",
        "]",
        "<",
        ">",
        "|",
        "\\",
        "^",
        "`",
        "{",
        "}",
        "\n> ",
        " ",
        "\t",
        "\n",
        "\u00e9",
        "\u3002",
        "x",
        "1",
        "<http://a.example/p>",
        "<mailto:a@b.example>",
        "<urn:isbn:1>",
        # Angle candidates the shortcut rejects (a bad IP literal, escape, port).
        "<http://[x]>",
        "<tel:%>",
        "<mailto:%zz>",
        "<http://a:99999999>",
        "<URL:",
        "<xs:e>",
        "< ",
    ]
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=30).map("".join))
# A URI ending in "-": the shortcut takes it where no line break follows.
@example("see http://x- y, http://x/a-- z tel:1- w")
@example("http://x- \ny http://x-\t\nz http://x-\u3000y http://x- \u00a0y http://x- ")
@example("http://x/?a- y http://x/#b- y http://x-. y mailto:a@b- c")
# A stop character that is no white space right after the URI: no line break follows.
@example('see http://x.org/a> data:12-> http://x-" tel:1-|y http://x/a.> http://x-\\ x')
@example("http://x-<http://y-> (http://x/a)> http://x/a,}")
# The key the shortcut gives as written where the URI is in normal form already, and
# computes where the scheme or host is not lower case, a port or dot segment stands.
@example(
    "HTTP://x/ http://EXAMPLE.org/a Http://a.example/ http://1.2.3/ http://x:80/ http://x/./a "
)
def test_shortcut_changes_nothing_on_generated_text(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, general = _both(text, monkeypatch)
        assert fast == general
        fast, general = _both(text, monkeypatch, rules="lenient")
        assert fast == general


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        PIECES | st.sampled_from(["(", "[", "{", "*", "_", ")", "]", "}", "'"]), max_size=20
    ).map("".join),
    st.sampled_from(["", " ", "(", "*", "_", "\n", "<"]),
)
@example("http://[x] ", "<")  # rejected, by the angle rule and the colon rule
@example("(http://x/a) *http://x/b* _tel:1_ ", " ")  # closers and emphasis dropped
@example("tel:1* *tel:1* tel:1_ _tel:1_ http://x/a)b (http://x/a)b ", "")  # kept or not
def test_remembered_colon_decisions_change_nothing(text: str, glue: str) -> None:
    """The colon rule's decisions remembered by the run and the character before it
    (rules.Config.delimited) are those it makes afresh: the text is repeated, so the
    copies after the first are decided from memory, after every character that may
    stand before a run."""
    text = glue.join([text] * 3)
    remembered = scan([text], rejections=True)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bare, "_DELIMITED_LEN", -1)  # every run decided afresh
        afresh = scan([text], rejections=True)
    assert remembered == afresh
    assert scan([text]) == [hit for hit in afresh if isinstance(hit, Hit)]


_NO_GUESS = ("-" * 65, "")  # longer than a scheme: never stands before a colon


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([("http", "http"), ("HTTP", "http"), ("https", "https"), ("ftp", "ftp")]),
    st.lists(
        PIECES | st.sampled_from(["xhttp", "1http", ".http", "-ftp", "+https"]), max_size=30
    ).map("".join),
)
@example(("http", "http"), "http://a/http://b/ e.g.http://c xhttp://d")
def test_scheme_guess_changes_nothing(guess: tuple[str, str], text: str) -> None:
    """The colon rule's guess of the scheme (the last one it looked up, see
    rules.Config.recent) gives what the search gives, wherever it holds or not."""
    config = rules_module.Config.build("default", 8192, ())
    original = scanner_module.at_colon

    def searching(cfg: rules_module.Config, *args: object) -> object:
        cfg.recent[0] = _NO_GUESS
        return original(cfg, *args)  # type: ignore[arg-type]

    config.recent[0] = guess
    guessed = scan([text], rejections=True)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "at_colon", searching)
        searched = scan([text], rejections=True)
    assert guessed == searched


@pytest.mark.parametrize(
    "text",
    [
        "tel::x ",  # a C++ scope, not a URI
        "tel:/x ",  # scheme:/path without authority
        "tel:?x ",  # an empty path
        "tel:#x ",
        "mailto:a@b-\nc ",  # the hyphen at a line break
        "mailto:a@b.example. ",
        "sip:a@b) (sip:c@d) ",
        "news:x%41%7e ",
        "news:x%zz ",
        "TEL:+1;ext=2 ",
        "tel:1'2 ",
        "tel:1*2 ",
        "e.g.tel:1 ",
        "URL:tel:1 ",
        '"tel:1" ',
        "data:text/plain;base64,SGk= ",
        "http:x ",  # needs //: never the opaque shortcut
        "urn:isbn:1 ",
    ],
)
def test_opaque_shortcut_edges(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The opaque shortcut's edges: what it must leave to the general path, and what it
    may take with the same answer."""
    for context in ("", "see ", "\n> "):
        fast, general = _both(context + text + "and more", monkeypatch)
        assert fast == general


def _corpus_slices() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "corpora" / "rfc").glob("*.txt")):
        yield path.name, path.read_text("utf-8", errors="replace")
    for name in ("docs/gutenberg-newsletters.txt.gz", "mail/usrp-users.mbox.gz"):
        path = SHARED / name
        if path.exists():
            with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
                yield name, f.read(3_000_000)


@pytest.mark.parametrize("name,text", list(_corpus_slices()), ids=lambda v: str(v)[:40])
def test_shortcut_changes_nothing_on_real_text(
    name: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, general = _both(text, monkeypatch)
    assert fast == general


@contextmanager
def _counted(owner: object, name: str) -> Iterator[list[int]]:
    """``owner.name`` replaced by a wrapper that counts its calls (in the list yielded)."""
    calls = [0]
    original = getattr(owner, name)

    def counting(*args: object) -> object:
        calls[0] += 1
        return original(*args)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(owner, name, counting)
        yield calls


def test_shortcut_is_taken() -> None:
    """Guard for the tests above: the common case really takes the shortcut."""
    scanner = Scanner()
    with _counted(bare, "_bare_uri") as calls:
        found = scanner.feed("see http://example.org/a/b?c=d#e. and HTTP://x.example:8080 ok\n")
        found += scanner.close()
    assert [h.raw for h in found] == ["http://example.org/a/b?c=d#e", "HTTP://x.example:8080"]
    assert calls == [0]
    with _counted(bare, "_bare_uri") as calls:
        found = Scanner().feed("mail mailto:a@b.example, or tel:+1-555-0100. ok\n")
    assert [h.uri for h in found] == ["mailto:a@b.example", "tel:+1-555-0100"]
    assert calls == [0]


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


_ASCII_PIECES = st.sampled_from(
    [
        "http",
        "HTTPS",
        "ftp",
        "x+y",
        ":",
        "//",
        "/",
        "/./",
        "/../",
        ".",
        "..",
        "?",
        "#",
        "@",
        "[",
        "]",
        ":80",
        ":0080",
        ":",
        "a",
        "B",
        "1",
        "-",
        "~",
        "%41",
        " ",
        "<",
        "'",
    ]
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_ASCII_PIECES, max_size=14).map("".join) | st.text(max_size=40))
def test_dedup_key_shortcut_is_normalize_uri(text: str) -> None:
    """dedup_key's shortcut (ASCII, no "%", scheme://host...) is normalize_uri (002 6.2)."""
    dedup_key.cache_clear()
    if text[:4].lower() == "urn:" or text.startswith("<"):
        return
    assert dedup_key(text) == normalize_uri(text)


# Pieces of text dense with colons: words no rule takes, registered names (alone, as a
# suffix after "-" or a digit, after a letter, after U+212A which str.lower() turns into
# "k"), dotted words, long words, "<", non-ASCII letters, real URIs and URNs.
_DENSE_PIECES = st.sampled_from(
    [
        "ab:",
        "Ab:",
        "ab1:",
        "a:",
        "http:",
        "x-http:",
        "x1-http:",
        "1-http:",
        "-http:",
        "1http:",
        "xhttp:",
        "\u212ahttp:",
        "\u0130tel:",
        "a.b:",
        ".http:",
        "a" * 70 + "-http:",
        "a" * 62 + "-tel:",
        "a" * 63 + "-tel:",
        "tel:1 ",
        "urn:x:y ",
        # What a URI may not hold right after its colon (a scanner of hits only passes
        # over such a colon), and what it may.
        "mailto:%zz ",
        "tel:[x] ",
        "http:]",
        "tel:%4",
        "mailto:%41 ",
        "tel:%",
        "<",
        "<http://a.example/>",
        "http://b.example/ ",
        "\u00e9",
        " ",
        "\n",
        ":",
        "//",
        "ab://",
        "http:x ",
        "x-https:y",
        "ftp:",
        "a" * 70 + ":",
        "<http://",
        "http://<",
        "<td:l;\n> x\t\n> ",
        "<tel:l;\n> x\t\n> ",
        "tel:\u3000",
        "E.g.http:",
        "urn:a:",
        "URN:ab:",
        "urn:ab: ",
        "urn:ab:c ",
        "urn:-a:",
        "urn:a-",
        "<URN:a:b:",
        "<URN:ASCII:IANA:x:1>",
        "<URN::a:b:c\\:<\\>\\:d>",
        # "<urn:" where a hit may stand or not (a scanner of hits only passes over
        # the latter): NIDs and 1993 encodings, good and bad, white space and quote
        # markers inside, cut by the end of the text searched.
        "<URN:a:b:c:d>",
        "<urn:a:b>",
        "<urn:-a:b>",
        "<urn:ab:c>",
        "<urn:a\n b:c>",
        "<urn:a\n> b:c>",
        "<urn:\u3000ab:c>",
        "<URL:urn:a",
        "< urn:i",
        "<URN:asc",
        "<URN:ascii:a:b:c>",
        "<urn:a",
        "<urn:a:b:c:d:e>",
        "<URN::IANA:x:" + "y" * 300 + "<y>",  # a raw "<", longer than the look-ahead
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(_DENSE_PIECES, st.integers(1, 120)), min_size=1, max_size=12),
    st.sampled_from([4, 64, 1024]),
    st.sampled_from([256, 4096, 1 << 16]),
    st.integers(1, 5000),
    st.sampled_from([1, 16, 128]),
)
@example(  # a too-long "http:..." ends the scan up to white space: not leapt over
    runs=[("ab:", 45), ("a" * 70 + "-http:", 110), ("\u0130tel:", 11)],
    leap_min=4,
    span=256,
    cut=1,
    leap_floor=128,
)
@example(  # a word passed over runs past the stretch's end: no leap from after it
    runs=[
        (
            "y:b:l:x:b:b:b:o:b:l:a:x:x:b:p:b:b:b:b:b:b:b:o:y:p:a:b:p:a:l:b:y:Main.java:ab"
            "le/  ab:Main.java:x.y:tel:x http://a.example/ <foo:1> http://a.example/ x.y:"
            "<foo:1>tel:x ab:tel:x tel:x ab:<foo:1><foo:1>x.y:ab:ab:ab:ab:x.y:ab:aaaaaaaa"
            "aMain.java: ab:ab:ab:x.y: ab:ab:ab:tel:x aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaMain."
            "java:aaaaaaaaaax.y::<o:1>/a.example/ x.y:ab:ab:http://a.example/ ab:   x.y:M"
            "ain.java:ab:Main.java:ab:<foo:1>ab:http://a.example/ x.y:ab:tel:x <foo:1>Mai"
            "n.java: Main.java:http://a.example/ x.y:tel:x http://a.example/  ab:ab:tel:x"
            " ab:x.y:http://a.example/ Main.java: x.y:ab:tel:x",
            1,
        )
    ],
    leap_min=4,
    span=256,
    cut=581,
    leap_floor=128,
)
@example(  # a reserved NID whose run is too long, a "urn:" after which none may stand
    runs=[("ab:", 45), ("urn:urn:", 1), ("a", 8200), ("/http://x.example/ ", 1), ("ab:", 45)],
    leap_min=64,
    span=1 << 16,
    cut=1,
    leap_floor=1,
)
@pytest.mark.parametrize("rejections", [True, False])
def test_leaps_change_nothing(
    rejections: bool,
    runs: list[tuple[str, int]],
    leap_min: int,
    span: int,
    cut: int,
    leap_floor: int,
) -> None:
    """Dense text gives the same hits and rejections with and without the leaps, for
    any first block size, least block after a stopped leap, dense stretch length (a
    leap to a stretch's end lengthens it) and wherever a chunk ends; and the same hits
    for a scanner of hits only, which passes over more."""
    text = "".join(piece * count for piece, count in runs)
    chunks = [text[:cut], text[cut:]]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_LEAP_MIN", leap_min)
        m.setattr(scanner_module, "_LEAP_SHORT", leap_min // 4)
        m.setattr(scanner_module, "_LEAP_FLOOR", leap_floor)
        m.setattr(scanner_module, "_DENSE_SPAN", span)
        leaping = scan(chunks, rejections=rejections)
        m.setattr(scanner_module._Triggers, "_leap", lambda self, pos: pos)
        stepping = scan(chunks, rejections=rejections)
    assert leaping == stepping


def test_a_1993_urn_past_a_leap_s_block_end_is_found() -> None:
    """A 1993 URN may hold a raw "<" (seed 000 3.3), so the prefilters take "<URN:" on
    its shape (rules._LEGACY_AHEAD), not on a ">" before the next "<". Where a leap's
    block and its look-ahead end inside one, the end of the text searched must count
    as more of it to come. (No NID follows "URN:" here, so its colon raises no alarm
    of its own.)"""
    urn = "<URN::IANA:x:" + "y" * 300 + "<" + "y" * 300 + ">"
    lost = []
    for n in range(300, 3000, 7):
        text = "ab:" * n + urn + " " + "ab:" * 400
        if [hit.uri for hit in Scanner().hits([text])] != [urn]:
            lost.append(n)
    assert not lost


def test_a_leap_from_past_the_stretch_end_goes_nowhere() -> None:
    """A word the dense loop passes over may run past the end of its dense stretch
    ("Main.java:" across it); a leap from after it has no block and stays where it is.
    (A fuzz run found such a leap: its block of negative size reached far ahead, and
    the hits in between were lost.)"""
    text = "ab:" * 11 + "Main.java:" + "ab:" * 10 + "http://a.example/ <foo:1> " + "ab:" * 80
    cfg = Scanner()._cfg
    pos = text.index("Main.java:") + len("Main.java:")
    for dense_until in range(pos - 40, pos + 1):
        finder = scanner_module._Triggers(text, 0, True, cfg.schemes, cfg.scheme_words)
        finder.dense_until = dense_until
        assert finder._leap(pos) == pos


def test_a_leap_that_moves_the_stretch_end_widens_the_next_search() -> None:
    """The dense loop's probe leaps from the last colon before it; a leap that reaches
    the stretch's end moves that end on. The search after it then looks as far past
    the new end as the prefilter needs: with the window of the old end, a colon just
    before that window's end was cut from what must follow it and passed over (a fuzz
    run lost a rejection so)."""
    dense_until = 1000
    colon = dense_until + rules_module.DENSE_LOOKAHEAD - 1  # the old window's last character
    text = "a:" * 256 + "x" * (colon - 4 - 512) + " tel:x " + "x" * 2000
    assert text[colon] == ":"
    cfg = Scanner()._cfg
    finder = scanner_module._Triggers(text, 0, True, cfg.schemes, cfg.scheme_words)
    finder.dense_until = dense_until
    finder.stride = 1 << 16
    assert finder._dense(0)[0] == colon
    assert finder.dense_until > dense_until  # (the leap did move the end on)


def test_a_leap_block_ending_inside_an_angle_candidate_stops_before_it() -> None:
    """Wherever a leap's block ends in ``<tel:l;`` (a candidate over two lines), the leap
    stops before the ``<``: the end of a block stands for more text (a fuzz run found a
    block ending right after ``<td:`` leapt over, when an unregistered scheme could
    still span lines)."""
    text = "ab:" * 40 + "<tel:l;\n> x\t\n> " + "ab:" * 40
    lt = text.index("<")
    cfg = Scanner()._cfg
    for stop in range(lt + 1, lt + 8):
        finder = scanner_module._Triggers(text, 0, True, cfg.schemes, cfg.scheme_words)
        finder.dense_until = len(text)
        finder.stride = stop - 3
        assert finder._leap(3) <= lt, stop


@pytest.mark.parametrize(
    "text,hit",
    [
        # Seed 003 2.1: an NID starts with a letter or digit, then one of those or "-".
        ("<urn:isbn:0451450523>", True),
        ("<URN:ab:c>", True),
        ("<urn:a-b:c>", True),
        ("<urn:a:b:c:d>", False),
        ("<urn:-a:b>", False),
        ("<urn::b>", True),  # no NID, but a 1993 URN's empty encoding: its rule decides
        # The angle rule drops white space and quote markers inside the brackets.
        ("<urn:a\n  b:c>", True),
        ("<urn:a\n> b:c>", True),
        ("<urn:\u3000ab:c>", True),
        ("< URL: urn:ab:c>", True),
        # Seed 000 3.3.2: a 1993 URN's encoding is empty or "ascii".
        ("<URN::IANA:x:1>", True),
        ("<URN:ASCII:IANA:x:1>", True),
        ("<URN:a:b:c:d>", False),
        ("<URN:asc:b:c:d>", True),  # no 1993 URN, but a modern one (NID "asc")
        # The end of the text searched may cut what decides: then it matches.
        ("<urn:a", True),
        ("<URN:asc", True),
        ("<urn:", True),
    ],
)
def test_hits_only_prefilters_pass_over_urns_no_rule_can_take(text: str, hit: bool) -> None:
    """A scanner of hits only gives "<urn:" to the rules only where a URN may stand; one
    that reports rejections, always (both rules reject the others)."""
    cfg = rules_module.Config.build("default", 8192, ())
    lowered = text.encode("ascii", "replace").lower()
    assert cfg.scheme_words.dense.match(text)
    assert cfg.scheme_words.angle.match(lowered)
    assert bool(cfg.nid_words.dense.match(text)) is hit
    for words in (cfg.nid_words, cfg.hit_words):
        assert bool(words.angle.match(lowered)) is hit
    if not hit:
        assert scan([text + " x"]) == []


@pytest.mark.parametrize(
    "text,hit",
    [
        # A URI may hold "/", "?", "#" or a pchar right after its scheme's colon (seed
        # 002 3), an escape only with two hex digits, never "[" or "]"; after "//[" what
        # an IP literal starts with (3.2.2: IPv6 or IPvFuture).
        ("mailto:a@b.example", True),
        ("mailto:%41", True),
        ("mailto:%4", True),  # cut by the end of the text searched
        ("mailto:%", True),
        ("http://[::1]/", True),
        ("http://[2001:db8::1]/", True),
        ("http://[Ab::1]/", True),
        ("http://[v7.x]/", True),
        ("http://[V7.x]/", True),
        ("http://[", True),  # cut by the end of the text searched
        ("http://[x]/", False),
        ("http://[-", False),
        ("http://[]", False),
        ("http://[[::1]]", False),
        ("tel:?x", True),
        ("mailto:\u00e9", True),
        ("mailto:%zz", False),
        ("mailto:%4z", False),
        ("tel:[x]", False),
        ("tel:]", False),
    ],
)
def test_hits_only_prefilter_passes_over_colons_before_what_no_uri_holds(
    text: str, hit: bool
) -> None:
    """A scanner of hits only gives a scheme's colon to the rules only before what a URI
    may hold there (the colon rule would cut the URI to nothing there), where its run
    ends soon (see the next test); one that reports rejections, always."""
    cfg = rules_module.Config.build("default", 8192, ())
    assert cfg.scheme_words.dense.search(text)
    # (Those it passes over, before white space: where the text searched ends, the run
    # may go on past the length bound.)
    assert bool(cfg.nid_words.dense.search(text if hit else text + " ")) is hit
    if not hit:
        assert scan([text + " x"]) == []


@pytest.mark.parametrize(
    ("text", "passed_over"),
    [
        ("<http://[x]> ", True),
        ("<HTTP://[?]> ", True),
        ("<http://[\u00e9]> ", True),
        ("<foo://[x]> ", True),
        ("<URL: http://[y]> ", True),
        ("<http://[::1]/> ", False),
        ("<http://[A::1]/> ", False),
        ("<http://[v1.x]/> ", False),
        ("<http://[\n::1]/> ", False),  # white space in brackets is dropped (App. E)
        ("<http://[ ::1]/> ", False),
        ("<http://[\u3000::1]/> ", False),
        # Right after the colon: "[", "]", "%" without two hex digits (3.3, 2.1).
        ("<tel:[x]> ", True),
        ("<tel:]> ", True),
        ("<mailto:%zz> ", True),
        ("<mailto:%4z> ", True),
        ("<mailto:%> ", True),
        ("<mailto:%41> ", False),
        ("<mailto:%4\n1> ", False),
        ("<mailto:% 41> ", False),
        ("<tel:\n[x]> ", False),
    ],
)
def test_hits_only_prefilter_passes_over_a_bracket_with_no_uri_after_its_colon(
    text: str, passed_over: bool
) -> None:
    """A host that starts with "[" is an IP literal, which starts with a hex digit, ":"
    or "v" (RFC 3986 3.2.2), a path holds no "[" nor "]" (3.3), "%" comes before two
    hex digits (2.1): after the colon, then "//[" and anything else, or such a "[",
    "]" or "%", white space aside, the angle rule can only reject, without consuming
    it, and a scanner of hits only passes over the "<" (and the colon) in C, in its
    dense loop and its leaps (but where they cannot tell what a character not ASCII
    is); one that reports rejections does not."""
    cfg = rules_module.Config.build("default", 8192, ())
    assert cfg.scheme_words.dense.search(text).start() == 0  # type: ignore[union-attr]
    lowered = text.encode("ascii", "replace").lower()
    assert cfg.scheme_words.angle.search(lowered).start() == 0  # type: ignore[union-attr]
    for words in (cfg.nid_words, cfg.hit_words):
        for prefilter in (words.dense, words.dense_near):
            m = prefilter.search(text)
            assert (m is None) is passed_over, prefilter
        # (In the leaps' text "?" stands for any character not ASCII, white space too.)
        leapt = passed_over and b"[?" not in lowered
        assert (words.angle.search(lowered) is None) is leapt
    everything = scan([text * 40], rejections=True)
    assert scan([text * 40]) == [hit for hit in everything if isinstance(hit, Hit)]


@pytest.mark.parametrize(
    "text",
    [
        "<URN::ISBN_Publisher_ID:\n 0_201_12:xyzx\\:mnopq> ",
        "<URN:ASCII:IANA:merit.edu:19\n   29642> ",
        "<URN::80:x:x /> ",
    ],
)
def test_prefilters_stop_at_a_1993_urn_wrapped_in_its_brackets(text: str) -> None:
    """The angle rule reads a 1993 URN wrapped in its brackets, its white space removed
    (Appendix E): every prefilter stops at its "<", those of a scanner of hits only
    too, in the dense loop and in the leaps (they passed over one with an empty
    encoding, where no NID starts, and found fewer hits than a scan that reports
    rejections: tests/fuzz_hostile.py 2101020 1)."""
    cfg = rules_module.Config.build("default", 8192, ())
    lowered = text.encode("ascii", "replace").lower()
    for words in (cfg.scheme_words, cfg.nid_words, cfg.hit_words):
        near = [words.dense_near] if words is not cfg.scheme_words else []
        for prefilter in (words.dense, *near):
            assert prefilter.search(text).start() == 0, prefilter  # type: ignore[union-attr]
        assert words.angle.search(lowered).start() == 0  # type: ignore[union-attr]
    everything = scan([text * 40], rejections=True)
    hits = [hit for hit in everything if isinstance(hit, Hit)]
    assert [hit.kind for hit in hits] == ["urn-legacy"] * 40
    assert scan([text * 40]) == hits


@pytest.mark.parametrize("max_len", [16, 100, 8192])
@pytest.mark.parametrize("colon", ["tel:[x", "tel:]", "mailto:%zz", "mailto:%4z"])
def test_hits_only_prefilter_gives_the_rules_a_colon_whose_run_may_be_too_long(
    colon: str, max_len: int
) -> None:
    """A colon before what no URI holds, whose run of URI characters reaches the length
    bound: the rule rejects it as too long and goes on after the next white space,
    past a URI inside the run, so a scanner of hits only must not pass over it (it
    did, and found that URI) in dense text, nor a short one (passed over as before)."""
    cfg = rules_module.Config.build("default", max_len, ())
    dense = "x:x " * 100  # fruitless colons: the dense loop's prefilter takes over
    long_run = colon + "a/" * (max_len // 2) + "http://x.example/ y"
    short_run = colon + " http://x.example/ y"
    for text in (dense + long_run, dense + short_run):
        everything = scan([text], rejections=True, max_candidate_len=max_len)
        assert scan([text], max_candidate_len=max_len) == [
            hit for hit in everything if isinstance(hit, Hit)
        ]
    if max_len - 66 >= len(short_run):
        assert not cfg.nid_words.dense.search(short_run[: short_run.index(" ") + 1])


@pytest.mark.parametrize("max_len", [100, 300])
@pytest.mark.parametrize("stop", ["\n", " ", "\t"])
@pytest.mark.parametrize("chunk", [0, 7, 64])
def test_hits_only_dense_prefilter_knows_where_runs_end_by_the_bound(
    max_len: int, stop: str, chunk: int
) -> None:
    """Where the stop characters after each colon are known to come within the bound
    (scanner._Triggers._near_stops), the dense prefilter of a scanner of hits only
    passes over colons before what no URI holds without asking how far their run goes;
    the answer is the rules' at every run length about the bound, whatever ends the run
    (a line break, a space, a tab: not looked for) and however the text comes."""
    reach = rules_module.run_room(max_len)
    # About the reach and about the bound itself (where a run from "tel:" is too long).
    for length in [*range(reach - 3, reach + 4), *range(max_len - 8, max_len + 3)]:
        run = "tel:[" + "a" * (length - 23) + "/http://x.example/"
        text = "x:x " * 300 + "\n" + (run + stop) * 3 + "x:x " * 300 + "\n"
        chunks = [text[k : k + chunk] for k in range(0, len(text), chunk)] if chunk else [text]
        everything = scan(chunks, rejections=True, max_candidate_len=max_len)
        assert scan(chunks, max_candidate_len=max_len) == [
            hit for hit in everything if isinstance(hit, Hit)
        ], length


@pytest.mark.parametrize("max_len", [100, 8192])
@pytest.mark.parametrize(
    "bracketed",
    [
        "< http:/a/>",
        "<\n http://a/>",
        "<" + " " * 64 + "news:a.b>",
        "<" + " " * 64 + "URL:" + " " * 64 + "tel:1>",  # (the longest head)
        "< URN:isbn:1>",
        "<URL: tel:1>",
    ],
)
@pytest.mark.parametrize("chunk", [0, 5])
def test_hits_only_dense_prefilter_sees_a_bracket_before_the_last_stop_in_reach(
    max_len: int, bracketed: str, chunk: int
) -> None:
    """Appendix E: white space inside angle brackets is ignored, so "< http:/a/>" is
    one candidate. Where the stops known (scanner._Triggers._near_stops) end in that
    white space, with no stop within the bound after it, the dense prefilter of a
    scanner of hits only searched up to them, where its "<" branch cannot match (it
    asks for a scheme after the white space), and went on after them: the hit was
    lost, or only the URI inside was found (tests/fuzz_hostile.py, seed 51464,
    found it)."""
    text = "p:" * 40 + bracketed + "x" * (max_len + 100) + "\n"
    chunks = [text[k : k + chunk] for k in range(0, len(text), chunk)] if chunk else [text]
    everything = scan(chunks, rejections=True, max_candidate_len=max_len)
    found = [hit for hit in everything if isinstance(hit, Hit)]
    if len(bracketed) - 2 <= max_len:  # (else no candidate: longer than the bound)
        assert [hit.raw for hit in found] == [bracketed]
    assert scan(chunks, max_candidate_len=max_len) == found
    assert list(Scanner(max_candidate_len=max_len).hits([text])) == found


@settings(max_examples=500, deadline=None)
@given(
    st.text(st.sampled_from("a a\n\t"), max_size=60),
    st.integers(0, 60),
    st.integers(0, 80),
    st.booleans(),
)
def test_near_stops_is_the_first_position_without_a_stop_in_reach(
    text: str, pos: int, end: int, final: bool
) -> None:
    """scanner._Triggers._near_stops: from *pos*, up to *end* at least, every position
    has a line break or space within the reach after it (the end of a finished text
    counts); where it stops short of *end*, the first position that has none."""
    max_len = 70
    reach = rules_module.run_room(max_len)
    cfg = rules_module.Config.build("default", max_len, ())
    triggers = scanner_module._Triggers(
        text, 0, final, cfg.schemes, cfg.nid_words, cfg.hit_words, max_len
    )

    def near(x: int) -> bool:
        ahead = text[x + 1 : x + reach + 2]
        return "\n" in ahead or " " in ahead or (final and x + reach + 2 > len(text))

    pos = min(pos, len(text))
    got = triggers._near_stops(pos, end)
    first_far = next((x for x in range(pos, max(end, len(text))) if not near(x)), None)
    if got >= end:
        assert all(near(x) for x in range(pos, end))
    else:
        assert got == first_far


def _nid_colon_end(text: str, start: int) -> int | None:
    """Where seed 003 2.1's NID and its colon end, read at *start* by hand:
    ``(ALPHA / DIGIT) 0*30(ALPHA / DIGIT / "-") (ALPHA / DIGIT)``, then ":"."""
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
    """The head of a URN in text the rules read ("urn:", the NID, its colon) ends where
    the NID of seed 003 2.1 does, at most 32 letters, digits and hyphens, neither first
    nor last a hyphen."""
    text = "urn:" + rest
    head = rules_module._URN_HEAD.match(text)
    assert (head.end() if head else None) == _nid_colon_end(text, 4)


@pytest.mark.parametrize("max_len", [16, 100, 8192])
@pytest.mark.parametrize("head", ["urn:urn:x", "urn:ab:%00", "URN:a-b:x%41.%00", "urn:ab:%00-"])
def test_hits_only_scan_passes_over_rejected_urns_only_where_they_are_not_too_long(
    max_len: int, head: str
) -> None:
    """ "urn:urn:" (seed 003 2.1: the NID "urn" is reserved) and "%00" in the NSS (2.5.3:
    not even percent-encoded), which the URN check rejects: a scanner of hits only
    passes over them where a stop character comes within the bound, not where the URN
    may be too long, which the rule rejects as such and goes on after the next white
    space, past a URI in the run."""
    dense = "x:x " * 300 + "\n"
    long_urn = head + "a" * max_len  # (too long; its run goes on after the "/")
    for run in (
        head + " http://x.example/ y",
        head + "\nhttp://x.example/ y",
        long_urn + "/http://x.example/ y",
    ):
        text = dense + (run + "\n") * 3 + dense
        everything = scan([text], rejections=True, max_candidate_len=max_len)
        assert scan([text], max_candidate_len=max_len) == [
            hit for hit in everything if isinstance(hit, Hit)
        ]


def test_leaps_are_taken() -> None:
    """Guard for the test above: a run of unregistered words is leapt over, and a
    registered name within it still gives its URI."""
    calls = 0
    original = scanner_module._Triggers._leap

    def counting(self: scanner_module._Triggers, pos: int) -> int:
        nonlocal calls
        calls += 1
        return original(self, pos)

    text = "ab:" * 5000 + "mailto:x@y.example " + "ab:" * 5000
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module._Triggers, "_leap", counting)
        found = scan([text])
    assert [h.uri for h in found] == ["mailto:x@y.example"]
    assert calls > 2


# Bytes as the leaps search them (lowered ASCII, "?" for the rest): names and their
# pieces, separators, stop characters and "//".
_BLOCK_PIECES = st.sampled_from(
    [
        b"http",
        b"http:",
        b"tel:",
        b"x-ws:",
        b"urn:",
        b"urn",
        b"tp",
        b"ht",
        b"tel",
        b"ws",
        b"w",
        b"ab",
        b"a",
        b"x",
        b"1",
        b"-",
        b"+",
        b".",
        b":",
        b"//",
        b"/",
        b" ",
        b"<",
        b">",
        b"?",
        b"\n",
        b"a" * 60,
        # After a colon: what a URI may not hold there ("[", "]", a bad escape), and
        # a good escape, whole or cut by the block's end.
        b"[",
        b"]",
        b"%",
        b"%4",
        b"%41",
        b"%zz",
        # "//[" and what an IP literal starts with or not (RFC 3986 3.2.2).
        b"//[",
        b"[v",
        b"[:",
        b"[1",
        b"[?",
    ]
)


def _forward(
    schemes: frozenset[str], slashed: frozenset[str], nid: bool = False
) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """The leaps' loose and strict alarms written forwards, as rules._scheme_words
    describes them: a name then ":" not followed by a stop character nor "//" and one,
    a name of *slashed* only with "//" after it, and with *nid* "urn" only before an
    NID's first two characters (seed 003 2.1); loose, not after a letter; strict,
    after a dot, or after neither a letter nor a letter and one of "0-9+-", and for
    names of *slashed* (a scanner of hits only, where runs are short) not before "[",
    "]", "%" and what is no hex digit, or "//[" and what starts no IP literal (seed
    002 3, RFC 3986 3.2.2: the colon rule could only reject; "%" and one hex digit left
    to the dense prefilter)."""

    def tree(names: frozenset[str]) -> str:
        return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))

    apart = slashed | {"urn"} if nid else slashed
    names = f"(?:{tree(schemes - apart)}):"
    if schemes & slashed:
        names += f"|(?:{tree(schemes & slashed)}):(?=//)"
    if nid:
        names += r"|urn:(?=[a-z0-9][a-z0-9\-])"
    tail = r"(?![\x00-\x20\x7f<>\"{}|\\^`])(?!//[\x00-\x20\x7f<>\"{}|\\^`])"
    holds = r"(?![\[\]]|%[^0-9a-f]|//\[[^0-9a-f:v])" if slashed else ""
    return (
        re.compile(rf"(?<![a-z])(?:{names}){tail}".encode()),
        re.compile(rf"(?:\.|(?<![a-z])(?<![a-z][0-9+\-]))(?:{names}){tail}{holds}".encode()),
    )


@settings(max_examples=2000, deadline=None)
@given(st.lists(_BLOCK_PIECES, max_size=30).map(b"".join))
def test_leap_alarms_are_the_first_names_a_rule_might_take(block: bytes) -> None:
    """A leap stops at the first name a rule might take, found with patterns for the
    text reversed (faster); the place must be where the same rules written forwards
    find it first, and the quick pattern the leap asks must miss none and find none
    later in the reversed block, where the search for them starts; for a scanner of
    hits only, a name that needs "//" counts only with it, and "urn" only before an
    NID (where runs may be too long, only the latter). The long-run test is the regex
    it replaces."""
    cfg = Scanner()._cfg
    back = block[::-1]
    names = frozenset(n for n in cfg.schemes if n.isascii())
    for words, slashed, nid in (
        (cfg.scheme_words, frozenset(), False),
        (cfg.hit_words, AUTHORITY_SCHEMES, True),
        (cfg.nid_words, frozenset(), True),
    ):
        # The quick test a leap asks: the full set's, or for a scanner of hits only
        # (hit_words and nid_words) nid_words'.
        quick = (cfg.nid_words if nid else cfg.scheme_words).quick.search(back)
        loose, strict = _forward(names, slashed, nid)
        for forward, backward in ((loose, words.back_loose), (strict, words.back_strict)):
            m = forward.search(block)
            found = backward.search(back)
            assert found is None or (quick is not None and quick.start() <= found.start())
            first = len(block)
            if quick is not None:
                first = scanner_module._first_alarm(back, len(block), quick.start(), backward)
            assert first == (m.start() if m else len(block))
            if backward is words.back_strict and not rules_module.long_run(block, len(block)):
                # A leap keeps every name of such a block, where it starts (the dense
                # loop goes on from there), no other.
                alarms = []
                if quick is not None:
                    alarms = scanner_module._alarms(back, quick.start(), backward, 0)
                assert alarms[::-1] == [m.start() for m in forward.finditer(block)]
    assert rules_module.long_run(block, len(block)) == bool(re.search(rb"[a-z0-9+.\-]{64}", block))


def _vocabulary_expected(block: bytes, names: frozenset[str]) -> tuple[bool, bool]:
    """Whether *block* (it starts after a colon) holds a registered name then ":" not
    after a letter, and one after a dot or after neither a letter nor a letter and one
    of "0-9+-": the leaps' quick and strict names, whatever follows the colon."""
    tree = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    text = b":" + block
    loose = re.search(rf"(?<![a-z])(?:{tree}):".encode(), text)
    strict = re.search(rf"(?:\.|(?<![a-z])(?<![a-z][0-9+\-]))(?:{tree}):".encode(), text)
    return loose is not None, strict is not None


@settings(max_examples=300, deadline=None)
@given(st.lists(_BLOCK_PIECES, max_size=40).map(b"".join), st.integers(1, 3))
def test_colon_sides_counts_colons_by_what_stands_around_them(text: bytes, shortest: int) -> None:
    """What a leap's sample counts: the colons, those after *shortest* scheme
    characters (RFC 3986 3.1), those before a stop character (seed 002 Appendix E's
    delimiters, white space and what no URI holds)."""
    colons, guarded, stopped = rules_module.colon_sides(text, shortest)
    assert colons == text.count(b":")
    assert guarded == len(re.findall(rb"(?<=[a-z0-9+.\-]{%d}):" % shortest, text))
    stop = rules_module.ASCII_STOP.encode()
    assert stopped == len(re.findall(rb":(?=" + stop + rb")", text))


# A block's pieces, and a URN's colon masked as the leaps mask it ("urn~").
_VOCABULARY_PIECES = st.one_of(_BLOCK_PIECES, st.sampled_from([b"urn~", b"~", b"%00", b"%0"]))


@settings(max_examples=600, deadline=None)
@given(
    st.lists(_VOCABULARY_PIECES, min_size=1, max_size=8).map(b"".join),
    st.integers(1, 700),
    st.lists(_VOCABULARY_PIECES, max_size=8).map(b"".join),
    st.integers(0, 700),
    st.booleans(),
)
@example(b"ab:", 1000, b"", 0, False)
@example(b"x-http:", 1000, b"", 0, False)
@example(b"ab:", 1000, b"http:", 1000, False)
@example(b"ab:", 1000, b"x-http:", 1000, False)
@example(b"urn~ab:%00 ", 1000, b"x urn:ab", 1000, True)
@example(b"ab:", 1000, b"http" + b"zzz", 0, False)  # no colon after the last word
def test_a_blocks_vocabulary_tells_the_names_its_words_hold(
    unit: bytes, copies: int, odd: bytes, more: int, strict_only: bool
) -> None:
    """A leap may tell from the words before a block's colons, each read once, that
    its quick or strict search would find no name (text dense with colons repeats its
    words). Where it tells, it must say what the names written forwards say of the
    whole block, words after the sample it decided from included; then the block's
    own searches find none either."""
    cfg = Scanner()._cfg
    names = frozenset(n for n in cfg.schemes if n.isascii())
    block = unit * copies + odd + unit * more
    size = max(len(block) - 3, 0)  # a leap's block holds three characters more
    back = block[::-1]
    expected = _vocabulary_expected(block[:size], names)
    for words, hit_words in ((cfg.scheme_words, None), (cfg.nid_words, cfg.hit_words)):
        finder = scanner_module._Triggers("", 0, True, cfg.schemes, words)
        told = finder._vocabulary(block, size, strict_only)
        if told is None:
            continue
        assert told == expected
        if not told[0]:
            assert words.quick.search(back, len(block) - size) is None
        if not told[1]:
            for strict in (words.back_strict, (hit_words or words).back_strict):
                assert strict.search(back, len(block) - size) is None


@pytest.mark.parametrize(
    ("unit", "told"),
    [
        (b"ab:", (False, False)),  # no name
        (b"e.g.ab:", (False, False)),  # no name after the dot either
        (b"x-http:", (True, False)),  # a name glued to a word
        (b"a:", None),  # colons quick's guard passes over at once
        (b"http:x ", None),  # a name the strict search must find
    ],
)
def test_colon_dense_text_that_repeats_its_words_is_told_by_its_vocabulary(
    unit: bytes, told: tuple[bool, bool] | None
) -> None:
    """The bench's colon-dense rows whose words repeat are told from their vocabulary
    (some 45 ns a colon, where the searches cost 90 to 170); not text whose colons the
    quick pattern passes over at once, nor where a name stands (the search is needed)."""
    cfg = Scanner()._cfg
    block = unit * 20_000
    finder = scanner_module._Triggers("", 0, True, cfg.schemes, cfg.nid_words)
    assert finder._vocabulary(block, len(block) - 3) == told


_URN_BLOCK_PIECES = st.sampled_from(
    [
        *(b"urn:", b"urn", b"ab", b"a", b"x-", b"-", b".", b":", b" ", b"%00", b"%0"),
        *(b"%41", b"?", b"/", b"e.g.", b"b" * 30, b"\n"),
    ]
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(_URN_BLOCK_PIECES, max_size=40).map(b"".join), st.booleans())
@example(b"urn:urn:x " + b"b" * 40, True)
@example(b"x urn:ab:%00 " + b"b" * 40 + b" e.g.urn:ab:%00 " + b"b" * 40, True)
@example(b"urn:ab: urn:x- " + b"b" * 40 + b" urn:", False)
def test_masked_urns_are_those_no_urn_in_text_may_stand_at(block: bytes, short: bool) -> None:
    """A leap masks ("urn~") each "urn:" not after a scheme character where no URN in
    text may stand (seed 003 2.1, 2.2), or, in a block of short runs, where the URN
    check rejects it whatever follows (the reserved NID "urn", 2.1; "%00" early in the
    NSS, 2.5.3): what the dense loop of a scanner of hits only passes over; and also
    each such "urn:" before what starts no NID, which the leaps' patterns never take
    for a name. Only where the 36 characters that tell are there (the text may go on
    past the block). No other byte changes."""
    text = block.decode("ascii")
    expected = bytearray(block)
    for k in (m.start() for m in re.finditer(rb"urn:", block)):
        if k and block[k - 1 : k] in b"abcdefghijklmnopqrstuvwxyz0123456789+.-":
            continue  # (the end of a longer word: the rules decide it)
        if len(block) - (k + 4) < 36:
            continue  # (the text may go on)
        if re.match(rb"[a-z0-9][a-z0-9\-]", block[k + 4 :]) is None:
            expected[k + 3] = ord("~")
        else:
            stands = rules_module.URN_START.match(text, k) is not None
            if short and rules_module.REJECTED_URN.match(text, k) is not None:
                stands = False
            if not stands:
                expected[k + 3] = ord("~")
    assert rules_module.mask_fruitless_urns(block, short) == bytes(expected)


# Pieces of markup, code and mail dense with "<" and ":": XML names (of unregistered
# and registered prefixes), tags with attributes, unregistered schemes with and without
# white space inside brackets, quoted lines, URL: prefixes, legacy URNs; tags that share
# a prefix and differ after it (XML names or not, empty, cut by a line end).
_ANGLE_PIECES = st.sampled_from(
    [
        "<x:a>",
        "<x:b c>",
        "<x:/d>",
        "<x:e/f>",
        "<x:>",
        "<x:g\n",
        "<x:h",
        "<x:_i/ >",
        "<x.y-z:j>",
        "<x+y:k>",
        "<url:x>",
        "<urn:x>",
        "<URL: />",
        "<URL: /x y>",
        "<o:p>",
        "</o:p>",
        "<w:t/>",
        "<xs:element>",
        '<v:shape id="x" o:spt="75">',
        "<sip:bob.example>",
        "<mid:1>",
        "<foo:bar/baz>",
        "<foo:1>",
        "<x:y z>",
        "< o:p >",
        "<o:p\n>",
        "<URL:o:p>",
        "<URL: http://a.example/>",
        "<URN:ISBN:0-395-36341-1>",
        "urn://<",
        "<URN:a:b:",
        "<URN:ASCII:IANA:x:1>",
        "<URN::a:b:c\\:<\\>\\:d>",
        "<td:l;\n> x\t\n> ",
        "<http://b.example/ c>",
        "<HTTP://C.example>",
        # A host "[" before what starts no IP literal, or white space (dropped).
        "<http://[x]> ",
        "<HTTP://[?]>",
        "<http://[::1]/>",
        "<http://[\n::1]/>",
        "<http://[ v1.x]/>",
        "<foo://[x]>",
        "<URL:http://[y]>",
        "<tel:%zz>",
        "<tel:%4\n1>",
        # "URL:" and white space the head does not read: a no-break space, 70 spaces.
        "<URL:\u00a0p:/x>",
        "<URL:" + " " * 70 + "p:/x>",
        "<x:[y]>",
        "<tel:]>",
        "<a href=x:y>",
        "if x<y: f() > 3",
        "ab:",
        "http://d.example ",
        "\n",
        " ",
        "> ",
        "<",
        ">",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(_ANGLE_PIECES | _DENSE_PIECES, st.integers(1, 40)), max_size=12),
    st.sampled_from([8192, 8192, 100]),
)
@example([("<xs:element>", 9), ("<URL: http://a.example/>", 7)], 8192)  # a "<" cut short
@example([("ab:", 40), ("urn://<", 3)], 8192)  # a rejection the prefilter passed over
@example([("p:", 40), ("<URL:\u00a0p:/x>", 1)], 300)  # (tests/fuzz_hostile.py, seed 700308)
# A colon before what no URI holds, its run too long: the rule ends the scan at a space.
@example([("a:a ", 40), ("mailto:%zz", 1), ("a/", 4100), ("http://b.example/ ", 1)], 8192)
@pytest.mark.parametrize("rejections", [True, False])
def test_dense_mode_changes_nothing(
    rejections: bool, runs: list[tuple[str, int]], max_len: int
) -> None:
    """The dense prefilter (and its leaps) give the same hits and rejections as the
    sparse finders: it passes over only what no rule would report, not even as a
    rejection (and for a scanner of hits only, nothing that could be a hit), whatever
    the length bound. Dense mode here starts at the first fruitless trigger."""
    text = "".join(piece * count for piece, count in runs)
    # The leaps mask recurring tags in any text.
    dense, sparse = _dense_and_sparse(text, rejections, max_len, _MASK_FROM=0, _MASK_COPIES=2)
    assert dense == sparse


def _dense_and_sparse(
    text: str, rejections: bool, max_len: int = 8192, **knobs: int
) -> tuple[list, list]:
    """The scan of *text* in dense mode from its first fruitless trigger on (with the
    scanner's *knobs* set), and with the sparse finders alone."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_DENSE_MISSES", 1)
        m.setattr(scanner_module, "_DENSE_GAP", 1 << 40)
        m.setattr(scanner_module, "_COLON_GAP", 1 << 40)
        m.setattr(scanner_module, "_DENSE_FEW", 0)
        for name, value in knobs.items():
            m.setattr(scanner_module, name, value)
        dense = scan([text], rejections=rejections, max_candidate_len=max_len)
        m.setattr(scanner_module, "_DENSE_MISSES", 1 << 60)
        sparse = scan([text], rejections=rejections, max_candidate_len=max_len)
    return dense, sparse


# Dense text whose leaps keep every name of their block: no "<", no long run.
_NAME_PIECES = st.sampled_from(
    [piece for piece in _DENSE_PIECES.elements if "<" not in piece and len(piece) < 60]  # type: ignore[attr-defined]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(_NAME_PIECES, st.integers(1, 40)), max_size=12),
    st.sampled_from([4, 64, 1024]),
)
@example([("ab:", 30), ("tel:1 ", 1), ("ab:", 30), ("x-http:", 3), ("tel:1 ", 1)], 64)
# "urn" where no URN stands (its alarm dropped for a scanner of hits only), and one.
@example([("urn:ab: ", 20), ("URN:ab:c ", 1), ("urn:ab: ", 20), ("tel:1 ", 1)], 64)
@pytest.mark.parametrize("rejections", [True, False])
def test_leaps_that_keep_every_name_change_nothing(
    rejections: bool, runs: list[tuple[str, int]], leap_min: int
) -> None:
    """Where a leap keeps every name of its block and the dense loop goes from one to
    the next without searching (scanner._Triggers._to_alarm), the hits and rejections
    are those of the sparse finders, whatever the first block's length."""
    text = "".join(piece * count for piece, count in runs)
    dense, sparse = _dense_and_sparse(text, rejections, _LEAP_MIN=leap_min)
    assert dense == sparse


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.tuples(_ANGLE_PIECES | _DENSE_PIECES, st.integers(1, 12)), min_size=1, max_size=10),
    st.sampled_from([1, 2, 8]),
    st.sampled_from([8, 64, 2048]),
    st.sampled_from([1, 3, 1000]),
    st.sampled_from([1, 2, 16]),
    st.integers(0, 2000),
    st.sampled_from([0, 1, 8]),
)
@example([("<td:x\n", 9)], 2, 64, 3, 16, 2000, 8)  # copies back to back share their "<"
@example([("<o:p>", 3), ("<o:p>x", 1), ("<o:p", 2)], 1, 64, 3, 16, 2000, 8)
@example([("<x:a>", 1), ("<x:b c>", 8), ("<x:e/f>", 1)], 2, 64, 3, 16, 2000, 8)  # by prefix
@example([("<x:a>", 1), ("<x:b c>", 8), ("<x:_i/ >", 1), ("<x:", 1)], 2, 64, 3, 16, 2000, 8)
@example([("<sip:>", 1), ("<x:b c>", 1), ("<sip:x>", 2)], 2, 64, 3, 16, 2000, 8)  # registered
@example([("<url:a><url:b><url:c>", 1), ("<URL: http://a.example/>", 1)], 2, 64, 3, 16, 2000, 8)
@example([("<x+y:a b><x+y:c d><x+y:e f>", 1), ("<x+y:k>", 1)], 2, 64, 3, 16, 2000, 8)
@example([("<foo://[x]>", 2)], 1, 8, 1, 1, 1, 0)  # (its host starts no IP literal)
def test_masked_tags_change_no_angle_alarm(
    runs: list[tuple[str, int]],
    copies: int,
    sample: int,
    misses: int,
    masks: int,
    end: int,
    spread: int,
) -> None:
    """The leaps' angle search masks recurring tags ("<" to the next "<" or ">") once
    it has decided one copy, and recurring prefixes ("<x:") of a name it does not know;
    the first "<" it finds is the first the pattern matches in the text unmasked (both
    scanners' patterns; any number of copies, distance, tags tried and masks made, and
    prefixes preferred to tags or not)."""
    text = "".join(piece * count for piece, count in runs)
    data = text.encode("ascii", "replace").lower()
    cfg = Scanner()._cfg
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_MASK_FROM", 0)
        m.setattr(scanner_module, "_MASK_COPIES", copies)
        m.setattr(scanner_module, "_MASK_SAMPLE", sample)
        m.setattr(scanner_module, "_MASK_MISSES", misses)
        m.setattr(scanner_module, "_MASK_MAX", masks)
        m.setattr(scanner_module, "_MASK_SPREAD", spread)
        for words in (cfg.scheme_words, cfg.hit_words):
            plain = words.angle.search(data)
            expected = plain.start() if plain is not None and plain.start() < end else end
            assert scanner_module._angle_alarm(data, words, end) == expected


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *("<", "<urn:", "<URN:a:b:", "<urn:x", "a", ":", "::", " ", "\t", "\f"),
                *("\\", "\\:", "<url:", "<URL: ", "<http:", "<http://x", "<x:y", "<td:x"),
                *("<o:p/", "\n"),
            ]
        ),
        max_size=40,
    ).map("".join),
    st.integers(0, 400),
)
@example("<URN:a:b:<URN:a:b:<URN:a:b:<URN:a:b:", 400)
@example("<URN:a:b:<URN:a:b: <URN:a:b:<URN:a:b:", 400)
@example("<urn:a\\:b:c:d:e", 400)
def test_angle_alarm_without_a_closing_bracket(text: str, end: int) -> None:
    """In text without ">" every "<" the leaps' angle pattern matches must reach the
    text's end: the search starts where the first such "<" may stand (the last "<", or
    a 1993 URN's "<urn:" with at most three colons after it, white space or not). It
    finds what the pattern finds searching the whole text, with both scanners'
    patterns."""
    data = text.encode("ascii", "replace").lower()
    cfg = Scanner()._cfg
    for words in (cfg.scheme_words, cfg.hit_words):
        plain = words.angle.search(data)
        expected = plain.start() if plain is not None and plain.start() < end else end
        assert scanner_module._angle_alarm(data, words, end) == expected


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "ab", ":", " ", "\n", "\u3000", "\u00e9", "-"]), max_size=60
    ).map("".join),
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from([67, 70, 80]),
    st.booleans(),
)
def test_short_runs_never_passes_a_long_run(
    text: str, pos: int, length: int, max_len: int, final: bool
) -> None:
    """The hits-only leap may take a name that needs "//" for nothing only where no run
    of URI characters starting in its block (or at its end) reaches the length bound
    (less 66): exact on ASCII text; never wrong the other way on any text. In an
    unfinished buffer, a run reaching its end may go on."""
    cfg = Scanner()._cfg
    pos, stop = min(pos, len(text)), min(pos + length, len(text))
    finder = scanner_module._Triggers(
        text, 0, final, cfg.schemes, cfg.scheme_words, cfg.hit_words, max_len
    )
    needle = max_len - 66
    long_run = not final and stop == len(text)  # a run may start where the text ends
    for m in re.finditer(f"(?:{rules_module._RUN_CHAR})+", text):
        start = max(m.start(), pos)
        if start > stop or m.end() <= start:
            continue
        if m.end() - start >= needle or (m.end() == len(text) and not final):
            long_run = True
    short = finder._short_runs(pos, stop)
    if short:
        assert not long_run
    if text.isascii():
        assert short == (not long_run)


def _hyphen_join_stepwise(
    cfg: rules_module.Config,
    buf: str,
    s: int,
    e: int,
    final: bool,
    pieces: list[str] | None = None,
) -> tuple[str, str, int] | object | None:
    """The join at hyphens and line breaks as the rule was first written: a match of
    the break and one of the run, piece by piece (seed 002 Appendix E); the pieces are
    left in *pieces* when given."""
    gap = rules_module.hyphen_gap_partial(rules_module.quote_depth(buf, s))
    pieces = pieces if pieces is not None else []
    pieces.append(buf[s:e])
    while pieces[-1].endswith("-"):
        g = gap.match(buf, e, partial=not final)
        if g is None:
            break
        if g.partial:
            return rules_module.Pending
        run_end = bare._run_end(cfg, buf, g.end(), final)
        if run_end < 0:
            return rules_module.Pending
        if run_end - s >= cfg.max_len:
            break
        pieces.append(buf[g.end() : run_end])
        e = run_end
    return ("".join(pieces), pieces[-1], e) if len(pieces) > 1 else None


_CHAIN_PIECES = st.sampled_from(
    ["a-", "b", "-", "x-y-", "c", "--", "\n", " \n", "\n ", "\r\n", "\n>", "\n> ", "\n>>", " "]
)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(_CHAIN_PIECES, max_size=40).map("".join),
    st.sampled_from(["", "> ", ">> "]),
    st.sampled_from([24, 40, 8192]),
    st.booleans(),
)
@example("\nb-\nb-\nb", "", 24, True)  # a piece that reaches the length bound
@example("\nb-\nb-\nb-", "", 8192, False)  # the text ends in a piece: more may come
def test_hyphen_chain_in_one_match_joins_as_piece_by_piece(
    rest: str, quote: str, max_len: int, final: bool
) -> None:
    """bare._hyphen_join takes the chain of pieces in one match, then steps on from
    there as the rule was first written: the same pieces joined, the same last piece,
    the same end, and Pending where the text could still go on (with quote markers,
    a length bound anywhere in the chain, the text cut anywhere)."""
    cfg = rules_module.Config.build("default", max_len, ())
    first = quote + "http://a.example/x-"
    buf = first + "\n" + rest
    s, e = len(quote), len(first)
    depth = rules_module.quote_depth(buf, s)
    joined = bare._hyphen_join(cfg, buf, s, e, final, depth)
    assert joined == _hyphen_join_stepwise(cfg, buf, s, e, final)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(_CHAIN_PIECES, max_size=60).map("".join),
    st.sampled_from(["", "> ", ">> "]),
    st.sampled_from([24, 40, 8192]),
    st.booleans(),
)
@example("\nb-\nb-\nb-\nb", "> ", 24, True)  # each later piece's chain cut by its bound
@example("\nb-\nb-\nb-", "", 8192, False)  # more may come after the last piece
def test_hyphen_chain_read_for_each_candidate_in_it(
    rest: str, quote: str, max_len: int, final: bool
) -> None:
    """Candidates one after another in the same chain (a colon in every piece, as in
    hostile text): each is joined as the stepwise join has it, though all but the
    first read the chain matched before (rules.chains), and a later one further than
    that match went."""
    cfg = rules_module.Config.build("default", max_len, ())
    first = quote + "http://a.example/x-"
    buf = first + "\n" + rest
    depth = rules_module.quote_depth(buf, len(quote))
    # Each run of URI characters in the text, in order, is a candidate's first piece.
    runs = [(len(quote), len(first))] + [
        m.span() for m in re.compile(f"{rules_module._RUN_CHAR}+").finditer(buf, len(first))
    ]
    for s, e in runs:
        if rules_module.quote_depth(buf, s) != depth or not buf[s:e].endswith("-"):
            continue  # (the stepwise join reads the depth at s; the rule passes it on)
        assert bare._hyphen_join(cfg, buf, s, e, final, depth) == _hyphen_join_stepwise(
            cfg, buf, s, e, final
        ), (s, e)
        # What the chain's match gives at every end position the rule may pass it.
        chain = rules_module._hyphen_chain(depth)
        for stop in range(e, len(buf) + 1):
            end = chain.match(buf, e, stop).end()  # type: ignore[union-attr]
            assert chains.chain_end(cfg, buf, e, stop, depth) == end, (e, stop)
    cfg.forget_text()


def _chain_unread(cfg: rules_module.Config, buf: str, e: int, stop: int, depth: int) -> int:
    return rules_module._hyphen_chain(depth).match(buf, e, stop).end()  # type: ignore[union-attr]


def _joined_afresh(cfg: rules_module.Config, buf: str, s: int, e: int, end: int, depth: int) -> str:
    return rules_module.join_breaks(buf[s:end], depth, False)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        _CHAIN_PIECES | st.sampled_from(["http://", "tel:", "http://[", "x:", "a.b/", "%zz"]),
        max_size=60,
    ).map("".join),
    st.sampled_from([24, 40, 8192]),
    st.integers(1, 7),
)
@example("http://[-\n> tel:1-\n> http://a-\n> b", 40, 3)
def test_chains_read_again_change_no_answer(text: str, max_len: int, chunk: int) -> None:
    """Text whose lines end in "-" with colons throughout: what the scanner finds, and
    rejects, is what it finds when each candidate matches and joins its chain afresh,
    whole or fed in chunks."""
    chunks = [text[k : k + chunk] for k in range(0, len(text), chunk)]
    options = {"max_candidate_len": max_len, "rejections": True}
    read = scan([text], **options), scan(chunks, **options)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bare, "chain_end", _chain_unread)
        m.setattr(bare, "joined", _joined_afresh)
        afresh = scan([text], **options), scan(chunks, **options)
    assert read == afresh


@settings(max_examples=1500, deadline=None)
@given(st.lists(_CHAIN_PIECES, max_size=40).map("".join), st.sampled_from(["", "> ", ">> "]))
@example("\nb-\nb-\nb", "")  # bare line ends only: str.replace
@example("\nb-\r\nb- \nb", "> ")
def test_join_breaks_cuts_every_break_of_a_chain(rest: str, quote: str) -> None:
    """rules.join_breaks on a chain of pieces: the pieces joined, or each without the
    hyphen before its break (the other reading), as the stepwise join finds them,
    whether str.replace does it (bare line ends) or the pattern (white space, quote
    markers)."""
    cfg = rules_module.Config.build("default", 8192, ())
    first = quote + "http://a.example/x-"
    buf = first + "\n" + rest
    s = len(quote)
    pieces: list[str] = []
    joined = _hyphen_join_stepwise(cfg, buf, s, len(first), True, pieces)
    if not isinstance(joined, tuple):
        return
    chain, depth = buf[s : joined[2]], rules_module.quote_depth(buf, s)
    assert rules_module.join_breaks(chain, depth, False) == "".join(pieces)
    other = "".join(piece[:-1] for piece in pieces[:-1]) + pieces[-1]
    assert rules_module.join_breaks(chain, depth, True) == other


def _trim_stepwise(uri: str, min_len: int, before: str) -> str:
    """Trailing punctuation and unbalanced closers dropped (seed 002 Appendix E) as the
    rule was first written: a character at a time, counting from the start at each."""
    n = len(uri)
    while n > min_len:
        c = uri[n - 1]
        if c == "'" and uri.count("'", 0, n) % 2 == 0:
            break
        if c in rules_module._TRAIL:
            n -= 1
        elif c in rules_module._CLOSERS:
            if uri.count(rules_module._CLOSERS[c], 0, n) < uri.count(c, 0, n):
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
    """bare._trim drops runs at a time, counting brackets and quotes once: the same
    end as a character at a time."""
    assert bare._trim(uri, min_len, before) == _trim_stepwise(uri, min_len, before)


def _first_unbalanced(uri: str, opener: str, closer: str) -> str:
    """Seed 002 Appendix E, read one character at a time: a URI after an opener ends at
    the first closer without its opener inside it."""
    depth = 0
    for k, c in enumerate(uri):
        depth += (c == opener) - (c == closer)
        if depth < 0:
            return uri[:k]
    return uri


_BRACKET_PIECES = st.sampled_from(["(", ")", "[", "]", "{", "}", "a", "tel:1", "(a)", "[a]"])


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_BRACKET_PIECES, max_size=40).map("".join),
    st.sampled_from(list(rules_module._OPENERS.items())),
    st.randoms(use_true_random=False),
    st.sampled_from([1, 2, 16]),
)
@example("[a][a][a]]", ("[", "]"), None, 1)
def test_bracket_levels_end_each_tail_at_its_first_unbalanced_closer(
    text: str, pair: tuple[str, str], order: object, counted: int
) -> None:
    """The levels of a run (rules.brackets), read by tails of it in any order and by
    texts that are not tails, give each the end the rule gives it."""
    opener, closer = pair
    cfg = rules_module.Config.build("default", 8192, ())
    tails = [text[k:] for k in range(len(text) + 1)] + [text[: len(text) // 2]]
    if order is not None:
        order.shuffle(tails)  # type: ignore[attr-defined]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(brackets, "_COUNTED", counted)
        for tail in tails:
            assert brackets.cut_unbalanced(cfg, tail, opener, closer) == _first_unbalanced(
                tail, opener, closer
            ), (tail, opener)
    cfg.forget_text()


_RUN_PIECES = st.sampled_from(
    [
        *"()[]{}a_?#/",
        *("tel:1", "http://a", "[tel:1[a]", "(x:(y)", "%zz", "%4", "-\n", "\n", " "),
        *("urn:", "urn:ab:", "urn:urn:", "URN:a-b:"),
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_RUN_PIECES, max_size=80).map("".join),
    st.sampled_from([24, 64, 8192]),
    st.integers(1, 9),
)
@example("[tel:1[a]" * 30 + "\n" + "(x:(y)" * 30, 8192, 5)
@example("_urn:urn:-" * 30 + "\n" + "urn:ab:x?urn:ab:y" * 20, 8192, 7)
def test_runs_and_levels_kept_change_no_answer(text: str, max_len: int, chunk: int) -> None:
    """Long runs with a candidate every few characters: what the scanner finds and
    rejects is the same whether every run end, URN end and bracket count is kept for
    the candidates after it (rules.bare._run_end, _urn_end, rules.brackets) or none is,
    whole or fed in chunks."""
    chunks = [text[k : k + chunk] for k in range(0, len(text), chunk)]
    options = {"max_candidate_len": max_len, "rejections": True}
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bare, "_RUN_KEPT", 0)
        m.setattr(brackets, "_COUNTED", 1)
        kept = scan([text], **options), scan(chunks, **options)
        m.setattr(bare, "_RUN_KEPT", 10**9)
        m.setattr(brackets, "_COUNTED", 10**9)
        afresh = scan([text], **options), scan(chunks, **options)
    assert kept == afresh


# A URN in text, as seed 003 2 and 2.5.3 have it: the rules match its parts apart.
_URN_TEXT = re.compile(rules_module._URN_HEAD_SOURCE + rules_module._URN_NSS_SOURCE)
_URN_PIECES = st.sampled_from(
    ["urn:", "URN:", "ab", "a-b", "-", ":", "x", "%41", "%4", "?", "#", "/", " ", "_", "é"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_URN_PIECES, max_size=40).map("".join), st.sampled_from([16, 64, 8192]))
@example("urn:ab:urn:ab:x?urn:ab:y#urn:ab:z urn:ab:", 64)
@example("urn:urn:urn:urn:%41", 16)  # (kept at 16, where the bound cut "%41")
@example("urn:ab:urn:cd:x%41 ", 16)  # too long, not "urn:ab:urn:cd:x"
@example("urn:a-b-a-b-a-b-a-b-a-b:x", 16)  # (the head alone is past the bound)
def test_urn_ends_kept_are_the_pattern_s(text: str, max_len: int) -> None:
    """The end of each URN in text the colon rule reads from the one kept before it
    (rules.bare._urn_end, every one kept here) is where the URN pattern ends, where
    that is within the length bound, and at or past the bound where it is not; and a
    scanner of hits only asks whether one starts (rules.URN_START) where the pattern
    matches at all."""
    cfg = rules_module.Config.build("default", max_len, ())
    starts = [k for k in range(len(text)) if text[k : k + 4].lower() == "urn:"]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bare, "_RUN_KEPT", 0)
        for s in starts:
            whole = _URN_TEXT.match(text, s)
            end = bare._urn_end(cfg, text, s)
            if whole is None:
                assert end == -1, s
            elif whole.end() - s < max_len:
                assert end == whole.end(), s
            else:
                assert end - s >= max_len, s
            assert (rules_module.URN_START.match(text, s) is None) is (
                _URN_TEXT.match(text, s) is None
            )
    cfg.forget_text()


# Lists of links: URIs apart only by white space (of every kind: the train reads only
# space, tab, CR and LF), and what may stand between or in them.
_LIST_PIECES = PIECES | st.sampled_from(
    [
        " ",
        "\n",
        "\r\n",
        "  ",
        "\n\n",
        "\u00a0",
        "\x0b",
        "\x0c",
        "\u2028",
        "http://a.example/x",
        "https://w1.example.org/a/1/index.html?q=1",
        "HTTP://A.example:80/./b",
        "http://x/%41",
        "tel:1",
        "mailto:a@b.example",
        "news:a.b",
        "urn:isbn:1",
        "URN:ISBN:1",
        "URL: ",
        "x-http:a",
        "e.g.http://a",
        "ab:",
        "http://x- ",
    ]
)


def _every_way(text: str, rejections: bool, max_len: int) -> list[list]:
    """The scan of *text* fed whole, in chunks of 7 characters, and given whole to
    Scanner.hits, whose final scan pauses every 5 characters (its slices)."""
    options = {"rejections": rejections, "max_candidate_len": max_len}
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_SLICE", 5)
        sliced = list(Scanner(**options).hits([text]))  # type: ignore[arg-type]
    return [
        scan([text], **options),
        scan([text[k : k + 7] for k in range(0, len(text), 7)], **options),
        sliced,
    ]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_LIST_PIECES, max_size=40).map("".join),
    st.sampled_from([8192, 40, 16]),
    st.booleans(),
)
@example("tel:1 urn:isbn:1 tel:2 ab:c tel:3\n x:y", 8192, False)  # a URN, unregistered words
@example("http://a.example/x\n\nhttp://b.example/y\r\n http://c.example/z\n", 8192, True)
@example("http://a.example/x http://b.example/y/zzzzzzzzzz", 30, False)  # the bound
# The train's bound is from the white space's start: a URI it cuts goes the loop's way,
# and one longer than the bound is rejected as too long, never taken.
@example("http://a.example/x" + " " * 25 + "http://b.example/yy tel:1 ", 40, False)
@example("http://a.example/x http://b.example/" + "y" * 40 + " tel:1 ", 40, True)
@example("tel:1 HTTP://A.example:80/./b tel:2 http://x/%41 tel:3", 8192, False)  # the keys
def test_lists_of_links_change_nothing(text: str, max_len: int, rejections: bool) -> None:
    """The train (Scanner._train: after a bare URI the shortcut took, the next one tried
    for it at once where only white space stands between) gives what the loop gives
    trigger by trigger, at any bound, in chunks and in the slices of a final scan."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_TRAIN_GAP", 1 << 40)  # after every shortcut
        trained = _every_way(text, rejections, max_len)
        m.setattr(scanner_module, "_TRAIN_GAP", -1)  # never: s - floor >= 0
        plain = _every_way(text, rejections, max_len)
    assert trained == plain


def test_lists_of_links_take_the_train(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard for the test above: a list of links goes by the train, not the loop. (The
    word leaps are off: every 16 hits they stop a train to try a block of words.)"""
    monkeypatch.setattr(scanner_module, "_WORD_MISSES", 1 << 60)
    text = "".join(f"https://w{i}.example.org/a/{i}/index.html?q={i}\n" for i in range(50))
    with _counted(scanner_module, "at_colon") as calls:
        found = list(Scanner().hits([text]))
    assert [(h.raw, h.line, h.column) for h in found] == [
        (f"https://w{i}.example.org/a/{i}/index.html?q={i}", i + 1, 1) for i in range(50)
    ]
    assert calls == [1]  # the first; the rest by the train


_URN_TEXT_PIECES = st.sampled_from(
    [
        *("urn:", "URN:", "urn", "ab", "a-b", "x", "0", ":", "%00", "%0", "%41", "%"),
        *("-", ".", "/", "?", "#", "?+r", "?=q", ")", "'", " ", "\n", "-\n", "b" * 33),
    ]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_URN_TEXT_PIECES, max_size=12).map("".join))
@example("urn:urn:x")
@example("urn:ab:%00")
@example("URN:a-b:%41.x%00?=q#f")
@example("urn:ab:x?=q%00 urn:ab:x#%00")  # (a "%00" past the NSS is allowed)
def test_a_rejected_urn_is_rejected_whatever_follows(text: str) -> None:
    """Where rules.REJECTED_URN matches (the reserved NID "urn", seed 003 2.1; "%00" early
    in the NSS, 2.5.3), the URN check rejects every URN that starts there and reaches
    past the match, whatever follows: what lets a scanner of hits only pass over it."""
    for k in (m.start() for m in re.finditer("(?i)urn:", text)):
        m = rules_module.REJECTED_URN.match(text, k)
        if m is not None:
            for end in range(m.end(), len(text) + 1):
                assert check_urn(text[k:end]) is not None, text[k:end]


def test_the_train_and_the_shortcut_number_their_groups_alike() -> None:
    """rules.bare._shortcut reads a match of either by the same group numbers: each is
    one group (the train's scheme, empty at the colon), then the shortcut's pattern."""
    assert bare._TRAIN.groupindex == bare._FAST.groupindex
    assert bare._TRAIN.groups == bare._FAST.groups


# Words for the word leaps of a scanner of hits only (Scanner._word_leap): candidates
# of registered schemes that the rules reject (a character no URI holds there, a bad
# host, a bad escape, nothing left after trailing punctuation), hits, words without a
# colon, and what joins words to their neighbours (angle brackets, double quotes, the
# "URL:" prefix, a hyphen before a line break, seed 002 Appendix E), which a block must
# not hold.
_WORD_PIECES = st.sampled_from(
    [
        "tel:1]~",
        "tel:1]",
        "mailto:.",
        "tel:;",
        "<tel:",
        "1>",
        "HTTP://A.B[a",
        "mailto:a%zz",
        "file::",
        "sip:#[::1]",
        "urn:ab:",
        "x-http:",
        "ab:",
        "http:",
        "tel:1",
        "http://x.org/a",
        "(http://p.example/)",
        "'http://q.example/'",
        "*http://s.example*",
        "mailto:a@b.example",
        "urn:isbn:1",
        "e.g.http://e.example",
        # Rejected whatever a hyphen at a line end joins to them (rules.bare.joins_no_hit)
        "news:+_%zz",
        "z39.50r:/",
        "HTTP:.",
        "(http://p.example/)%zz",
        "urn:ab:%00",
        "%zz",
        "http://[v1.x",  # no hit alone, a hit joined: "http://[v1.x-" "\n" "]/a"
        "]/a",
        "<URN:a:b:c\\>",  # a 1993 URN: "\\" escapes ">" and white space
        "d>",
        "<td>",  # markup glued to the text: words end with their ">"
        "</td>",
        "<a:b>",
        "a",
        "\u00e9",
        "\u00a0",
        "\u2028",
        "\x0c",
        "-",
        "<",
        ">",
        '"',
        "URL:",
        "url:",
    ]
)
_WORD_GAPS = st.sampled_from([" ", " ", "\n", "\t", "\r\n", "  ", "\n> ", "-\n", "- \n"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.lists(_WORD_PIECES, min_size=1, max_size=3).map("".join), min_size=1, max_size=5),
    st.lists(st.tuples(st.integers(0, 4), _WORD_GAPS), min_size=1, max_size=120),
    st.sampled_from([1, 2, 16]),
    st.sampled_from([8, 64, 4096]),
    st.sampled_from([1, 8, 64]),
    st.integers(1, 400),
)
@example(  # a hyphen before the line break after the block's last word joins the next
    words=["tel:1]~-", "http://a.example/x"],
    layout=[(0, " ")] * 20 + [(0, "  "), (1, "\n")],
    misses=1,
    block=64,
    alone=8,
    cut=400,
)
@example(  # no hit alone, a hit joined at a hyphen before a line break: "http://[v1.x-]/a"
    words=["http://[v1.x", "]/a", "news:+_%zz"],
    layout=[(2, "-\n")] * 20 + [(0, "-\n"), (1, " ")] + [(2, "-\n")] * 20,
    misses=1,
    block=4096,
    alone=8,
    cut=400,
)
@example(  # a hit alone ("http://x.org/a", cut at "%zz"), none joined: rejected whole
    words=["http://x.org/a%zz", "news:+_%zz"],
    layout=[(1, "-\n")] * 20 + [(0, "-\n")] * 20,
    misses=1,
    block=4096,
    alone=8,
    cut=400,
)
@example(  # a 1993 URN, whose "\\>" does not end it (nor a word)
    words=["</o:p>", "<URN::a:b:c\\:<\\>\\:d>", "tel:1]~"],
    layout=[(0, " ")] * 20 + [(1, " ")] + [(2, " ")] * 20,
    misses=1,
    block=4096,
    alone=8,
    cut=400,
)
@example(  # words that are no hits alone, joined by angle brackets: "<tel: 1>" is
    words=["tel:1]~", "<tel:", "1>"],
    layout=[(0, " ")] * 20 + [(1, " "), (2, " ")] + [(0, " ")] * 20,
    misses=1,
    block=4096,
    alone=8,
    cut=400,
)
def test_word_leaps_change_nothing(
    words: list[str],
    layout: list[tuple[int, str]],
    misses: int,
    block: int,
    alone: int,
    cut: int,
) -> None:
    """A scanner of hits only that leaps over blocks of words none of which holds a hit
    on its own finds the hits that a scanner reporting rejections too finds (it never
    leaps so), for text given whole and in two chunks, with word leaps tried after any
    number of fruitless triggers, from any block size and any budget for the words
    decided alone."""
    text = "".join(words[k % len(words)] + gap for k, gap in layout)
    every = [item for item in scan([text], rejections=True) if isinstance(item, Hit)]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(scanner_module, "_WORD_MISSES", misses)
        m.setattr(scanner_module, "_WORD_GAP", 1 << 20)
        m.setattr(scanner_module, "_WORD_BLOCK", block)
        m.setattr(scanner_module, "_WORD_ALONE", alone)
        assert list(Scanner().hits([text])) == every
        assert scan([text[:cut], text[cut:]]) == every


def test_words_met_before_are_not_decided_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text that repeats a few rejected candidates of registered schemes (each costs
    the rules some 5 us) is leapt over a block at a time: each distinct word is decided
    on its own once, and a word that holds a hit, met again, gives its hits from what
    was found in it alone (at its place: offsets, line and column)."""
    alone: list[str] = []
    found_alone = Scanner._alone

    def counted(self: Scanner, word: str) -> tuple[Hit, ...]:
        alone.append(word)
        return found_alone(self, word)

    monkeypatch.setattr(Scanner, "_alone", counted)
    text = (
        "tel:1]~ mailto:. HTTP://A.B[a\n" * 20_000
        + "see tel:+1-555-0100 "
        + "tel:;\t" * 30_000
        + "\n(tel:+1-555-0100), tel:;\n" * 5000
    )
    hits = list(Scanner().hits([text]))
    assert [hit for hit in hits if hit.uri != "tel:+1-555-0100"] == []
    assert len(hits) == 5001
    assert hits == [item for item in scan([text], rejections=True) if isinstance(item, Hit)]
    assert sorted(set(alone)) == sorted(alone)  # none decided twice
    assert {"tel:1]~", "mailto:.", "HTTP://A.B[a", "tel:;", "(tel:+1-555-0100),"} <= set(alone)
    assert len(alone) <= 10


def test_words_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The words the word leaps remember (holding hits or none) are forgotten at once
    when they would hold more than _WORD_KEPT characters: text whose vocabulary keeps
    changing does not make the scanner grow."""
    monkeypatch.setattr(scanner_module, "_WORD_KEPT", 2000)
    sizes: list[int] = []
    count_kept = Scanner._count_kept

    def watched(self: Scanner, size: int) -> None:
        count_kept(self, size)
        sizes.append(sum(map(len, self._fruitless)) + 4 * sum(map(len, self._fruitful)))

    monkeypatch.setattr(Scanner, "_count_kept", watched)
    # Each stretch of 8 KB repeats three rejected candidates of its own.
    text = "".join(
        f"HTTP://A.B[{k} sip:#[{k}] file::{k}\n" * (8192 // (29 + 3 * len(str(k))))
        for k in range(300)
    )
    assert list(Scanner().hits([text])) == []
    assert sum(sizes) > 20_000  # the leaps remembered words (10 KB of them in all) ...
    assert any(later < size for size, later in pairwise(sizes))  # ... forgot them ...
    assert max(sizes) <= 2000  # ... and never held more than the bound
