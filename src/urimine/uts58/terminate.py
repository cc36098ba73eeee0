"""Where a link's path, query and fragment end in running text: the termination
algorithm of UTS #58 ("Termination"), driven by Link_Term and Link_Bracket.

Each part starts with its initiator (``/`` path, ``?`` query, ``#`` fragment). Inside a
part, Include and matched Close characters are kept, a Soft character is kept only when
something kept follows it, a Hard character ends the link, and an Open character is
pushed on a stack that its Link_Bracket partner pops; a Close character that matches
nothing ends the link. The stack is cleared at each part's interior syntax (``/`` in a
path, ``=`` and ``&`` in a query, ``:~:`` in a fragment) and when a new part starts, so
brackets never pair across them.
"""

from __future__ import annotations

from urimine.uts58.props import CLOSE, HARD, INCLUDE, OPEN, data

PATH, QUERY, FRAGMENT = 0, 1, 2
INITIATORS = {"/": PATH, "?": QUERY, "#": FRAGMENT}
# The characters that end each part and start the next.
TERMINATORS: tuple[dict[str, int], ...] = ({"?": QUERY, "#": FRAGMENT}, {"#": FRAGMENT}, {})
# Interior syntax: brackets do not pair across these (the fragment's is ":~:").
CLEAR_STACK: tuple[frozenset[str], ...] = (frozenset("/"), frozenset("=&"), frozenset())
FRAGMENT_DIRECTIVE = ":~:"


def scan_path_query_fragment(text: str, start: int) -> int:
    """The end of the path, query and fragment that begin at *start* in *text*, just
    after a link's host (and port); *start* itself when no part begins there.

    >>> s = "See example.com/α(β)γ/δ). Next"
    >>> s[:scan_path_query_fragment(s, 15)]
    'See example.com/α(β)γ/δ'
    """
    return path_end(text, start, len(text))[0]


def path_end(text: str, start: int, stop: int) -> tuple[int, bool]:
    """:func:`scan_path_query_fragment` reading no further than *stop*: the end, and
    whether the scan got to *stop* undecided (no Hard character, no unmatched Close
    before it: more text could make the link longer)."""
    part = INITIATORS.get(text[start]) if start < stop else None
    if part is None:
        return start, start >= stop
    props = data()
    term, brackets = props.term, props.brackets
    last_safe = start + 1
    stack: list[str] = []
    i = start + 1
    while i < stop:
        ch = text[i]
        following = TERMINATORS[part].get(ch)
        if following is not None:
            part, last_safe = following, i + 1
            stack.clear()
            i += 1
            continue
        if ch in CLEAR_STACK[part] or (part == FRAGMENT and text.startswith(":~:", i)):
            stack.clear()
        code = term.get(ord(ch))
        if code == INCLUDE:
            last_safe = i + 1
        elif code == HARD:
            return last_safe, False
        elif code == OPEN:
            stack.append(ch)
            last_safe = i + 1
        elif code == CLOSE:
            if not stack or stack.pop() != brackets.get(ch):
                return last_safe, False
            last_safe = i + 1
        i += 1
    return last_safe, True
