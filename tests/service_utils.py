"""Real services for the scale-out tests: Scrapyd (from PyPI) and redis-server (from Debian).

Each runs on 127.0.0.1 in its own temporary directory, in its own process
group, so `stop()` ends it and every process it started (crawls, Chromium).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A port the kernel just handed out (the services need a fixed port in their config)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for(check: Callable[[], Any], what: str, timeout: float = 60.0, interval: float = 0.1) -> Any:
    """Poll `check` until it returns a true value; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception as exc:  # the service is still starting
            last, value = exc, None
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last error: {last!r})")


def kill_group(proc: subprocess.Popen[Any], sig: int = signal.SIGKILL) -> None:
    """End a process started with start_new_session=True and everything it started."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCRAPY_", "BARA_"))}
    env.update(extra)
    return env


class _Service:
    """A server process of its own group, on 127.0.0.1, with its files in `root`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def stop(self) -> None:
        if self.proc is not None:
            kill_group(self.proc)
            self.proc = None


class ScrapydNode(_Service):
    """One real `scrapyd` on 127.0.0.1 with its eggs, logs, items and dbs in `root`."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> ScrapydNode:
        self.root.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        dirs = {name: self.root / name for name in ("eggs", "logs", "items", "dbs")}
        conf = "\n".join(
            ["[scrapyd]", "bind_address = 127.0.0.1", f"http_port = {self.port}", "poll_interval = 0.2",
             "max_proc = 2", "jobs_to_keep = 50", "finished_to_keep = 100"]
            + [f"{name}_dir = {path}" for name, path in dirs.items()]
        )
        (self.root / "scrapyd.conf").write_text(conf + "\n", encoding="utf-8")
        log = (self.root / "scrapyd.out").open("wb")
        # jobs run with the python that runs scrapyd: this virtualenv's
        self.proc = subprocess.Popen([sys.executable, "-m", "scrapyd"], cwd=self.root, env=clean_env(),
                                     stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(lambda: self.get("daemonstatus.json")["status"] == "ok", f"scrapyd on port {self.port}")
        return self

    def get(self, endpoint: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + endpoint, timeout=10) as resp:
            value: dict[str, Any] = json.loads(resp.read())
            return value

    def post(self, endpoint: str, fields: list[tuple[str, str]]) -> dict[str, Any]:
        data = urllib.parse.urlencode(fields).encode()
        with urllib.request.urlopen(self.url + endpoint, data=data, timeout=10) as resp:
            value: dict[str, Any] = json.loads(resp.read())
            return value

    def deploy(self, project_copy: Path) -> str:
        """`scrapyd-deploy` from a copy of the project (it writes build files next to scrapy.cfg)."""
        cfg = project_copy / "scrapy.cfg"
        text = cfg.read_text(encoding="utf-8").split("[deploy]")[0]
        cfg.write_text(text + f"[deploy]\nurl = {self.url}\nproject = bara_scrapy\n", encoding="utf-8")
        deploy = Path(sys.executable).parent / "scrapyd-deploy"
        done = subprocess.run([str(deploy)], cwd=project_copy, env=clean_env(), capture_output=True, text=True,
                              timeout=180)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr

    def items(self, job: str, project: str = "bara_scrapy", spider: str = "bara") -> list[dict[str, Any]]:
        path = self.root / "items" / project / spider / f"{job}.jl"
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def copy_project(dest: Path) -> Path:
    """The tracked files of this checkout (what a user deploys), outside the working tree."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        src = REPO_ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


class RedisServer(_Service):
    """Debian's `redis-server` on 127.0.0.1, no persistence (`--save ''`), data dir in `root`."""

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, port: int = 0) -> RedisServer:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is missing: `make setup` installs it (apt-get install -y redis-server)"
        self.root.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        log = (self.root / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.root), "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        wait_for(self.ping, f"redis-server on port {self.port}")
        return self

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")

    def restart(self) -> None:
        """Stop and start again on the same port: without persistence, every key is gone."""
        port = self.port
        self.stop()
        self.start(port)


PYWB_VENV = REPO_ROOT / ".venv-pywb"  # pywb pins redis 2.10: a virtualenv of its own (`make setup`)


class PywbServer(_Service):
    """pywb's `wayback` (from PyPI) on 127.0.0.1 over one collection `coll` of the given WARCs or WACZs."""

    collection = "coll"

    def replay_url(self, url: str, modifier: str = "id_", timestamp: str = "2100") -> str:
        """`id_`: the archived bytes as they are; `mp_`: the page rewritten for replay."""
        return f"http://127.0.0.1:{self.port}/{self.collection}/{timestamp}{modifier}/{url}"

    def start(self, archives: list[Path]) -> PywbServer:
        bin_dir = PYWB_VENV / "bin"
        assert (bin_dir / "wayback").exists(), f"pywb is missing in {PYWB_VENV}: `make setup` installs it"
        self.root.mkdir(parents=True, exist_ok=True)
        unpack = ["--unpack-wacz"] if any(a.suffix == ".wacz" for a in archives) else []  # its own index, as is
        for args in (["init", self.collection], ["add", *unpack, self.collection, *map(str, archives)]):
            done = subprocess.run([str(bin_dir / "wb-manager"), *args], cwd=self.root, env=clean_env(),
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stdout + done.stderr
        self.port = free_port()
        log = (self.root / "wayback.log").open("ab")
        self.proc = subprocess.Popen([str(bin_dir / "wayback"), "-b", "127.0.0.1", "-p", str(self.port)],
                                     cwd=self.root, env=clean_env(), stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        wait_for(self.ready, f"pywb on port {self.port}")
        return self

    def ready(self) -> bool:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{self.collection}/", timeout=5) as resp:
            return bool(resp.status == 200)

    def get(self, url: str, modifier: str = "id_") -> tuple[int, bytes]:
        """Status and body of the replay of `url` (an HTTP error status is an answer too)."""
        try:
            with urllib.request.urlopen(self.replay_url(url, modifier), timeout=30) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()
