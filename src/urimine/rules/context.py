"""The rules' view of one scanner: its rule set, its speed switches and its memos, read
by every site (flat attributes: the sites read them once per trigger)."""

from __future__ import annotations

import re

from urimine.fast.memos import Memos
from urimine.rules.config import Config
from urimine.rules.labels import never_labels
from urimine.speed import Speed

__all__ = ["Context"]


class Context:
    """Per scanner: the :class:`Config` it was built with, its :class:`Speed` and memos."""

    __slots__ = (
        "any_scheme",
        "bare",
        "cfg",
        "escaped",
        "guess",
        "guessing",
        "hits_only",
        "kept",
        "label_free",
        "labels",
        "max_len",
        "memo",
        "rules",
        "run",
        "schemes",
        "shortcut",
        "slashed",
        "speed",
        "tuning",
        "web_chars",
        "wrapped",
    )

    def __init__(self, cfg: Config, speed: Speed, memo: Memos | None = None) -> None:
        self.cfg = cfg
        self.rules: frozenset[str] = cfg.rules
        self.schemes: frozenset[str] = cfg.schemes
        self.max_len: int = cfg.max_len
        self.run: re.Pattern[str] = cfg.run
        self.any_scheme = "any-scheme" in cfg.rules
        self.bare = "bare" in cfg.rules
        self.slashed = bool({"slashed", "glued"} & cfg.rules)
        self.labels = "labels" in cfg.rules
        self.label_free = never_labels() if self.labels else frozenset()
        """The schemes the labels rule never rejects (checked first: most hits')."""
        self.escaped = "escaped" in cfg.rules
        self.wrapped = "wrapped" in cfg.rules
        self.web_chars = "web-chars" in cfg.rules
        self.speed = speed
        self.tuning = speed.tuning
        self.shortcut = speed.shortcut and self.bare
        self.kept = speed.kept
        self.hits_only = False
        """Whether the scanner reports hits only and ``Speed.hits_only`` is on: a site
        may then answer a rejection it is sure of without reading the whole candidate."""
        self.memo = memo if memo is not None else Memos()
        self.guessing = speed.scheme_guess
        self.guess = self.memo.guess if self.guessing else [("-" * 65, "")]
        """The scheme guess (:attr:`Memos.guess`); one that never holds where it is off."""
