"""Project settings: project choices only; the add-on wires bara_scrapy in."""

BOT_NAME = "bara_scrapy"
SPIDER_MODULES = ["bara_scrapy.spiders"]
NEWSPIDER_MODULE = "bara_scrapy.spiders"
COMMANDS_MODULE = "bara_scrapy.commands"

ADDONS = {"bara_scrapy.addon.Addon": 0}

USER_AGENT = "bara_scrapy/0.1 (+https://github.com/bara-scrapy/bara_scrapy)"
ROBOTSTXT_OBEY = True
# requests at once (pages over HTTP, media checks); at most BARA_BROWSER_TABS (4) of them rendered: measured
# against 4 and 16 requests (docs/speed.md, tenth stop)
CONCURRENT_REQUESTS = 8
CONCURRENT_REQUESTS_PER_DOMAIN = 8
LOG_LEVEL = "INFO"
