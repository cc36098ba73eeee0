"""Hypothesis strategies shared by the equivalence tests and the fuzz driver: text made of
the pieces that sit on the rules' edges, and knobs small enough that every speed
mechanism acts within a few hundred characters."""

from __future__ import annotations

from hypothesis import strategies as st

from urimine import Speed

# What may stand before a scheme, what its grammar leaves out, trailing punctuation,
# hyphens at line ends, ports, brackets, quotes and markup: the shortcut's edges.
EDGE_PIECES = [
    *("http://", "https://", "ftp://", "HTTP://", "file://", "mailto:", "tel:", "news:"),
    *("sip:", "TEL:", "+1", "=", "urn:isbn:1", "URL:", "url: ", "e.g.", "a.example"),
    *("EXAMPLE.org", "/", "/./", "/../", "/.", "?", "#", "&x=1", "%41", "%7e", "%zz", "%"),
    *(":80", ":8080", ":0080", ":99999", ":", "@", "user@", ".", ",", ";", "!", "-", "-\n"),
    *("_", "*", "~", "'", '"', "(", ")", "[", "]", "<", ">", "|", "\\", "^", "`", "{", "}"),
    *("\n> ", " ", "\t", "\n", "\u00e9", "\u3002", "x", "1", "<http://a.example/p>"),
    *("<mailto:a@b.example>", "<urn:isbn:1>", "<http://[x]>", "<tel:%>", "<mailto:%zz>"),
    *("<http://a:99999999>", "<URL:", "<xs:e>", "< "),
    # hosts no DNS name can be (rules/dns_names.py): a hyphen or dot at a label's edge
    *("xn--", "xn--mller-kva", ".-", "-."),
]
# Colons and "<" where triggers crowd: unregistered words, names glued to words or long
# runs, what may not follow a colon, URNs in text and 1993 URNs, good and bad.
DENSE_PIECES = [
    *("ab:", "Ab:", "ab1:", "a:", "http:", "x-http:", "x1-http:", "1-http:", "-http:"),
    *("1http:", "xhttp:", "\u212ahttp:", "\u0130tel:", "a.b:", ".http:", "a" * 70 + "-http:"),
    *("a" * 62 + "-tel:", "a" * 63 + "-tel:", "tel:1 ", "urn:x:y ", "mailto:%zz ", "tel:[x] "),
    *("http:]", "tel:%4", "mailto:%41 ", "tel:%", "<http://a.example/>", "http://b.example/ "),
    *("//", "ab://", "http:x ", "x-https:y", "ftp:", "a" * 70 + ":", "<http://", "http://<"),
    *("<td:l;\n> x\t\n> ", "<tel:l;\n> x\t\n> ", "tel:\u3000", "E.g.http:", "urn:a:", "URN:ab:"),
    *("urn:ab: ", "urn:ab:c ", "urn:-a:", "urn:a-", "<URN:a:b:", "<URN:ASCII:IANA:x:1>"),
    *("<URN::a:b:c\\:<\\>\\:d>", "<URN:a:b:c:d>", "<urn:a:b>", "<urn:-a:b>", "<urn:ab:c>"),
    *("<urn:a\n b:c>", "<urn:a\n> b:c>", "<urn:\u3000ab:c>", "<URL:urn:a", "< urn:i"),
    *("<URN:asc", "<URN:ascii:a:b:c>", "<urn:a", "<urn:a:b:c:d:e>", "urn:urn:x", "urn:ab:%00"),
    *("<URN::IANA:x:" + "y" * 300 + "<y>", "<URN:ietf:rfc\\", "x:y:z:", "<w:t>", "</w:t>"),
    *("<o:p>", 'w:rsidR="00A77B3E" ', "<a:b0>", "<a:b1>", "&lt;", "a/", "tel:[", "http://[-"),
    *("urn:-ab:tel:", "urn:a:", "urn:ab:%00:", "http://-", "http://a.-"),
    # escaped and LaTeX delimiters around what bare text refuses (an http: without "//")
    *("&lt;http:x&gt;", "&lt;http:/", "&quot;http:x&quot;", "\\url{http:x}", "\\href{tel:x}"),
]
# Lists of links and the white space between them.
LIST_PIECES = [
    *(" ", "\n", "\r\n", "  ", "\n\n", "\u00a0", "\x0b", "\x0c", "\u2028", "http://a.example/x"),
    *("https://w1.example.org/a/1/index.html?q=1", "HTTP://A.example:80/./b", "http://x/%41"),
    *("tel:1", "mailto:a@b.example", "news:a.b", "urn:isbn:1", "URN:ISBN:1", "URL: ", "x-http:a"),
    *("e.g.http://a", "http://x- "),
]
# URNs in text: NIDs and NSSs good and bad, components, hyphens at line ends.
URN_PIECES = [
    *("urn:", "URN:", "urn", "ab", "a-b", "x", "0", ":", "%00", "%0", "%41", "%", "-", "."),
    *("/", "?", "#", "?+r", "?=q", ")", "'", " ", "\n", "-\n", "b" * 33, "-\n> ", "-\r\n"),
]
# Hyphen chains, long runs, brackets kept for the candidates after.
RUN_PIECES = [
    *("[tel:1[a]", "(x:(y)", "_urn:urn:-", "urn:ab:x?urn:ab:y", "http://[-\n> ", "tel:1-\n> "),
    *("http://a-\n> ", "b-\n", "b-\r\n", "b- \n", "\n>> ", "news:+_%zz-\n", "z39.50r:/-\n"),
    *("((((", "))))", ".....", "(http://a/b_(c))", "http://a/./b/../c", "))", "]]"),
    # The joined shortcut's edges (fast/joined.py): plain pieces at CR LF and LF line
    # ends, a short first piece, a port, an escape, a query and a fragment across them.
    *("http://a-\r\n", "\rc-\n\r\n-\r\nx:-\r\n", "http:/-\n/", "http://-\n", ":80-\n"),
    *("%41-\n", "?q=-\r\n", "#f-\n", "mailto:a@b-\n", "a-\r\n\t", "u@h-\n", "tel:-\n"),
    # A "[" in a head without "//" (a web character only in a tail): kept, heads cut.
    *("tel:?[a]", "tel:#[", "file:/[", "x:1[", "tel:1|[a]", "{tel:a}[", "sip:1[a]b"),
]
# Words a word leap decides alone: rejected, taken one at a time, or joined.
WORD_PIECES = [
    *("tel:1]~", "tel:1]", "mailto:.", "tel:;", "<tel:", "1>", "HTTP://A.B[a", "mailto:a%zz"),
    *("file::", "sip:#[::1]", "urn:ab:", "x-http:", "ab:", "http:", "tel:1", "http://x.org/a"),
    *("(http://p.example/)", "'http://q.example/'", "*http://s.example*", "mailto:a@b.example"),
    *("urn:isbn:1", "e.g.http://e.example", "news:+_%zz", "z39.50r:/", "HTTP:.", "%zz"),
    *("(http://p.example/)%zz", "urn:ab:%00", "http://[v1.x", "]/a", "<URN:a:b:c\\>", "d>"),
    *("<td>", "</td>", "<a:b>", "a", "\u00e9", "\u00a0", "\u2028", "\x0c", "-", "<", ">", '"'),
    *(
        "URL:",
        "url:",
        "http://",
        "<htt",
        "p://a.example>",
        "www.a.com",
        "www.a.com)",
        "a@b.com",
        "setup.py",
        "x.org/",
        "www.",
        "https://www.google.com/url?q=https://a.example/",
    ),
]
WORD_GAPS = [" ", " ", "\n", "\t", "\r\n", "  ", "\n> ", "-\n", "- \n"]
# Unicode edges: zero-width characters, other scripts' punctuation, odd white space.
OTHER_PIECES = [
    *("\u200c", "\u200d", "\u200b", "\u060c", "\u0964", "\u0f0d", "\u3000", "//[x", "\x0b"),
    *("\x0c", "\x1c", "\x85", "\u2028", "<URL:\u00a0", "<\u3000", "-\x0c\n", "\x00", "\ufffd"),
]

