"""The Play page's server without a browser: the engine referees every request, undo and
restart replay the moves, a downloaded log uploads again, a bad one is located, and a seat's
view never changes when the cards it cannot see are dealt again."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gachapress.assembly.builder import BuildOptions
from gachapress.engine import IllegalAction, load_game
from gachapress.serve.app import Preview, create_app
from gachapress.serve.play.routes import draw
from gachapress.serve.play.session import HUMAN, Session
from tests.conftest import ROOT
from tests.test_hidden_info import CASES

GAME = "gachapon-trick"
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def preview(tmp_path: Path) -> Preview:
    games = [GAME, "rps-fire", "gotcha", "gotchacards"]
    return Preview(BuildOptions(root=ROOT, out=tmp_path / "out"), games)


@pytest.fixture
def client(preview: Preview) -> TestClient:
    return TestClient(create_app(preview))


def start(
    client: TestClient, seats: list[str], seed: int = 3, game: str = GAME, mode: str = "standard"
) -> dict[str, Any]:
    response = client.post(
        f"/_serve/play/{game}/new", json={"mode": mode, "seats": seats, "seed": seed}
    )
    assert response.status_code == 200, response.text
    return response.json()


def act(client: TestClient, key: str, action: str) -> Any:
    return client.post(f"/_serve/table/{key}/act", json={"action": action})


def first_legal(preview: Preview, key: str) -> str:
    return str(preview.tables.games[key].state.legal_actions()[0])


def test_an_illegal_action_is_refused_with_the_engines_message(
    preview: Preview, client: TestClient
) -> None:
    key = start(client, [HUMAN, "greedy"])["session"]
    session = preview.tables.games[key]
    before, view = list(session.state.log), client.get(f"/_serve/table/{key}?seat=0").text
    probe = session.state.clone()
    with pytest.raises(IllegalAction) as refusal:
        probe.apply("play purple-900")
    response = act(client, key, "play purple-900")
    assert response.status_code == 409
    assert response.json() == {"error": str(refusal.value)}
    assert session.state.log == before and session.moves == []
    assert client.get(f"/_serve/table/{key}?seat=0").text == view
    for bad in ('{"move": "done"}', "not json", "[1]"):
        answer = client.post(f"/_serve/table/{key}/act", content=bad, headers=JSON)
        assert answer.status_code == 400 and answer.json()["error"]
    assert session.state.log == before


def test_a_seat_sees_only_its_own_turn(client: TestClient) -> None:
    key = start(client, [HUMAN, HUMAN])["session"]
    assert client.get(f"/_serve/table/{key}?seat=0").status_code == 200
    assert client.get(f"/_serve/table/{key}?seat=1").status_code == 403  # not its turn
    assert client.get("/_serve/table/nonsense?seat=0").status_code == 404
    bots = start(client, [HUMAN, "random"])["session"]
    assert client.get(f"/_serve/table/{bots}?seat=1").status_code == 403  # a bot's hand


def test_a_setup_the_engine_refuses_says_why(client: TestClient) -> None:
    for setup, words in (
        ({"mode": "standard", "seats": [HUMAN], "seed": 1}, "is for 2, 3, 4 players, not 1"),
        ({"mode": "standard", "seats": [HUMAN, "clever"], "seed": 1}, "no player 'clever'"),
        ({"mode": "standard", "seats": ["random", "random"], "seed": 1}, "must be a person"),
        ({"mode": "party", "seats": [HUMAN, "random"], "seed": 1}, "has no mode 'party'"),
        ({"mode": "standard", "seats": [HUMAN, "random"], "seed": "x"}, "whole number"),
    ):
        response = client.post(f"/_serve/play/{GAME}/new", json=setup)
        assert response.status_code == 400 and words in response.json()["error"], response.text


def test_bots_move_on_the_server_until_a_human_is_to_play(
    preview: Preview, client: TestClient
) -> None:
    status = start(client, [HUMAN, "greedy", "random"])
    session = preview.tables.games[status["session"]]
    for _ in range(30):
        status = act(client, status["session"], first_legal(preview, status["session"])).json()
        assert status["turn"] in (0, None) and session.state.current_player == status["turn"]
    movers = {entry["player"] for entry in session.state.log if "action" in entry}
    assert movers == {0, 1, 2}


def test_undo_takes_back_the_last_human_move_and_the_bot_moves_after_it(
    preview: Preview, client: TestClient
) -> None:
    key = start(client, [HUMAN, "greedy", "random"])["session"]
    session = preview.tables.games[key]
    nothing = client.post(f"/_serve/table/{key}/undo", json={})
    assert nothing.status_code == 409  # nothing to undo yet
    for _ in range(5):
        act(client, key, first_legal(preview, key))
    while True:  # up to a move the bots answer
        log, moves = list(session.state.log), list(session.moves)
        move = first_legal(preview, key)
        act(client, key, move)
        if len(session.moves) > len(moves) + 1:
            break
    undone = client.post(f"/_serve/table/{key}/undo", json={})
    assert undone.status_code == 200 and undone.json()["turn"] == 0
    assert session.state.log == log and session.moves == moves
    act(client, key, move)  # the same move meets the same bot moves
    again = list(session.state.log)
    client.post(f"/_serve/table/{key}/undo", json={})
    act(client, key, move)
    assert session.state.log == again
    restarted = client.post(f"/_serve/table/{key}/restart", json={}).json()
    fresh = load_game(GAME).new_game(players=3, seed=3)
    assert restarted["moves"] == 0 and session.state.log == fresh.log  # the same deal


def test_hot_seat_undo_takes_back_only_the_asking_persons_own_last_move(
    preview: Preview, client: TestClient
) -> None:
    """Two people and a bot: a person takes back their own last move (and the bot's after
    it), and only while no other person has moved since; otherwise Undo says why."""
    key = start(client, [HUMAN, "greedy", HUMAN], seed=5)["session"]
    session = preview.tables.games[key]

    def undo(seat: int | None) -> Any:
        return client.post(f"/_serve/table/{key}/undo", json={} if seat is None else {"seat": seat})

    def move_of(seat: int) -> None:
        while session.state.current_player != seat:
            act(client, key, first_legal(preview, key))
        act(client, key, first_legal(preview, key))

    assert "Player 1 has no move to take back" in undo(0).json()["error"]
    move_of(0)
    move_of(2)  # Player 3 moves after Player 1
    after_third = list(session.moves)
    refused = undo(0)
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        "Player 3 has moved since Player 1's last move: only Player 3 may take a move back now"
    )
    assert session.moves == after_third  # nothing taken back
    assert "say which player" in undo(None).json()["error"]
    assert "not a person" in undo(1).json()["error"]
    assert undo(2).status_code == 200  # Player 3's own move, and the bot's after it
    assert session.state.current_player == 2
    last_person = max(i for i, s in enumerate(session._movers()) if s in (0, 2))
    assert session._movers()[last_person] == 0 and len(session.moves) < len(after_third)
    assert undo(0).status_code == 200  # now Player 1's is the last person's move
    assert session.state.current_player == 0 and len(session.moves) == last_person


def finish(preview: Preview, client: TestClient, key: str) -> None:
    """Play the game of ``key`` to its end, each move the first legal one."""
    while not preview.tables.games[key].over:
        assert act(client, key, first_legal(preview, key)).status_code == 200


def test_a_log_downloaded_mid_game_is_the_downloading_seats_view(
    preview: Preview, client: TestClient
) -> None:
    """GotchaCards Competitive against the greedy bot, deal 3: once the bot has placed cards
    face down, the downloaded log names none of them, nor the deal number; it is seat 0's
    view, which an upload says it cannot replay; at the end the log is whole."""
    key = start(client, [HUMAN, "greedy"], 3, "gotchacards", "competitive")["session"]
    state = preview.tables.games[key].state
    while not any(
        entry.get("action", "").startswith("place")
        for entry in state.log[1:]
        if entry.get("player") == 1
    ):
        act(client, key, str(state.legal_actions()[-1]))
        state = preview.tables.games[key].state
    placed = [
        e["action"].split()[1]
        for e in state.log
        if e.get("player") == 1 and "action" in e and e["action"].startswith("place")
    ]
    download = client.get(f"/_serve/table/{key}/log")
    assert download.status_code == 200, download.text
    assert "player-1-view" in download.headers["content-disposition"]
    document = download.json()
    assert document["log"] == state.log_view(0) and document["seat"] == 0
    assert '"seed"' not in download.text
    assert not any(f'"place {card}"' in download.text for card in placed), placed
    refused = client.post("/_serve/play/gotchacards/upload", json=document)
    assert refused.status_code == 400
    assert "cannot be replayed" in refused.json()["error"]
    hot = start(client, [HUMAN, HUMAN], 3, "gotchacards", "competitive")["session"]
    assert client.get(f"/_serve/table/{hot}/log?seat=1").status_code == 403  # not its turn
    assert client.get(f"/_serve/table/{hot}/log").status_code == 403  # which seat?
    assert client.get(f"/_serve/table/{hot}/log?seat=0").json()["seat"] == 0
    finish(preview, client, key)
    whole = client.get(f"/_serve/table/{key}/log").json()
    assert whole["log"] == preview.tables.games[key].state.log and "seat" not in whole


def test_a_downloaded_log_uploads_to_the_same_game(preview: Preview, client: TestClient) -> None:
    key = start(client, [HUMAN, "greedy"], seed=11)["session"]
    finish(preview, client, key)
    download = client.get(f"/_serve/table/{key}/log")
    assert download.headers["content-disposition"] == f'attachment; filename="{GAME}-11.json"'
    document = download.json()
    uploaded = client.post(f"/_serve/play/{GAME}/upload", json=document)
    assert uploaded.status_code == 200, uploaded.text
    copy = uploaded.json()["session"]
    assert copy != key
    assert preview.tables.games[copy].state.log == preview.tables.games[key].state.log
    assert preview.tables.games[copy].seats == [HUMAN, "greedy"]
    view = client.get(f"/_serve/table/{key}?seat=0").text
    assert client.get(f"/_serve/table/{copy}?seat=0").text == view


def test_a_bad_uploaded_log_is_located(preview: Preview, client: TestClient) -> None:
    key = start(client, [HUMAN, "greedy"], seed=11)["session"]
    finish(preview, client, key)
    good = client.get(f"/_serve/table/{key}/log").json()
    moves = [i for i, entry in enumerate(good["log"]) if "action" in entry]

    def refusal(document: Any) -> str:
        response = client.post(f"/_serve/play/{GAME}/upload", json=document)
        assert response.status_code == 400, response.text
        return response.json()["error"]

    illegal = json.loads(json.dumps(good))
    illegal["log"][moves[2]]["action"] = "play purple-900"
    assert refusal(illegal).startswith("move 3: play purple-900 is not legal for seat ")
    wrong_seat = json.loads(json.dumps(good))
    bots = next(n for n, i in enumerate(moves) if good["log"][i]["player"] == 1)
    wrong_seat["log"][moves[bots]]["player"] = 0
    assert refusal(wrong_seat) == f"move {bots + 1}: Player 1 moves, but it is Player 2's turn"
    made_up = json.loads(json.dumps(good))
    made_up["log"].insert(moves[3], {"event": "trick", "winner": 0, "buyer": 0})
    assert refusal(made_up).startswith(f"entry {moves[3] + 1}: the log says ")
    other_game = json.loads(json.dumps(good))
    other_game["log"][0]["game"] = "gasha"
    assert refusal(other_game) == f"entry 1: the log does not start a game of {GAME}"
    not_json = client.post(f"/_serve/play/{GAME}/upload", content="{", headers=JSON)
    assert "not JSON" in not_json.json()["error"]
    assert "format" in refusal({"log": good["log"]})
    assert len(preview.tables.games) == 1  # nothing was added


def test_an_uploaded_log_follows_the_rules_of_a_new_game(
    preview: Preview, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log whose seats are all bots is refused as a new game is, before anything is played
    (it would otherwise be played out inside the request); so are unknown bots."""
    key = start(client, [HUMAN, "greedy"], seed=11)["session"]
    finish(preview, client, key)
    good = client.get(f"/_serve/table/{key}/log").json()
    replays: list[int] = []
    monkeypatch.setattr(Session, "_bots_move", lambda self: replays.append(1))
    for seats, words in (
        (["greedy", "random"], 'at least one player must be a person ("human")'),
        ([HUMAN, "clever"], "no player 'clever'"),
        ([HUMAN, 3], "seats must be a list of names"),
    ):
        response = client.post(f"/_serve/play/{GAME}/upload", json={**good, "seats": seats})
        assert response.status_code == 400 and words in response.json()["error"], response.text
    assert replays == [] and len(preview.tables.games) == 1
    negative = json.loads(json.dumps(good))
    negative["log"][0]["seed"] = -1
    response = client.post(f"/_serve/play/{GAME}/upload", json=negative)
    assert response.status_code == 400 and "whole number" in response.json()["error"]


