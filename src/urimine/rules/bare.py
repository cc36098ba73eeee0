"""Rules at a scheme's colon: bare, quoted and ``URL:``-prefixed URIs, the hyphen at a
line break, and URNs in running text (seed 002 Appendix E; seed 003 section 2.5.3)."""

from __future__ import annotations

import re
from collections.abc import Callable

from urimine import _abnf
from urimine.errors import Reason
from urimine.normalize import simple_uri_key
from urimine.parser import could_start_uri
from urimine.rules import (
    _CLOSERS,
    _CUTTABLE,
    _OPENERS,
    _SCHEME_BACK,
    _SCHEME_CHARS,
    _SCHEME_MAX,
    _SCHEME_RUN,
    _SCHEME_SEPARATORS,
    _TRAIL,
    _URL_PREFIX_BACK,
    _URN_HEAD,
    _URN_NSS,
    GAP_TO_END,
    OTHER_TRAIL,
    SCHEME_CHAR,
    SCHEME_NEAR,
    STOP_CHAR,
    STOP_MARKS,
    URN_CHAIN_PENDING,
    Candidate,
    Config,
    Delimited,
    Kept,
    Pending,
    Shortcut,
    _hyphen_gap,
    _PendingType,
    _validate,
    hyphen_gap_partial,
    join_breaks,
    quote_depth,
    scheme_refusal,
    unfinished,
    urn_chain,
)
from urimine.rules.brackets import cut_unbalanced
from urimine.rules.chains import chain_end, joined
from urimine.schemes import AUTHORITY_SCHEMES
from urimine.urn import check_urn

__all__ = ["at_colon", "joins_no_hit", "next_shortcut"]

# The common case, decided by one C-level match at the colon: "scheme://host/path"
# ending before whitespace, possibly followed by sentence punctuation. Everything it
# accepts is a subset of what the general path accepts *with the same result*: an
# RFC 3986 authority (reg-name, a port of at most 4 digits: never above 65535) and
# path/query/fragment (3.3-3.5) without the characters the delimiting rules look at
# (quotes, brackets, "*", IRIs), the URI part ending in a character that _trim keeps
# and that is not a hyphen (the line-break rule), the punctuation and closing brackets
# after it exactly what _trim drops (Appendix E: trailing punctuation and unbalanced
# closers are not part of the URI). Anything else goes the general way.
_FAST_PATH_CHARS = r"A-Za-z0-9\-._~!$&+,;=:@/"


# A URI part may end in "-" where no line break follows (the hyphen rule joins only
# across one, Appendix E): white space on the same line, then more text, or an ASCII
# stop character that is no white space (">" of "data:12->": the same as white space
# for every rule after a URI; some 5 us a hit the general way). (Here and in
# the shortcut's patterns below, an optional part is written "(?:X|)", or "(?>X|)" for
# "(?:X)?+": the same matches, without the engine's general repeat, which cost a match
# of a common URI some 80 ns in its five optional parts, an eighth of the match.)
_DASH_END = rf"(?>-++(?=[ \t]++\S|[{STOP_MARKS}])|)"


def _ending_well(chars: str) -> str:
    """``*( [chars] / pct-encoded )`` that does not end in what may not end the URI part
    (``_FAST_END``'s look-behind: ".,;:!?-"), with no step given back: a run of those
    is taken only where a character or escape that may end it follows. A long
    candidate that fails at its end ("%zz" after 8 KB) then fails in one pass; where
    the text was given back a character at a time, each retried what follows (some
    1 ms for 8 KB: 8 MB/s). What it leaves out ("/b.?q") goes the general way. It
    may end in "-" where :data:`_DASH_END` allows it."""
    bad_end = "".join(c for c in ".,;:!?-" if c in chars).replace("-", r"\-")
    good_end = chars
    for c in ".,;:!?":
        good_end = good_end.replace(c, "")
    good_end = good_end.replace(r"\-", "")
    step = rf"(?:{_abnf.PCT_ENCODED}|[{bad_end}]++(?=[{good_end}]|{_abnf.PCT_ENCODED}))"
    return rf"[{good_end}]*+(?:{step}[{good_end}]*+)*+{_DASH_END}"  # (unrolled: the fastest)


