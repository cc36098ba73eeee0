"""Named regular-expression sources the delimiting rules share, each with where it comes
from. Pieces of the URI grammar itself are in :mod:`urimine._abnf`."""

from __future__ import annotations

import re

from urimine import _abnf

# Characters that end a URI's head in running text (its scheme-specific part up to the
# first "?" or "#", or its authority after "//"): white space, controls, the "excluded"
# US-ASCII characters of seed 001 2.4.3 (< > " { } | \ ^ `) and non-ASCII punctuation
# (guillemets, general punctuation, CJK, full-width and small forms, U+FFFD): issue 2
# rule 7. Not U+200C/U+200D: they join letters in Persian and Indic scripts (RFC 3987 2.2).
STOP_MARKS = r"<>\"{}|\\^`"
"""The printable ASCII characters that end a URI's head, white space aside."""
STOP = (
    rf"\s\x00-\x20\x7f-\x9f{STOP_MARKS}"
    r"\u00ab\u00bb\u2000-\u200b\u200e-\u206f\u27e6-\u27ef\u2983-\u2998\u2e00-\u2e7f\u3000-\u303f"
    r"\ufe10-\ufe1f\ufe30-\ufe6f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\ufffd"
)
"""The body of a character class of the characters that end a URI's head."""
STOP_CHAR = re.compile(f"[{STOP}]")
"""A character that ends a URI's head (and so a candidate right after a colon)."""
RUN_CHARS = bytes(ord(" ") if STOP_CHAR.match(chr(c)) else ord("a") for c in range(256))
"""``bytes.translate`` table for ASCII text: ``a`` for a head character, a space else."""
ASCII_STOP = "[" + "".join(f"\\x{c:02x}" for c in range(128) if RUN_CHARS[c] == 32) + "]"
"""A character class of the ASCII characters that end a URI's head."""

# Past its head (in a path, query or fragment) a URI runs on over the characters real
# links carry (issue 30 item 1): "[ ] { } | ^" and the non-ASCII punctuation UTS #58's
# Link_Term calls Include or Soft (a Soft one kept only before more of the link, as trim
# does), but its format characters (RFC 3987 4.1: no bidirectional controls in an IRI)
# and U+FFFD. Brackets of other scripts (Open, Close) and white space (Hard) still end it;
# so do the ASCII characters Appendix E delimits with (< > " `) and "\\", and the CJK
# comma and full stop (U+3001, U+3002, U+FF0C, U+FF61, U+FF64), Soft for UTS #58, which
# end a clause with no space after it in Chinese and Japanese text.
RUN_STOP_MARKS = r"<>\"\\`"
"""The printable ASCII characters that end a run, white space aside."""
RUN_STOP = (
    rf"\s\x00-\x20\x7f-\x9f{RUN_STOP_MARKS}"
    r"\u2000-\u200b\u200e\u200f\u2028-\u202f\u2045\u2046\u205f-\u206f\u27e6-\u27ef\u2983-\u2998"
    r"\u2e22-\u2e29\u2e55-\u2e5c\u2e5e-\u2e7f\u3000-\u3002\u3008-\u3011\u3014-\u301b\ufe1a-\ufe1f"
    r"\ufe53\ufe59-\ufe5e\ufe67\ufe6c-\ufe6f\uff00\uff08\uff09\uff0c\uff3b\uff3d\uff5b\uff5d\uff5f"
    r"\uff60-\uff64\ufffd"
)
"""The body of a character class of the characters that end a run of URI characters
(tests/test_rules.py derives it again from STOP and Link_Term)."""
RUN_CHAR = f"[^{RUN_STOP}]"
RUN_STOP_CHAR = re.compile(f"[{RUN_STOP}]")
"""A character that ends a run of URI characters."""
ASCII_RUN_STOP = (
    "[" + "".join(f"\\x{c:02x}" for c in range(128) if RUN_STOP_CHAR.match(chr(c))) + "]"
)
"""A character class of the ASCII characters that end a run."""
LINK_SOFT = (
    r"\u00ab\u00bb\u2018\u2019\u201b-\u201d\u201f\u2024\u2039\u203a\u203c\u203d\u2047-\u2049"
    r"\u2e00-\u2e0d\u2e1c\u2e1d\u2e20\u2e21\u2e2e\u2e3c\u2e41\u2e4c\u2e4e\u2e4f\u2e53\u2e54"
    r"\ufe12\ufe15\ufe16\ufe50-\ufe52\ufe54-\ufe57\uff01\uff0e\uff1a\uff1b\uff1f"
)
"""The characters a run now holds that UTS #58's Link_Term calls Soft: trim drops them at
the end of a URI, as it drops ". , ; : ! ?" (derived again in tests/test_rules.py)."""
WEB_CHARS = "[]{}|^"
"""The ASCII characters RFC 3986 leaves out of a path, query and fragment that real links
carry there, and browsers accept (WHATWG URL): the web-chars rule keeps them."""