# Issue 30: web characters, unregistered schemes with "//", chains, glued schemes.
FIDELITY_PIECES = [
    *("s3://", "git+https://", "jdbc:", "mysql://", "texthttp://", "x.comhttps://", "//", "b"),
    *("app@db.x.info:", "@", "e.g.foo://", "Note:", "a.b.c://", "{", "}", "|", "[]", "^", "#"),
    *("\u2013", "\uff1f", "\u3002", "\u00bb", "\u201d", "'s ", "&lt;", "&gt;", "&amp;"),
    *("&quot;", "\\/", "https:\\/\\/", "\\url{", "\\href{", "\\#", "\\_", "Fax:", "bb:"),
    # item 5: "scheme://" ending a line, a scheme split inside brackets
    *("http://\n", "http:// \n> ", "s3://\r\n", "<htt\n", "<htt\n> ", "p://a.example>"),
    *("http://\t \n", "http:// x", "<http:// ", "http://  \r\n"),
    *("http://\n\n", "ps://b.example/c", "URLgit+https://", "Xhttp://", "aB.c://", "Ab-cd://"),
]

# Links written without their scheme and e-mail addresses (the abbreviated, domains,
# email and uts58 rules): hosts, top-level domains, label dots, "@".
BEYOND_PIECES = [
    *("www.", "WWW.", "ftp.", "Www.example.com", "www.a.example.org/p", "xwww.", "www", "ex"),
    *("example", ".com", "com", ".org", ".py", "setup.py", ".c", "b.c", "ex.org:80", ".рф"),
    *("a@", "bob@", "@b.example.com", "a@a@", "www.www.", "\uff0e", "\uff61", "\u3002com"),
    *("mailto:a@b.com", "a.b@c.de", "x-", "-y.net", "_", "**", "w3.org/A/", "ftp.gnu.org"),
    *("https://www.google.com/url?q=https://a.example/", "https://www.google.com/url?q=x"),
    *("hxxp://", "hXXps[://]", "fxp:", "[.]", "(.)", "{.}", "[dot]", "[at]", "[@]", "[:]"),
    *("evil[.]com", "(dot)", "x", "X", "[", "(", "{"),
]