# Query and fragment (3.4, 3.5); then the end both shortcuts share: a URI part that does
# not end in what _trim drops or in a hyphen (but as _DASH_END allows), what _trim
# drops, and white space or an ASCII stop character (seed 002 Appendix E: "<", ">" and
# '"' delimit a URI, as "{}|\\^`" and white space end a run).
_FAST_QUERY_FRAGMENT = (
    rf"(?:\?{_ending_well(_FAST_PATH_CHARS + '?')}|)"
    rf"(?:\#{_ending_well(_FAST_PATH_CHARS + '?')}|)"
)
_FAST_END = (
    r"(?:(?<![.,;:!?\-])[.,;:!?)\]]*+|(?<=-)(?=[ \t]++\S|"
    rf"[{STOP_MARKS}]))(?=[ \t\r\n{STOP_MARKS}])"
)
# The host likewise: a run of "-" and "." only before a character that may end it.
# Then the same for an opaque URI ("mailto:a@b.example", "tel:+1-555-0100"), whose
# scheme needs no authority (at_colon checks that): a path-rootless (3.3) whose first
# character is neither ":" (the general path takes "scheme::" for a C++ scope) nor "/"
# (nor "?" and "#": a path that is empty goes the general way), then query and
# fragment; its key is left to dedup_key. One pattern for both, its branches apart by
# the character after the colon: one match a hit, where a second cost an opaque URI
# some 0.1 us (a match is some 0.14 us before it reads a character).
_FAST_SOURCE = (
    r":(?:(?=//)"
    rf"(?P<uri>//(?P<host>[\-.]*+[A-Za-z0-9_~]++(?:[\-.]++[A-Za-z0-9_~]++)*+{_DASH_END})"
    r"(?::(?P<port>[0-9]{1,4})|)"
    rf"(?:(?P<path>/{_ending_well(_FAST_PATH_CHARS)})|)"
    rf"(?P<tail>{_FAST_QUERY_FRAGMENT}))"
    rf"|(?P<opaque>(?=[{_FAST_PATH_CHARS.replace(':', '').replace('/', '')}]|{_abnf.PCT_ENCODED})"
    rf"{_ending_well(_FAST_PATH_CHARS)}{_FAST_QUERY_FRAGMENT}))"
    rf"{_FAST_END}"
)
# After a URI the shortcut took, the next one of a list of links in the same match
# (rules.bare.next_shortcut): white space (what _FAST_END accepts after a URI), a word
# of scheme characters from a letter (no longer than a scheme at_colon takes), and
# what follows its colon. At the colon, the same with an empty group for the word:
# both number their groups alike.
_TRAIN = re.compile(rf"[ \t\r\n]++([A-Za-z][{SCHEME_CHAR}]{{0,{_SCHEME_MAX - 1}}}+){_FAST_SOURCE}")
_FAST = re.compile("()" + _FAST_SOURCE)
# Their groups by number (a name is looked up at every call: this runs once per hit).
_URI, _HOST, _PORT, _PATH, _TAIL, _OPAQUE = (
    _FAST.groupindex[name] for name in ("uri", "host", "port", "path", "tail", "opaque")
)
# Characters before the scheme that a rule looks at, which rule out the common case: a
# quote (quote rule), "{" (its closer ends the run: left to the general path), "*" and
# "_" (_trim). ("URL:" is checked apart.) After "(" or "[" the general path cuts at the
# first closer, which the shortcut's URI part never holds: the same as trimming it.
_FAST_BLOCKERS = frozenset("\"'{*_")