SCHEME_CHAR = r"A-Za-z0-9+.\-"
"""RFC 3986 3.1 ``scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )``, as a class body."""
SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
SCHEME_MAX = 64
"""The longest scheme the rules look back for."""
PLAIN_HOST_CHAR = r"A-Za-z0-9._~!$&+,;="
"""A reg-name's characters (RFC 3986 3.2.2) but "-", "%" and the sub-delims the
delimiting rules weigh ("'", "(", ")", "*"): a character class body."""
SCHEME_HEAD = re.compile(rf"([A-Za-z][{SCHEME_CHAR}]*):")

# A colon after one to four digits standing alone ("10:23:45", "file.c:326:9:") ends no
# scheme (3.1: a scheme starts with a letter).
_NOT_AFTER_DIGITS = [rf"(?<![^{SCHEME_CHAR}][0-9]{{{n}}}:)" for n in range(1, 5)]
_STOP_BUT_BACKSLASH = STOP.replace("\\\\", "")
# A head character or JSON's escaped slash, "\/", next: two questions, not an
# alternation, so that a colon before a space fails at the first.
_HEAD_NEXT = rf"(?=[^{_STOP_BUT_BACKSLASH}])(?!\\(?!/))"
COLON_SPARSE = rf":(?<=[{SCHEME_CHAR}]:){_NOT_AFTER_DIGITS[0]}{_HEAD_NEXT}" + "".join(
    _NOT_AFTER_DIGITS[1:]
)
"""Every colon a colon rule may take: after a scheme character, not after digits alone,
before a run character or JSON's escaped slash (the look-behind first: "::::" fails it
at once)."""
COLON_AFTER = rf":{_HEAD_NEXT}(?!//[{STOP}])"
"""What the colon site itself dismisses is not this: nothing after the colon (but JSON's
escaped slash), or after its slashes."""

ANGLE_SPLIT = rf"[ \t]*+\r?\n[ \t>]{{0,64}}+[{SCHEME_CHAR}]{{1,63}}+:[^<>]"
"""In angle brackets, after a word: a line break and the rest of a scheme split by it."""


def angle_sparse(split: bool) -> str:
    """At a "<", a word and its colon after white space or "URL:" (the angle rule's sparse
    fragment); with *split*, or the word (at most 63 characters) then :data:`ANGLE_SPLIT`
    (the wrapped rule's), in one look-ahead that reads the word once (and fails at the
    character after it where neither may follow: a tag's ">" or "/")."""
    word = (
        rf"[A-Za-z][{SCHEME_CHAR}]{{0,62}}+(?=[{SCHEME_CHAR}: \t\r\n])"
        rf"(?:[{SCHEME_CHAR}]?+:[^<>]|{ANGLE_SPLIT})"
        if split
        else rf"[A-Za-z][{SCHEME_CHAR}]{{0,63}}+:[^<>]"
    )
    return (
        r"<(?=[ \t\r\nA-Za-z])(?=[ \t\r\n]{0,64}+(?:"
        + word
        + rf"|[Uu][Rr][Ll]:[ \t\r\n]{{0,64}}+[A-Za-z][{SCHEME_CHAR}]{{0,63}}+:[^<>]))"
    )


LINE_LOOKBEHIND = 512
"""How far back the start of a line is looked for (mail quote markers)."""