ALL_PIECES = list(
    dict.fromkeys(
        EDGE_PIECES
        + DENSE_PIECES
        + LIST_PIECES
        + URN_PIECES
        + RUN_PIECES
        + WORD_PIECES
        + OTHER_PIECES
        + FIDELITY_PIECES
        + BEYOND_PIECES
    )
)

pieces = st.sampled_from(ALL_PIECES)


@st.composite
def texts(draw: st.DrawFn, max_pieces: int = 40) -> str:
    """Text of a few kinds of pieces, some repeated (mechanisms act on repetition)."""
    alphabet = draw(st.lists(pieces, min_size=1, max_size=8, unique=True))
    chosen = draw(st.lists(st.sampled_from(alphabet), max_size=max_pieces))
    return "".join(chosen)


@st.composite
def word_texts(draw: st.DrawFn) -> str:
    """Words (a few pieces each) laid out with gaps, many times: a word leap's text."""
    words = draw(
        st.lists(
            st.lists(st.sampled_from(WORD_PIECES), min_size=1, max_size=3).map("".join),
            min_size=1,
            max_size=5,
        )
    )
    layout = draw(
        st.lists(
            st.tuples(st.integers(0, len(words) - 1), st.sampled_from(WORD_GAPS)),
            min_size=1,
            max_size=120,
        )
    )
    return "".join(words[k] + gap for k, gap in layout)


SMALL_KNOBS = {
    "dense_misses": 2,
    "dense_gap": 1 << 20,
    "colon_gap": 1 << 20,
    "dense_span": 97,
    "dense_block": 8,
    "run_kept": 8,
    "brackets_counted": 2,
    "word_misses": 2,
    "word_gap": 1 << 20,
    "word_block": 64,
    "word_block_max": 256,
    "word_unknown": 64,
    "word_sample": 32,
    "word_few": 8,
    "word_alone": 1,
    "word_kept": 600,
    "slice": 5,
}
"""Knobs that make every mechanism act on short text (each stretch, block and count a
few characters long)."""

knobs = st.sampled_from(
    [
        {},
        SMALL_KNOBS,
        {"dense_misses": 1, "dense_block": 1, "dense_span": 9, "word_misses": 1},
        {**SMALL_KNOBS, "dense_span": 2048, "dense_block": 64, "word_block": 1024},
    ]
)


OPT_IN_RULES = [
    "default,email,domains,unwrap",
    "uts58",
    "strict,abbreviated,email",
    "default,defanged",
    "lenient,defanged,email,domains",
]
"""Rule sets beyond the default one the oracle runs too (every rule of issue 31)."""


def speeds(tuning: dict[str, int]) -> dict[str, Speed]:
    """Every mechanism on, and each one off alone, with the knobs *tuning*."""
    out = {"all": Speed.all().tuned(**tuning)}
    for name in Speed.names():
        out[f"-{name}"] = out["all"].without(name)
    return out
