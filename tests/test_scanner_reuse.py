"""One scanner for many texts: after ``Scanner.reset()`` a scanner finds in a text exactly
what a fresh one with its options finds, whatever the last text left behind (a candidate,
bracket or quote still open, text fed and not scanned, a final scan paused, an error in
the middle of the text). The pipeline scans a run's units with one scanner reset between
them, so its output over many files is also compared with each file scanned alone, in a
process of its own."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import OPT_IN_RULES, SMALL_KNOBS, knobs, texts
from urimine import Hit, Rejection, Scanner, Speed
from urimine.pipeline import Options, unit_hits
from urimine.sources import Unit

ENDINGS = [
    "see http://a.example/x",  # a URI open at the end
    "(see http://b.example/p_(q",  # inside a bracket, inside the URI
    '"http://c.example/d?e=',  # a quote never closed
    "<URL:http://d.example/ f",  # an angle bracket never closed, white space inside
    "<urn:isbn:0-395-36341-1",  # a URN in a bracket never closed
    "mailto:someone@e.example.",  # a trailing dot the next text may not decide
    "http://f.example/" + "x" * 300,  # a candidate over the length bound, not ended
    "http://g.example/wrap-\n",  # a hyphen at a line break
    "tel:1]~ tel:1]~ tel:1]~ " * 20 + "tel:",  # word leaps under way
    "",
]
"""Ends of a first text that leave the scanner in the middle of something."""

NEXT = (
    "http://h.example/ starts the text, then a) <http://i.example/j>, "
    "urn:ietf:rfc:3986 and\nline two: (https://k.example/l) www.m.example.\n" * 3
)


def fresh(text: str, chunks: list[str] | None = None, **options: object) -> list[Hit | Rejection]:
    scanner = Scanner(**options)  # type: ignore[arg-type]
    out: list[Hit | Rejection] = []
    for chunk in chunks if chunks is not None else [text]:
        out.extend(scanner.feed(chunk))
    return out + scanner.close()


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


def leave(scanner: Scanner, text: str, how: str) -> None:
    """Feed ``text`` to ``scanner`` and stop as ``how`` says, leaving state behind."""
    if how == "fed":
        scanner.feed(text)
    elif how == "closed":
        scanner.feed(text)
        scanner.close()
    elif how == "paused":  # a final scan paused between slices, its hits not all taken
        found = scanner.hits([text, text])
        next(found, None)
        found.close()
    elif how == "failed":  # the text's reading failed in the middle (an I/O error)

        def chunks() -> Iterator[str]:
            yield text
            raise OSError("the disk went away")

        with pytest.raises(OSError):
            list(scanner.hits(chunks()))


HOWS = ["fed", "closed", "paused", "failed"]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("rejections", [False, True])
def test_a_reset_scanner_finds_what_a_fresh_one_finds(
    ending: str, how: str, rejections: bool
) -> None:
    speed = Speed.all().tuned(**SMALL_KNOBS)  # every mechanism acts on short text
    options: dict[str, object] = {"rejections": rejections, "speed": speed}
    options["max_candidate_len"] = 64
    want = fresh(NEXT, **options)
    assert any(isinstance(h, Hit) and h.start == 0 for h in want)  # offsets from the start
    scanner = Scanner(**options)  # type: ignore[arg-type]
    leave(scanner, "some prose " + ending, how)
    scanner.reset()
    got: list[Hit | Rejection] = []
    for chunk in split(NEXT, [17, 100, 101, 250]):
        got.extend(scanner.feed(chunk))
    assert got + scanner.close() == want
    scanner.reset()  # and again, for a text given whole
    assert list(scanner.hits([NEXT])) == [h for h in want if isinstance(h, Hit)]


def test_reset_keeps_the_options() -> None:
    """Rules, length bound and extra schemes stay as the scanner was made with."""
    text = "write to someone@mail.example.com x-priv:thing http://c.example/" + "d" * 40
    options = {"rules": "default,email", "max_candidate_len": 30, "extra_schemes": ["x-priv"]}
    scanner = Scanner(rejections=True, **options)  # type: ignore[arg-type]
    scanner.feed("http://e.example/f")
    scanner.reset()
    got = scanner.feed(text) + scanner.close()
    assert got == fresh(text, rejections=True, **options)
    contexts = {h.context for h in got if isinstance(h, Hit)}
    assert "email" in contexts and "x-priv:thing" in {h.uri for h in got if isinstance(h, Hit)}
    assert any(isinstance(r, Rejection) and r.reason.value == "too-long" for r in got)


def test_feed_after_close_works_again_after_a_reset() -> None:
    scanner = Scanner()
    scanner.feed("http://a.example/")
    scanner.close()
    with pytest.raises(RuntimeError):
        scanner.feed("more")
    scanner.reset()
    assert [h.uri for h in scanner.feed("http://b.example/ ") + scanner.close()] == [
        "http://b.example/"
    ]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts(),
    texts(),
    st.lists(st.integers(0, 10_000), max_size=4),
    st.lists(st.integers(0, 10_000), max_size=4),
    st.sampled_from(HOWS),
    knobs,
    st.sampled_from(["default", *OPT_IN_RULES]),
    st.booleans(),
)
def test_reset_on_generated_texts(
    first: str,
    second: str,
    first_cuts: list[int],
    second_cuts: list[int],
    how: str,
    tuning: dict[str, int],
    rules: str,
    rejections: bool,
) -> None:
    """Whatever a generated text left, the next one scans as in a fresh scanner, in any
    chunking, with every rule set the oracle runs."""
    speed = Speed.all().tuned(**tuning)
    options: dict[str, object] = {"rules": rules, "rejections": rejections, "speed": speed}
    scanner = Scanner(**options)  # type: ignore[arg-type]
    for chunk in split(first, first_cuts)[:-1]:
        scanner.feed(chunk)
    leave(scanner, split(first, first_cuts)[-1], how)
    scanner.reset()
    chunks = split(second, second_cuts)
    got: list[Hit | Rejection] = []
    for chunk in chunks:
        got.extend(scanner.feed(chunk))
    assert got + scanner.close() == fresh(second, chunks, **options)


def test_interleaved_units_never_share_a_scanner() -> None:
    """Two units' hits taken in turns (one generator left half read while the other
    runs, then resumed) are each what the unit alone gives: a scanner in use is never
    lent to another text."""
    options = Options()
    first = [f"one http://a.example/{k} two " for k in range(6000)]
    second = ["x <http://b.example/3> y (http://b.example/4) z https://b.example/5"]
    alone_first = list(unit_hits(options, Unit("a", list(first))))
    alone_second = list(unit_hits(options, Unit("b", list(second))))
    assert len(alone_first) == 6000 and len(alone_second) == 3
    taking = iter(unit_hits(options, Unit("a", list(first))))
    head = [next(taking) for _ in range(10)]
    assert list(unit_hits(options, Unit("b", list(second)))) == alone_second
    assert head + list(taking) == alone_first
    abandoned = iter(unit_hits(options, Unit("a", list(first))))
    next(abandoned)
    del abandoned
    assert list(unit_hits(options, Unit("b", list(second)))) == alone_second


# ----------------------------------------------------------------------- the whole run

FILE_TEXTS = {
    "a.txt": "first file http://a.example/x\nends inside (http://a.example/p_(q",
    "b.txt": '<http://b.example/1> then\n\nhttp://b.example/2 and a quote "http://b.example/3',
    "c.txt": "",
    "d.txt": "line\n" * 40 + "see https://d.example/ends-mid-URI-without-a-newline/and-more",
    "e.txt": "urn:isbn:0-395-36341-1 <URL:http://e.example/ in angle",
    "f.txt": "tel:1]~ " * 200 + "http://f.example/long" + "g" * 500,
    "g.txt": "\ufeffBOM first: https://g.example/\u00e9t\u00e9 mailto:h@g.example.",
    "h.txt": "wrapped http://h.example/a-\nb-c and http://h.example/",
}


def _rows(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def _urimine(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urimine", "--all", "-f", "jsonl", "-j", "1", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _each_alone(paths: list[Path]) -> dict[str, list[dict[str, object]]]:
    found = {}
    for path in paths:
        run = _urimine(path)
        assert run.returncode in (0, 1, 2), run.stderr  # (1: nothing found; 2: cut short)
        found[path.name] = _rows(run.stdout)
    return found


def _by_file(rows: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    out: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        name = Path(str(row["source"])).name
        out.setdefault(name, []).append({**row, "source": name})
    return out


def test_a_run_over_files_ending_mid_uri_gives_each_file_alone(tmp_path: Path) -> None:
    """Files that each end inside a URI, a bracket or a quote, scanned in one run (one
    scanner, reset between them) give each file's rows as a run over that file alone."""
    folder = tmp_path / "dump"
    folder.mkdir()
    for name, text in FILE_TEXTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    run = _urimine(folder)
    assert run.returncode == 0, run.stderr
    together = _by_file(_rows(run.stdout))
    alone = {
        name: [{**row, "source": name} for row in rows]
        for name, rows in _each_alone(sorted(folder.iterdir())).items()
        if rows
    }
    assert together == alone
    assert {"a.txt", "b.txt", "d.txt", "e.txt", "f.txt", "g.txt", "h.txt"} <= set(together)
    starts = [row["start"] for rows in together.values() for row in rows]
    assert 0 in starts  # each file's offsets count from its own start


