"""The preview server's gate (``serve.guard``): who may change a game, how large and how deep a
request may be, which hosts it answers, and the Play page's store of games. Every refusal is a
plain sentence, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gachapress.assembly.builder import BuildOptions
from gachapress.engine import load_game
from gachapress.serve.app import Preview, create_app
from gachapress.serve.play.session import HUMAN, MAX_SESSIONS, Session, Sessions
from tests.conftest import ROOT

GAME = "gachapon-trick"
NEW = f"/_serve/play/{GAME}/new"
SETUP = {"mode": "standard", "seats": [HUMAN, "random"], "seed": 1}
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def preview(tmp_path: Path) -> Preview:
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("<html><body>games</body></html>")
    return Preview(BuildOptions(root=ROOT, out=out), [GAME])


@pytest.fixture
def client(preview: Preview) -> TestClient:
    return TestClient(create_app(preview), raise_server_exceptions=False)


def no_traceback(response: Any) -> None:
    assert "Traceback" not in response.text and 'File "' not in response.text


def test_only_the_previews_own_pages_may_change_a_game(
    preview: Preview, client: TestClient
) -> None:
    import json

    body = json.dumps(SETUP)
    for headers, code in (
        ({"Origin": "http://evil.example", **JSON}, 403),
        ({"Origin": "null", **JSON}, 403),
        ({"Sec-Fetch-Site": "cross-site", **JSON}, 403),
        ({"Origin": "http://testserver", "Content-Type": "text/plain"}, 415),
        ({"Origin": "http://testserver", "Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
        ({}, 415),
    ):
        response = client.post(NEW, content=body, headers=headers)
        assert response.status_code == code, (headers, response.text)
        assert response.json()["error"], headers
    assert preview.tables.games == {}  # nothing was started
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin", **JSON}
    assert client.post(NEW, content=body, headers=same).status_code == 200
    key = next(iter(preview.tables.games))
    evil = {"Origin": "http://evil.example", **JSON}
    for action in ("undo", "restart", "act"):
        answer = client.post(f"/_serve/table/{key}/{action}", content="{}", headers=evil)
        assert answer.status_code == 403


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests lists or objects 100000 deep"),
        (
            '{"mode": "standard", "seats": ["human", "random"], "seed": ' + "9" * 5000 + "}",
            "has 5000 digits",
        ),
        ('{"mode": "standard", "seats": ["human", "random"], "seed": 1e400}', "whole numbers"),
        ('{"mode": "standard", "seats": ["human", "random"], "seed": NaN}', "NaN"),
        ('{"seed": 1', "not JSON"),
        (b'{"seed": "\xff"}', "UTF-8"),
        ('"' + "x" * 100 + '\\"[[[[' * 20 + '"', "not an object"),  # brackets in a string
    ],
)
def test_a_request_past_the_bounds_is_a_400_that_says_why(
    client: TestClient, body: str | bytes, words: str
) -> None:
    response = client.post(NEW, content=body, headers=JSON)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]
    no_traceback(response)


def test_a_body_too_large_and_an_address_too_long_are_refused(client: TestClient) -> None:
    huge = client.post(NEW, content=b" " * (4 * 1024 * 1024 + 1), headers=JSON)
    assert huge.status_code == 413 and "larger than 4 MB" in huge.json()["error"]
    for path in (
        "/" + "a" * 60_000,
        "/a/" + "b" * 300,
        f"/_serve/table/{'k' * 5000}/status",
        "/_serve/table/x?seat=" + "9" * 5000,
    ):
        response = client.get(path)
        assert response.status_code in (400, 404), path[:40]
        no_traceback(response)
    key = client.post(NEW, json=SETUP).json()["session"]
    for seat in ("9" * 1000, "-1", "x", "", "²", "%C2%B2"):
        for path in (f"/_serve/table/{key}?seat={seat}", f"/_serve/table/{key}/log?seat={seat}"):
            response = client.get(path)
            assert response.status_code in (400, 403), path
            no_traceback(response)


def test_a_route_that_fails_answers_a_plain_500_and_logs_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("gachapress.serve.files.inside", broken)
    response = client.get("/index.html")
    assert response.status_code == 500
    assert response.text == "the preview failed on this request (the terminal says why)"
    assert "a bug" in caplog.text


def test_the_store_closes_the_game_left_longest_never_one_in_use() -> None:
    now = [0.0]
    tables = Sessions(clock=lambda: now[0])
    game = load_game(GAME)
    session = Session(game, "standard", 1, [HUMAN, "random"])
    keys = [tables.add(session) for _ in range(MAX_SESSIONS)]
    with pytest.raises(ValueError, match=f"already holds {MAX_SESSIONS} games played in the last"):
        tables.add(session)  # every game was played a moment ago
    assert list(tables.games) == keys
    now[0] += 4000.0  # an hour later: none is in use...
    tables.get(keys[0])  # ...but the first, played again now
    newer = tables.add(session)
    assert keys[0] in tables.games and keys[1] not in tables.games and newer in tables.games
    with pytest.raises(ValueError, match="closed to make room"):
        tables.get(keys[1])
    with pytest.raises(ValueError, match="no such game"):
        tables.get("never-made")


def test_a_closed_game_says_so(preview: Preview, client: TestClient) -> None:
    now = [0.0]
    preview.tables.clock = lambda: now[0]
    key = client.post(NEW, json=SETUP).json()["session"]
    for _ in range(MAX_SESSIONS - 1):
        client.post(NEW, json=SETUP)
    now[0] += 4000.0
    assert client.post(NEW, json=SETUP).status_code == 200
    gone = client.get(f"/_serve/table/{key}/status")
    assert gone.status_code == 404 and "closed to make room" in gone.json()["error"]
    unknown = client.get("/_serve/table/made-up/status")
    assert unknown.status_code == 404 and "no such game" in unknown.json()["error"]


def test_a_preview_open_to_the_network_still_checks_the_host(preview: Preview) -> None:
    """``serve --host 0.0.0.0`` answers to this machine's names and addresses and those named
    with ``--allow-host``; a page elsewhere whose name now points here (DNS rebinding) is
    refused."""
    import socket

    from gachapress.serve.guard import machine_names

    names = machine_names("0.0.0.0", ["preview.lan"])
    assert "*" not in names and {"localhost", "127.0.0.1", "preview.lan"} <= set(names)
    assert socket.gethostname().lower() in names
    client = TestClient(create_app(preview, allowed_hosts=names))
    for host in (
        "localhost:8000",
        "127.0.0.1:8000",
        "[::1]:8000",
        "preview.lan:8000",
        f"{socket.gethostname()}:8000",
    ):
        assert client.get("/", headers={"host": host}).status_code == 200, host
    for host in ("attacker.example", "attacker.example:8000", "[::2]:8000", ""):
        refused = client.get("/", headers={"host": host})
        assert refused.status_code == 400, host
        assert "does not answer to the name" in refused.text
    assert machine_names("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]
