"""The crawl report: one self-contained HTML file (`scrapy bara-report`, `BARA_REPORT`)."""

from __future__ import annotations

from .data import ReportMeta, build_report_data, compact_page, read_items
from .html import render_html, write_report

__all__ = ["ReportMeta", "build_report_data", "compact_page", "read_items", "render_html", "write_report"]
