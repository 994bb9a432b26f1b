"""Name a file type from its first bytes (magic numbers), whatever the server claims.

`sniff` looks only at the bytes; `kind_of` says whether that type is an image
or a video (HLS/DASH manifests count as video). HTML is sniffed too, so error
pages served with 200 at a media URL can be named as such.
"""

from __future__ import annotations

import re

IMAGE_TYPES = frozenset({"png", "jpeg", "gif", "webp", "avif", "heic", "svg", "bmp", "ico", "tiff"})
VIDEO_TYPES = frozenset({"mp4", "mov", "webm", "mkv", "ogg", "mpegts", "hls", "dash"})
SNIFF_BYTES = 4096  # enough for every rule below, prolog and comments included

_BOM = b"\xef\xbb\xbf"
_HEIC_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"heif"})
_HEIF_GENERIC = frozenset({b"mif1", b"msf1"})
_AVIF_BRANDS = frozenset({b"avif", b"avis"})
_AUDIO_BRANDS = frozenset({b"M4A ", b"M4B ", b"M4P "})
# WHATWG MIME sniffing: tags that mark a document as HTML
_HTML_TAGS = (
    b"!doctype html",
    b"html",
    b"head",
    b"script",
    b"iframe",
    b"h1",
    b"div",
    b"font",
    b"table",
    b"a",
    b"style",
    b"title",
    b"b",
    b"body",
    b"br",
    b"p",
    b"meta",
    b"link",
)
# what may precede a root element: XML prolog, comments, a non-HTML doctype
_PROLOG = re.compile(rb"\s*(?:<\?xml[^>]*\?>|<!--.*?-->|<!doctype\s(?!html)[^>]*>)", re.I | re.S)
_TAG_END = (b" ", b">", b"\t", b"\n", b"\r", b"/")


def _ftyp(data: bytes) -> str | None:
    if len(data) < 12 or data[4:8] != b"ftyp":
        return None
    size = int.from_bytes(data[0:4], "big")
    major = data[8:12]
    end = min(size, len(data)) if size >= 16 else min(len(data), 64)
    compatible = {data[i : i + 4] for i in range(16, end - 3, 4)}
    brands = {major} | compatible
    if major in _AVIF_BRANDS or (major in _HEIF_GENERIC and brands & _AVIF_BRANDS):
        return "avif"
    if major in _HEIC_BRANDS or major in _HEIF_GENERIC:
        return "heic"
    if major == b"qt  ":
        return "mov"
    if major in _AUDIO_BRANDS:
        return "m4a"
    return "mp4"


def _vint(data: bytes, pos: int) -> tuple[int, int] | None:
    """An EBML variable-size integer at `pos`: (value, length) or None."""
    if pos >= len(data) or data[pos] == 0:
        return None
    first = data[pos]
    length = 8 - first.bit_length() + 1
    if pos + length > len(data):
        return None
    value = first & (0xFF >> length)
    for byte in data[pos + 1 : pos + length]:
        value = (value << 8) | byte
    return value, length


def _ebml(data: bytes) -> str:
    pos = data.find(b"\x42\x82", 4, 64)  # DocType element inside the EBML header
    if pos >= 0:
        size = _vint(data, pos + 2)
        if size is not None:
            start = pos + 2 + size[1]
            doctype = data[start : start + size[0]]
            if doctype == b"webm":
                return "webm"
    return "mkv"


def _ts_sync(data: bytes, offset: int, size: int) -> bool:
    """A sync byte 0x47 at the start of every whole packet (one packet at least, so text is not TS)."""
    if len(data) < offset + size:
        return False
    return all(data[i] == 0x47 for i in range(offset, min(len(data), offset + 8 * size), size))


def _markup(data: bytes) -> str | None:
    text = data[3:] if data.startswith(_BOM) else data
    if text.lstrip().startswith(b"#EXTM3U"):
        return "hls"
    pos = 0
    while match := _PROLOG.match(text, pos):
        pos = match.end()
    rest = text[pos:].lstrip()
    if not rest.startswith(b"<"):
        return None
    if re.match(rb"<(?:\w+:)?MPD[\s>/]", rest):
        return "dash"
    if re.match(rb"<(?:\w+:)?svg[\s>/]", rest):
        return "svg"
    lower = rest[1:].lower()
    for tag in _HTML_TAGS:
        if lower.startswith(tag) and lower[len(tag) : len(tag) + 1] in _TAG_END:
            return "html"
    return None


def sniff(first_bytes: bytes) -> str | None:
    """Name the type of a file from its first bytes, or None when unknown.

    >>> sniff(b"\\x89PNG\\r\\n\\x1a\\n...."), sniff(b"\\x00\\x00\\x00\\x18ftypqt  \\x00\\x00\\x00\\x00")
    ('png', 'mov')
    >>> sniff(b"\\xef\\xbb\\xbf  #EXTM3U\\n"), sniff(b'<?xml version="1.0"?>\\n<MPD xmlns="x">')
    ('hls', 'dash')
    >>> sniff(b"<!DOCTYPE html><title>404</title>"), sniff(b"hello")
    ('html', None)
    """
    data = first_bytes
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "webp"
    if (found := _ftyp(data)) is not None:
        return found
    if data.startswith(b"\x1a\x45\xdf\xa3"):
        return _ebml(data)
    if data.startswith(b"OggS"):
        return "ogg"
    if _ts_sync(data, 0, 188) or _ts_sync(data, 4, 192):  # M2TS: 192-byte packets, 4-byte timecode
        return "mpegts"
    if data.startswith((b"II*\x00", b"MM\x00*")):
        return "tiff"
    if data.startswith(b"\x00\x00\x01\x00") and len(data) >= 6 and data[4:6] != b"\x00\x00":
        return "ico"
    if data.startswith(b"BM") and len(data) >= 14 and data[6:10] == b"\x00\x00\x00\x00":
        return "bmp"
    return _markup(data)


def kind_of(sniffed: str | None) -> str | None:
    """The kind a sniffed type proves: "image", "video" (manifests included) or None.

    >>> kind_of("webp"), kind_of("hls"), kind_of("html"), kind_of(None)
    ('image', 'video', None, None)
    """
    if sniffed in IMAGE_TYPES:
        return "image"
    if sniffed in VIDEO_TYPES:
        return "video"
    return None