def at_colon(  # noqa: C901 - the hot path of every bare URI, kept in one function
    cfg: Config, buf: str, i: int, floor: int, final: bool
) -> Candidate | Shortcut | _PendingType | None:
    """The rules at the colon ``i``: a :data:`Shortcut` for the common case, else a
    :class:`Candidate` (or ``None``, or :data:`Pending`) from the general path.

    The scheme comes first: a word no rule could accept ("Subject:", "font-size:",
    "h=from:to:") is dismissed before anything else is looked at. A registered one
    then tries the shortcut: nothing before the scheme that a rule looks at, then what
    :data:`_FAST` matches; for everything it accepts, the general path gives the
    same answer (tests/test_fast_paths.py checks this)."""
    # The scheme: the longest run of scheme characters ending at the colon that starts
    # with a letter not glued to another (at most 64, not before floor). First the
    # registered one the rule found last, by a compare (text repeats its schemes): it
    # is that run where it stands before the colon with no scheme character before it.
    # Else looked for near the colon, backwards (cheap for ordinary words); when not
    # found there, or found after a separator (a longer word may hold it, "x1http:"),
    # in the whole look-behind with the search long runs need.
    lo = floor if floor > i - _SCHEME_MAX else i - _SCHEME_MAX
    written, scheme = cfg.recent[0]
    s = i - len(written)
    if (
        cfg.speed.scheme_guess
        and s > lo
        and buf[s:i] == written
        and buf[s - 1] not in _SCHEME_CHARS
    ):
        registered = True
    else:
        m = _SCHEME_BACK.search(buf, lo if lo > i - SCHEME_NEAR else i - SCHEME_NEAR, i)
        if m is None or (m.start() > lo and buf[m.start() - 1] in _SCHEME_CHARS):
            m = _SCHEME_RUN.search(buf, lo, i)
            if m is None:
                return None
        s = m.start()
        written = m.group()
        scheme = written.lower()
        registered = scheme in cfg.schemes
        if registered:
            cfg.recent[0] = written, scheme
    if registered:
        if scheme != "urn" and "bare" in cfg.rules and cfg.speed.shortcut:
            before = buf[s - 1] if s else ""
            if before not in _FAST_BLOCKERS and not (
                (before == ":" or (before == " " and buf[s - 2] == ":")) and _after_url(buf, s)
            ):
                fast = _FAST.match(buf, i, s + cfg.max_len)
                if fast is not None:
                    short = _shortcut(fast, buf, s, scheme)
                    if short is not None:
                        return short
    elif not colon_can_take(cfg, scheme):
        return None
    if i + 1 == len(buf):
        return None if final else Pending
    if STOP_CHAR.match(buf, i + 1):
        return None  # "Note: ", "http:" at a line end: nothing follows the colon
    if buf.startswith("//", i + 1) and STOP_CHAR.match(buf, i + 3):
        # "http:// ", "urn://<": nothing after the slashes either, for every scheme (as
        # the scanner's dense prefilter, which passes over such colons, has it).
        return None
    if not registered and "any-scheme" not in cfg.rules:
        # "e.g.http://x": the registered scheme is the tail after the last dot.
        cut = scheme.rfind(".")
        tail = scheme[cut + 1 :]
        if not tail[:1].isalpha() or _SCHEME_SEPARATORS.search(tail) or tail not in cfg.schemes:
            return None
        s += cut + 1
        scheme = tail
    context, raw_start, quote = _prefix_context(cfg, buf, s, floor)
    if context is None:
        return None
    if scheme == "urn":
        if "urn" not in cfg.rules:
            return None
        return _urn_text(cfg, buf, s, raw_start, context, quote, final)
    return _bare_uri(cfg, buf, i, s, raw_start, scheme, context, quote, final)


def _shortcut(fast: re.Match[str], buf: str, s: int, scheme: str) -> Shortcut | None:
    """The common case: the URI that *fast* (of :data:`_FAST` at the colon, or
    :data:`_TRAIN` before the scheme) took whole, its registered ``scheme`` (lower case)
    written from ``s`` where nothing before it rules the shortcut out; an opaque one
    only for a scheme without authority. With its dedup key where it is cheap to know
    (``""``: left to dedup_key). (Spans by the match's methods: its ``regs`` makes a
    tuple of every group's, which cost a hit 0.2 us more.)"""
    e = fast.end(_OPAQUE)
    if e >= 0:
        return None if scheme in AUTHORITY_SCHEMES else (s, e, buf[s:e], "bare", scheme, "")
    e = fast.end(_URI)
    uri = buf[s:e]
    if "%" in uri:
        return s, e, uri, "bare", scheme, ""
    if fast.start(_PORT) < 0 and fast.start(_PATH) >= 0 and "/." not in uri:
        written = buf[s : fast.end(_HOST)]
        if written == written.lower():  # (ASCII: lower() is a table, islower() is not)
            # Already in normal form (scheme and host lower case, no port, a path
            # without dot segments): simple_uri_key would rebuild it.
            return s, e, uri, "bare", scheme, uri
    host, port, path, tail = fast.group(_HOST, _PORT, _PATH, _TAIL)
    return s, e, uri, "bare", scheme, simple_uri_key(scheme, host, port, path or "", tail)


