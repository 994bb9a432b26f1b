"""Deterministic media bytes for fixture sites: real image files, container-valid videos."""

from __future__ import annotations

import hashlib
import io
import struct
from functools import lru_cache

from PIL import Image

IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
VIDEO_TYPES = {
    "mp4": "video/mp4",
    "webm": "video/webm",
    "ts": "video/mp2t",
    "m3u8": "application/vnd.apple.mpegurl",
    "mpd": "application/dash+xml",
}


def _colour(seed: str) -> tuple[int, int, int]:
    digest = hashlib.sha256(seed.encode()).digest()
    return digest[0], digest[1], digest[2]


@lru_cache(maxsize=512)
def image_bytes(fmt: str, seed: str = "x", size: tuple[int, int] = (32, 24)) -> bytes:
    """A small real image in `fmt` (png, jpeg, gif, webp), distinct per seed."""
    img = Image.new("RGB", size, _colour(seed))
    buf = io.BytesIO()
    img.save(buf, format={"jpeg": "JPEG", "png": "PNG", "gif": "GIF", "webp": "WEBP"}[fmt])
    return buf.getvalue()


def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def mp4_bytes(seed: str = "x") -> bytes:
    """An ISO-BMFF file: ftyp, a moov with an mvhd, and an mdat."""
    ftyp = _box(b"ftyp", b"isom" + struct.pack(">I", 512) + b"isomiso2avc1mp41")
    mvhd = _box(b"mvhd", bytes(4) + struct.pack(">IIII", 0, 0, 1000, 0) + bytes(80))
    moov = _box(b"moov", mvhd)
    mdat = _box(b"mdat", hashlib.sha256(seed.encode()).digest() * 8)
    return ftyp + moov + mdat


def webm_bytes(seed: str = "x") -> bytes:
    """An EBML header with DocType webm followed by a Segment element."""
    doctype = b"\x42\x82\x84webm"
    header = b"\x1a\x45\xdf\xa3" + bytes([0x80 | len(doctype)]) + doctype
    payload = hashlib.sha256(seed.encode()).digest() * 4
    segment = b"\x18\x53\x80\x67" + bytes([0x80 | 0x7F]) + payload[:127]
    return header + segment


def ts_bytes(seed: str = "x", packets: int = 4) -> bytes:
    """MPEG-TS packets: 188 bytes each, sync byte 0x47."""
    fill = hashlib.sha256(seed.encode()).digest()
    packet = b"\x47\x40\x00\x10" + (fill * 6)[:184]
    return packet * packets


def hls_manifest(segment_urls: list[str]) -> bytes:
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4"]
    for url in segment_urls:
        lines += ["#EXTINF:4.0,", url]
    lines.append("#EXT-X-ENDLIST")
    return ("\n".join(lines) + "\n").encode()


def dash_manifest(media_url: str) -> bytes:
    return (
        '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static">'
        f'<Period><AdaptationSet><Representation id="1" bandwidth="1000"><BaseURL>{media_url}</BaseURL>'
        "</Representation></AdaptationSet></Period></MPD>\n"
    ).encode()


def media_bytes(fmt: str, seed: str = "x") -> tuple[bytes, str]:
    """Bytes and Content-Type for any supported format name."""
    if fmt in IMAGE_TYPES:
        return image_bytes(fmt, seed), IMAGE_TYPES[fmt]
    if fmt == "mp4":
        return mp4_bytes(seed), VIDEO_TYPES[fmt]
    if fmt == "webm":
        return webm_bytes(seed), VIDEO_TYPES[fmt]
    if fmt == "ts":
        return ts_bytes(seed), VIDEO_TYPES[fmt]
    raise ValueError(f"unknown media format {fmt!r}")