@pytest.mark.parametrize(("game_id", "mode", "players"), CASES[::3] + CASES[1::7])
def test_a_seats_view_is_the_same_when_unseen_cards_are_dealt_again(
    game_id: str, mode: str, players: int
) -> None:
    """The re-deal check on what the page draws: at a seat's turns through a game, deal the
    cards it may not see again (``State.redeal``); the HTML of its view must not change."""
    game = load_game(game_id)
    session = Session(game, mode, 7, [HUMAN] + ["random"] * (players - 1))
    rng = random.Random(7)
    changed = turns = 0
    while session.state.current_player is not None and turns < 40:
        turns += 1
        state = session.state
        shown = draw(session, 0)
        other = state.clone()
        other.redeal(0, state.hidden_from(0), random.Random(turns))
        changed += other.snapshot() != state.snapshot()
        session.state = other
        assert draw(session, 0) == shown, f"{game_id} {mode}: turn {turns} shows the re-deal"
        session.state = state
        session.act(str(rng.choice(state.legal_actions())))
    assert changed, "no re-deal changed anything: the check checked nothing"


@pytest.mark.parametrize("game_id", sorted({case[0] for case in CASES}))
def test_every_layout_key_and_move_has_its_words(game_id: str) -> None:
    """What tables.yaml names is in the game's observation, and every move a random game
    makes reads in players' words: no verb left bare, no card id or seat number shown."""
    from gachapress.serve.play.present import Presenter, layout

    game = load_game(game_id)
    present, rules = Presenter(game), layout(game_id)
    keys: set[str] = set()
    texts: set[str] = set()
    for mode, counts in game.modes.items():
        state = game.new_game(players=counts[-1], seed=1, mode=mode)
        rng = random.Random(1)
        while not state.is_terminal():
            keys.update(state.observation(state.current_player))
            for action in state.legal_actions():
                texts.add(str(action))
            state.apply(rng.choice(state.legal_actions()))
    named = [part["key"] for part in rules.get("table", []) + rules.get("players", [])]
    assert set(named) <= keys, set(named) - keys
    for text in texts:
        assert text.partition(" ")[0] in rules["actions"], f"no words for {text!r}"
        said = "".join(item.get("text", "") for item in present.action(text))
        cards = [item["name"] for item in present.action(text) if "card" in item]
        assert said and not any(card_id in said for card_id in game.model.cards()), said
        assert not re.search(r"\bseat\b|\d+ to \d|[a-z]+-\d", said), (text, said)
        assert all(cards), text


