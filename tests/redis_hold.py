"""A TCP proxy to Redis that, once armed, holds a worker's next acknowledgement (DELIVER) for good.

A worker acknowledges a page only after its feed holds the item (`frontier/shared.py`), so
while the proxy holds that call the worker sits exactly between writing an item and acknowledging
it: the moment a SIGKILL is the hardest for the shared frontier. The script is recognised by its
SHA-1, which redis-py sends with every `EVALSHA`.
"""

from __future__ import annotations

import hashlib
import socket
import threading

from bara_scrapy.frontier.redis_scripts import DELIVER

DELIVER_SHA = hashlib.sha1(DELIVER.encode()).hexdigest().encode()


class RedisProxy:
    """A TCP proxy to Redis on 127.0.0.1 (port 0); `passes` decides, chunk by chunk, what goes on."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def passes(self, data: bytes, to_redis: bool) -> bool:
        """Whether `data` (a call when `to_redis`, else an answer) is forwarded; it may wait first."""
        return True

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            self.sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, to_redis: bool) -> None:
        try:
            while data := source.recv(65536):
                if not self.passes(data, to_redis):
                    return
                sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass


class AckHoldingProxy(RedisProxy):
    def __init__(self, target_port: int) -> None:
        self.armed = threading.Event()
        self.held = threading.Event()  # an acknowledgement is being held
        self.closed = threading.Event()
        super().__init__(target_port)

    def passes(self, data: bytes, to_redis: bool) -> bool:
        if to_redis and self.armed.is_set() and DELIVER_SHA in data:
            self.held.set()
            self.closed.wait()  # never forwarded
            return False
        return True

    def close(self) -> None:
        self.closed.set()
        super().close()
