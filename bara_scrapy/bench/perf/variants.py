"""The speed bench's variant names (no heavy imports: `scrapy bara-bench --help` reads them)."""

# the floor plus bara's browser steps, one more each rung (`floor.py`): what each step costs
LADDER = {
    "floor_route": "route",
    "floor_guard": "route,fetch",
    "floor_quiet": "route,fetch,quiet",
    "floor_scroll": "route,fetch,quiet,scroll",
    "floor_window": "route,fetch,quiet,scroll,window",
}
# bara with settings changed: what they cost or save ({out}: the bench's output directory, {c}: the run's
# concurrency, {c2}, {c4}: two and four times it, {run}: its number with --perf-repeat; settings apart by spaces)
BARA_SETTINGS = {
    "bara_noverify": "BARA_VERIFY_MEDIA=False",
    "bara_newtab": "BARA_PAGE_REUSE=0",
    "bara_scrollall": "BARA_SCROLL_ALL=True",
    "bara_warc": "BARA_WARC={out}/warc/bara-c{c}-r{run}.warc.gz",
    "bara_never": "BARA_RENDER=never",  # every page over HTTP through bara's extraction: the ceiling of auto
    "bara_auto": "BARA_RENDER=auto",
    # c tabs render, as in `bara`; HTTP-served pages do not wait for a tab
    "bara_auto_wide": "BARA_RENDER=auto BARA_BROWSER_TABS={c} CONCURRENT_REQUESTS={c4} "
                      "CONCURRENT_REQUESTS_PER_DOMAIN={c4}",
    # the same with 2c requests: Scrapy's own default of 8 requests per domain at c=4
    "bara_auto_2c": "BARA_RENDER=auto BARA_BROWSER_TABS={c} CONCURRENT_REQUESTS={c2} "
                    "CONCURRENT_REQUESTS_PER_DOMAIN={c2}",
}
VARIANTS = ("floor", "spider", "bara", *BARA_SETTINGS, "http", *LADDER)
DEFAULT_VARIANTS = ("floor", "spider", "bara", "bara_noverify", "bara_newtab", "http")  # `--perf-variants`