def test_log_entries_read_in_players_words() -> None:
    from gachapress.serve.play.present import Presenter

    def said(game_id: str, entry: dict[str, Any]) -> str:
        items = Presenter(load_game(game_id)).entry(entry)

        def text(item: dict[str, Any]) -> str:
            if "group" in item:
                return "".join(map(text, item["group"]))
            return item.get("name", item.get("text", ""))

        return "".join(map(text, items))

    assert said("gachapon-trick", {"event": "trick", "winner": 1, "buyer": 0}) == (
        "Player 2 wins the trick; Player 1 may buy its cards"
    )
    assert said("gachapon-trick", {"event": "trick", "winner": 1, "buyer": None}) == (
        "Player 2 wins the trick"
    )
    alarm = {"event": "alarm", "seat": 0, "direction": "left", "took": [[1, 0, "rock-1"]],
             "drew": 2}  # fmt: skip
    assert said("rps-fire", alarm) == (
        "Fire alarm, pointing left: cards passed Player 2 to Player 1: Rock 1; "
        "then Player 1 draws 2"
    )
    assert said("rps-fire", {"player": 1, "action": "play rock-2 x2"}) == "Player 2: Play Rock 2 ×2"
    assert said("gasha", {"event": "extra-turn", "seat": 1, "turns": 1}) == (
        "One more turn!: Player 2 plays again at once (extra turns won: 1)"
    )
    assert said("gotchacards", {"event": "coin", "winner": 1, "tied": [0, 1]}) == (
        "A coin toss between Player 1, Player 2 goes to Player 2"
    )
    assert said("gotchacards", {"event": "coin", "winner": 0}) == "A coin toss goes to Player 1"
    assert said("gotcha", {"event": "redraw", "seat": 2, "shown": ["?", "?"]}) == (
        "Player 3 shows their hand and draws a new one: a face-down card, a face-down card"
    )
    assert said("rps-fire", {"event": "open"}).startswith("Everyone has passed: the pile is open")
    assert said("gotcha", {"player": 2, "action": "place ?"}) == (
        "Player 3: Place a card face down"
    )


