"""Download verification decisions: magic-byte sniffing and the SSRF guard (pure, no Scrapy)."""

from __future__ import annotations

from .sniff import SNIFF_BYTES, kind_of, sniff
from .ssrf import check_url, host_key, is_public_address

__all__ = ["SNIFF_BYTES", "check_url", "host_key", "is_public_address", "kind_of", "sniff"]
