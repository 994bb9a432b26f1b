"""The speed bench's variant names (no heavy imports: `scrapy bara-bench --help` reads them)."""

# the floor plus bara's browser steps, one more each rung (`floor.py`): what each step costs
LADDER = {
    "floor_route": "route",
    "floor_guard": "route,fetch",
    "floor_quiet": "route,fetch,quiet",
    "floor_scroll": "route,fetch,quiet,scroll",
    "floor_window": "route,fetch,quiet,scroll,window",
}
# bara with one setting changed: what that setting costs or saves ({out}: the bench's output directory,
# {c}: the run's concurrency, {run}: its number with --perf-repeat)
BARA_SETTINGS = {
    "bara_noverify": "BARA_VERIFY_MEDIA=False",
    "bara_newtab": "BARA_PAGE_REUSE=0",
    "bara_scrollall": "BARA_SCROLL_ALL=True",
    "bara_warc": "BARA_WARC={out}/warc/bara-c{c}-r{run}.warc.gz",
    "bara_auto": "BARA_RENDER=auto",
}
VARIANTS = ("floor", "spider", "bara", *BARA_SETTINGS, "http", *LADDER)
DEFAULT_VARIANTS = ("floor", "spider", "bara", "bara_noverify", "bara_newtab", "http")  # `--perf-variants`
