"""`gachapress serve` run as a user does, and watched through its event stream: the states the
open pages are told, as they come, and the server's CPU time."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class Served:
    """A running preview: its process, address, and the states its event stream sends."""

    process: subprocess.Popen[str]
    host: str
    port: int
    states: Iterator[dict[str, Any]]

    def cpu(self) -> float:
        """CPU seconds the server has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak(self) -> float:
        """The server's peak memory so far, in MiB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def get(self, path: str) -> bytes:
        """The body of a page of the preview."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=300)
        connection.request("GET", path)
        return connection.getresponse().read()


def states(stream: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    """The states an event stream of `gachapress serve` sends, as they come."""
    for line in stream:
        if line.startswith(b"data: "):
            yield json.loads(line[len(b"data: ") :])


@contextlib.contextmanager
def serving(
    project: Path, *args: str, env: dict[str, str] | None = None
) -> Iterator[Served | None]:
    """`gachapress serve ARGS --port 0` in ``project``, listened to once it has built; None
    for a checkout without serve. Stopped with Ctrl-C on leaving."""
    server = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", "serve", *args, "--port", "0"],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, **(env or {})})  # fmt: skip
    try:
        assert server.stdout is not None
        found = re.search(r"http://([\d.]+):(\d+)/", server.stdout.readline())
        if found is None:
            yield None
            return
        events = http.client.HTTPConnection(found[1], int(found[2]), timeout=600)
        events.request("GET", "/_serve/events")
        yield Served(server, found[1], int(found[2]), states(events.getresponse()))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
