"""bara_scrapy: bounded BFS-and-Reflection site collection for Scrapy."""

__version__ = "0.1.0"