def test_the_cards_on_the_table_are_drawn_in_the_pages_language() -> None:
    """The Play page is English: GOTCHA!'s cards/ hold its Japanese faces, so its table shows
    the English ones of cards/en/, unless `serve --lang en` printed cards/ in English."""
    session = Session(load_game("gotcha"), "standard", 1, [HUMAN, HUMAN, HUMAN])
    seat = session.state.current_player
    assert seat is not None
    default, english = draw(session, seat), draw(session, seat, "en")
    assert set(re.findall(r'src="/gotcha/(cards(?:/en)?)/', default)) == {"cards/en"}
    assert set(re.findall(r'src="/gotcha/(cards(?:/en)?)/', english)) == {"cards"}


def said(game_id: str, items: list[dict[str, Any]]) -> str:
    """Items as a reader reads them, a card by its name in brackets."""

    def text(item: dict[str, Any]) -> str:
        if "group" in item:
            return "".join(map(text, item["group"]))
        return f"[{item['name']}]" if "card" in item else str(item.get("text", ""))

    return "".join(map(text, items))


def test_log_events_and_records_read_in_words_not_keys() -> None:
    from gachapress.serve.play.present import Presenter

    cards = Presenter(load_game("gotchacards"))
    new_round = {"event": "round", "round": 1, "player1": 1}
    new_round_said = "Round 1: Player 2 plays first"
    assert said("gotchacards", cards.entry(new_round)) == new_round_said
    over = {"event": "round-end", "round": 2, "winner": 0, "how": "overtime", "points": [3, 3],
            "hands": [0, 0]}  # fmt: skip
    assert said("gotchacards", cards.entry(over)) == (
        "Player 1 wins round 2 in overtime. Points: Player 1: 3, Player 2: 3; "
        "cards left in hand: Player 1: 0, Player 2: 0"
    )
    gasha = Presenter(load_game("gasha"))
    rebuilt = {"event": "rebuild", "steps": [{"cut": 0, "to": 3}, {"deal": [1, 2]}], "formed": True}
    assert said("gasha", gasha.entry(rebuilt)) == (
        "Gasha decks rebuilt: Gasha deck 1 split onto Gasha deck 4; "
        "the discard pile dealt onto Gasha deck 2, Gasha deck 3"
    )
    short = {"event": "rebuild", "steps": [{"deal": [0]}], "formed": False}
    assert said("gasha", gasha.entry(short)) == (
        "Gasha decks rebuilt: the discard pile dealt onto Gasha deck 1; "
        "too few cards to refill every deck"
    )
    tickets = [
        {"pair": ["reward-2ro-su-w", "reward-2mg-ki-w"], "tokens": ["bonus-three-points"]},
        {"pair": ["reward-mg-su-w"], "tokens": []},
    ]
    shown = said("gasha", gasha.value("tickets", tickets))
    assert re.fullmatch(r"\[[^]]+\]\[[^]]+\] with \[3 points!\]; \[[^]]+\] with none", shown), shown
    ticket = {"event": "ticket", "seat": 0, "pair": tickets[0]["pair"], "tokens": [],
              "extra_gasha": False}  # fmt: skip
    assert "extra" not in said("gasha", gasha.entry(ticket))