def next_shortcut(cfg: Config, buf: str, pos: int) -> Shortcut | None:
    """After a URI the shortcut took that ends at ``pos``: the next one, where only white
    space stands between them and the shortcut takes it too (a list of links), else
    None. What :func:`at_colon` returns at that colon, the next trigger, without finding
    it and the scheme the general way: the scheme is the whole word after the white
    space, and the white space is nothing a rule before a scheme reads (no quote, and
    no ``URL:`` or ``URL: ``: the shortcut's URI does not end in a colon). One match
    finds the word and takes the URI (:data:`_TRAIN`), within the length bound from
    ``pos`` (a URI the bound from its scheme would allow but this cuts is left to the
    colon rule, which takes it)."""
    m = _TRAIN.match(buf, pos, pos + cfg.max_len)
    if m is None:
        return None
    written = m.group(1)
    last, scheme = cfg.recent[0]  # (a list of links repeats its scheme: no lower() then)
    if written != last:
        scheme = written.lower()
        if scheme not in cfg.schemes:
            return None
        cfg.recent[0] = written, scheme
    if scheme == "urn":
        return None
    return _shortcut(m, buf, m.start(1), scheme)


def colon_can_take(cfg: Config, scheme: str) -> bool:
    """Whether :func:`at_colon` can accept anything after the lower-case word ``scheme``:
    a registered name, a dotted word whose tail may be one ("e.g.http"), or any word
    under the any-scheme rule. (The scanner's dense loop asks the same with a set.)"""
    return scheme in cfg.schemes or "." in scheme or "any-scheme" in cfg.rules


def _after_url(buf: str, s: int) -> bool:
    """Whether "URL:" or "URL: " stands before ``s`` (a superset of _URL_PREFIX_BACK)."""
    k = s - 1 if buf[s - 1] == ":" else s - 2
    return k >= 3 and buf[k] == ":" and buf[k - 3 : k].lower() == "url"


def _prefix_context(cfg: Config, buf: str, s: int, floor: int) -> tuple[str | None, int, str]:
    """What stands just before the scheme: a quote, ``URL:``, or nothing special."""
    if s > floor:
        before = buf[s - 1]
        if before in "\"'" and "quote" in cfg.rules:
            return "quote", s - 1, before
        if before in ": " and "url-prefix" in cfg.rules and _after_url(buf, s):
            m = _URL_PREFIX_BACK.search(buf, max(floor, s - 5), s)
            if m is not None:
                return "url-prefix", m.start(), ""
    if "bare" in cfg.rules:
        return "bare", s, ""
    return None, s, ""


def _bare_uri(
    cfg: Config,
    buf: str,
    i: int,
    s: int,
    raw_start: int,
    scheme: str,
    context: str,
    quote: str,
    final: bool,
) -> Candidate | _PendingType | None:
    e = _run_end(cfg, buf, i + 1, final)
    if e < 0:
        return Pending
    if e == i + 3 and buf[i + 1 : e] == "//":
        return None  # "http:// " is not a candidate (as the dense prefilter has it)
    if e - s >= cfg.max_len:
        return Candidate(raw_start, e, context, reason=Reason.TOO_LONG, too_long=True)
    closed = False
    if quote == "'":
        k = buf.find("'", i + 1, e)
        if k >= 0:
            e, closed = k, True
    elif quote == '"':
        closed = e < len(buf) and buf[e] == '"'
    # The pieces joined (one but after a hyphen at a line end), the last when there are
    # more, and the quote markers after each line break between them.
    whole, last, depth = buf[s:e], "", 0
    if not closed:
        joined = _pieces(cfg, buf, s, e, final, _hyphen_join)
        if isinstance(joined, _PendingType):
            return Pending
        whole, last, e, depth = joined
    uri = whole
    if closed:
        found = _validate(cfg, uri, scheme, bare=True)
    else:
        uri, found = _remembered(cfg, uri, scheme, buf[s - 1] if s else "", not last)
        e -= len(whole) - len(uri)
        if context == "quote":
            context, raw_start = "bare", s
    raw_end = e + 1 if closed else e
    if found is not None:
        reason, detail, _ = found
        return Candidate(
            raw_start, raw_end, context, uri, reason=reason, detail=detail, consume=False
        )
    alt = _other_reading(buf, s, e, len(whole) - len(uri), last, depth)
    if alt is not None and _validate(cfg, alt, scheme, bare=True) is not None:
        alt = None
    return Candidate(raw_start, raw_end, context, uri, "uri", scheme, alt)


