"""Feed exporters for `PageItem`: CSV flattens media lists, XML nests them (JSON and JSON Lines need nothing).

CSV has one row per page and these columns, in this order (`FEED_EXPORT_FIELDS` may pick a subset):
scalar fields as they are; `images`, `videos`, `embeds`, `rejected_media` as `;`-joined URLs with a
count column beside each (`images_count`, ...); `rejected_reasons` `;`-joined in the same order as
`rejected_media`; `image_paths`/`video_paths` `;`-joined stored paths (empty unless `BARA_STORE_MEDIA`);
`attempts` the number of attempts and `diagnoses` the `;`-joined distinct diagnosis kinds.

XML writes media and attempts as nested elements; null fields are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from scrapy.exporters import CsvItemExporter, XmlItemExporter

CSV_FIELDS = (
    "url", "final_url", "depth", "parent_url", "bfs_index", "status", "http_status", "title", "text",
    "images_count", "images", "videos_count", "videos", "embeds_count", "embeds",
    "rejected_count", "rejected_media", "rejected_reasons", "image_paths", "video_paths",
    "attempts", "diagnoses", "error", "extractor", "fetched_at",
)
SCALARS = ("url", "final_url", "depth", "parent_url", "bfs_index", "status", "http_status", "title", "text",
           "error", "extractor", "fetched_at")


def as_dict(item: Any) -> dict[str, Any]:
    """A plain JSON-ready dict of a pydantic item (or a copy of a mapping)."""
    if isinstance(item, BaseModel):
        return item.model_dump(mode="json")
    return dict(item)


def _join(values: list[Any]) -> str:
    return ";".join(str(v) for v in values if v not in (None, ""))


def flatten_item(item: Mapping[str, Any]) -> dict[str, Any]:
    """One CSV row of a page item: counts and `;`-joined URLs for the media lists.

    >>> row = flatten_item({"url": "http://a/", "images": [{"url": "http://a/1.png", "path": "full/x.png"},
    ...     {"url": "http://a/2.png"}], "rejected_media": [{"url": "http://a/3.png", "reason": "http_404"}],
    ...     "attempts": [{"diagnosis": ["missing_media"]}, {"diagnosis": []}]})
    >>> row["images_count"], row["images"], row["image_paths"], row["rejected_reasons"], row["attempts"]
    (2, 'http://a/1.png;http://a/2.png', 'full/x.png', 'http_404', 2)
    >>> row["diagnoses"], row["videos_count"], row["videos"], row["title"]
    ('missing_media', 0, '', None)
    """
    row: dict[str, Any] = {name: item.get(name) for name in SCALARS}
    for name, count in (("images", "images_count"), ("videos", "videos_count"), ("embeds", "embeds_count"),
                        ("rejected_media", "rejected_count")):
        media = item.get(name) or []
        row[count] = len(media)
        row[name] = _join([m.get("url") for m in media])
    row["rejected_reasons"] = ";".join(str(m.get("reason") or "") for m in item.get("rejected_media") or [])
    row["image_paths"] = _join([m.get("path") for m in item.get("images") or []])
    row["video_paths"] = _join([m.get("path") for m in item.get("videos") or []])
    attempts = item.get("attempts") or []
    row["attempts"] = len(attempts)
    kinds = dict.fromkeys(k for a in attempts for k in a.get("diagnosis") or [])
    row["diagnoses"] = ";".join(kinds)
    return row


def drop_nulls(value: Any) -> Any:
    """Leave out null fields at every level (XML has no null).

    >>> drop_nulls({"a": None, "b": [{"c": None, "d": 1}], "e": {}})
    {'b': [{'d': 1}], 'e': {}}
    """
    if isinstance(value, Mapping):
        return {k: drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value


class BaraCsvItemExporter(CsvItemExporter):
    """`CsvItemExporter` with one flat row per page (see the module docstring)."""

    def __init__(self, file: Any, **kwargs: Any) -> None:
        if not kwargs.get("fields_to_export"):
            kwargs["fields_to_export"] = list(CSV_FIELDS)
        super().__init__(file, **kwargs)

    def export_item(self, item: Any) -> None:
        super().export_item(flatten_item(as_dict(item)))


class BaraXmlItemExporter(XmlItemExporter):
    """`XmlItemExporter` that nests media and attempts as elements instead of Python reprs."""

    def export_item(self, item: Any) -> None:
        super().export_item(drop_nulls(as_dict(item)))
