"""`scrapy bara-bench --perf`: speed, CPU and memory of bara_scrapy against a bare-Playwright floor.

See `main.py` for the run and `measure.py` for how CPU and PSS are counted.
"""
