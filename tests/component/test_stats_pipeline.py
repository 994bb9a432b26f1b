"""ItemStatsPipeline on a real crawler's stats: final statuses, the seed's status, media and attempt counts."""

from __future__ import annotations

from scrapy.utils.test import get_crawler

from bara_scrapy.items import Attempt, Media, PageItem
from bara_scrapy.pipelines.stats import ItemStatsPipeline


def _item(index: int, status: str, images: int = 0) -> PageItem:
    url = f"https://a.test/{index}"
    media = [Media(url=f"{url}/{n}.png", kind="image", found_in=["img@src"], verified=n > 0) for n in range(images)]
    attempts = [Attempt(n=n, instructions="", actions={}) for n in range(1, index + 2)]
    return PageItem(url=url, depth=min(index, 1), bfs_index=index, status=status, images=media,
                    rejected_media=media[:1], attempts=attempts)


def test_counts_final_statuses_the_seed_and_media() -> None:
    crawler = get_crawler()
    crawler.stats.open_spider()
    pipeline = ItemStatsPipeline.from_crawler(crawler)
    for item in (_item(0, "ok", images=2), _item(1, "incomplete", images=1), _item(2, "failed")):
        assert pipeline.process_item(item) is item
    assert pipeline.process_item({"not": "a page"}) == {"not": "a page"}
    stats = crawler.stats.get_stats()
    assert stats["bara/items/ok"] == 1 and stats["bara/items/incomplete"] == 1 and stats["bara/items/failed"] == 1
    assert stats["bara/seed/status"] == "ok"
    assert stats["bara/media/images"] == 3 and stats["bara/media/videos"] == 0
    assert stats["bara/media/verified"] == 1 and stats["bara/media/rejected"] == 2  # of the final items
    assert stats["bara/attempts"] == 1 + 2 + 3