def _other_reading(buf: str, s: int, e: int, trimmed: int, last: str, depth: int) -> str | None:
    """Appendix E's other reading of a candidate joined at hyphens at line ends, from
    ``s`` to ``e`` with *trimmed* characters of its *last* piece left out after it: the
    hyphens before the breaks were the line's, not the URI's. None where nothing was
    joined, or the whole last piece was trimmed."""
    if not last or trimmed >= len(last):
        return None
    other = join_breaks(buf[s : e + trimmed], depth, True)
    return other[: len(other) - trimmed]


_DELIMITED_LEN = 256  # longer runs are decided afresh, so the memo stays small
_READ_BEFORE = frozenset(_OPENERS) | {"*", "_"}  # the characters before a run _delimit reads


def _remembered(cfg: Config, run: str, scheme: str, before: str, can_cut: bool) -> Delimited:
    """:func:`_delimit`, remembered (Config.delimited) for a *run* that may be cut: its
    decision is the run's and that of the one character before it a rule reads (an
    opener, "*" or "_"; a run starts with its scheme). Text repeats its URIs, and
    those the shortcut does not take (a trailing ")", a rejection such as
    ``http://[x]``) were cut and parsed afresh each time."""
    if not can_cut or len(run) > _DELIMITED_LEN or not cfg.speed.memo:
        return _delimit(cfg, run, scheme, before, can_cut)
    key = (before if before in _READ_BEFORE else "", run)
    done = cfg.delimited.get(key)
    if done is None:
        done = cfg.delimited.keep(key, _delimit(cfg, run, scheme, before, True))
    return done


def _delimit(cfg: Config, uri: str, scheme: str, before: str, can_cut: bool) -> Delimited:
    """Where a bare URI ends (Appendix E): an unbalanced closer of the bracket before
    it, trailing punctuation, and the first character the grammar does not allow.
    Returns the URI and its validation result."""
    closer = _OPENERS.get(before)
    if closer is not None:
        uri = cut_unbalanced(cfg, uri, before, closer)
    uri = _trim(uri, len(scheme) + 1, before)
    found = _validate(cfg, uri, scheme, bare=True)
    for _ in range(3):
        if not can_cut or found is None or found[0] not in _CUTTABLE:
            break
        if found[2] <= len(scheme) + 3:
            break
        uri = _trim(uri[: found[2]], len(scheme) + 1, before)
        found = _validate(cfg, uri, scheme, bare=True)
    return uri, found


_RUN_KEPT = 256  # runs at least this long are kept for the candidates after them


def _run_end(cfg: Config, buf: str, pos: int, final: bool) -> int:
    """End of the run of URI characters from ``pos``; -1 if the buffer may cut it short.

    A run that ended short of the length bound ends there for every position in it: a
    long one is kept (``cfg.text.run``), so that the candidates after the first in a
    run of many (``tel:1[a]`` repeated in lines of 7 KB) do not each match it to its
    end again, which cost each some 10 us (0.4 MB/s)."""
    known = cfg.text.run
    end = -1 if known is None else known.end_for(buf, pos)
    if end < 0:
        m = cfg.run.match(buf, pos)
        end = m.end() if m else pos
        if _RUN_KEPT <= end - pos < cfg.max_len and cfg.speed.kept:
            cfg.text.run = Kept(buf, pos, end + 1, end)
    if not final and end == len(buf) and end - pos < cfg.max_len:
        return -1
    return end


_Join = Callable[[Config, str, int, int, bool, int], "tuple[str, str, int] | _PendingType | None"]


def _pieces(
    cfg: Config, buf: str, s: int, e: int, final: bool, join: _Join
) -> tuple[str, str, int, int] | _PendingType:
    """The candidate ``buf[s:e]`` with the pieces *join* adds after a hyphen at a line
    end where the hyphen rule is on (Appendix E): the pieces joined, the last piece
    (``""``: none added), where it ends, and the quote markers after each break."""
    if "hyphen" not in cfg.rules or buf[e - 1] != "-":
        return buf[s:e], "", e, 0
    depth = quote_depth(buf, s)
    joined = join(cfg, buf, s, e, final, depth)
    if joined is None:
        return buf[s:e], "", e, depth
    if isinstance(joined, _PendingType):
        return joined
    return (*joined, depth)


