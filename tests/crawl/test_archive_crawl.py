"""The crawl's WARC and WACZ: valid for warcio, replayed by pywb with every page and verified medium.

One crawl of a generated gallery site (real images, an MP4, an HLS manifest, a broken image) with
`BARA_WARC` and `BARA_WACZ`; the site server is stopped before pywb starts, so every replayed byte
comes from the archive.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.archive.wacz import check_wacz
from bara_scrapy.bench.server import SiteServer
from bara_scrapy.report.data import ReportMeta, build_report_data
from tests.archive_utils import bodies, check_replay, records
from tests.crawl_utils import run_crawl
from tests.gallery_site import build_gallery_site
from tests.service_utils import PywbServer

PAGES = 8  # pages 0-7: images, MP4 (1, 6), an HLS manifest (3), a broken image (2); reflection on page 6

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="Debian chromium not installed"),
]


@dataclass
class Archived:
    warc: Path
    wacz: Path
    items: list[dict[str, Any]]
    originals: dict[str, bytes]  # every URL the site serves -> its bytes, read from the site
    stats: dict[str, Any]


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> Archived:
    tmp = tmp_path_factory.mktemp("archive")
    warc, wacz = tmp / "crawl.warc.gz", tmp / "crawl.wacz"
    site = build_gallery_site(PAGES)
    with SiteServer(site) as server:
        out = run_crawl(server.url("/"), tmp_path=tmp, args={"max_pages": PAGES, "max_width": 10, "max_depth": 3},
                        settings={"BARA_WARC": warc, "BARA_WACZ": wacz})
        originals = bodies(site, server)
    return Archived(warc, wacz, list(out), originals, out.stats)


def test_warc_is_valid_and_holds_each_page_and_verified_medium(archived: Archived) -> None:
    check = subprocess.run([sys.executable, "-m", "warcio.cli", "check", "-v", str(archived.warc)],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-3000:]
    assert "digest pass" in check.stdout and "digest fail" not in check.stdout
    index = subprocess.run([sys.executable, "-m", "warcio.cli", "index", "-f", "warc-type,warc-target-uri,offset",
                            str(archived.warc)], capture_output=True, text=True, timeout=120)
    assert index.returncode == 0, index.stderr
    entries = [json.loads(line) for line in index.stdout.splitlines()]

    found = records(archived.warc)
    assert len(entries) == len(found) and found[0][0] == "warcinfo"
    assert b"seed: " in found[0][3] and b"BARA_MAX_PAGES: 8" in found[0][3]
    by_type = Counter(kind for kind, *_ in found)
    ok = [i for i in archived.items if i["status"] == "ok"]
    fetched = [i for i in archived.items if i["http_status"] is not None]
    assert len(archived.items) == PAGES and len(ok) >= PAGES - 1
    assert by_type["metadata"] == PAGES and by_type["request"] == len(fetched)
    # the rendered DOM of each page rendered in the browser; a page served over HTTP is its response alone
    rendered = [i for i in fetched if i["render"]["path"] == "browser"]
    assert rendered and by_type["conversion"] == len(rendered)
    assert all(headers.get("WARC-Payload-Digest", "").startswith("sha1:") for kind, *_, headers in found
               if kind != "warcinfo")

    responses = {uri: (status, payload, headers) for kind, uri, status, payload, headers in found
                 if kind == "response"}
    ids = {headers["WARC-Record-ID"]: uri for uri, (_, _, headers) in responses.items()}
    for item in fetched:  # the document as the server sent it: the site's own bytes
        status, payload, _ = responses[item["url"]]
        assert status == item["http_status"]
        if status == 200:
            assert payload == archived.originals[item["url"]]
    for kind, uri, _, payload, headers in found:
        if kind == "conversion":  # the rendered DOM, linked to the document it was rendered from
            page = headers["WARC-Refers-To-Target-URI"]
            assert uri == f"urn:bara:dom:{page}" and ids[headers["WARC-Refers-To"]] == page
            assert b"<html" in payload
        if kind == "metadata":
            meta = json.loads(payload)
            item = next(i for i in archived.items if i["url"] == meta["url"])
            assert (meta["bfs_index"], meta["status"], len(meta["attempts"])) == (
                item["bfs_index"], item["status"], len(item["attempts"]))
            assert meta["images"] == item["images"] and meta["rejected_media"] == item["rejected_media"]

    verified = {m["url"] for i in archived.items for m in i["images"] + i["videos"]}
    rejected = {m["url"] for i in archived.items for m in i["rejected_media"]}
    assert verified and rejected
    for url in verified:  # every verified medium, whole, as served
        status, payload, _ = responses[url]
        assert status == 200 and payload == archived.originals[url]
    assert not rejected & responses.keys()  # rejected media are not archived at all
    assert archived.stats["bara/warc/records/response"] == by_type["response"]


def assert_replays(pywb: PywbServer, archived: Archived) -> None:
    """Every ok page (as served, and rewritten for a reader) and its verified media; no rejected medium."""
    replay = check_replay(pywb, archived.items, archived.originals)
    assert replay.failures == []
    assert replay.pages and replay.media and replay.rejected


def test_pywb_replays_each_page_with_its_images(archived: Archived, tmp_path: Path) -> None:
    pywb = PywbServer(tmp_path / "pywb").start([archived.warc])
    try:
        assert_replays(pywb, archived)
        # the report's replay links (`scrapy bara-report --replay`) open each page in pywb
        base = pywb.replay_url("", modifier="", timestamp="").rstrip("/")
        pages = build_report_data(archived.items, ReportMeta(replay_base=base))["pages"]
        links = [p["replay"] for p in pages if p["status"] == "ok"]
        assert len(links) == sum(i["status"] == "ok" for i in archived.items)
        for link in links:
            with urllib.request.urlopen(link, timeout=30) as resp:
                assert resp.status == 200 and link.split("/", 5)[5].encode() in resp.read()
    finally:
        pywb.stop()


def test_wacz_validates_and_replays_in_pywb_from_its_own_index(archived: Archived, tmp_path: Path) -> None:
    assert check_wacz(str(archived.wacz)) == []
    with zipfile.ZipFile(archived.wacz) as zf:
        names = set(zf.namelist())
        assert {"archive/crawl.warc.gz", "indexes/index.cdx", "pages/pages.jsonl", "datapackage.json",
                "datapackage-digest.json"} <= names
        assert zf.read("archive/crawl.warc.gz") == archived.warc.read_bytes()
        header, *rows = [json.loads(line) for line in zf.read("pages/pages.jsonl").splitlines()]
        index = zf.read("indexes/index.cdx").decode().splitlines()
        package = json.loads(zf.read("datapackage.json"))
    assert header["format"] == "json-pages-1.0" and package["wacz_version"] == "1.1.1"
    ok = [i for i in archived.items if i["status"] == "ok"]
    assert sorted(r["url"] for r in rows) == sorted(i["final_url"] for i in ok)
    assert {r["title"] for r in rows} == {i["title"] for i in ok}
    assert index == sorted(index)  # CDXJ: sorted by SURT key and timestamp
    indexed = {json.loads(line.split(" ", 2)[2])["url"] for line in index}
    verified = {m["url"] for i in archived.items for m in i["images"] + i["videos"]}
    assert {i["url"] for i in ok} | verified <= indexed

    bad = tmp_path / "bad.wacz"  # the check sees a changed byte
    with zipfile.ZipFile(archived.wacz) as src, zipfile.ZipFile(bad, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            dst.writestr(name, data + b"\n" if name == "pages/pages.jsonl" else data)
    assert check_wacz(str(bad)) == ["pages/pages.jsonl: hash or size mismatch"]

    pywb = PywbServer(tmp_path / "pywb").start([archived.wacz])  # unpacked with the WACZ's own index
    try:
        assert_replays(pywb, archived)
    finally:
        pywb.stop()


def provenance(warcs: list[Path]) -> list[dict[str, Any]]:
    """The items as the WARCs' provenance records hold them, in file order."""
    return [json.loads(payload) for warc in warcs for kind, uri, _, payload, _ in records(warc)
            if kind == "metadata" and uri.startswith("urn:bara:provenance:")]