TRAIL = frozenset(".,;:!?'\"")
"""Sentence punctuation a bare URI drops at its end (Appendix E)."""
OTHER_TRAIL = (
    r"\u037e\u0387\u055c-\u055e\u0589\u060c\u061b\u061f\u06d4\u0701-\u0705\u07f8\u07f9"
    r"\u0964\u0965\u0f08\u0f0d-\u0f12\u1362-\u1367\u166e\u1802-\u1804\u1808\u1809"
    r"\u1944\u1945\u2cf9-\u2cfb\u2cfe\ua4fe\ua4ff\ua60d-\ua60f\ua6f3-\ua6f7\ua876"
    r"\ua877\ua8ce\ua8cf\uaa5d-\uaa5f\U00010a56\U00010a57\U00011047\U00011048"
    r"\U000110c0\U000110c1\U00011141-\U00011143\U000111c5\U000111c6\U00011238"
    r"\U00011239\U0001144b-\U0001144d\U0001145a\U000115c2\U000115c3\U00011641"
    r"\U00011642\U00011944\U00011a42\U00011a43\U00011a9b\U00011a9c\U00011c41\U00011c42"
    r"\U00011c71\U00012471\U00012472\U00016a6e\U00016a6f\U00016af5\U00016e97\U00016e98"
    r"\U0001bc9f\U0001da87-\U0001da8a"
)
"""The sentence punctuation of other scripts a bare URI drops at its end as it does
``. , ; : ! ?`` (issue 2 rules 4 and 7): the non-ASCII Po characters, not stop
characters, named FULL STOP, COMMA, SEMICOLON, COLON, QUESTION or EXCLAMATION MARK (not
INVERTED or INITIAL), DANDA, SHAD or ANO TELEIA, in Unicode 14.0 (tests/test_rules.py
derives it again)."""
CLOSERS = {")": "(", "]": "[", "}": "{"}
OPENERS = {"(": ")", "[": "]", "{": "}"}

# URNs in text (seed 003): 2.1 NID, NSS = pchar *( pchar / "/" ) (RFC 8141 section 2,
# where the draft's 2.2 had 1*pchar), 2.3 query, 2.4 fragment; the NSS ends at a character
# of the excluded set (2.5.3), which pchar leaves out.
PCHAR = _abnf.PCHAR
NSS_CHAR = f"(?:[{_abnf.PCHAR_CHARS}/]|{_abnf.PCT_ENCODED})"
"""A character of an NSS after its first (RFC 8141 section 2: pchar or "/")."""
QCHAR = f"(?:[{_abnf.PCHAR_CHARS}/?]|{_abnf.PCT_ENCODED})"
NID_COLON = r"[A-Za-z0-9][A-Za-z0-9\-]{1,31}+(?<!-):"
"""An NID (2.1: a letter or digit, then up to 30 more or "-", a letter or digit) and its
colon; possessive, as ":" is not in the class."""
URN_COLON = r"[Uu][Rr][Nn]:"
URN_HEAD = re.compile(URN_COLON + NID_COLON)
URN_NSS = re.compile(rf"({PCHAR}{NSS_CHAR}*)(?:\?{QCHAR}*)?(?:\#{QCHAR}*)?")
URN_START = re.compile(URN_COLON + NID_COLON + PCHAR)
"""Whether a URN in text may stand: its head and one pchar."""

# The 1993 URN form (seed 000 3.3): "<URN:" ... ">", "\" escaping ":", ">", "\" and space.
LEGACY_PART = r"[^\\>\s:]*+(?:\\[^\r\n][^\\>\s:]*+)*+"
"""A component of a 1993 URN, escapes unrolled."""


def encoding_source(nocase: bool) -> str:
    """After "<URN:": a 1993 URN's encoding (seed 000 3.3.2: empty or "ascii", then
    ":"), or the end of the text searched within it."""
    node = r"(?::|\Z)"
    for c in reversed("ascii"):
        letter = f"[{c}{c.upper()}]" if nocase else c
        node = rf"(?:\Z|{letter}{node})"
    return f":|{node}"


LEGACY_WRAPPED_HEAD = re.compile(rf"{URN_COLON}(?:{encoding_source(nocase=True)})")
"""How a 1993 URN wrapped in its brackets starts: "URN:" and its encoding."""


def by_length(names: frozenset[str]) -> dict[int, frozenset[str]]:
    """*names* grouped by their length (for look-behinds, which have a fixed width)."""
    sizes = sorted({len(name) for name in names})
    return {size: frozenset(n for n in names if len(n) == size) for size in sizes}