def test_a_competitive_game_over_says_whose_points_are_of_the_round() -> None:
    """Competitive GotchaCards scores rounds won: a player's points are the round's, shown
    as such beside the final score."""
    session = Session(load_game("gotchacards"), "competitive", 2, [HUMAN, HUMAN])
    rng = random.Random(2)
    while session.state.current_player is not None:
        session.act(str(rng.choice(session.state.legal_actions())))
    html = draw(session, 0)
    assert "<dt>Points this round</dt>" in html and "<dt>Points</dt>" not in html
    assert "<dt>Final score</dt>" in html


@pytest.mark.parametrize("game_id", sorted({case[0] for case in CASES}))
def test_every_event_of_random_games_has_its_own_words(game_id: str) -> None:
    """Every event a seat's log shows in random games of every mode and player count reads in
    the game's words, not the generic list of the event's keys and values."""
    from gachapress.serve.play.present import Presenter

    game = load_game(game_id)
    present = Presenter(game)
    kinds: set[str] = set()
    for log in random_logs(game, 8):
        for entry in log:
            if "event" not in entry:
                continue
            kinds.add(entry["event"])
            assert present.event_words(entry) is not None, f"no words for {entry}"
            shown = said(game_id, present.entry(entry))
            assert not re.search(r"\bseat\b|_|[a-z]+-\d", shown), (entry, shown)
    assert len(kinds) > 2, kinds  # the start and more