def test_a_run_over_texts_cut_short_gives_each_file_alone(tmp_path: Path) -> None:
    """Compressed files whose stream breaks at its end: each text stops short (its open
    URI is dropped, not ended there) and is an error; the next file is scanned as if
    alone all the same."""
    folder = tmp_path / "cut"
    folder.mkdir()
    for k in range(4):
        text = f"http://ok{k}.example/ then (http://end{k}.example/p_(q"
        if k % 2:
            (folder / f"{k}.txt").write_text(text, encoding="utf-8")
        else:  # the gzip trailer (CRC and size) cut off
            (folder / f"{k}.txt.gz").write_bytes(gzip.compress(text.encode())[:-8])
    run = _urimine(folder)
    assert run.returncode == 2  # (an input could not be read whole)
    assert run.stderr.count(".txt.gz: truncated") == 2, run.stderr
    together = _by_file(_rows(run.stdout))
    alone = {
        name: [{**row, "source": name} for row in rows]
        for name, rows in _each_alone(sorted(folder.iterdir())).items()
    }
    assert together == alone
    uris = {str(row["uri"]) for rows in together.values() for row in rows}
    assert {f"http://ok{k}.example/" for k in range(4)} <= uris
    assert "http://end1.example/p_(q" in uris and not any("end0" in u for u in uris)
