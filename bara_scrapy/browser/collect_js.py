"""Collect links, media candidates and hidden-content markers from the live DOM (page.evaluate).

Kept as Python source (not a data file) so the package works from a Scrapyd egg.
"""

from .lazy import with_lazy_attrs

COLLECT_JS = r"""
// Collect links, media candidates and hidden-content markers from the live DOM.
// Runs in the page (page.evaluate); returns plain JSON. Never navigates.
() => {
  const MAX_CANDIDATES = 2000, MAX_LINKS = 5000, MAX_STYLE_SCAN = 6000;
  const base = document.baseURI;
  const abs = (u) => {
    if (!u || typeof u !== "string") return null;
    u = u.trim();
    if (!u || u.startsWith("data:") || u.startsWith("javascript:") || u.startsWith("about:")) return null;
    try { return new URL(u, base).href; } catch (e) { return null; }
  };
  const text = (el, n) => (el && el.textContent ? el.textContent.replace(/\s+/g, " ").trim().slice(0, n) : "");
  const cands = [];
  // An element's group (its URLs: variants of one image) is kept across the document's collections, which the
  // accumulator unions: a count per collection would give an image inserted before others (a "load more"
  // batch) the group another image had, and its URL would be read as that image's variant. An element
  // whose URLs share none with those it had before holds another image now (a virtualised list's recycled
  // node, a slideshow): a new group.
  let groups = null;
  try { groups = window.__baraGroups; if (!(groups.ids instanceof WeakMap)) groups = null; } catch (e) { groups = null; }
  if (!groups) {
    // the tag keeps collections apart where the map cannot be kept (a page that took the name)
    groups = { ids: new WeakMap(), next: 0, tag: Math.random().toString(36).slice(2, 8) };
    try { Object.defineProperty(window, "__baraGroups", { value: groups, configurable: true }); } catch (e) {}
  }
  const groupOf = (el, prefix, urls) => {
    let rec = groups.ids.get(el);
    if (rec && urls.length && rec.urls.length && !urls.some((u) => rec.urls.includes(u))) rec = undefined;
    if (!rec) { rec = { g: prefix + groups.tag + "-" + (groups.next++), urls: [] }; groups.ids.set(el, rec); }
    if (urls.length) rec.urls = urls;
    return rec.g;
  };
  // the group of the candidates added since `start`, read from the URLs that name the image itself: not a
  // placeholder `src` beside a lazy URL (as `extraction/media.py` reads a group)
  const groupAdded = (el, prefix, start) => {
    const mine = cands.slice(start);
    const lazy = new Set(mine.filter((c) => c.found_in.startsWith("img@data-") && !c.found_in.includes("srcset"))
      .map((c) => c.url));
    const content = mine.filter((c) => !(lazy.size && c.found_in === "img@src" && !lazy.has(c.url)));
    const g = groupOf(el, prefix, content.map((c) => c.url));
    for (const c of mine) c.group = g;
  };
  const add = (url, kind, foundIn, extra) => {
    if (cands.length >= MAX_CANDIDATES) return;
    if (!url) return;
    if (!url.startsWith("blob:")) { url = abs(url); if (!url) return; }
    cands.push(Object.assign({ url, kind, found_in: foundIn }, extra || {}));
  };
  // mirrors extraction/boilerplate.in_site_furniture: a <nav>, the page-level <header>/<footer>, or a
  // navigation/banner/contentinfo role (a logo, a menu icon)
  const FURNITURE_ROLES = new Set(["navigation", "banner", "contentinfo"]);
  const furnitureOf = (el) => {
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const tag = n.tagName.toLowerCase();
      if (tag === "nav" || FURNITURE_ROLES.has((n.getAttribute("role") || "").trim().toLowerCase())) return true;
      if ((tag === "header" || tag === "footer") && !(n.parentElement && n.parentElement.closest("article, section, main, aside, nav"))) return true;
    }
    return false;
  };
  const parseSrcset = (s) => (s || "").split(/,\s+(?=\S)/).map((p) => p.trim().split(/\s+/)[0]).filter(Boolean);
  const contextOf = (el) => {
    const fig = el.closest("figure");
    if (fig) { const cap = fig.querySelector("figcaption"); if (cap) return text(cap, 200); }
    return null;
  };
  const LAZY_ATTRS = __LAZY_ATTRS__;
  const LAZY_SET_ATTRS = __LAZY_SET_ATTRS__;
  const looksMedia = (v) => __LOOKS_MEDIA__.test(v || "");

  const markers = { lazy_placeholders: 0, empty_videos: 0, blob_videos: 0, feed_sentinel: false, overlays: 0, controls: [] };

  // --- images
  for (const img of document.querySelectorAll("img")) {
    const start = cands.length;
    const alt = img.getAttribute("alt");
    const ctx = contextOf(img);
    const extra = { alt, context: ctx, furniture: furnitureOf(img) };
    const src = img.getAttribute("src");
    const current = img.currentSrc;
    let lazyUrl = null;
    for (const a of LAZY_ATTRS) { const v = img.getAttribute(a); if (v && looksMedia(v)) { lazyUrl = v; add(v, "image", "img@" + a, extra); } }
    for (const a of LAZY_SET_ATTRS) for (const u of parseSrcset(img.getAttribute(a))) add(u, "image", "img@" + a, extra);
    if (src && !src.startsWith("data:")) add(src, "image", "img@src", extra);
    if (current && current !== abs(src) && !current.startsWith("data:")) add(current, "image", "img@currentSrc", extra);
    for (const u of parseSrcset(img.getAttribute("srcset"))) add(u, "image", "img@srcset", extra);
    const pic = img.parentElement && img.parentElement.tagName === "PICTURE" ? img.parentElement : null;
    if (pic) for (const s of pic.querySelectorAll("source")) {
      for (const u of parseSrcset(s.getAttribute("srcset"))) add(u, "image", "picture>source@srcset", extra);
      for (const a of LAZY_SET_ATTRS) for (const u of parseSrcset(s.getAttribute(a))) add(u, "image", "picture>source@" + a, extra);
    }
    groupAdded(img, "g", start);
    // a placeholder is missing media only while no URL for it is known: a lazy data-* URL is a candidate already
    const usable = (u) => !!u && !u.startsWith("data:") && !u.startsWith("about:");
    const known = lazyUrl || usable(src) || usable(current) || img.getAttribute("srcset")
      || LAZY_SET_ATTRS.some((a) => img.getAttribute(a));
    const lazyHint = /lazy/i.test(String(img.className || "")) || img.getAttribute("loading") === "lazy";
    if (!known && lazyHint) markers.lazy_placeholders++;
  }
  // --- video / audio-less players
  for (const v of document.querySelectorAll("video")) {
    const start = cands.length;
    const extra = { context: contextOf(v) };
    let any = false;
    const src = v.getAttribute("src") || "";
    const cur = v.currentSrc || "";
    if (src.startsWith("blob:") || cur.startsWith("blob:")) { markers.blob_videos++; add(src || cur, "video", "video@src", extra); any = true; }
    else {
      if (src) { add(src, "video", "video@src", extra); any = true; }
      if (cur && cur !== abs(src)) { add(cur, "video", "video@currentSrc", extra); any = true; }
    }
    for (const a of ["data-src", "data-video", "data-video-src"]) { const d = v.getAttribute(a); if (d) { add(d, "video", "video@" + a, extra); any = true; } }
    for (const s of v.querySelectorAll("source")) {
      const u = s.getAttribute("src") || s.getAttribute("data-src");
      if (u) { add(u, "video", "source@src", extra); any = true; }
    }
    groupAdded(v, "v", start);
    const poster = v.getAttribute("poster");
    if (poster) add(poster, "image", "video@poster", { context: extra.context });
    if (!any) markers.empty_videos++;
  }
  // --- iframes and plugins: third-party players are embeds
  for (const f of document.querySelectorAll("iframe[src], embed[src], object[data]")) {
    const u = f.getAttribute("src") || f.getAttribute("data");
    add(u, "embed", f.tagName.toLowerCase() + "@src", { context: f.getAttribute("title") });
  }
  // --- meta og:/twitter:
  const META = { "og:image": "image", "og:image:url": "image", "og:image:secure_url": "image", "twitter:image": "image",
    "twitter:image:src": "image", "og:video": "video", "og:video:url": "video", "og:video:secure_url": "video", "twitter:player:stream": "video" };
  for (const m of document.querySelectorAll("meta[property], meta[name]")) {
    const key = (m.getAttribute("property") || m.getAttribute("name") || "").toLowerCase();
    if (META[key]) add(m.getAttribute("content"), META[key], "meta@" + key);
  }
  // --- JSON-LD
  const walk = (node, typ, depth) => {
    if (!node || depth > 8) return;
    if (Array.isArray(node)) { for (const n of node) walk(n, typ, depth + 1); return; }
    if (typeof node !== "object") return;
    const t = [].concat(node["@type"] || typ || []).join(",");
    const isVideo = /VideoObject/i.test(t);
    for (const k of ["contentUrl", "image", "thumbnailUrl", "embedUrl", "url"]) {
      let v = node[k];
      if (v === undefined) continue;
      const vals = [].concat(v);
      for (const item of vals) {
        const u = typeof item === "string" ? item : (item && (item.url || item.contentUrl));
        if (typeof item === "object" && item && !item.url && !item.contentUrl) { walk(item, null, depth + 1); continue; }
        if (!u) continue;
        if (k === "embedUrl") add(u, "embed", "json-ld");
        else if (k === "contentUrl") add(u, isVideo ? "video" : "image", "json-ld");
        else if (k === "image" || k === "thumbnailUrl") add(u, "image", "json-ld");
        else if (k === "url" && isVideo && looksMedia(u) && /\.(mp4|webm|m3u8|mpd)/i.test(u)) add(u, "video", "json-ld");
      }
    }
    for (const k of Object.keys(node)) if (typeof node[k] === "object" && !["image", "contentUrl", "thumbnailUrl"].includes(k)) walk(node[k], null, depth + 1);
  };
  for (const s of document.querySelectorAll('script[type="application/ld+json"]')) {
    try { walk(JSON.parse(s.textContent), null, 0); } catch (e) { /* invalid JSON-LD is ignored */ }
  }
  // --- noscript fallbacks
  for (const ns of document.querySelectorAll("noscript")) {
    const html = ns.textContent || ns.innerHTML || "";
    if (!/<img/i.test(html)) continue;
    const doc = new DOMParser().parseFromString(html, "text/html");
    for (const img of doc.querySelectorAll("img[src]")) add(img.getAttribute("src"), "image", "noscript", { alt: img.getAttribute("alt") });
  }
  // --- CSS background images (inline and computed)
  const all = document.body ? document.body.getElementsByTagName("*") : [];
  const limit = Math.min(all.length, MAX_STYLE_SCAN);
  for (let i = 0; i < limit; i++) {
    const el = all[i];
    const bg = getComputedStyle(el).backgroundImage;
    if (!bg || bg === "none") continue;
    for (const m of bg.matchAll(/url\(["']?([^"')]+)["']?\)/g)) add(m[1], "image", "css@background-image", { context: el.getAttribute("aria-label") || el.getAttribute("title"), furniture: furnitureOf(el) });
  }
  // --- links in DOM order, after rendering
  const links = [];
  for (const a of document.querySelectorAll("a[href], area[href]")) {
    if (links.length >= MAX_LINKS) break;
    const h = a.href; // resolved against <base>
    if (h) links.push(h);
  }
  // --- controls that may reveal content, named by a stable CSS path
  const cssPath = (el) => {
    const parts = [];
    while (el && el.nodeType === 1 && parts.length < 12) {
      if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) { parts.unshift("#" + el.id); break; }
      let i = 1, sib = el;
      while ((sib = sib.previousElementSibling)) if (sib.tagName === el.tagName) i++;
      parts.unshift(el.tagName.toLowerCase() + ":nth-of-type(" + i + ")");
      el = el.parentElement;
    }
    return parts.join(" > ");
  };
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el); return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const LOAD_MORE = /\b(load|show|view|see|display)\s+(more|all)\b|\bmore\s+(results|items|posts|stories|photos|videos)\b|^\s*more\s*$|mehr\s+(laden|anzeigen)|voir\s+plus|ver\s+m[aá]s|cargar\s+m[aá]s/i;
  const CLOSE = /^\s*(accept|accept all|agree|i agree|ok|okay|got it|close|dismiss|no thanks|continue|allow|allow all|reject all|×|✕|x)\s*$/i;
  // overlays: fixed/sticky layers covering a large part of the viewport
  const vw = window.innerWidth, vh = window.innerHeight;
  const overlayEls = [];
  for (let i = 0; i < limit; i++) {
    const el = all[i];
    const s = getComputedStyle(el);
    if ((s.position === "fixed" || s.position === "sticky") && visible(el)) {
      const r = el.getBoundingClientRect();
      const cover = (Math.min(r.right, vw) - Math.max(r.left, 0)) * (Math.min(r.bottom, vh) - Math.max(r.top, 0));
      const isBanner = /cookie|consent|gdpr|modal|overlay|popup|newsletter|banner/i.test((el.id || "") + " " + (el.className || "")) || el.getAttribute("role") === "dialog" || el.getAttribute("aria-modal") === "true";
      if (cover > 0.3 * vw * vh || (isBanner && cover > 0.05 * vw * vh)) overlayEls.push(el);
    }
  }
  markers.overlays = overlayEls.length;
  const seenHandles = new Set();
  const addControl = (el, role) => {
    const h = cssPath(el);
    if (!h || seenHandles.has(h) || markers.controls.length >= 20) return;
    seenHandles.add(h);
    markers.controls.push({ handle: h, role });
  };
  for (const ov of overlayEls) for (const b of ov.querySelectorAll("button, [role=button], a[href^='#'], a:not([href]), input[type=button], input[type=submit]")) {
    if (visible(b) && (CLOSE.test(b.textContent || b.value || "") || /close|dismiss|accept/i.test(b.getAttribute("aria-label") || ""))) addControl(b, "overlay_close");
  }
  const clickable = "button, [role=button], input[type=button], a[href^='#'], a[href^='javascript:'], a:not([href])";
  for (const b of document.querySelectorAll(clickable)) {
    if (!visible(b)) continue;
    const label = (b.textContent || b.value || b.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim().slice(0, 80);
    if (LOAD_MORE.test(label)) addControl(b, "load_more");
  }
  // a tab or accordion hides content only while its panel is empty: a panel already in the DOM is read without a click
  const hasContent = (el) => !!el && ((el.textContent || "").trim().length > 20 || !!el.querySelector("img, video, iframe, picture"));
  const panelOf = (c) => { const id = (c.getAttribute("aria-controls") || "").split(/\s+/)[0]; return id ? document.getElementById(id) : null; };
  const detailsBody = (s) => { const d = s.parentElement; const rest = document.createElement("div");
    for (const n of d.childNodes) if (n !== s) rest.appendChild(n.cloneNode(true)); return rest; };
  for (const t of document.querySelectorAll("[role=tab][aria-selected=false], [role=tab]:not([aria-selected])")) if (visible(t) && !hasContent(panelOf(t))) addControl(t, "tab");
  for (const d of document.querySelectorAll("details:not([open]) > summary")) if (visible(d) && !hasContent(detailsBody(d))) addControl(d, "accordion");
  for (const d of document.querySelectorAll("[aria-expanded=false][aria-controls]")) if (visible(d) && !hasContent(panelOf(d))) addControl(d, "accordion");
  // infinite-scroll sentinel still waiting near the end of the page
  for (const el of document.querySelectorAll("[id*=sentinel i], [class*=sentinel i], [data-sentinel], [class*=infinite-scroll i], [aria-busy=true]")) { markers.feed_sentinel = true; break; }

  // what a scroll could set off (the init script's count; -1: no init script, so unknown)
  markers.scroll_hooks = window.__baraScrollHooks ? window.__baraScrollHooks() : -1;

  return {
    title: document.title || "",
    body_text: document.body ? document.body.innerText.slice(0, 2000000) : "",
    links,
    candidates: cands,
    markers,
    height: document.documentElement ? document.documentElement.scrollHeight : 0,
    progress: window.__baraState ? window.__baraState() : null,  // waits.progress_of reads it
  };
}
"""
COLLECT_JS = with_lazy_attrs(COLLECT_JS)