def test_a_resumed_crawl_appends_to_its_warc(tmp_path: Path) -> None:
    """JOBDIR: the second run goes on in the first run's file, after a warcinfo of its own; nothing clobbered."""
    warc, job = tmp_path / "crawl.warc.gz", tmp_path / "job"
    settings = {"JOBDIR": job, "BARA_WARC": warc, "BARA_BROWSER_ENABLED": False, "CONCURRENT_REQUESTS": 2}
    args = {"max_pages": PAGES, "max_width": 10, "max_depth": 3, "max_attempts": 1}
    site = build_gallery_site(PAGES)
    with SiteServer(site) as server:
        (tmp_path / "run1").mkdir()
        (tmp_path / "run2").mkdir()
        first = run_crawl(server.url("/"), tmp_path=tmp_path / "run1", args=args,
                          settings={**settings, "CLOSESPIDER_ITEMCOUNT": 2})
        assert first.stats["finish_reason"] == "closespider_itemcount"
        after_first = warc.read_bytes()
        second = run_crawl(server.url("/"), tmp_path=tmp_path / "run2", args=args, settings=settings)
        originals = bodies(site, server)
    assert warc.read_bytes().startswith(after_first) and len(warc.read_bytes()) > len(after_first)
    found = records(warc)
    assert [i for i, (kind, *_) in enumerate(found) if kind == "warcinfo"][:1] == [0]
    assert sum(kind == "warcinfo" for kind, *_ in found) == 2
    items = list(first) + list(second)
    assert len(items) == PAGES
    assert sorted(p["url"] for p in provenance([warc])) == sorted(i["url"] for i in items)
    # plain HTTP: the document is Scrapy's response, and there is no separate DOM
    documents = {uri: payload for kind, uri, status, payload, _ in found if kind == "response" and status == 200}
    assert all(documents[i["url"]] == originals[i["url"]] for i in items if i["http_status"] == 200)
    assert not [kind for kind, *_ in found if kind == "conversion"]
