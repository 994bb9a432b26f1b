"""The WARC files of one crawler process: named by worker and serial, rotated past a size, appended on resume.

Each record is gzipped on its own (a member per record), so a file that a crawl stopped in the middle of
is still valid up to its last whole record, and a resumed crawl (`JOBDIR`) appends to the last file of
its series instead of clobbering it, starting with a new `warcinfo` record (after cutting off a record a
kill left half-written). Records are written as they
come: nothing is held in memory but the record being written.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from warcio.recordloader import ArcWarcRecord
from warcio.warcwriter import WARCWriter

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SUFFIXES = (".warc.gz", ".warc")


def warc_path(base: str, serial: int, worker: str = "") -> str:
    """The path of file `serial` (0, 1, …) of a series: the worker's name and the serial go before the suffix.

    >>> warc_path("out/crawl.warc.gz", 0), warc_path("out/crawl.warc.gz", 2)
    ('out/crawl.warc.gz', 'out/crawl-00002.warc.gz')
    >>> warc_path("crawl.warc.gz", 0, "node1:412"), warc_path("crawl", 1, "w")
    ('crawl-node1-412.warc.gz', 'crawl-w-00001.warc.gz')
    """
    suffix = next((s for s in _SUFFIXES if base.endswith(s)), "")
    stem = base[: len(base) - len(suffix)] if suffix else base
    name = _SAFE.sub("-", worker).strip("-")
    parts = [stem] + ([name] if name else []) + ([f"{serial:05d}"] if serial else [])
    return "-".join(parts) + (suffix or ".warc.gz")


def last_serial(base: str, worker: str, exists: Callable[[str], bool] = os.path.exists) -> int:
    """The serial of the last file of the series already on disk (0 when there is none): a resume goes on there.

    >>> on_disk = {"c.warc.gz", "c-00001.warc.gz"}
    >>> last_serial("c.warc.gz", "", on_disk.__contains__), last_serial("d.warc.gz", "", on_disk.__contains__)
    (1, 0)
    """
    serial = 0
    while exists(warc_path(base, serial + 1, worker)):
        serial += 1
    return serial


def whole_members_end(path: str, chunk: int = 1 << 20) -> int:
    """The offset just past the file's last whole gzip member: where a record cut by a kill begins.

    Each record is one member, so a crawl killed while writing one leaves a member without its end; the
    resumed crawl cuts it off before appending (else every record after it would be unreadable).

    >>> import gzip, tempfile
    >>> whole = gzip.compress(b"one") + gzip.compress(b"two")
    >>> with tempfile.NamedTemporaryFile(delete=False) as fh:
    ...     _ = fh.write(whole + gzip.compress(b"three")[:-5])
    >>> whole_members_end(fh.name) == len(whole)
    True
    """
    end = pos = 0
    inflate = zlib.decompressobj(wbits=31)
    with open(path, "rb") as fh:
        while data := fh.read(chunk):
            while data:
                try:
                    inflate.decompress(data)
                except zlib.error:  # not gzip from here on: keep what was whole
                    return end
                if not inflate.eof:
                    pos += len(data)
                    break
                used = len(data) - len(inflate.unused_data)
                pos += used
                end = pos
                data = inflate.unused_data
                inflate = zlib.decompressobj(wbits=31)
    return end


class RotatingWarcWriter:
    """Append records to the series' current file; past `max_bytes`, go on in the next one."""

    def __init__(self, base: str, *, worker: str = "", max_bytes: int = 1024**3,
                 warcinfo: Callable[[str], ArcWarcRecord] | None = None) -> None:
        self.base, self.worker, self.max_bytes = base, worker, max_bytes
        self.warcinfo = warcinfo
        self.serial = last_serial(base, worker)
        self.paths: list[str] = []  # every file this writer wrote to, in order
        self.counts: dict[str, int] = {}  # records written, by WARC-Type
        self._file: IO[bytes] | None = None
        self._writer: Any = None

    @property
    def path(self) -> str:
        return warc_path(self.base, self.serial, self.worker)

    def _open(self) -> None:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        if os.path.exists(self.path) and self.path not in self.paths:  # a resume: cut a record a kill left half-written
            end = whole_members_end(self.path)
            if end < os.path.getsize(self.path):
                os.truncate(self.path, end)
        self._file = open(self.path, "ab")  # held open across records, closed in close()
        self._writer = WARCWriter(self._file, gzip=True)
        self.paths.append(self.path)
        if self.warcinfo is not None:
            self._write(self.warcinfo(os.path.basename(self.path)))

    def write(self, record: ArcWarcRecord) -> None:
        if self._file is not None and self._file.tell() >= self.max_bytes:
            self.close()
            self.serial += 1
        if self._file is None:
            self._open()
        self._write(record)

    def _write(self, record: ArcWarcRecord) -> None:
        self._writer.write_record(record)
        kind = str(record.rec_type)
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