def random_logs(
    game: Any, seeds: int, each_turn: Callable[[Any], None] = lambda state: None
) -> Iterator[list[dict[str, Any]]]:
    """The log one seat sees of random games of every mode and player count, ``seeds`` of
    each; ``each_turn`` is shown every state before its move."""
    for mode, counts in game.modes.items():
        for players in counts:
            for seed in range(seeds):
                state = game.new_game(players=players, seed=seed, mode=mode)
                rng = random.Random(seed)
                while not state.is_terminal():
                    each_turn(state)
                    state.apply(rng.choice(state.legal_actions()))
                yield state.log_view(seed % players)


def japanese_leaks(game_id: str, items: list[dict[str, Any]]) -> str | None:
    """Items read in Japanese, or None when they are: no Latin letter outside a card's own
    name (some Japanese card names hold one: iTunedカード), and no ``{key}`` left unfilled."""
    shown = said(game_id, items)
    words = re.sub(r"\[[^]]*\]", "", shown)
    return shown if re.search(r"[A-Za-z{}_]", words) else None


@pytest.mark.parametrize("game_id", sorted({case[0] for case in CASES}))
def test_every_move_and_event_of_random_games_reads_in_japanese(game_id: str) -> None:
    """In Japanese, every move offered and every log entry of random games of every mode and
    player count reads in Japanese words: no English fallback, no key, no seat number."""
    from gachapress.serve.play.present import Presenter

    game = load_game(game_id)
    present = Presenter(game, "ja")
    kinds: set[str] = set()

    def moves_in_japanese(state: Any) -> None:
        for action in state.legal_actions():
            leak = japanese_leaks(game_id, present.action(action))
            assert leak is None, (str(action), leak)

    for log in random_logs(game, 4, moves_in_japanese):
        for entry in log:
            kinds.add(entry.get("event", "move"))
            if "event" in entry:
                assert present.event_words(entry) is not None, f"no words for {entry}"
            leak = japanese_leaks(game_id, present.entry(entry))
            assert leak is None, (entry, leak)
    assert {"start", "move"} < kinds, kinds


@pytest.mark.parametrize("game_id", sorted({case[0] for case in CASES}))
def test_a_japanese_view_has_no_english_word(game_id: str) -> None:
    """A seat's whole view in Japanese, through a game to its end: headings, labels, values
    and the log, with no English word but the cards' own Japanese names."""
    game = load_game(game_id)
    names = sorted((card.name["ja"] for card in game.model.cards().values()), key=len)
    mode, counts = next(iter(game.modes.items()))
    session = Session(game, mode, 5, [HUMAN] * counts[-1])
    rng = random.Random(5)
    while True:
        seat = session.state.current_player
        page = draw(session, 0 if seat is None else seat, lang="ja")
        text = re.sub(r"<[^>]+>", " ", page)
        for name in reversed(names):
            text = text.replace(name, "")
        assert not re.findall(r"[A-Za-z]{2,}", text), re.findall(r"[A-Za-z]{2,}", text)
        if seat is None:
            break
        session.act(str(rng.choice(session.state.legal_actions())))
    assert "ゲーム終了" in page and "最終得点" in page


