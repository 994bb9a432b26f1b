"""ItemStatsPipeline: count final items (`bara/items/<status>`, `bara/media/...`, `bara/attempts`,
`bara/render/pages/<path>`, `bara/render/reason/<reason>`, `bara/render/audit_different`)."""

from __future__ import annotations

from scrapy.crawler import Crawler

from ..items import PageItem


class ItemStatsPipeline:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ItemStatsPipeline:
        return cls(crawler)

    def process_item(self, item: object) -> object:
        if isinstance(item, PageItem):
            stats = self.crawler.stats
            stats.inc_value(f"bara/items/{item.status}")
            if item.bfs_index == 0:
                stats.set_value("bara/seed/status", item.status)
            stats.inc_value("bara/media/images", len(item.images))
            stats.inc_value("bara/media/videos", len(item.videos))
            stats.inc_value("bara/media/verified", sum(m.verified for m in item.images + item.videos))
            stats.inc_value("bara/media/rejected", len(item.rejected_media))
            stats.inc_value("bara/attempts", len(item.attempts))
            if item.render is not None:
                stats.inc_value(f"bara/render/pages/{item.render.path}")
                stats.inc_value(f"bara/render/reason/{item.render.reason}")
                if item.render.reason == "audit" and item.render.compared == "different":
                    stats.inc_value("bara/render/audit_different")
        return item
