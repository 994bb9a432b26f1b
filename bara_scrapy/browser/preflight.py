"""Before a browser crawl starts: is there a Chromium that runs? (`scrapy crawl`, exit 5 when not).

scrapy-playwright launches the browser on the first page; a missing or broken executable would then
fail every page, the seed included, as `navigation_error`. The command asks first, in one line.
"""

from __future__ import annotations

import os
import subprocess

from scrapy.settings import BaseSettings

from ..addon import find_chromium
from ..config import browser_wanted

VERSION_TIMEOUT_S = 30.0


def chromium_of(settings: BaseSettings) -> str | None:
    """The executable the crawl would launch, as the add-on chooses it (None: Playwright's own)."""
    if not browser_wanted(settings):
        return None
    launch = settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
    chosen = launch.get("executable_path") or settings.get("BARA_CHROMIUM_PATH") or find_chromium()
    return str(chosen) if chosen else None


def browser_problem(executable: str, timeout: float = VERSION_TIMEOUT_S) -> str | None:
    """Why `executable` cannot be launched (missing, not executable, `--version` fails), or None.

    >>> browser_problem("/nonexistent/chromium")
    'Chromium not found at /nonexistent/chromium: set BARA_CHROMIUM_PATH, or BARA_RENDER=never for plain HTTP'
    """
    hint = "set BARA_CHROMIUM_PATH, or BARA_RENDER=never for plain HTTP"
    if not os.path.isfile(executable):
        return f"Chromium not found at {executable}: {hint}"
    if not os.access(executable, os.X_OK):
        return f"Chromium at {executable} is not executable: {hint}"
    try:
        done = subprocess.run([executable, "--headless", "--version"], capture_output=True, text=True,
                              timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"Chromium at {executable} does not start ({type(exc).__name__}): {hint}"
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        return (f"Chromium at {executable} does not start (exit {done.returncode}"
                f"{': ' + said[-1][:200] if said else ''}): {hint}")
    return None