def test_the_japanese_log_says_players_and_cards_as_the_rulebook_does() -> None:
    from gachapress.serve.play.present import Presenter

    trick = Presenter(load_game("gachapon-trick"), "ja")
    assert said("gachapon-trick", trick.entry({"event": "trick", "winner": 1, "buyer": 0})) == (
        "プレイヤー2がトリックに勝つ。プレイヤー1がそのカードを買える"
    )
    fire = Presenter(load_game("rps-fire"), "ja")
    assert said("rps-fire", fire.entry({"player": 1, "action": "give rock-2 to 0"})) == (
        "プレイヤー2：プレイヤー1に[グー 2]を渡す"
    )
    toys = Presenter(load_game("gachapon-trick"), "ja")
    assert toys.names["red-800"].split()[1:] == ["赤", "800"], toys.names["red-800"]


def test_the_play_page_opens_in_the_games_first_language_or_the_asked_one(
    client: TestClient,
) -> None:
    """GOTCHA! is a Japanese game: its Play page opens in Japanese; ``?lang=`` asks for a
    language (the rulebook's), and the page links the other one, keeping the game going."""
    gotcha = client.get("/_serve/play/gotcha").text
    assert '<html lang="ja">' in gotcha and "新しいゲーム" in gotcha
    assert re.search(r'<a href="\?lang=en" hreflang="en" lang="en">English</a>', gotcha)
    english = client.get("/_serve/play/gotcha?lang=en").text
    assert '<html lang="en">' in english and "A new game" in english
    assert re.search(r'<a href="\?lang=ja" hreflang="ja" lang="ja">日本語</a>', english)
    assert '<html lang="en">' in client.get("/_serve/play/rps-fire").text
    assert '<html lang="en">' in client.get("/_serve/play/rps-fire?lang=fr").text
    fire = client.get("/_serve/play/rps-fire?lang=ja").text
    assert '<html lang="ja">' in fire and "プレイ人数" in fire
    modes = client.get("/_serve/play/gotchacards?lang=ja").text
    assert '<option value="competitive" data-players="2">対戦</option>' in modes


def test_a_served_view_asked_in_japanese_is_japanese(client: TestClient) -> None:
    key = start(client, ["human", "random"], game="rps-fire")["session"]
    japanese = client.get(f"/_serve/table/{key}?seat=0&lang=ja").text
    assert "プレイヤー1の番です" in japanese and "手札" in japanese
    assert "Player 1" not in japanese and "Your hand" not in japanese
    assert re.findall(r'src="/rps-fire/(cards(?:/\w+)?)/', japanese)[0] == "cards/ja"
    english = client.get(f"/_serve/table/{key}?seat=0&lang=en").text
    assert "Player 1, your turn" in english
    gotcha = start(client, ["human", "human", "human"], game="gotcha")
    shown = client.get(f"/_serve/table/{gotcha['session']}?seat={gotcha['turn']}").text
    assert "の番です" in shown  # a view asked in no language: the game's first
    assert set(re.findall(r'src="/gotcha/(cards(?:/en)?)/', shown)) == {"cards"}


def test_every_word_of_the_play_page_is_given_in_english_and_japanese() -> None:
    """tables.yaml gives each word once, as {en, ja}: a word in one language only would show
    English on the Japanese page (or the reverse)."""
    from gachapress.serve.play.present import SPOKEN, layouts

    not_words = {"hand", "seats", "by_player", "key", "top"}  # keys of the observation

    def bare(node: Any, path: str) -> list[str]:
        if isinstance(node, dict):
            if set(node) == set(SPOKEN):
                return [path for lang in SPOKEN if not isinstance(node[lang], str)]
            return [
                found
                for key, value in node.items()
                if key not in not_words
                for found in bare(value, f"{path}.{key}")
            ]
        if isinstance(node, list):
            return [found for i, value in enumerate(node) for found in bare(value, f"{path}.{i}")]
        return [] if node == "" else [path]

    assert bare(layouts(), "tables") == []
