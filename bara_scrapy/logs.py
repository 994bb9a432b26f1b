"""Log hygiene: handled download failures are logged in one line, without a traceback.

scrapy-playwright logs every failed page with `exc_info`, and Scrapy's robots.txt
middleware does the same for an unreachable robots.txt. bara records these
failures in the item (`attempts`, `error`), so a traceback in the log is noise
that hides real defects.
"""

from __future__ import annotations

import logging

QUIET_LOGGERS = ("scrapy-playwright", "scrapy.downloadermiddlewares.robotstxt")


class OneLineFailures(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            first = str(exc).splitlines()[0][:300] if str(exc) else ""
            record.msg = f"{record.getMessage()} [{type(exc).__name__}: {first}]"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def install() -> None:
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineFailures) for f in logger.filters):
            logger.addFilter(OneLineFailures())
