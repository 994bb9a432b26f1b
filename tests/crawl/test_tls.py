"""A site over HTTPS with a self-signed certificate: one policy (`BARA_TLS_VERIFY`) in every client.

A real TLS server on 127.0.0.1 (port 0) with a certificate made in the test for 127.0.0.1, valid in
every way but its issuer. Verified (the default): the browser's document fetch, Scrapy's HTTP path and
media verification each refuse it, and no request reaches the server (every handshake is refused);
the seed is `failed` with `tls_error` naming the certificate, exit 3. `BARA_TLS_VERIFY=False`: the
same crawl is `ok`, pages, sub-requests and media verification alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import Route, Site, SiteServer

from ..faults import CANARY_HOST, Hostile, page
from ..tls_utils import self_signed_context

PNG = image_bytes("png", "tls")
MODES = {"browser": {}, "static": {"BARA_BROWSER_ENABLED": False}}


@pytest.fixture
def tls_site(tmp_path: Path) -> Iterator[Hostile]:
    """The harness's canaries, with the hostile site served over HTTPS (self-signed)."""
    canary = SiteServer(Site(not_found=Route("<p>canary</p>")), host=CANARY_HOST).start()
    canary_port = SiteServer(Site(not_found=Route("<p>canary</p>"))).start()
    server = SiteServer(Site(), tls=self_signed_context(tmp_path / "tls")).start()
    hostile = Hostile(server, canary, canary_port)
    hostile.add("/", page("A page served over HTTPS, its certificate self-signed.", ["/a"],
                          '<img src="/img/tls.png" alt="a picture">'), link=False)
    hostile.add("/a", page("Another page of the HTTPS site, behind the same certificate."))
    hostile.add("/img/tls.png", PNG, content_type="image/png", link=False)
    try:
        yield hostile
    finally:
        for s in (server, canary, canary_port):
            s.stop()


def _crawl(site: Hostile, tmp_path: Path, settings: dict[str, Any], expect_exit: int) -> dict[str, dict[str, Any]]:
    return site.crawl(tmp_path, args={"max_attempts": 2}, settings={"RETRY_TIMES": 0, **settings},
                      expect_exit=expect_exit)


@pytest.mark.browser
@pytest.mark.parametrize("mode", list(MODES))
def test_a_self_signed_certificate_is_refused_everywhere_by_default(tls_site: Hostile, tmp_path: Path,
                                                                    mode: str) -> None:
    items = _crawl(tls_site, tmp_path, MODES[mode], expect_exit=3)
    assert list(items) == ["/"], items
    seed = items["/"]
    assert seed["status"] == "failed" and seed["error"].startswith("tls_error after 1 attempt"), seed["error"]
    assert "certificate" in seed["error"].lower(), seed["error"]
    print(f"{mode}: {seed['error']}")
    assert len(seed["attempts"]) == 1, "a refused certificate is final: not retried"
    assert dict(tls_site.server.hits) == {}, "a request reached the server past a refused certificate"


@pytest.mark.browser
@pytest.mark.parametrize("mode", list(MODES))
def test_tls_verify_off_accepts_the_certificate_everywhere(tls_site: Hostile, tmp_path: Path, mode: str) -> None:
    items = _crawl(tls_site, tmp_path, {**MODES[mode], "BARA_TLS_VERIFY": False}, expect_exit=0)
    assert sorted(items) == ["/", "/a"], items
    assert all(i["status"] == "ok" for i in items.values()), [(i["url"], i["error"]) for i in items.values()]
    images = items["/"]["images"]
    assert [m["url"] for m in images] == [tls_site.url("/img/tls.png")] and images[0]["verified"], items["/"]
    hits = tls_site.server.hits
    assert hits["/img/tls.png"] >= 1 and hits["/"] >= 1 and hits["/a"] >= 1, dict(hits)


def test_media_verification_refuses_a_self_signed_medium_of_a_trusted_page(tls_site: Hostile,
                                                                          tmp_path: Path) -> None:
    """The page is plain HTTP, its picture on the HTTPS server (private networks allowed to reach it)."""
    site = Site()
    site.add("/", page("A plain page whose picture sits on an HTTPS host with a self-signed certificate.",
                       extra=f'<img src="{tls_site.url("/img/tls.png")}" alt="a picture">'))
    with SiteServer(site) as plain:
        relay = Hostile(plain, tls_site.canary, tls_site.canary_port)
        for verify, want in ((True, "tls_error"), (False, None)):
            items = relay.crawl(tmp_path / str(verify), settings={
                "BARA_BROWSER_ENABLED": False, "BARA_ALLOW_PRIVATE_NETWORKS": True, "BARA_TLS_VERIFY": verify})
            item = items["/"]
            if want:
                assert item["status"] == "ok" and item["images"] == [], item
                assert [(m["url"], m["reason"]) for m in item["rejected_media"]] == [
                    (tls_site.url("/img/tls.png"), want)], item["rejected_media"]
            else:
                assert [m["verified"] for m in item["images"]] == [True], item
    assert tls_site.server.hits["/img/tls.png"] == 1, "only the check with verification off got the picture"
