"""SSRF guard: is a URL safe to fetch from the crawler's network position?

Pure checks: literal addresses are parsed the way `inet_aton` and browsers do
(`127.1`, `0x7f000001`, `2130706433`, octal parts), IPv6 forms that embed an
IPv4 address are unwrapped, and host names are resolved through an injectable
resolver so that a name pointing at a private address is caught too.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Collection, Iterable
from urllib.parse import urlsplit

from ..urls import netloc

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str], Iterable[str]]

BLOCKED_SCHEME = "blocked_scheme"
BLOCKED_PRIVATE = "blocked_private"
DNS_ERROR = "dns_error"
INVALID_URL = "invalid_url"

_DEFAULT_PORTS = {"http": 80, "https": 443}
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_V4_COMPATIBLE = ipaddress.ip_network("::/96")


def _ipv4_part(text: str) -> int | None:
    if not text:
        return None
    try:
        if text[:2].lower() == "0x":
            return int(text[2:] or "0", 16)
        if len(text) > 1 and text[0] == "0":
            return int(text[1:], 8)
        return int(text, 10) if text.isdigit() else None
    except ValueError:
        return None


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """Parse every IPv4 spelling `inet_aton` accepts, or return None.

    >>> [str(parse_ipv4(h)) for h in ("127.1", "0x7f000001", "2130706433", "0177.0.0.1", "10.1.2")]
    ['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1', '10.1.0.2']
    >>> parse_ipv4("example.org"), parse_ipv4("1.2.3.4.5"), parse_ipv4("256.1.1.1")
    (None, None, None)
    """
    parts = host.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    values = [_ipv4_part(p) for p in parts]
    if any(v is None for v in values):
        return None
    nums = [v for v in values if v is not None]
    *head, last = nums
    if any(v > 255 for v in head) or last >= 256 ** (5 - len(nums)):
        return None
    value = last
    for i, byte in enumerate(head):
        value |= byte << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def parse_literal(host: str) -> IPAddress | None:
    """The address a host names literally (IPv4 in any spelling, IPv6), else None.

    >>> str(parse_literal("::ffff:127.0.0.1")), str(parse_literal("0x7f.1")), parse_literal("a.org")
    ('::ffff:7f00:1', '127.0.0.1', None)
    """
    host = host.strip("[]")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return parse_ipv4(host)


def _translated_ipv4(addr: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address a connection to `addr` really reaches (mapped, NAT64, v4-compatible)."""
    if addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    if addr in _NAT64 or (addr in _V4_COMPATIBLE and int(addr) > 1):
        return ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
    return None


def _tunnel_ipv4(addr: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    found = [addr.sixtofour] if addr.sixtofour is not None else []
    return found + list(addr.teredo or ())


def is_public_address(ip: str | IPAddress) -> bool:
    """True only for a globally routable unicast address.

    >>> [is_public_address(a) for a in ("93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8")]
    [True, True, True]
    >>> [is_public_address(a) for a in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "169.254.169.254",
    ...                                 "10.0.0.1", "172.16.0.1", "192.168.1.1", "fd00::1", "fe80::1",
    ...                                 "0.0.0.0", "100.64.0.1", "224.0.0.1", "64:ff9b::a00:1")]
    [False, False, False, False, False, False, False, False, False, False, False, False, False]
    """
    try:
        addr = ipaddress.ip_address(ip) if isinstance(ip, str) else ip
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.scope_id:
            return False
        if (v4 := _translated_ipv4(addr)) is not None:
            return is_public_address(v4)
        if not all(is_public_address(v4) for v4 in _tunnel_ipv4(addr)):
            return False
    bad = (
        addr.is_private
        or addr.is_loopback
        or addr.is_link_local
        or addr.is_multicast
        or addr.is_reserved
        or addr.is_unspecified
    )
    return addr.is_global and not bad


def host_key(url: str) -> str:
    """The `host:port` a URL connects to (default port filled in), for `allowed_hosts`.

    >>> host_key("http://127.0.0.1:8080/a"), host_key("https://Example.org/"), host_key("http://[::1]/")
    ('127.0.0.1:8080', 'example.org:443', '[::1]:80')
    """
    return netloc(urlsplit(url.strip()), with_port=True)


def default_resolve(host: str) -> list[str]:
    """All addresses `host` resolves to (blocking; run it off the event loop)."""
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return [str(info[4][0]) for info in infos]


def check_url(
    url: str,
    *,
    allowed_hosts: Collection[str] = (),
    allow_private: bool = False,
    resolve: Resolver = default_resolve,
) -> str | None:
    """Why fetching `url` is refused, or None when it may be fetched.

    `allowed_hosts` holds `host` or `host:port` strings that may be private
    (the seed's own host when the seed itself is private or loopback).

    >>> check_url("ftp://a.org/x"), check_url("http://127.1/"), check_url("http://[::ffff:127.0.0.1]/")
    ('blocked_scheme', 'blocked_private', 'blocked_private')
    >>> check_url("http://localhost/", resolve=lambda h: ["127.0.0.1"])
    'blocked_private'
    >>> check_url("http://127.0.0.1:8000/a", allowed_hosts={"127.0.0.1:8000"}) is None
    True
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return INVALID_URL
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        return BLOCKED_SCHEME
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return INVALID_URL
    if allow_private:
        return None
    bracketed = f"[{host}]" if ":" in host else host
    if bracketed in allowed_hosts or f"{bracketed}:{port or _DEFAULT_PORTS[scheme]}" in allowed_hosts:
        return None
    literal = parse_literal(host)
    if literal is not None:
        return None if is_public_address(literal) else BLOCKED_PRIVATE
    try:
        addresses = list(resolve(host))
    except (OSError, UnicodeError):
        return DNS_ERROR
    if not addresses:
        return DNS_ERROR
    if not all(is_public_address(a) for a in addresses):
        return BLOCKED_PRIVATE
    return None