def _hyphen_join(
    cfg: Config, buf: str, s: int, e: int, final: bool, depth: int
) -> tuple[str, str, int] | _PendingType | None:
    """Join the pieces of a URI broken after a hyphen at line ends (Appendix E), the
    first ``buf[s:e]``, with *depth* quote markers after each break: the pieces joined,
    the last piece, and where it ends. None: no piece follows the first."""
    gap = _hyphen_gap(depth)
    first_end = last_start = e
    # The chain in one match, short of the length bound (a piece must end before it)
    # and of the end of the text. A piece that reaches either is given back: the loop
    # below takes each step after the last piece kept, with every check (the bound,
    # and text still to come), and the chain leaves it one step at most.
    stop = min(s + cfg.max_len - 1, len(buf))
    end = chain_end(cfg, buf, e, stop, depth)
    if end > e:
        start = _piece_start(buf, first_end, end, gap)
        if end < stop:
            last_start, e = start, end
        elif start > first_end:  # given back: the piece before it is the last
            e, last_start = _piece_before(buf, first_end, start, gap)
    while buf[e - 1] == "-":
        g = gap.match(buf, e)
        if g is None:
            if (
                not final
                and GAP_TO_END.match(buf, e) is not None
                and unfinished(hyphen_gap_partial(depth), buf, e) is Pending
            ):
                return Pending
            break
        run_end = _run_end(cfg, buf, g.end(), final)
        if run_end < 0:
            return Pending
        if run_end - s >= cfg.max_len:
            break
        last_start, e = g.end(), run_end
    if last_start == first_end:
        return None
    return joined(cfg, buf, s, first_end, e, depth), buf[last_start:e], e


def joins_no_hit(cfg: Config, word: str) -> bool:
    """Whether every candidate in *word* (a word that ends in "-") that the hyphen rule
    could join to the lines after it (Appendix E) is rejected, whatever they hold: the
    text from each scheme a colon's rules could take ("news:+_%zz-": "news", "ews",
    "ws" and "s") to the end of the word can start no URI (:func:`could_start_uri`)
    or none the scheme's rules take in bare text ("http:a-": no authority; they read
    at most three characters after the colon, and answer for the word as for any
    text it starts: what ends in "-" is never "" or "//"), or is a URN whose first
    piece its check rejects (not joined, :func:`_urn_text`).

    Where this holds and *word* holds no hit on its own, it holds none in text either,
    whatever follows it. A joined candidate is cut only at its first unbalanced closer
    (:func:`cut_unbalanced`) and where :func:`_trim` drops its end, which stops at the
    first piece's hyphen: so it holds its whole first piece and is rejected with it,
    or is cut at a closer inside it, as on its own, where it was no hit."""
    any_scheme = "any-scheme" in cfg.rules
    colon = word.find(":")
    while colon >= 0:
        j = colon - 1
        while j >= 0 and colon - j <= _SCHEME_MAX and word[j] in _SCHEME_CHARS:
            # (a scheme starts with a letter; e.g.http's tail is one of these too)
            if word[j].isalpha():
                scheme = word[j:colon].lower()
                if scheme == "urn":
                    if check_urn(word[j:]) is None:
                        return False
                elif (
                    (any_scheme or scheme in cfg.schemes)
                    and scheme_refusal(word[colon + 1 :], scheme, bare=True) is None
                    and could_start_uri(word[j:])
                ):
                    return False
            j -= 1
        colon = word.find(":", colon + 1)
    return True


def _piece_start(buf: str, first_end: int, end: int, gap: re.Pattern[str]) -> int:
    """Where the piece of a hyphen chain that ends at *end* starts (the first piece ends
    at *first_end*): after the line break before it. A piece holds no line end, and a
    break is white space and quote markers up to a line end and after it."""
    nl = buf.rfind("\n", first_end, end)
    if nl < 0:
        return first_end  # the first piece's end: none joined to it yet
    k = nl
    while buf[k - 1] in " \t\r":
        k -= 1
    found = gap.match(buf, k)
    assert found is not None  # (the chain matched this break)
    return found.end()


