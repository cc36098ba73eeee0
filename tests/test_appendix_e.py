"""The delimiting examples of the seeds, read from the seed texts themselves.

Seed 001 (draft-fielding-url-syntax-05) Appendix E, seed 002 (rfc2396bis-01)
Appendix E, the ``URL=<...>`` references of seed 004, the section 1.3 examples of
001 and 002, the 1993 URN examples of seed 000 section 3.3.1, and the RFC appendix
examples gathered in corpora/peers/rfc-context-examples.jsonl.
"""

from __future__ import annotations

import json

import pytest

import urimine
from conftest import CORPORA, seed_text
from helpers import hits, uris


def section(text: str, start: str, end: str) -> str:
    """The body of a section: from the last ``start`` heading to the next ``end``."""
    i = text.rindex(start)
    return text[i : text.index(end, i)]


def test_seed_001_appendix_e() -> None:
    # 001 Appendix E: wrappers "..." <...> and whitespace, and the Examples paragraph
    # whose <ftp://ds.internic. net/rfc/> has whitespace inside the brackets.
    text = section(
        seed_text("001"), "E. Recommendations for Delimiting", "F. Summary of Non-editorial"
    )
    found = hits(text)
    assert [(h.uri, h.context) for h in found] == [
        ("http://test.com/", "quote"),
        ("http://test.com/", "angle"),
        ("http://test.com/", "bare"),
        ("http://www.w3.org/pub/WWW/", "quote"),
        ("ftp://ds.internic.net/rfc/", "angle"),
        ("http://ds.internic.net/instructions/overview.html#WARNING", "angle"),
    ]
    assert found[4].raw == "<ftp://ds.internic. net/rfc/>"


def test_seed_002_appendix_e() -> None:
    # The capture of 002 lost the text between angle brackets; what survives is the
    # quoted and bare forms and the list of the URI references the example contains.
    text = section(
        seed_text("002"), "Appendix E. Recommendations for Delimiting", "Appendix F. Abbreviated"
    )
    assert urimine.extract(text) == [
        "http://example.com/",
        "http://www.w3.org/Addressing/",
        "ftp://ds.internic.net/rfc/",
        "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
    ]


@pytest.mark.parametrize(
    "case",
    [
        json.loads(line)
        for line in (CORPORA / "peers/rfc-context-examples.jsonl").read_text("utf-8").splitlines()
    ],
    ids=lambda c: c["source"].split(" (")[0],
)
def test_rfc_appendix_examples(case: dict[str, object]) -> None:
    # RFC 1738 appendix, RFC 2396 App. E, RFC 3986 App. C and 1.1.2, draft-ietf-uri-url-03.
    assert uris(str(case["text"])) == case["expect"]


SEED_004_REFERENCES = [
    "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol",  # closing ">" on the next line
    "gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher",  # %2\n0
    "ftp://info.cern.ch./pub/www/doc/http-spec.txt",
    "ftp://quake.think.com/pub/wais/doc/protspec.txt",
    "ftp://quake.think.com/pub/wais/doc/doc-ids.txt",
    "ftp://nnsc.nsf.net/rfc/rfc977.txt",
    "wais://quake.think.com/wais-discussion-archives?lynch",
    "ftp://nnsc.nsf.net/rfc/rfc1034.txt",
    "ftp://prospero.isi.edu/pub/prospero/oir.ps",
    "ftp://nnsc.nsf.net/rfc/rfc959.txt",
    "ftp://uu.psi.com/wp/nir.txt",
    "wais://nnsc.nsf.net/internet-drafts?yeong",  # written <...> without URL=
]


def test_seed_004_references() -> None:
    text = seed_text("004")
    found = hits(text)
    assert [h.uri for h in found] == SEED_004_REFERENCES
    assert all(h.context == "angle" for h in found)
    gopher = found[1]
    assert gopher.raw.startswith("<gopher://") and "\n" in gopher.raw
    assert text.count("URL=<") == 11


SECTION_1_3 = {
    "001": [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
        "http://www.math.uio.no/faq/compression-faq/part1.html",
        "mailto:mduerst@ifi.unizh.ch",
        "news:comp.infosystems.www.servers.unix",
        "telnet://melvyl.ucop.edu/",
    ],
    "002": [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "gopher://gopher.tc.umn.edu:70/11/Mailing%20Lists/",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "telnet://melvyl.ucop.edu/",
    ],
}


@pytest.mark.parametrize("seed", ["001", "002"])
def test_section_1_3_examples(seed: str) -> None:
    heading = "1.3. Example URLs" if seed == "001" else "1.3 Example URIs The following"
    text = seed_text(seed)
    body = text[text.rindex(heading) :]
    body = body[: body.index("1.4")]
    assert uris(body) == SECTION_1_3[seed]
    for uri in SECTION_1_3[seed]:
        assert urimine.parse_uri(uri).text == uri


def test_seed_000_legacy_urns() -> None:
    # 000 section 3.3.1: the angle brackets are part of the 1993 syntax; "\" escapes.
    text = section(seed_text("000"), "3.3.1 URN examples", "3.3.2")
    found = hits(text)
    assert [h.uri for h in found] == [
        "<URN:ASCII:IANA:merit.edu:1929642>",
        "<URN::ISBN_Publisher_ID:0_201_12:xyzx\\:mnopq>",
        "<URN:ASCII:IANA:12456:1\\:<\\>\\:2345>",
    ]
    assert {(h.kind, h.context, h.scheme) for h in found} == {("urn-legacy", "legacy-urn", "urn")}


def test_seed_003_urn_examples_in_text() -> None:
    # 003 section 5.1: eight spellings; lexical equivalence groups them (step 5a).
    text = section(seed_text("003"), "5.1.  Examples of Lexical Equivalence", "6.  Functional")
    found = hits(text)
    assert [h.uri for h in found] == [
        "URN:foo:a123,456",
        "urn:foo:a123,456",
        "urn:FOO:a123,456",
        "urn:foo:A123,456",
        "urn:foo:a123%2C456",
        "URN:FOO:a123%2c456",
        "urn:foo:a123,456?x=y",
        "urn:foo:a123,456#xyz",
    ]
    keys = [h.key for h in found]
    assert keys[0] == keys[1] == keys[2] == keys[7] == keys[6]
    assert keys[3] not in {keys[0], keys[4]}
    assert keys[4] == keys[5] != keys[0]
    assert urimine.extract(text) == ["URN:foo:a123,456", "urn:foo:A123,456", "urn:foo:a123%2C456"]


def test_seed_001_and_002_whole_texts_have_no_markup_false_positives() -> None:
    # "<first>/<second>;<third>?<fourth>" (001 1.4 layout form) and similar bracketed
    # designators are not URIs.
    for seed in ("001", "002"):
        for h in hits(seed_text(seed)):
            assert ":" in h.uri and not h.uri.startswith(("first", "second"))
