"""Patterns compiled at their first use, to shorten every start: the IRI grammar's (needed
only for text that is not ASCII) and the dense prefilters' (needed only for dense text).
Deferring them must change no answer."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

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
    ASCII: on ASCII text the IRI check answers as the URI check, which the parser uses
    there (compiled at import)."""
    assert check_uri(text) == check_uri(text, iri=False)
    assert check_reference(text) == check_reference(text, iri=False)


def test_sparse_text_compiles_no_dense_prefilter() -> None:
    """A fresh process that scans text with no dense stretch compiles no dense prefilter
    (each rule set's are compiled at its first dense stretch); dense text then does."""
    code = (
        "import urimine\n"
        "from urimine.fast.prefilters import colon_names, pattern\n"
        "def dense():\n"
        "    return colon_names.cache_info().currsize, pattern.cache_info().currsize\n"
        "list(urimine.finditer('see http://a.example/x and <mailto:b@c.example>'))\n"
        "print(dense())\n"
        "list(urimine.finditer('ab:' * 400 + '<o:p>' * 400 + 'tel:1'))\n"
        "print(dense())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split("\n")
    assert out[0] == "(0, 3)"  # the sparse prefilters of ":", "<" and "." (www.)
    assert out[1] == "(1, 4)"  # and the dense ones: the colons' names and "<"