def _piece_before(buf: str, first_end: int, start: int, gap: re.Pattern[str]) -> tuple[int, int]:
    """The piece of a hyphen chain before the one that starts at *start* (the first
    piece ends at *first_end*), where a piece that reaches the length bound is given
    back: where it ends (its hyphen, before the break) and where it starts."""
    end = buf.rindex("-", first_end - 1, start) + 1
    return end, _piece_start(buf, first_end, end, gap)


# Runs that _trim drops at once, matched in the URI reversed: sentence punctuation and
# closers (all of _TRAIL but the single quote, which has a rule of its own), and "*" or
# "_" repeated.
_MIXED_RUN = re.compile(rf"[.,;:!?\")\]}}{OTHER_TRAIL}]+")
_OTHER_TRAIL = re.compile(f"[{OTHER_TRAIL}]").match
_SAME_RUN = {c: re.compile(re.escape(c) + "+") for c in "*_"}


def _trim(uri: str, min_len: int, before: str) -> str:
    """Drop trailing sentence punctuation and unbalanced closing brackets (Appendix E).

    Runs at a time, their length matched in the URI reversed, the brackets and quotes
    counted once: a step a character, counting from the start at each, cost time
    quadratic in the length of a run (0.3 MB/s for ")" repeated)."""
    n = len(uri)
    back = ""
    quotes = -1  # single quotes in uri[:n], once counted
    budget: dict[str, int] = {}  # closers more than their openers in uri[:n]
    while n > min_len:
        c = uri[n - 1]
        if c == "'":
            if quotes < 0:
                quotes = uri.count("'", 0, n)
            if quotes % 2 == 0:
                break  # "blah_'quoted'": the quote closes one inside the URI
            n -= 1
            quotes -= 1
            continue
        if c in _TRAIL or c in _CLOSERS or (c > "\x7f" and _OTHER_TRAIL(c)):
            run_re = _MIXED_RUN
        elif c in "*_" and before == c:
            run_re = _SAME_RUN[c]
        else:
            break  # (the common case: nothing to drop, nothing reversed)
        back = back or uri[::-1]
        at = len(uri) - n
        run = back[at : run_re.match(back, at).end()][: n - min_len]  # type: ignore[union-attr]
        length = _droppable(uri, n, run, budget) if run_re is _MIXED_RUN else len(run)
        n -= length
        if length < len(run):
            break  # a closer with its opener inside
    return uri[:n]


def _droppable(uri: str, n: int, run: str, budget: dict[str, int]) -> int:
    """How much of *run* (punctuation and closers ending ``uri[:n]``, reversed) may be
    dropped: up to the first closer whose opener stands before it. *budget* keeps how
    many more of each closer than their openers ``uri[:n]`` holds (counted once), less
    those dropped. Found by halving: a count per step, never a step per character."""
    for c in _CLOSERS:
        if c in run and c not in budget:
            budget[c] = uri.count(c, 0, n) - uri.count(_CLOSERS[c], 0, n)
    lo, hi = 0, len(run)  # run[:lo] may go; run[:hi + 1] may not (or hi is its length)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if all(run.count(c, 0, mid) <= max(budget.get(c, 0), 0) for c in _CLOSERS):
            lo = mid
        else:
            hi = mid - 1
    for c in _CLOSERS:
        if c in budget:
            budget[c] -= run.count(c, 0, lo)
    return lo


def _urn_end(cfg: Config, buf: str, s: int) -> int:
    """Where the URN in text at ``s`` ends (its head, then its NSS), or -1: that end if
    the URN is shorter than the length bound, else one at or past the bound.

    The NSS is matched up to three characters past the bound, so that an escape
    ("%41") the bound would cut does not end it there: "urn:ab:urn:cd:x%41" at a bound
    of 16 is too long, not "urn:ab:urn:cd:x". A long one is kept (``cfg.text.urn``): a
    URN whose NSS starts within the pchars of its NSS ends where it does, and the
    candidates after the first in the NSS of a long rejected one (``_urn:urn:-``
    repeated in lines of 7 KB: the NID "urn" is reserved) each matched it to its end
    again (0.1 MB/s)."""
    head = _URN_HEAD.match(buf, s)  # (at most 38 characters)
    if head is None:
        return -1
    nss = head.end()
    known = cfg.text.urn
    end = -1 if known is None else known.end_for(buf, nss)
    if end >= 0:
        return end
    limit = max(s + cfg.max_len, nss) + 3
    m = _URN_NSS.match(buf, nss, limit)
    if m is None:
        return -1
    end = m.end()
    # Kept only where no character the match could take lies past the limit: a later
    # URN in its NSS, matched up to its own (later) limit, ends there too.
    if end - nss >= _RUN_KEPT and end + 3 <= limit and cfg.speed.kept:
        cfg.text.urn = Kept(buf, nss, m.end(1), end)
    return end


