"""Init script: the page's own evidence of pending work, read by `waits.page_state`.

Pending short one-shot timers (content due in a moment: `setTimeout(render, 1500)`),
the time since the DOM last changed (a MutationObserver), images still loading
near the viewport, the scroll position, and the page's own `fetch`/XHR calls not
answered yet (seen here at once, before the browser's request event reaches Python). Kept as Python source (not a data
file) so the package works from a Scrapyd egg.
"""

TIMERS_JS = r"""
(() => {
  if (window.__baraState) return;
  const MIN_MS = 50, MAX_MS = 4000, WINDOW_MS = 10000, MAX_IMAGES = 2000;
  const pending = new Set();
  const started = Date.now();
  const setT = window.setTimeout, clearT = window.clearTimeout;
  // Recurring timers (setInterval) and long or zero delays are not counted.
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
  // fetch / XHR calls still waiting for their answer
  let calls = 0;
  const ended = () => { calls = Math.max(0, calls - 1); };
  const fetchT = window.fetch;
  if (typeof fetchT === "function") {
    window.fetch = function (...args) {
      calls++;
      let p;
      try { p = fetchT.apply(this, args); } catch (e) { ended(); throw e; }
      p.then(ended, ended);
      return p;
    };
  }
  const XHR = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
  if (XHR && XHR.send) {
    const sendT = XHR.send;
    XHR.send = function (...args) {
      calls++;
      this.addEventListener("loadend", ended, { once: true });
      try { return sendT.apply(this, args); } catch (e) { ended(); throw e; }
    };
  }
  // content inserted or changed, or an image source swapped (lazy loaders); not styles or classes
  let lastMutation = performance.now();
  new MutationObserver(() => { lastMutation = performance.now(); }).observe(document, {
    childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ["src", "srcset"],
  });
  const loadingImages = () => {
    let n = 0;
    const imgs = document.images, h = window.innerHeight;
    for (let i = 0; i < imgs.length && i < MAX_IMAGES; i++) {
      const img = imgs[i];
      if (img.complete || !img.getAttribute("src")) continue;
      const r = img.getBoundingClientRect();
      if (r.bottom >= -h && r.top <= 2 * h) n++;
    }
    return n;
  };
  window.__baraPendingTimers = () => pending.size;
  window.__baraState = () => {
    const d = document.scrollingElement || document.documentElement;
    return [pending.size, performance.now() - lastMutation, loadingImages(),
            d ? d.scrollHeight : 0, window.scrollY + window.innerHeight, window.innerHeight, calls];
  };
})();
"""
