"""The unit of scanning: one stretch of decoded text with its provenance."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from urimine.sources.labels import Labels


class CutBytes(bytes):
    """The bytes of a mail message that stop short of its real end (the stream broke
    inside it): its text is not taken to end where these do. Plain ``bytes`` otherwise,
    so it travels to worker processes like them."""


class Ending:
    """What is learnt of a unit's text as it is read: whether it stopped short of its
    real end (a truncated or corrupt stream, a file that shrank, a cap), and where its
    stretches came from (:class:`~urimine.sources.labels.Labels`: a header field, an
    HTML attribute). Shared by the copies of a unit (``dataclasses.replace``, the
    worker processes' copies without text), so whoever scans any of them sees it."""

    __slots__ = ("cut", "labels")

    def __init__(self, cut: bool = False, labels: Labels | None = None) -> None:
        self.cut = cut
        self.labels = labels


@dataclass(slots=True)
class Unit:
    """Decoded text of one document part, as chunks, with where it came from.

    A *document* is a file, a mail message or a WARC record; a document may have
    several units (mail header fields, each text part of a message). Units of one
    document share ``source`` and ``doc_index``.
    """

    source: str
    """The input path as given on the command line, or ``-`` for stdin."""
    chunks: Iterable[str]
    """The decoded text, in any chunking; consumed once."""
    doc_index: int = 0
    """0-based position of the document within its source (message or record number)."""
    part: str | None = None
    """Where in the document: ``headers``, a MIME part path such as ``1.2``, or None."""
    base_uri: str | None = None
    """Base URI for resolving relative references (Content-Base, <base href>, WARC-Target-URI)."""
    message_id: str | None = None
    record_id: str | None = None
    target_uri: str | None = None
    is_mail: bool = False
    is_warc: bool = False
    defects: list[str] = field(default_factory=list)
    """Non-fatal problems met while decoding (bad base64, unknown charset, ...)."""
    raw: bytes | None = None
    """With ``open_units(raw_mail=True)``: a whole undecoded mail message, whose units
    :func:`urimine.sources.mail.message_units` makes (in a worker process); no chunks."""
    raw_mbox: bool = False
    """``raw`` holds a stretch of whole mbox messages (``From `` lines included), not one
    message: :func:`urimine.sources.mbox.mbox_messages` splits it. ``doc_index`` is 0 for
    the first stretch of an mbox and -1 for the next ones: whoever splits them numbers
    the messages on."""
    file_range: tuple[int, int] | None = None
    """With ``open_units(file_ranges=True)``, for an uncompressed UTF-8 text file larger
    than those read whole (``urimine.sources.SMALL_FILE``): the byte range of ``source``
    whose decoding (errors replaced) is this unit's text, so that worker processes can
    read parts of it themselves (:mod:`urimine.parallel`). A consumer that does so sets
    ``chunks`` to ``()``: the file is then not read here.
    With ``raw_mbox`` (and ``raw_mail`` too): the byte range of an uncompressed mbox,
    whose messages the workers split and decode, no ``raw``."""
    ending: Ending = field(default_factory=Ending)
    """Whether the text reached its real end: final when the unit is yielded for a
    unit whose chunks are a list or tuple, else once its chunks are exhausted. A
    scanner must not close (flush its undecided tail) on a text cut short: a candidate
    still open there was cut, not ended (``urimine.unit_scan.text_hits``)."""

    @property
    def truncated(self) -> bool:
        """True when the text stops short of its real end (see :attr:`ending`)."""
        return self.ending.cut
