"""Init script: count pending short one-shot timers (see waits.TIMER_WAIT_MS).

Kept as Python source (not a data file) so the package works from a Scrapyd egg.
"""

TIMERS_JS = r"""
// Count pending short one-shot timers, so the page step can wait for content
// that a script will insert in a moment (setTimeout(render, 1500)). Recurring
// timers (setInterval) and long or zero delays are not counted.
(() => {
  if (window.__baraPendingTimers) return;
  const MIN_MS = 50, MAX_MS = 4000, WINDOW_MS = 10000;
  const pending = new Set();
  const started = Date.now();
  const setT = window.setTimeout, clearT = window.clearTimeout;
  window.__baraPendingTimers = () => pending.size;
  window.setTimeout = function (fn, ms, ...args) {
    const delay = Number(ms) || 0;
    if (typeof fn !== "function" || delay < MIN_MS || delay > MAX_MS || Date.now() - started > WINDOW_MS) {
      return setT.call(this, fn, ms, ...args);
    }
    let handle;
    handle = setT.call(this, function (...a) { pending.delete(handle); return fn.apply(this, a); }, ms, ...args);
    pending.add(handle);
    return handle;
  };
  window.clearTimeout = function (handle) { pending.delete(handle); return clearT.call(this, handle); };
})();
"""
