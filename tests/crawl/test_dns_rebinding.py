"""DNS rebinding of third-party names in the browser (docs/faults.md, group 9): no request reaches the private host.

The test controls both resolvers. Chromium's (`--host-resolver-rules`, ahead of bara's own rules)
answers every CDN name below with 127.0.0.2, the canary. The crawl process's (`tests/netshim`, a
`sitecustomize` on its PYTHONPATH) answers `cdn.example-media.com` with a public address, the way a
rebinding name answers the check; `private.example-media.com` with 127.0.0.2; and does not know
`unknown.example-media.com`. The public address leads, in the test's network, to a loopback server
standing for the CDN, so nothing leaves the machine. Before the egress proxy, the guard passed
`cdn.` and `unknown.` (public answer; no answer) and Chromium connected to the canary itself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.addon import CHROMIUM_ARGS
from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import Site, SiteServer
from bara_scrapy.browser.pinning import host_resolver_rules

from ..crawl_utils import parse_stats
from ..faults import Hostile, hostile_servers, page

PUBLIC = "93.184.216.34"  # what the rebinding name answers the check: a public address (routed to loopback)
NAMES = ("cdn", "private", "unknown")
SHIM = Path(__file__).resolve().parents[1] / "netshim"


def items_stats(hostile: Hostile) -> dict[str, object]:
    return parse_stats(hostile.log_text)


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    yield from hostile_servers()


@pytest.mark.browser
def test_a_third_party_name_that_rebinds_never_reaches_the_private_host(
        tmp_path: Path, hostile: Hostile, monkeypatch: pytest.MonkeyPatch) -> None:
    p2 = hostile.canary.port
    cdn_site = Site()
    cdn_site.add("/pic.png", image_bytes("png", "cdn"), content_type="image/png")
    cdn_site.add("/data.json", '{"ok": true}', content_type="application/json")
    with SiteServer(cdn_site) as cdn:
        urls = {name: f"http://{name}.example-media.com:{p2}" for name in NAMES}
        extra = "".join(
            f'<img src="{u}/pic.png" alt="{n}"><iframe src="{u}/frame"></iframe>'
            f"<script>fetch('{u}/data.json').catch(()=>0)</script>" for n, u in urls.items())
        hostile.add("/", page("A page whose pictures, frames and data come from CDN names.", extra=extra),
                    link=False)
        chromium_rules = ", ".join(f"MAP {n}.example-media.com 127.0.0.2" for n in NAMES)
        args = [*CHROMIUM_ARGS, f"--host-resolver-rules={chromium_rules}, {host_resolver_rules(hostile.url('/'))}"]
        connects = tmp_path / "connects.txt"
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(SHIM), os.environ.get("PYTHONPATH", "")]))
        monkeypatch.setenv("BARA_TEST_DNS", json.dumps({
            "cdn.example-media.com": [PUBLIC], "private.example-media.com": ["127.0.0.2"],
            "unknown.example-media.com": []}))
        monkeypatch.setenv("BARA_TEST_ROUTES", json.dumps({f"{PUBLIC}:{p2}": ["127.0.0.1", cdn.port]}))
        monkeypatch.setenv("BARA_TEST_CONNECTS", str(connects))
        items = hostile.crawl(tmp_path / "crawl", args={"max_attempts": 1}, settings={
            "PLAYWRIGHT_LAUNCH_OPTIONS": json.dumps({"args": args}), "BARA_PAGE_TIMEOUT": 10}, name="rebinding")
        seed = items["/"]
        pinned = connects.read_text().split() if connects.exists() else []
        egress = {k: v for k, v in items_stats(hostile).items() if k.startswith("bara/egress")}
        rejected = [(m["url"], m["reason"]) for m in seed["rejected_media"]]
        print(f"cdn hits {dict(cdn.hits)}; pinned connections {pinned}; stats {egress}; rejected {rejected}")
        # the harness asserted zero requests at the canary (127.0.0.2): from the browser and from verification
        assert [m["url"] for m in seed["images"]] == [f"{urls['cdn']}/pic.png"], seed  # pinned to the checked answer
        reasons = {m["url"]: m["reason"] for m in seed["rejected_media"]}
        assert reasons == {f"{urls['private']}/pic.png": "blocked_private", f"{urls['unknown']}/pic.png": "dns_error"}
        assert cdn.hits["/pic.png"] >= 2, dict(cdn.hits)  # the browser's request (through the proxy) and verification's
        assert cdn.hits["/data.json"] == 1, dict(cdn.hits)  # the page's fetch(), through the proxy
        assert set(pinned) == {f"{PUBLIC}:{p2}"}
        stats = items_stats(hostile)
        assert stats["bara/egress/refused"] >= 3, stats  # unknown.: its picture, frame and fetch (502)
