"""Unicode's link detection test (UTS #58, LinkDetectionTest.txt of Unicode 17) against
urimine, for the lines whose links start with a registered scheme.

Each line marks its links with U+2E20 and U+2E21; the marks removed, urimine's hits
must mark the line again the same way. Links without a scheme (``example.com``) are
out of scope for an RFC 3986 extractor: a line is in scope when each of its marked
links starts with a registered scheme and its colon, or when it marks none and holds
such a scheme (a text with no link in it). Every in-scope line either agrees or is
listed, with its reason, in corpora/conformance/UTS58-DIFFERENCES.tsv; a listed line
that starts agreeing fails the test too, so the list stays exact.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from urimine import Scanner
from urimine.schemes import registered_schemes

HERE = Path(__file__).resolve().parents[1] / "corpora" / "conformance"
TEST_FILE = HERE / "uts58-LinkDetectionTest.txt"
OPEN, CLOSE = "\u2e20", "\u2e21"
_SCHEME = re.compile(r"(?<![A-Za-z0-9+.\-])([A-Za-z][A-Za-z0-9+.\-]*):")


def _lines() -> list[str]:
    """The test lines: as the file's header says, split on line feeds only and not
    stripped; empty lines and those starting with "#" are no tests."""
    text = TEST_FILE.read_text("utf-8")
    return [line for line in text.split("\n") if line and not line.startswith("#")]


def _in_scope(line: str) -> bool:
    schemes = registered_schemes()
    marked = re.findall(f"{OPEN}(.*?){CLOSE}", line)
    if marked:
        return all(
            (m := _SCHEME.match(link)) is not None and m.group(1).lower() in schemes
            for link in marked
        )
    return any(m.group(1).lower() in schemes for m in _SCHEME.finditer(line))


def _marked(plain: str) -> str:
    """*plain* with urimine's hits marked as the test file marks links."""
    out, last = [], 0
    for hit in Scanner().hits([plain]):
        out += [plain[last : hit.start], OPEN, plain[hit.start : hit.end], CLOSE]
        last = hit.end
    return "".join([*out, plain[last:]])


def _documented() -> dict[str, str]:
    out = {}
    for line in (HERE / "UTS58-DIFFERENCES.tsv").read_text("utf-8").split("\n"):
        if line and not line.startswith("#"):
            text, category, _reason = line.split("\t")
            out[text] = category
    return out


def test_the_test_file_has_the_lines_in_scope() -> None:
    """A check of the reading itself: the file holds lines of both kinds."""
    lines = _lines()
    assert len(lines) > 300
    assert 200 < sum(map(_in_scope, lines)) < len(lines)


def test_every_difference_from_the_link_detection_test_is_documented() -> None:
    documented = _documented()
    undocumented, stale = [], []
    for line in filter(_in_scope, _lines()):
        got = _marked(line.replace(OPEN, "").replace(CLOSE, ""))
        if got != line and line not in documented:
            undocumented.append((line, got))
        if got == line and line in documented:
            stale.append(line)
    assert not undocumented, f"differences not in UTS58-DIFFERENCES.tsv: {undocumented[:5]}"
    assert not stale, f"documented differences that now agree: {stale[:5]}"


@pytest.mark.parametrize(
    "line",
    [
        # Persian and Malayalam words hold a zero-width non-joiner or joiner.
        "⸠https://azb.wikipedia.org/wiki/ویکی\u200cپدیا:۱۰۰۰_مقاله⸡",
        "⸠https://ml.example/പോലൊരാള്\u200d.html⸡ x",
        # The Tibetan shad, the Devanagari danda, the Arabic comma end a sentence, as "."
        # does; inside a URI they stay, as "." does.
        "⸠https://bo.wikipedia.org/wiki/Wikipedia:སྐད་རིགས⸡།",
        "see ⸠https://hi.example/पृष्ठ⸡। next",
        "see ⸠https://ar.example/صفحة⸡، next",
        "see ⸠https://ar.example/a،b⸡ next",
        # A zero-width space still ends one.
        "see ⸠https://x.example/a⸡\u200bb",
    ],
)
def test_other_scripts_words_and_sentence_punctuation(line: str) -> None:
    """Issue 2 rule 7 (non-ASCII letters are extracted as written) and rule 4 (trailing
    sentence punctuation is not part of the URI), in other scripts."""
    assert _marked(line.replace(OPEN, "").replace(CLOSE, "")) == line
