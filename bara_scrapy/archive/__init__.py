"""The crawl as a web archive: WARC records of what the servers sent, packed into a WACZ on request.

`records` builds the records (pure, warcio), `files` names and rotates the WARC files, `wacz`
packs them with their index and page list, and `extension.WarcExtension` writes them as the crawl
goes (see docs/archive.md).
"""

from __future__ import annotations

# Sent by the verification pipeline for each media URL it downloaded (`responses`: every hop, the last
# one the medium; `verified`): with an archive on, verification downloads the whole file once.
media_fetched = object()
