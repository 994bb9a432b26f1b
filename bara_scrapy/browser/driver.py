"""Playwright's driver (a Node.js process): its V8 heap limit, `BARA_DRIVER_HEAP_MB`.

V8 lets a heap grow between full collections by a factor that it sets from the heap's limit: the
largest from a limit of 1 GB up (Node's default limit on a machine with a few GB of memory is larger),
smaller down to 128 MB (V8's `heap-controller.h`, `kMinSize`/`kMaxSize`). The driver's live objects
are few (the pages in flight, their requests), but with the default factor a 2,000-page crawl's
driver grew from about 240 MB (PSS) at page 500 to about 300 MB, the largest steady part of the
crawl's memory growth. With a limit of 512 MB it collects sooner and stays at 235-250 MB, at no
measured speed cost (docs/speed.md).

The limit is a hard one: a driver whose live heap outgrows it aborts ("JavaScript heap out of memory")
and the crawl loses its browser. The default is 8 times what the driver was seen to need: it crawled
the article corpus's 182 pages (one of which makes 16,000 requests) at c=4 under a 64 MB limit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

HEAP_FLAG = "--max-old-space-size"


def driver_node_options(current: str, heap_mb: int) -> str | None:
    """NODE_OPTIONS for the driver: the environment's own, with the heap limit added; None to leave them
    as they are (no limit asked for, or NODE_OPTIONS names one already).

    >>> driver_node_options("", 512)
    '--max-old-space-size=512'
    >>> driver_node_options("--trace-warnings", 512)
    '--trace-warnings --max-old-space-size=512'
    >>> driver_node_options("--max-old-space-size=2048", 512), driver_node_options("", 0)
    (None, None)
    """
    if heap_mb <= 0 or HEAP_FLAG in current:
        return None
    return f"{current} {HEAP_FLAG}={heap_mb}".strip()


@contextmanager
def driver_environ(heap_mb: int) -> Iterator[None]:
    """Within: NODE_OPTIONS as the driver should get them (Playwright starts it with a copy of the
    environment); after: as it was."""
    before = os.environ.get("NODE_OPTIONS")
    options = driver_node_options(before or "", heap_mb)
    if options is None:
        yield
        return
    os.environ["NODE_OPTIONS"] = options
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("NODE_OPTIONS", None)
        else:
            os.environ["NODE_OPTIONS"] = before
