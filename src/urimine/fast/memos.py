"""What a scanner remembers between candidates: the last scheme looked up, and what the
rules read of the text for the candidates after in the same stretch (each entry holds
the text it was read from and serves only that text; :meth:`Memos.forget_text` drops
them when a scan returns)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from urimine.rules.brackets import Levels
    from urimine.rules.chains import Chain, Matched

__all__ = ["Kept", "Memos"]


class Kept(NamedTuple):
    """Where a match made in ``buf`` ends: one that starts anywhere in ``[lo, hi)`` ends
    at ``end`` too, or ``reach`` characters after its start where that is sooner (a
    match bounded in length)."""

    buf: str
    lo: int
    hi: int
    end: int
    reach: int = 1 << 62

    def end_for(self, buf: str, pos: int) -> int:
        """The kept end for a match from *pos* in *buf*, or -1 if it does not apply."""
        if self.buf is not buf or not self.lo <= pos < self.hi:
            return -1
        return self.end if self.end - pos <= self.reach else pos + self.reach


class Memos:
    """One scanner's memos."""

    __slots__ = ("brackets", "chain", "defanged", "guess", "head", "json", "run", "urn")

    guess: list[tuple[str, str]]
    """The last registered scheme the colon rule looked up, as written and lowered (the
    list's one item): tried first at the next colon (text repeats its schemes). The
    first is longer than any scheme, so it never holds."""
    chain: Chain | Matched | None
    """The hyphen chain matched last (:mod:`urimine.rules.chains`)."""
    run: Kept | None
    """The last long run of URI characters matched (:func:`urimine.rules.delimit.run_end`)."""
    head: tuple[str, int, int, int] | None
    """Where the head of the last run read ends (:mod:`urimine.rules.bare`): in ``buf``,
    the head of the run that ends at ``end`` read from anywhere in ``[lo, at]`` ends
    at ``at``, as ``(buf, end, lo, at)``."""
    urn: Kept | None
    """The last long URN in text matched (:mod:`urimine.rules.urn_text`)."""
    json: Kept | None
    """The last run of a JSON-escaped URI read (:mod:`urimine.rules.escaped`)."""
    brackets: dict[str, Levels]
    """The bracket levels of the last run that counted many, by opener."""
    defanged: Kept | None
    """The last token the defanged rule found no indicator in (:mod:`urimine.rules.defanged`)."""

    def __init__(self) -> None:
        self.guess = [("-" * 65, "")]
        self.forget_text()

    def forget_text(self) -> None:
        """Drop what was kept of a text."""
        self.chain = self.run = self.urn = self.defanged = self.head = self.json = None
        self.brackets = {}
