"""Serve bench sites on 127.0.0.1: one port per site, one media CDN, one third-party host.

Each site gets its own port, so host scope works as on the real web (another
port is another site). The CDN serves the media of every site under
``/<site_id>/...`` with CORS headers (blob players fetch cross-origin); the
third-party host answers any ``/embed/<id>`` with a player page.

>>> from .generate import generate_sites
>>> with BenchServer(generate_sites(2)) as bench:
...     bench.seed_url("s00").startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from urllib.parse import urlsplit

from .render import Resource, embed_page, render_page, site_resources
from .server import RequestInfo, Route, Site, SiteServer
from .sites import Budget, Hosts, SiteSpec, effective_budget
from .truth import SiteTruth, compute_truth

_UNAVAILABLE = "<!doctype html><h1>503 Service Unavailable</h1><p>Try again.</p>"


def to_route(res: Resource, extra_headers: dict[str, str] | None = None) -> Route:
    headers = {**dict(res.headers), **(extra_headers or {})}
    if res.location:
        headers["Location"] = res.location
    route = Route(body=res.body, status=res.status, content_type=res.content_type, headers=headers)
    if not res.flaky:
        return route

    def first_hit_fails(info: RequestInfo) -> Route:
        if info.hits == 1:
            return Route(_UNAVAILABLE, status=503, headers={"Retry-After": "0"})
        return route

    return Route(handler=first_hit_fails)


def _calendar_route(spec: SiteSpec, hosts: Hosts) -> Route:
    def answer(info: RequestInfo) -> Route:
        parts = urlsplit(info.path)
        page = spec.page_at(parts.path + (f"?{parts.query}" if parts.query else ""))
        if page is None:
            return Route("<h1>Not found</h1>", status=404)
        return Route(render_page(spec, page, hosts))

    return Route(handler=answer)


def _embed_or_404(info: RequestInfo) -> Route:
    if urlsplit(info.path).path.startswith("/embed/"):
        return to_route(embed_page(urlsplit(info.path).path))
    return Route("<h1>Not found</h1>", status=404)


class BenchServer:
    """Start with `with BenchServer(specs) as bench:`; ports are chosen by the OS."""

    def __init__(self, specs: Sequence[SiteSpec]) -> None:
        self.specs = {s.site_id: s for s in specs}
        self.sites: dict[str, SiteServer] = {}
        self._cdn: SiteServer | None = None
        self._thirdparty: SiteServer | None = None

    @property
    def cdn(self) -> SiteServer:
        if self._cdn is None:
            raise RuntimeError("BenchServer is not started")
        return self._cdn

    @property
    def thirdparty(self) -> SiteServer:
        if self._thirdparty is None:
            raise RuntimeError("BenchServer is not started")
        return self._thirdparty

    def _bind(self) -> None:
        self._cdn = SiteServer(Site())
        self._thirdparty = SiteServer(Site(not_found=Route(handler=_embed_or_404)))
        self.sites = {sid: SiteServer(Site()) for sid in self.specs}
        cors = {"Access-Control-Allow-Origin": "*"}
        for sid, spec in self.specs.items():
            hosts = self.hosts(sid)
            site_res, cdn_res = site_resources(spec, hosts)
            routes = self.sites[sid].site.routes
            routes.update({path: to_route(res) for path, res in site_res.items()})
            if spec.calendar is not None:
                routes[spec.calendar] = _calendar_route(spec, hosts)
            self.cdn.site.routes.update({path: to_route(res, cors) for path, res in cdn_res.items()})

    def hosts(self, site_id: str) -> Hosts:
        return Hosts(self.sites[site_id].base, self.cdn.base, self.thirdparty.base)

    def seed_url(self, site_id: str) -> str:
        return self.sites[site_id].url("/")

    def truth(self, site_id: str, budget: Budget | None = None) -> SiteTruth:
        """Ground truth at these ports; a site's own budget wins over `budget`."""
        return compute_truth(self.specs[site_id], self.hosts(site_id), budget)

    def crawl_args(self, site_id: str, budget: Budget | None = None) -> dict[str, int]:
        """Spider arguments for this site: the site's own budget if it has one (P-binding sites do)."""
        bud = effective_budget(self.specs[site_id], budget)
        return {"max_depth": bud.max_depth, "max_width": bud.max_width, "max_pages": bud.max_pages}

    def servers(self) -> list[SiteServer]:
        if self._cdn is None or self._thirdparty is None:
            return []
        return [self._cdn, self._thirdparty, *self.sites.values()]

    def reset_hits(self) -> None:
        """Forget hit counts (flaky pages fail their first hit again): call between variants."""
        for server in self.servers():
            server.hits.clear()

    def start(self) -> BenchServer:
        self._bind()
        for server in self.servers():
            server.start()
        return self

    def stop(self) -> None:
        # each shutdown waits up to a poll interval: stop them side by side
        stoppers = [threading.Thread(target=server.stop) for server in self.servers()]
        for thread in stoppers:
            thread.start()
        for thread in stoppers:
            thread.join()

    def __enter__(self) -> BenchServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