def _urn_text(
    cfg: Config, buf: str, s: int, raw_start: int, context: str, quote: str, final: bool
) -> Candidate | _PendingType:
    """``urn:NID:NSS`` in text: the NSS ends at an excluded character (seed 003 2.5.3)."""
    e = _urn_end(cfg, buf, s)
    if e >= 0 and not final:
        # More text could extend it: it reaches the end, or stops at a "%" escape that
        # the end of the buffer cut ("urn:x:a%7" before "e").
        rest = len(buf) - e
        if rest == 0 or (rest <= 2 and buf[e] == "%"):
            return Pending
    if e < 0 and not final and len(buf) - s < 48:
        return Pending  # "urn:" + NID (at most 32) + ":" may still be arriving
    if e < 0:
        return Candidate(
            raw_start, s + 4, context, buf[s : s + 4], reason=Reason.BAD_NID, consume=False
        )
    if e - s >= cfg.max_len:
        return Candidate(raw_start, e, context, reason=Reason.TOO_LONG, too_long=True)
    closed = bool(quote) and e < len(buf) and buf[e] == quote
    uri = buf[s:e]
    last, depth, trimmed = "", 0, 0  # the last piece joined after hyphens at line ends
    if not closed:
        whole = uri
        if uri.endswith("-") and check_urn(uri) is None:
            # (A first piece the URN's check rejects, its NID or a "%00", is not joined:
            # the URN would be rejected all the same.)
            joined = _pieces(cfg, buf, s, e, final, _urn_join)
            if isinstance(joined, _PendingType):
                return Pending
            whole, last, e, depth = joined
        uri = _trim(whole, 4, buf[raw_start - 1] if raw_start else "")
        trimmed = len(whole) - len(uri)
        e -= trimmed
        if context == "quote":
            context, raw_start = "bare", s
    found = check_urn(uri)
    if found is not None:
        # Rejected for a piece after the first (a "%00"): the pieces are passed over,
        # each URN that starts in them would be joined to that piece again.
        return Candidate(raw_start, e, context, uri, reason=found[0], consume=bool(last))
    alt = _other_reading(buf, s, e, trimmed, last, depth)
    if alt is not None and check_urn(alt) is not None:
        alt = None
    return Candidate(raw_start, e + 1 if closed else e, context, uri, "urn", "urn", alt)


def _urn_join(
    cfg: Config, buf: str, s: int, e: int, final: bool, depth: int
) -> tuple[str, str, int] | _PendingType | None:
    """A URN in text broken after a hyphen at line ends (Appendix E: a URN is a URI),
    its first piece ``buf[s:e]``, with *depth* quote markers after each break: the
    pieces joined, the last piece and where it ends, as :func:`_hyphen_join` has it for
    a URI; the chain in one match (:func:`rules.urn_chain`). A piece that reaches the
    length bound is not joined. None: no piece follows the first."""
    first = buf[s:e]
    component = 2 if "#" in first else 1 if "?" in first else 0
    chain = urn_chain(depth, component).match(buf, e, s + cfg.max_len + 3)
    assert chain is not None  # (it matches the empty string)
    end = chain.end()
    if not final:
        rest = len(buf) - end
        if (
            rest == 0
            or (buf[end - 1] == "-" and URN_CHAIN_PENDING.match(buf, end) is not None)
            or (rest <= 2 and buf[end] == "%")
        ):
            return Pending  # more text could add a piece or extend the last
    gap = _hyphen_gap(depth)
    start = _piece_start(buf, e, end, gap)
    if end - s >= cfg.max_len:  # (the first piece is shorter: past e)
        # The last piece reaches the bound: given back, the chain ends with the one
        # before it.
        end, start = _piece_before(buf, e, start, gap)
    if end == e:
        return None
    return join_breaks(buf[s:end], depth, False), buf[start:end], end
