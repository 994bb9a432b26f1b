"""Chromium `--host-resolver-rules` for one crawl: the network-level backstop of the route guard.

Playwright does not route the hops of a redirect Chromium follows by itself
(sub-resources, iframes), so a Python check cannot stop them. Chromium's host
resolver sees every connection, hops included, and every IPv4 spelling after
URL canonicalisation (`127.1`, `0x7f.1`, `2130706433` all become `127.0.0.1`):

1. the seed's `host:port` first, pinned to the address checked at start when
   it is a name (Chromium connects there and nowhere else, no rebinding);
2. then every non-global IPv4/IPv6 range and local name, mapped to `~NOTFOUND`
   (`net::ERR_NAME_NOT_RESOLVED`), whatever the port.

Rules match the host text, not the address a name resolves to: a public name
that resolves to a private address is caught by the route guard's own lookup
(`browser/route.py`), not here, and Chromium never resolves such a name itself:
its requests to host names go through the egress proxy (`egress.py`), which
connects to the address the guard checked. Patterns are globs, so a host name that starts
like an address range (`10.example.com`) is refused too.
"""

from __future__ import annotations

import ipaddress
import logging

from ..verify.ssrf import Resolver, default_resolve, host_key, is_public_address, parse_literal

logger = logging.getLogger(__name__)

_PRIVATE_V4 = ("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
               "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
               "203.0.113.0/24", "224.0.0.0/3")
# IPv6 patterns match Chromium's "[addr]:port" form: `::…` covers ::1, ::, ::ffff:a.b.c.d and v4-compatible
_PRIVATE_V6 = ("::*", "fc*", "fd*", "fe8*", "fe9*", "fea*", "feb*", "fec*", "fed*", "fee*", "fef*", "ff*",
               "64:ff9b:*", "100::*", "2001:db8:*")
_LOCAL_NAMES = ("localhost", "*.localhost", "localhost.localdomain")


def ipv4_globs(cidr: str) -> list[str]:
    """Octet-aligned glob patterns covering an IPv4 network.

    >>> ipv4_globs("10.0.0.0/8"), ipv4_globs("198.18.0.0/15"), ipv4_globs("192.0.2.0/24")
    (['10.*'], ['198.18.*', '198.19.*'], ['192.0.2.*'])
    """
    net = ipaddress.ip_network(cidr)
    aligned = -(-net.prefixlen // 8) * 8
    subnets = net.subnets(new_prefix=aligned) if aligned != net.prefixlen else [net]
    return [".".join(str(s.network_address).split(".")[: aligned // 8]) + ".*" for s in subnets]


def _seed_rules(seed: str, resolve: Resolver) -> list[str]:
    key = host_key(seed)
    host, _, port = key.rpartition(":")
    keys = [key] + ([f"{host}:{443 if port == '80' else 80}"] if port in ("80", "443") else [])
    target = host
    if parse_literal(host) is None and host.strip("[]"):
        try:
            addresses = list(resolve(host))
        except (OSError, UnicodeError):
            addresses = []
        public = [a for a in addresses if is_public_address(a)]
        chosen = (public or addresses or [""])[0]
        if chosen:
            target = f"[{chosen}]" if ":" in chosen else chosen
            logger.info("Seed host %s pinned to %s for the browser", host, chosen)
    return [f"MAP {k} {target}:{k.rpartition(':')[2]}" for k in keys]


def host_resolver_rules(seed: str, resolve: Resolver = default_resolve) -> str:
    """The `--host-resolver-rules` value for a crawl of `seed` (first matching rule wins).

    >>> rules = host_resolver_rules("http://127.0.0.1:8000/").split(", ")
    >>> rules[:1], "MAP 127.* ~NOTFOUND" in rules, "MAP [::*]:* ~NOTFOUND" in rules
    (['MAP 127.0.0.1:8000 127.0.0.1:8000'], True, True)
    >>> host_resolver_rules("https://a.test/", resolve=lambda h: ["93.184.216.34"]).split(", ")[:2]
    ['MAP a.test:443 93.184.216.34:443', 'MAP a.test:80 93.184.216.34:80']
    """
    rules = _seed_rules(seed, resolve)
    rules += [f"MAP {glob} ~NOTFOUND" for cidr in _PRIVATE_V4 for glob in ipv4_globs(cidr)]
    rules += [f"MAP [{pattern}]:* ~NOTFOUND" for pattern in _PRIVATE_V6]
    rules += [f"MAP {name} ~NOTFOUND" for name in _LOCAL_NAMES]
    return ", ".join(rules)


# Chromium's Local Network Access checks judge a document by the address it came from; a document the
# route handler fulfils has none and counts as public, so its requests to the (allowed) seed host or a
# loopback CDN would be refused. The route guard and the resolver rules above decide instead.
LNA_FEATURES = ("LocalNetworkAccessChecks", "PrivateNetworkAccessSendPreflights",
                "PrivateNetworkAccessRespectPreflightResults", "BlockInsecurePrivateNetworkRequests")
# Chromium keeps the last `--disable-features` it is given, and Playwright passes one of its own first: a
# crawl's flag carries Playwright's list too (playwright 1.65's `chromiumSwitches`; a unit test compares it
# with the installed driver's). Without it Chromium would, among others, upgrade every `http` navigation to
# a host name to `https` before the route handler sees it (`HttpsUpgrades`), and hold paint (`PaintHolding`).
PLAYWRIGHT_FEATURES = ("AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
                       "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
                       "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
                       "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
                       "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
# Every new window of Chromium 156, headless too, loads the omnibox's drop-down as a WebUI page of its own (a
# `browser_ui` target, chrome://omnibox-popup.top-chrome/, and its AI-mode variant: about a thousand script
# modules). That cost 0.4–0.5 CPU s per window in the two seconds after it opened, against 0.005 with these
# off; a crawl opens a window for each pooled tab (`windows.py`) and again when a tab is retired.
WINDOW_UI_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup", "PreloadTopChromeWebUI")
DISABLE_FEATURES = "--disable-features="


def disabled_features(args: list[str]) -> list[str]:
    """`args` with one `--disable-features`: Playwright's, the Local Network Access checks, the browser windows'
    own UI pages, and the user's own.

    >>> disabled_features(["--no-sandbox", "--disable-features=Translate"])[-1].endswith(",Translate")
    True
    >>> sum(a.startswith(DISABLE_FEATURES) for a in disabled_features(["--disable-features=A", "--x"]))
    1
    """
    own = [f for a in args if a.startswith(DISABLE_FEATURES) for f in a[len(DISABLE_FEATURES):].split(",") if f]
    features = dict.fromkeys([*PLAYWRIGHT_FEATURES, *LNA_FEATURES, *WINDOW_UI_FEATURES, *own])
    return [*(a for a in args if not a.startswith(DISABLE_FEATURES)), DISABLE_FEATURES + ",".join(features)]


def chromium_args(args: list[str], seed: str | None, allow_private: bool) -> list[str]:
    """Launch arguments for a crawl: one `--disable-features` (`disabled_features`: Local Network Access
    checks off, Playwright's own list kept) and the resolver rules (unless private networks are allowed,
    there is no seed, or the user set rules of their own).

    >>> chromium_args(["--no-sandbox"], None, False) == ["--no-sandbox", disabled_features([])[0]]
    True
    """
    out = disabled_features(args)
    if allow_private or not seed or any(a.startswith("--host-resolver-rules") for a in out):
        return out
    return [*out, f"--host-resolver-rules={host_resolver_rules(seed)}"]
