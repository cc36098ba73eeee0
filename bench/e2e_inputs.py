"""The inputs of ``bench/e2e.py``, made once into a cache folder and reused when present.

Each input is built in a ``.partial`` folder and renamed when complete, beside a stamp
naming its recipe, so an interrupted build or a changed recipe is built again, never
half used.
"""

from __future__ import annotations

import gzip
import itertools
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# The two text corpora of the issue: the RFC bulk sample and the Gutenberg newsletters.
TEXT_SOURCES = {
    "rfc.txt": "docs/rfc-bulk-sample.txt.gz",
    "prose.txt": "docs/gutenberg-newsletters.txt.gz",
}
SMALL_FILES = 20_000
SMALL_SIZES = (500, 5000)
SMALL_SEED = 29
# A tree three levels deep: 20 folders of 10 folders of 100 files.
SMALL_FANOUT = (20, 10)


@dataclass
class Inputs:
    """Paths of the made inputs."""

    empty: Path
    text: list[Path]
    mail: list[Path]
    small: Path
    small_count: int

    @property
    def index_source(self) -> Path:
        """The mbox a small index is built from, for ``query DB stats``."""
        return next(p for p in self.mail if p.name == "notmuch-test-corpora.mbox")

    @property
    def text_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.text)

    @property
    def mail_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.mail)


def _made(cache: Path, name: str, recipe: str, build: Callable[[Path], None]) -> Path:
    """``cache/name``, built by ``build(folder)`` unless already there for ``recipe``."""
    target, stamp = cache / name, cache / f"{name}.done"
    if target.exists() and stamp.exists() and stamp.read_text() == recipe:
        return target
    partial = cache / f"{name}.partial"
    for stale in (partial, target):
        if stale.is_dir():
            shutil.rmtree(stale)
        elif stale.exists():
            stale.unlink()
    stamp.unlink(missing_ok=True)
    build(partial)
    partial.rename(target)
    stamp.write_text(recipe)
    return target


def _read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def mail_sources(corpora: Path) -> list[Path]:
    """The issue's 41.5 MB of real mbox: ``mail/*.mbox.gz`` and the notmuch test corpus."""
    mail = corpora / "mail"
    return [*sorted(mail.glob("*.mbox.gz")), mail / "notmuch-test-corpora.mbox"]


def _plain_name(path: Path) -> str:
    return path.name.removesuffix(".gz")


def make_text(cache: Path, corpora: Path) -> list[Path]:
    def build(folder: Path) -> None:
        folder.mkdir()
        for name, source in TEXT_SOURCES.items():
            (folder / name).write_bytes(_read(corpora / source))

    folder = _made(cache, "text", f"text v1 {sorted(TEXT_SOURCES.items())}", build)
    return [folder / name for name in TEXT_SOURCES]


def make_mail(cache: Path, corpora: Path) -> list[Path]:
    sources = mail_sources(corpora)

    def build(folder: Path) -> None:
        folder.mkdir()
        for source in sources:
            (folder / _plain_name(source)).write_bytes(_read(source))

    folder = _made(cache, "mail", f"mail v1 {[p.name for p in sources]}", build)
    return sorted(folder / _plain_name(source) for source in sources)


def _pieces(text: bytes, count: int, seed: int) -> list[bytes]:
    """``count`` pieces of 0.5-5 KB of ``text`` at seeded random offsets, each from a line
    start to a line end where one falls in range (so no UTF-8 sequence is cut there)."""
    rng = random.Random(seed)
    low, high = SMALL_SIZES
    pieces = []
    for _ in range(count):
        size = rng.randint(low, high)
        start = text.find(b"\n", rng.randrange(len(text) - 2 * high)) + 1
        end = text.rfind(b"\n", start + low, start + size) + 1 or start + size
        pieces.append(text[start:end])
    return pieces


def make_small(cache: Path, text: list[Path]) -> Path:
    def build(folder: Path) -> None:
        pieces = _pieces(b"".join(p.read_bytes() for p in text), SMALL_FILES, SMALL_SEED)
        outer, inner = SMALL_FANOUT
        per_folder = SMALL_FILES // (outer * inner)
        for number, piece in enumerate(pieces):
            leaf = number // per_folder
            sub = folder / f"d{leaf // inner:02d}" / f"e{leaf % inner:02d}"
            if number % per_folder == 0:
                sub.mkdir(parents=True)
            (sub / f"doc{number:05d}.txt").write_bytes(piece)

    recipe = f"small v1 {SMALL_FILES} {SMALL_SIZES} seed {SMALL_SEED} {SMALL_FANOUT}"
    return _made(cache, "small", recipe, build)


def make_inputs(cache: Path, corpora: Path) -> Inputs:
    cache.mkdir(parents=True, exist_ok=True)
    empty = cache / "empty.txt"
    empty.write_bytes(b"")
    text = make_text(cache, corpora)
    return Inputs(
        empty=empty,
        text=text,
        mail=make_mail(cache, corpora),
        small=make_small(cache, text),
        small_count=SMALL_FILES,
    )


def _repeat_into(target: Path, parts: list[bytes], size: int) -> None:
    """``parts`` written in turn, again and again, until ``size`` bytes are reached."""
    written = 0
    with target.open("wb") as fh:
        for part in itertools.cycle(parts):
            if written >= size:
                break
            fh.write(part)
            written += len(part)


def _mbox_part(data: bytes) -> bytes:
    """An mbox file ending in one blank line, so the next file's ``From`` line starts a
    message when the files are concatenated."""
    return data.rstrip(b"\n") + b"\n\n"


def make_big(cache: Path, inputs: Inputs, megabytes: int) -> tuple[Path, Path]:
    """The fresh text and the mbox set, each repeated to at least ``megabytes`` MB."""
    size = megabytes * 1_000_000

    def text(path: Path) -> None:
        _repeat_into(path, [p.read_bytes() for p in inputs.text], size)

    def mail(path: Path) -> None:
        _repeat_into(path, [_mbox_part(p.read_bytes()) for p in inputs.mail], size)

    return (
        _made(cache, f"big-text-{megabytes}mb.txt", f"big text v2 {megabytes}", text),
        _made(cache, f"big-mail-{megabytes}mb.mbox", f"big mail v2 {megabytes}", mail),
    )
