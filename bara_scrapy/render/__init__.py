"""Render only where it changes the result: the evidence layer of `BARA_RENDER=auto`.

Pure functions, no Scrapy: `pattern` (which pages share a template), `compare` (does the HTTP result equal
the rendered one), `signals` (what in a served document only a browser can give), `policy` (per site and
pattern, in admission order: probe, serve over HTTP, pin to the browser, audit).
"""
