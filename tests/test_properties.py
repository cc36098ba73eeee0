"""Property tests of the scanner (Hypothesis): chunking invariance, lossless offsets,
never raising, idempotent keys."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from helpers import scan
from urimine import Hit, Scanner, Speed, dedup_key
from urimine.normalize import web_key

# Text built from the pieces the rules care about, so that candidates are frequent.
PIECES = st.sampled_from(
    [
        "http://",
        "https://a.example/",
        "ftp://h.example/p",
        "urn:isbn:0451450523",
        "urn:",
        "<",
        ">",
        "<URL:",
        "URL: ",
        "<URN:ASCII:IANA:a:b>",
        "\\",
        '"',
        "'",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "-",
        "-\n",
        "\n",
        "\n> ",
        "\n\n",
        " ",
        "\t",
        ".",
        ",",
        ";",
        ":",
        "a",
        "b/c",
        "%2",
        "0",
        "%41",
        "?q=1",
        "#f",
        "mailto:x@y.example",
        "HTTP://X.EXAMPLE",
        "フィ",
        "。",
        "\x00",
        "\ufffd",
        "é",
        "a:a:",
        "a@",
        "((((",
        "<<<<",
    ]
)
TEXT = st.lists(PIECES, max_size=60).map("".join) | st.text(max_size=300)


def _split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    edges = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_chunking_does_not_change_results(text: str, cuts: list[int]) -> None:
    whole = scan([text], rejections=True)
    assert scan(_split(text, cuts), rejections=True) == whole
    assert scan(list(text), rejections=True) == whole


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
@example("<URL:\nhttp://>")  # "<URL:\n" at a chunk's end: not the scheme "URL" yet
@example("a@http://x.example ")  # "a@http:" at a chunk's end: "//" may follow
def test_deciding_at_every_chunk_end_does_not_change_results(text: str) -> None:
    """With the batching off, every ``feed`` scans: each decision the scanner takes at the
    end of unfinished text (or defers as pending) is put to the test, one character at a
    time and at every split in two."""
    whole = scan([text], rejections=True)
    every_feed = Speed().tuned(min_batch=1)
    assert scan(list(text), rejections=True, speed=every_feed) == whole
    for k in range(1, len(text), max(1, len(text) // 40)):
        assert scan([text[:k], text[k:]], rejections=True, speed=every_feed) == whole


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_offsets_slice_back_and_hits_are_ordered(text: str) -> None:
    found = [h for h in scan([text]) if isinstance(h, Hit)]  # scan() checks the slices
    starts = [h.start for h in found]
    assert starts == sorted(starts)
    for a, b in itertools.pairwise(found):
        assert a.end <= b.start
    for h in found:
        assert h.line == text.count("\n", 0, h.start) + 1
        assert h.column == h.start - (text.rfind("\n", 0, h.start) + 1) + 1


@settings(max_examples=300, deadline=None)
@given(TEXT, st.sampled_from([1, 2, 5, 17, 64]), st.integers(0, 300))
def test_pausing_the_final_scan_changes_nothing(text: str, slice_: int, cut: int) -> None:
    """Scanner.hits pauses its final scan every Tuning.slice characters (bounded memory
    for a text given whole), keeping the trigger finder from one pause to the next: the
    hits are those of one scan, chunked or not."""
    whole = [h for h in scan([text]) if isinstance(h, Hit)]
    sliced = Speed().tuned(slice=slice_)
    assert list(Scanner(speed=sliced).hits([text])) == whole
    assert list(Scanner(speed=sliced).hits([text[:cut], text[cut:]])) == whole


@settings(max_examples=200, deadline=None)
@given(TEXT, st.integers(0, 300))
def test_newlines_counted_so_far_are_the_text_s(text: str, cut: int) -> None:
    """What -j workers add to the rest of a range's newlines to get its line count."""
    scanner = Scanner()
    list(scanner.hits([text[:cut], text[cut:]]))
    offset, newlines = scanner.newlines_counted
    assert newlines == text.count("\n", 0, offset)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=500))
def test_scanner_never_raises_on_arbitrary_text(text: str) -> None:
    scanner = Scanner(rejections=True)
    scanner.feed(text)
    scanner.close()


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_keys_of_hits_are_idempotent(text: str) -> None:
    for h in scan([text]):
        if isinstance(h, Hit):
            # A URI that is not strict RFC 3986 is keyed as a browser keys it (issue 30
            # item 1): its characters outside RFC 3986 percent-encoded.
            keyed = dedup_key if h.strict else web_key
            assert h.key == keyed(h.uri)
            assert keyed(h.key) == h.key


def test_real_text_one_character_at_a_time() -> None:
    from conftest import seed_text

    for seed in ("000", "001", "004"):
        text = seed_text(seed)
        assert scan(list(text)) == scan([text])
