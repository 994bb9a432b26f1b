"""The test's own network for a crawl process (on its PYTHONPATH): answers for names, and where addresses lead.

`BARA_TEST_DNS` (JSON): name -> the addresses `socket.getaddrinfo` answers ([] = no such name);
`BARA_TEST_ROUTES` (JSON): "address:port" -> [host, port] a connection to it is sent to, so that a
"public" address of the test leads to a server on loopback and nothing leaves the machine. Every
connection to a routed address is appended to `BARA_TEST_CONNECTS` (a file). Not part of bara_scrapy.
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any

_DNS: dict[str, list[str]] = json.loads(os.environ.get("BARA_TEST_DNS", "{}"))
_ROUTES: dict[str, list[Any]] = json.loads(os.environ.get("BARA_TEST_ROUTES", "{}"))
_LOG = os.environ.get("BARA_TEST_CONNECTS", "")
_getaddrinfo, _connect, _connect_ex = socket.getaddrinfo, socket.socket.connect, socket.socket.connect_ex


def _getaddrinfo_shim(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    name = host.decode() if isinstance(host, bytes) else host
    if isinstance(name, str) and name.lower().rstrip(".") in _DNS:
        answers = _DNS[name.lower().rstrip(".")]
        if not answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [info for address in answers for info in _getaddrinfo(address, port, *args, **kwargs)]
    return _getaddrinfo(host, port, *args, **kwargs)


def _route(address: Any) -> Any:
    if isinstance(address, tuple) and len(address) >= 2:
        key = f"{address[0]}:{address[1]}"
        if key in _ROUTES:
            if _LOG:
                with open(_LOG, "a", encoding="utf-8") as fh:
                    fh.write(key + "\n")
            return tuple(_ROUTES[key])
    return address


def _connect_shim(self: socket.socket, address: Any) -> Any:
    return _connect(self, _route(address))


def _connect_ex_shim(self: socket.socket, address: Any) -> Any:
    return _connect_ex(self, _route(address))


if _DNS or _ROUTES:
    socket.getaddrinfo = _getaddrinfo_shim
    socket.socket.connect = _connect_shim  # type: ignore[method-assign]
    socket.socket.connect_ex = _connect_ex_shim  # type: ignore[method-assign]
