"""The attributes lazy loaders keep an image's URL in until it is swapped in (`collect_js`, `timers_js`).

A `LAZY_ATTRS` value counts only when it reads as a media URL (`LOOKS_MEDIA`, a JavaScript regex):
`data-lazy="true"` names nothing.
"""

import json

LAZY_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "data-img", "data-image",
              "data-hi-res-src", "data-full-src")
LAZY_SET_ATTRS = ("data-srcset", "data-lazy-srcset")
LOOKS_MEDIA = r"/^(https?:|\/|\.\.?\/)|\.(png|jpe?g|gif|webp|avif|svg|mp4|webm|m3u8|mpd)(\?|#|$)/i"


def with_lazy_attrs(js: str) -> str:
    """`js` with the placeholders __LAZY_ATTRS__, __LAZY_SET_ATTRS__ and __LOOKS_MEDIA__ filled in."""
    for name, value in (("__LAZY_ATTRS__", json.dumps(LAZY_ATTRS)), ("__LAZY_SET_ATTRS__", json.dumps(LAZY_SET_ATTRS)),
                        ("__LOOKS_MEDIA__", LOOKS_MEDIA)):
        js = js.replace(name, value)
    return js
