"""SSRF guard: literal addresses in every spelling, and names that resolve to private addresses."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from bara_scrapy.verify import check_url, host_key, is_public_address
from bara_scrapy.verify.ssrf import parse_ipv4

PRIVATE_LITERAL_URLS = [
    "http://127.0.0.1/",
    "http://127.1/",
    "http://127.0.1/",
    "http://0x7f000001/",
    "http://0x7F.0.0.1/",
    "http://2130706433/",
    "http://017700000001/",
    "http://0177.0.0.1/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::1]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/x",
    "http://10.255.255.255/",
    "http://172.16.0.1/",
    "http://172.31.255.254/",
    "http://192.168.0.1/",
    "http://100.64.0.1/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "https://127.0.0.1:8443/a.png",
    "http://127.0.0.1./",
]


@pytest.mark.parametrize("url", PRIVATE_LITERAL_URLS)
def test_private_literals_blocked_without_resolving(url: str) -> None:
    def no_dns(host: str) -> list[str]:
        raise AssertionError(f"resolved {host!r}: a literal must not reach DNS")

    assert check_url(url, resolve=no_dns) == "blocked_private"


@pytest.mark.parametrize(
    "url",
    [
        "http://8.8.8.8/",
        "https://93.184.216.34/a.png",
        "http://[2606:4700::1111]/",
        "http://172.32.0.1/",
        "http://0x08080808/",
        "http://[::ffff:8.8.8.8]/",
    ],
)
def test_public_literals_pass(url: str) -> None:
    assert check_url(url, resolve=lambda h: pytest.fail("literal resolved")) is None


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/a.png",
        "data:image/png;base64,AAAA",
        "blob:https://a.org/1",
        "javascript:alert(1)",
        "gopher://127.0.0.1:70/",
        "//example.org/a.png",
    ],
)
def test_non_http_schemes_blocked(url: str) -> None:
    assert check_url(url, allow_private=True) == "blocked_scheme"


@pytest.mark.parametrize("url", ["http://", "http://[::1/", "http://a.org:99999/"])
def test_invalid_urls(url: str) -> None:
    assert check_url(url, resolve=lambda h: ["8.8.8.8"]) == "invalid_url"


DNS = {
    "public.test": ["93.184.216.34"],
    "localhost": ["127.0.0.1", "::1"],
    "metadata.test": ["169.254.169.254"],
    "mixed.test": ["93.184.216.34", "10.0.0.5"],
    "v6-private.test": ["fd00::5"],
    "mapped.test": ["::ffff:192.168.1.1"],
    "empty.test": [],
}


def resolver(host: str) -> Iterable[str]:
    if host not in DNS:
        raise OSError(-2, "Name or service not known")
    return DNS[host]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://public.test/a.png", None),
        ("http://localhost/a.png", "blocked_private"),
        ("http://LOCALHOST./a.png", "blocked_private"),
        ("http://metadata.test/", "blocked_private"),
        ("http://mixed.test/", "blocked_private"),  # any private answer blocks (rebinding across records)
        ("http://v6-private.test/", "blocked_private"),
        ("http://mapped.test/", "blocked_private"),
        ("http://nx.test/", "dns_error"),
        ("http://empty.test/", "dns_error"),
    ],
)
def test_resolved_names(url: str, expected: str | None) -> None:
    assert check_url(url, resolve=resolver) == expected


def test_unicode_error_from_resolver_is_dns_error() -> None:
    def bad(host: str) -> list[str]:
        raise UnicodeError("label too long")

    assert check_url("http://x.test/", resolve=bad) == "dns_error"


@pytest.mark.parametrize(
    ("url", "allowed", "expected"),
    [
        ("http://127.0.0.1:8000/a.png", {"127.0.0.1:8000"}, None),
        ("http://127.0.0.1:8001/a.png", {"127.0.0.1:8000"}, "blocked_private"),  # another port = another host
        ("http://127.0.0.1:9/a.png", {"127.0.0.1"}, None),  # bare host allows every port
        ("http://10.0.0.1/x", {"127.0.0.1:8000"}, "blocked_private"),
        ("http://[::1]:8000/", {"[::1]:8000"}, None),
        ("http://localhost/", {"localhost:80"}, None),
        ("https://localhost/", {"localhost:80"}, "blocked_private"),
        ("ftp://127.0.0.1:8000/", {"127.0.0.1:8000"}, "blocked_scheme"),
    ],
)
def test_allowed_hosts(url: str, allowed: set[str], expected: str | None) -> None:
    assert check_url(url, allowed_hosts=allowed, resolve=resolver) == expected


def test_allow_private_skips_address_checks() -> None:
    assert check_url("http://10.0.0.1/x", allow_private=True, resolve=resolver) is None
    assert check_url("http://nx.test/", allow_private=True, resolve=resolver) is None


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("1.2.3.4", "1.2.3.4"),
        ("0x7f000001", "127.0.0.1"),
        ("0X7F000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.01", "127.0.0.1"),
        ("0x7f.0x0.0.1", "127.0.0.1"),
        ("10.0x10000", "10.1.0.0"),
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),
        ("4294967295", "255.255.255.255"),
        ("4294967296", None),
        ("256.0.0.1", None),
        ("1.2.3.256", None),
        ("1.2.65536", None),
        ("1.2.3.4.5", None),
        ("1..2", None),
        ("", None),
        ("08.0.0.1", None),  # 8 is not an octal digit
        ("0x1g", None),
        ("example.org", None),
        ("-1", None),
    ],
)
def test_parse_ipv4(host: str, expected: str | None) -> None:
    parsed = parse_ipv4(host)
    assert (str(parsed) if parsed else None) == expected


@pytest.mark.parametrize(
    ("ip", "public"),
    [
        ("8.8.8.8", True),
        ("2001:4860:4860::8888", True),
        ("64:ff9b::808:808", True),
        ("127.0.0.1", False),
        ("127.255.255.254", False),
        ("::1", False),
        ("::ffff:127.0.0.1", False),
        ("::127.0.0.1", False),
        ("2002:7f00:1::", False),  # 6to4 of a loopback address
        ("2002:a00:1::1", False),
        ("169.254.169.254", False),
        ("192.0.0.1", False),
        ("198.18.0.1", False),
        ("240.0.0.1", False),
        ("ff02::1", False),
        ("2001:db8::1", False),
        ("not-an-ip", False),
    ],
)
def test_is_public_address(ip: str, public: bool) -> None:
    assert is_public_address(ip) is public


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://127.0.0.1:8080/a", "127.0.0.1:8080"),
        ("HTTPS://Example.ORG./", "example.org:443"),
        ("http://[::1]/", "[::1]:80"),
        ("http://a.org:80/", "a.org:80"),
    ],
)
def test_host_key(url: str, key: str) -> None:
    assert host_key(url) == key
