"""Init script: the page's own evidence of pending work, read by `waits.page_state`.

Pending short one-shot timers (content due in a moment: `setTimeout(render, 1500)`),
the time since the DOM last changed (a MutationObserver), images still loading
near the viewport, the scroll position, and the page's own `fetch`/XHR calls not
answered yet (seen here at once, before the browser's request event reaches Python), and what a
scroll could set off (`__baraScrollHooks`, read by `collect_js`). Kept as Python source (not a data
file) so the package works from a Scrapyd egg.
"""

from .lazy import with_lazy_attrs

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
  // What a scroll of the window could set off: IntersectionObserver targets out of view whose media
  // is not already named by a lazy URL attribute (read from the DOM without scrolling), and scroll or
  // wheel listeners on the window or document (`window.onscroll` is read when asked).
  const observed = new Map();  // observer -> its targets
  const IO = window.IntersectionObserver && window.IntersectionObserver.prototype;
  if (IO && IO.observe) {
    const observeT = IO.observe, unobserveT = IO.unobserve, disconnectT = IO.disconnect;
    IO.observe = function (target) {
      if (!observed.has(this)) observed.set(this, new Set());
      observed.get(this).add(target);
      return observeT.call(this, target);
    };
    IO.unobserve = function (target) { const t = observed.get(this); if (t) t.delete(target); return unobserveT.call(this, target); };
    IO.disconnect = function () { observed.delete(this); return disconnectT.call(this); };
  }
  let scrollListeners = 0;
  const ET = window.EventTarget && window.EventTarget.prototype;
  if (ET && ET.addEventListener) {
    const addT = ET.addEventListener;
    ET.addEventListener = function (type, ...rest) {
      if (/^(scroll|wheel|mousewheel|touchmove)$/.test(String(type))
          && (this === window || this === document || this === document.documentElement || this === document.body)) scrollListeners++;
      return addT.call(this, type, ...rest);
    };
  }
  // the lazy URL attributes collect_js reads: an <img> or <picture> carrying one is read without a scroll
  const LAZY_ATTRS = __LAZY_ATTRS__, LAZY_SET_ATTRS = __LAZY_SET_ATTRS__;
  const has = (el, attrs, test) => attrs.some((a) => { const v = el.getAttribute(a); return !!v && test.test(v); });
  const ANY = /\S/;
  const named = (el) => {
    if (el.tagName === "IMG") return has(el, LAZY_ATTRS, __LOOKS_MEDIA__) || has(el, LAZY_SET_ATTRS, ANY);
    if (el.tagName !== "PICTURE") return false;
    const img = el.querySelector("img");
    return (!!img && named(img)) || [...el.querySelectorAll("source")].some((src) => has(src, LAZY_SET_ATTRS, ANY));
  };
  // bara's names on the page's window: fixed (not writable, not configurable, not enumerated), so that a
  // page's script can neither replace them nor make reading them throw
  const own = (name, value) => Object.defineProperty(window, name, { value, writable: false, configurable: false });
  own("__baraGroups", { ids: new WeakMap(), next: 0, tag: "" });  // collect_js: media groups by element
  own("__baraScrollHooks", () => {
    let n = scrollListeners + (window.onscroll || document.onscroll ? 1 : 0);
    const h = window.innerHeight;
    let seen = 0;
    for (const targets of observed.values()) for (const t of targets) {
      if (++seen > MAX_IMAGES) return n + 1;
      if (!t.isConnected || named(t)) continue;
      const r = t.getBoundingClientRect();
      if (r.top >= h || r.bottom < 0) n++;
    }
    return n;
  });
  own("__baraPendingTimers", () => pending.size);
  own("__baraState", () => {
    const d = document.scrollingElement || document.documentElement;
    return [pending.size, performance.now() - lastMutation, loadingImages(),
            d ? d.scrollHeight : 0, window.scrollY + window.innerHeight, window.innerHeight, calls];
  });
})();
"""
TIMERS_JS = with_lazy_attrs(TIMERS_JS)
