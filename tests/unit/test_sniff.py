"""Magic-byte sniffing: a table of real and edge-case first bytes."""

from __future__ import annotations

import struct

import pytest

from bara_scrapy.bench.media import (
    dash_manifest,
    hls_manifest,
    image_bytes,
    mp4_bytes,
    ts_bytes,
    webm_bytes,
)
from bara_scrapy.verify import SNIFF_BYTES, kind_of, sniff


def ftyp(major: bytes, *compatible: bytes) -> bytes:
    payload = major + b"\x00\x00\x00\x00" + b"".join(compatible)
    return struct.pack(">I", 8 + len(payload)) + b"ftyp" + payload + b"\x00\x00\x00\x08free"


def ebml(doctype: bytes) -> bytes:
    element = b"\x42\x82" + bytes([0x80 | len(doctype)]) + doctype
    version = b"\x42\x86\x81\x01"
    header = version + element
    return b"\x1a\x45\xdf\xa3" + bytes([0x80 | len(header)]) + header + b"\x18\x53\x80\x67"


def m2ts(packets: int = 3) -> bytes:
    return b"".join(b"\x00\x00\x00\x00" + ts_bytes(packets=1) for _ in range(packets))


SNIFF_TABLE: list[tuple[str, bytes, str | None]] = [
    # real images and containers from the fixture generator
    ("png", image_bytes("png"), "png"),
    ("jpeg", image_bytes("jpeg"), "jpeg"),
    ("gif", image_bytes("gif"), "gif"),
    ("webp", image_bytes("webp"), "webp"),
    ("mp4", mp4_bytes(), "mp4"),
    ("webm", webm_bytes(), "webm"),
    ("ts", ts_bytes(), "mpegts"),
    ("hls", hls_manifest(["a.ts"]), "hls"),
    ("dash", dash_manifest("v.mp4"), "dash"),
    # ISO-BMFF brands
    ("quicktime", ftyp(b"qt  ", b"qt  "), "mov"),
    ("avif major", ftyp(b"avif", b"mif1", b"miaf"), "avif"),
    ("avif sequence", ftyp(b"avis", b"msf1"), "avif"),
    ("avif via mif1", ftyp(b"mif1", b"avif", b"miaf"), "avif"),
    ("heic", ftyp(b"heic", b"mif1"), "heic"),
    ("heif generic", ftyp(b"mif1", b"heic"), "heic"),
    ("m4a audio", ftyp(b"M4A ", b"isom"), "m4a"),
    ("iso5 dash segment", ftyp(b"iso5", b"dash"), "mp4"),
    ("3gp", ftyp(b"3gp4", b"isom"), "mp4"),
    ("ftyp too short", b"\x00\x00\x00\x14ftyp", None),
    # EBML
    ("matroska", ebml(b"matroska"), "mkv"),
    ("webm doctype", ebml(b"webm"), "webm"),
    ("ebml without doctype", b"\x1a\x45\xdf\xa3\x80", "mkv"),
    # other containers
    ("ogg", b"OggS\x00\x02" + bytes(22), "ogg"),
    ("ts one packet", ts_bytes(packets=1), "mpegts"),
    ("ts cut at 200", ts_bytes()[:200], "mpegts"),
    ("ts shorter than a packet", ts_bytes()[:187], None),
    ("ts second sync missing", ts_bytes(packets=1) + b"x" * 20, None),
    ("m2ts", m2ts(), "mpegts"),
    ("G text", b"G" * 100, None),
    # other images
    ("tiff le", b"II*\x00\x08\x00\x00\x00", "tiff"),
    ("tiff be", b"MM\x00*\x00\x00\x00\x08", "tiff"),
    ("ico", b"\x00\x00\x01\x00\x01\x00\x10\x10", "ico"),
    ("bmp", b"BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00", "bmp"),
    ("BM text", b"BMW is a car brand", None),
    ("svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>", "svg"),
    ("svg with prolog", b'<?xml version="1.0"?>\n<!-- made by hand -->\n<svg width="1">', "svg"),
    ("svg doctype", b'<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg>', "svg"),
    # manifests with noise in front
    ("hls bom and whitespace", b"\xef\xbb\xbf\r\n  #EXTM3U\n#EXT-X-VERSION:3", "hls"),
    ("hls lowercase", b"#extm3u\n", None),
    ("dash bare", b"<MPD xmlns='urn:mpeg:dash:schema:mpd:2011'>", "dash"),
    ("dash bom comment", b"\xef\xbb\xbf<?xml version='1.0'?>\n<!-- x -->\n\n<MPD\n type='static'>", "dash"),
    ("dash prefixed", b"<?xml version='1.0'?><mpd:MPD xmlns:mpd='urn'>", "dash"),
    ("xml not dash", b"<?xml version='1.0'?><MPDX/>", None),
    # HTML error pages
    ("html doctype", b"<!DOCTYPE html>\n<html><title>404</title>", "html"),
    ("html lower", b"  \n<html lang=en>", "html"),
    ("html bom", b"\xef\xbb\xbf<!doctype html>", "html"),
    ("html comment first", b"<!-- cdn error -->\n<head><title>x</title>", "html"),
    ("html body only", b"<body>Access denied</body>", "html"),
    ("html p", b"<p>Not found</p>", "html"),
    ("html xhtml prolog", b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">', "html"),
    ("tag prefix is not html", b"<bogus>", None),
    # unknown
    ("empty", b"", None),
    ("json", b'{"error": "not found"}', None),
    ("text", b"Not Found", None),
    ("riff wave", b"RIFF\x00\x00\x00\x00WAVEfmt ", None),
]


@pytest.mark.parametrize(("name", "data", "expected"), SNIFF_TABLE, ids=[row[0] for row in SNIFF_TABLE])
def test_sniff(name: str, data: bytes, expected: str | None) -> None:
    assert sniff(data) == expected


REAL_FILES = SNIFF_TABLE[:9]


@pytest.mark.parametrize(("name", "data", "expected"), REAL_FILES, ids=[row[0] for row in REAL_FILES])
def test_sniff_reads_only_the_ranged_prefix(name: str, data: bytes, expected: str | None) -> None:
    """What follows the first SNIFF_BYTES (the rest of a big file) never matters."""
    assert sniff((data * (SNIFF_BYTES // len(data) + 2))[:SNIFF_BYTES]) == expected


KIND_TABLE = [
    *[(t, "image") for t in ("png", "jpeg", "gif", "webp", "avif", "heic", "svg", "bmp", "ico", "tiff")],
    *[(t, "video") for t in ("mp4", "mov", "webm", "mkv", "ogg", "mpegts", "hls", "dash")],
    ("html", None),
    ("m4a", None),
    (None, None),
    ("unheard-of", None),
]


@pytest.mark.parametrize(("sniffed", "kind"), KIND_TABLE)
def test_kind_of(sniffed: str | None, kind: str | None) -> None:
    assert kind_of(sniffed) == kind
