"""The preview server's one gate for every request, before any route sees it.

- The ``Host`` header must name this machine (its own names and addresses, or one the designer
  allowed), so that a page elsewhere cannot reach the preview through DNS rebinding.
- An address longer than ``MAX_PATH`` is not found.
- A request that changes something (any method but GET, HEAD and OPTIONS) must come from the
  preview's own pages (an ``Origin``, when the browser sends one, of this very server) and
  carry JSON (``Content-Type: application/json``), at most ``MAX_BODY`` bytes of it, nested at
  most ``MAX_DEPTH`` deep, with whole numbers of at most ``MAX_DIGITS`` digits and no other
  numbers. The routes read the JSON the gate parsed (``body_json``).
- Whatever a route raises is answered with a plain 500 and logged, never a traceback page.

Every refusal is a plain sentence, as JSON ``{"error": ...}`` for the JSON calls."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import re
import socket
from collections.abc import Callable, Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The longest address (path and query) the preview answers; its own are under 200 bytes.
MAX_PATH = 2048
#: The largest body a request may send (a long game's log is tens of kilobytes).
MAX_BODY = 4 * 1024 * 1024
#: How deep lists and objects may nest in a request's JSON (a log nests four deep).
MAX_DEPTH = 32
#: The most digits of a whole number in a request's JSON (a deal number fits in 20).
MAX_DIGITS = 20
#: The methods that only read.
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
#: Where the gate keeps the parsed JSON body in the request's scope.
JSON_KEY = "gachapress.json"

log = logging.getLogger("gachapress.serve")


class Refused(Exception):
    """A request the gate turns away: its status and the sentence that says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def body_json(request: Request) -> Any:
    """The JSON body of a request that changes something, as the gate parsed and checked it."""
    return request.scope[JSON_KEY]


def parse_json(body: bytes) -> Any:
    """``body`` as JSON within the gate's bounds; Refused (400) saying what is wrong."""
    if len(body) > MAX_BODY:
        raise Refused(f"the request is larger than {MAX_BODY // (1024 * 1024)} MB", 413)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("the request is not text in UTF-8") from None
    deepest = _depth(text)
    if deepest > MAX_DEPTH:
        raise Refused(f"the request nests lists or objects {deepest} deep (at most {MAX_DEPTH})")
    try:
        return json.loads(
            text, parse_int=_whole, parse_float=_no_fraction, parse_constant=_no_constant
        )
    except json.JSONDecodeError as exc:
        raise Refused(f"the request is not JSON: {exc}") from None


def _depth(text: str) -> int:
    """How deep brackets nest in ``text``, outside its strings (before parsing, which would
    recurse as deep)."""
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    deepest = depth = 0
    for char in outside:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise Refused(
            f"a number in the request has {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})"
        )
    return int(digits)


def _no_fraction(text: str) -> float:
    raise Refused(f"the request has the number {text[:30]}, where only whole numbers are used")


def _no_constant(text: str) -> float:
    raise Refused(f"the request has {text}, which is not a number the preview uses")


def host_of(header: str) -> str:
    """The host name or address of a ``Host`` header (or an origin's host), without its port
    or the brackets of an IPv6 address, in lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def allowed(hosts: Iterable[str]) -> Callable[[str], bool]:
    """Whether a ``Host`` header names one of ``hosts`` ("*": any)."""
    names = {host_of(host) if not _is_ipv6(host) else host.strip("[]").lower() for host in hosts}
    if "*" in names:
        return lambda header: True
    return lambda header: host_of(header) in names


def _is_ipv6(text: str) -> bool:
    try:
        return ipaddress.ip_address(text.strip("[]")).version == 6
    except ValueError:
        return False


class Guard:
    """The ASGI middleware that applies these rules to every request."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = ("*",)) -> None:
        self.app = app
        self.host_allowed = allowed(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            receive = await self._check(scope, receive)
            await self.app(scope, receive, sending)
        except Refused as refusal:
            await self._refuse(scope, refusal)(scope, receive, send)
        except Exception:
            log.exception("the preview failed on %s %s", scope["method"], scope["path"][:200])
            if not started:
                failure = Refused("the preview failed on this request (the terminal says why)", 500)
                await self._refuse(scope, failure)(scope, receive, send)

    async def _check(self, scope: Scope, receive: Receive) -> Receive:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.host_allowed(host):
            raise Refused(f"this preview does not answer to the name {host[:100]!r}")
        if len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) > MAX_PATH:
            raise Refused("no such page (the address is too long)", 404)
        if scope["method"] in SAFE:
            return receive
        origin = headers.get("origin")
        if origin is not None and origin != f"{scope.get('scheme', 'http')}://{host}":
            raise Refused("only the preview's own pages may change a game", 403)
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            raise Refused("only the preview's own pages may change a game", 403)
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused("the request must be JSON (Content-Type: application/json)", 415)
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            raise Refused(f"the request is larger than {MAX_BODY // (1024 * 1024)} MB", 413)
        body = await _read(receive)
        scope[JSON_KEY] = parse_json(body)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    @staticmethod
    def _refuse(scope: Scope, refusal: Refused) -> Response:
        if scope["path"].startswith("/_serve/play/") or scope["path"].startswith("/_serve/table/"):
            return JSONResponse({"error": str(refusal)}, status_code=refusal.status)
        return PlainTextResponse(str(refusal), status_code=refusal.status)


async def _read(receive: Receive) -> bytes:
    """The request's body, refused as soon as it grows past ``MAX_BODY``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise Refused("the request ended before its body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(f"the request is larger than {MAX_BODY // (1024 * 1024)} MB", 413)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def machine_names(host: str, extra: Iterable[str] = ()) -> list[str]:
    """The names a ``Host`` header may give for a preview listening on ``host``: this machine
    by its loopback names always; when it listens beyond them, also its host name (and
    ``NAME.local``), its full name and its addresses; and every name of ``extra`` (the
    designer's ``--allow-host``). Never any name at all: a page elsewhere whose name was
    pointed at this machine (DNS rebinding) is refused."""
    names = {"localhost", "127.0.0.1", "::1"}
    if not _loopback(host):
        hostname = socket.gethostname()
        names.update({hostname, f"{hostname}.local", socket.getfqdn()})
        if host not in ("0.0.0.0", "::", ""):
            names.add(host)
        for name in (hostname, socket.getfqdn()):
            with contextlib.suppress(OSError, UnicodeError):
                names.update(str(info[4][0]) for info in socket.getaddrinfo(name, None))
        for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
            with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))  # sends nothing: asks which address would be used
                names.add(str(udp.getsockname()[0]))
    names.update(name.strip() for name in extra if name.strip())
    return sorted(name.split("%")[0].lower() for name in names)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
