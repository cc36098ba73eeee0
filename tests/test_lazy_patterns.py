"""Patterns compiled at their first use, to shorten every start: the IRI grammar's
(needed only for text that is not ASCII) and the leaps' (needed only for dense text).
Deferring them must change no answer."""

from __future__ import annotations

import pickle
import subprocess
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from urimine import _abnf
from urimine import rules as rules_module
from urimine.parser import check_reference, check_uri

# ASCII text made of what the grammar looks at: every gen-delim and sub-delim, "%" with
# and without hex digits, letters, digits, and a few characters it never allows.
_ASCII_URIISH = st.lists(
    st.sampled_from([*"aZ09-._~:/?#[]@!$&'()*+,;=%", "%41", "%zz", "//", " ", "<", '"']),
    max_size=30,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_ASCII_URIISH)
@example("http://a.example:80/p?q#f")
@example("//host/p")
@example("a:b")
def test_iri_grammar_on_ascii_is_the_uri_grammar(text: str) -> None:
    """RFC 3987 2.2 adds only ucschar and iprivate to RFC 3986's grammar, none of them
    ASCII: on ASCII text the IRI patterns match exactly as the URI patterns do, with
    the same groups, so the parser uses the URI ones there (compiled at import)."""
    for iri, uri in (
        (_abnf.IRI_RE, _abnf.URI_RE),
        (_abnf.IRELATIVE_REF_RE, _abnf.RELATIVE_REF_RE),
    ):
        a, b = iri.fullmatch(text), uri.fullmatch(text)
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a.groupdict() == b.groupdict()
            assert [a.span(g) for g in range(a.re.groups + 1)] == [
                b.span(g) for g in range(b.re.groups + 1)
            ]
    assert check_uri(text) == check_uri(text, iri=False)
    assert check_reference(text) == check_reference(text, iri=False)


def test_ascii_text_compiles_no_iri_pattern_and_sparse_text_no_leap_pattern() -> None:
    """A fresh process that scans ASCII text with no dense stretch compiles neither
    (some 100 ms of start-up); text with an IRI and dense text then compile them (the
    leaps of a scanner of hits only, as finditer's, ask nid_words' quick test first;
    its dense loop, nid_words' prefilter where runs end within the bound)."""
    code = (
        "import urimine, urimine._abnf as a\n"
        "from urimine import rules\n"
        "w = rules.Config.build('default', 8192, ()).nid_words\n"
        "def compiled():\n"
        "    try:\n"
        "        type(w).quick.__get__(w)  # the slots themselves: no compiling\n"
        "        type(w).dense_near.__get__(w)\n"
        "    except AttributeError:\n"
        "        return ('IRI_RE' in vars(a), False)\n"
        "    return ('IRI_RE' in vars(a), True)\n"
        "list(urimine.finditer('see http://a.example/x and <mailto:b@c.example>'))\n"
        "print(compiled())\n"
        "list(urimine.finditer('http://b\\u00fccher.example/ ' + 'ab:' * 400 + 'tel:1'))\n"
        "print(compiled())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["(False, False)", "(True, True)"]


def _compiled(words: rules_module.SchemeWords, name: str = "quick") -> bool:
    try:
        getattr(type(words), name).__get__(words)  # the slot itself: no compiling
    except AttributeError:
        return False
    return True


def test_leap_patterns_survive_pickling_compiled_or_not() -> None:
    """A rule set's patterns for dense text pickle as their sources, before and after
    their compilation, and the copy compiles the same patterns, each at its first use."""
    fresh = rules_module._scheme_words.__wrapped__(  # type: ignore[attr-defined]
        frozenset({"http", "tel"}), frozenset({"http"}), False, 8192
    )
    copy = pickle.loads(pickle.dumps(fresh))
    assert not _compiled(fresh) and not _compiled(copy)
    assert copy.angle.pattern == fresh.angle.pattern  # both compiled now, all the leaps'
    assert _compiled(copy, "quick") and _compiled(fresh, "quick")
    assert not _compiled(copy, "dense")  # the dense loop's at its own first use
    assert copy.dense.pattern == fresh.dense.pattern
    assert isinstance(copy.dense.pattern, str)  # the dense loop's, on the text itself
    again = pickle.loads(pickle.dumps(fresh))
    assert not _compiled(again)
    assert again.back_strict.pattern == fresh.back_strict.pattern
    assert again.back_strict.search(b"x//:ptth ") is not None  # "http://x" reversed
    assert again.quick.search(b":let ") is not None
