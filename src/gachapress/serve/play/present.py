"""A seat's view of a game as the Play page shows it, in players' words: the public table, each
player's box, the seat's own hand, its legal actions and its view of the log.

Everything comes from ``observation(seat)``, ``legal_actions()`` and ``log_view(seat)``: what
the page shows can only be what the engine lets that seat see. How each game's table is laid
out is data (``tables.yaml``); this module knows no game's rules.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml

from gachapress.engine.core import HIDDEN, Action, Game
from gachapress.serve.gallery import page_language
from gachapress.serve.play.session import HUMAN, Session

#: ``deck-2``, ``lane-3``, ``seat-1``: a thing named by a number.
NUMBERED = re.compile(r"^([a-z]+)-(\d+)$")
#: A record's placeholder: ``{pair}``, or ``{to|deck}`` for places counted from 0 that are
#: shown as the things ``deck-1``, ``deck-2``...
FIELD = re.compile(r"\{(\w+)(?:\|(\w+))?\}")
#: An event template's optional part: ``[; {buyer} may buy its cards]``.
OPTIONAL = re.compile(r"\[([^\]]*)\]")
#: The log entries the page shows, the latest (the downloaded log has them all).
LATEST = 40
Item = dict[str, Any]  # {"card": id, "name": ...}, {"text": ...} or {"group": [items]}


@cache
def layouts() -> dict[str, Any]:
    text = Path(__file__).with_name("tables.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@cache
def layout(game_id: str) -> dict[str, Any]:
    """A game's layout: the shared entries, with the game's own added on top."""
    shared, own = layouts()["shared"], layouts().get(game_id, {})
    merged = {**shared, **own}
    for key in ("actions", "events", "things", "keys", "values", "records"):
        merged[key] = {**shared.get(key, {}), **own.get(key, {})}
    return merged


#: Card fields that never tell two faces of one name apart.
NOT_TELLING = {"id", "count", "name", "text", "art"}


@lru_cache(maxsize=16)  # one per loaded game; a new game loads the rules again
def card_names(game: Game) -> dict[str, str]:
    """Each card's name in the page's language; faces that share a name get the fields
    that tell them apart (``Rock 3``, ``Rhino red 800``)."""
    lang = language(game)
    cards = game.model.cards()
    groups: dict[str, list[str]] = {}
    for card_id, card in cards.items():
        groups.setdefault(card.name.get(lang, card_id), []).append(card_id)
    names = {}
    for name, ids in groups.items():
        fields = [card_fields(cards[card_id]) for card_id in ids]
        telling = [key for key in fields[0] if len({str(f.get(key)) for f in fields}) > 1]
        for card_id, values in zip(ids, fields, strict=True):
            extra = " ".join(str(values[key]) for key in telling if values[key] is not None)
            names[card_id] = f"{name} {extra}".strip()
    return names


def language(game: Game) -> str:
    """The Play page's language: the preview's pages'."""
    return page_language(game.model.languages)


def card_fields(card: Any) -> dict[str, Any]:
    return {k: v for k, v in card.model_dump().items() if k not in NOT_TELLING}


def player(seat: int) -> str:
    return f"Player {seat + 1}"


class Presenter:
    """Words and pictures for one game's values."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.layout = layout(game.id)
        self.cards = game.model.cards()
        self.seats = set(self.layout["seats"])
        self.names = card_names(game)

    def card(self, card_id: str) -> Item:
        return {"card": card_id, "name": self.names[card_id]}

    def thing(self, target: str) -> Item:
        """An action's target: a card (pictured), a numbered thing or a named one."""
        if target in self.cards:
            return self.card(target)
        if target == HIDDEN:
            return {"text": self.layout["hidden"]}
        things = self.layout["things"]
        if target in things:
            return {"text": things[target]}
        numbered = NUMBERED.match(target)
        if numbered:
            kind, n = numbered.group(1), int(numbered.group(2))
            return {"text": player(n) if kind == "seat" else f"{kind} {n}"}
        return {"text": target.replace("-", " ")}

    def action(self, action: Action | str) -> list[Item]:
        """An action in players' words, its card pictured: ``Give [Rock 3] to Player 2``."""
        verb, _, target = str(action).partition(" ")
        what, _, to = target.partition(" to ")
        words = self.layout["actions"].get(f"{verb} {what}") or self.layout["actions"].get(
            verb, verb.capitalize() + " {what}"
        )
        if not what:
            words = words.replace(" {what}", "").replace("{what}", "")
        items: list[Item] = []
        what, _, copies = what.partition(" x")  # ``rock-3 x2``: two copies at once
        for part in re.split(r"(\{what\}|\{to\})", words):
            if part == "{what}":
                items.append(self.thing(what))
                if copies.isdigit():
                    items.append({"text": f" ×{copies}"})
            elif part == "{to}":
                items.append({"text": player(int(to)) if to.isdigit() else to})
            elif part:
                items.append({"text": part})
        return items

    def key(self, key: str) -> str:
        """The words for a log event's or a record's key (``keys``; "" says the value alone)."""
        return str(self.layout["keys"].get(key, key.replace("_", " ")))

    def said(self, key: str, value: Any) -> str | None:
        """The game's words for one value of ``key`` (``values``: "" leaves it unsaid), or
        None where it gives none."""
        if not isinstance(value, str | bool):
            return None
        words = self.layout["values"].get(key, {})
        said = words.get(("yes" if value else "no") if isinstance(value, bool) else value)
        return None if said is None else str(said)

    def record(self, template: str, value: dict[str, Any]) -> list[Item]:
        """A record in the words of its template (``records``)."""
        parts = FIELD.split(template)  # text, then each field's name, filter and the text after
        items: list[Item] = [{"text": parts[0]}] if parts[0] else []
        for name, places, after in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
            items.extend(self.field(name, value[name], places))
            if after:
                items.append({"text": after})
        return items

    def field(self, key: str, value: Any, places: str | None) -> list[Item]:
        """A record's field; ``places``: the kind of thing its numbers count from 0."""
        if key in self.layout["by_player"] and isinstance(value, list):
            return self.by_player(key, value)
        if not places:
            return self.value(key, value)
        counted = value if isinstance(value, list) else [value]
        names = [str(self.thing(f"{places}-{place + 1}")["text"]) for place in counted]
        return [{"text": ", ".join(names)}]

    def value(self, key: str, value: Any) -> list[Item]:
        """Any observation or event value: cards pictured, players named, the rest as text."""
        said = self.said(key, value)
        if said is not None:
            return [{"text": said}]
        if value is None or value == []:
            return [{"text": "none"}]
        if isinstance(value, bool):
            return [{"text": "yes" if value else "no"}]
        if isinstance(value, int) and key in self.seats:
            return [{"text": player(value)}]
        if isinstance(value, str):
            return [self.thing(value)]
        if isinstance(value, list) and _played_by(value, self.cards):  # [seat, card]
            return [{"text": f"{player(value[0])}: "}, self.card(value[-1])]
        if isinstance(value, list) and _handed(value, self.cards):  # [from, to, card]
            moved = f"{player(value[0])} to {player(value[1])}: "
            return [{"text": moved}, self.thing(value[2])]
        if isinstance(value, list):
            items: list[Item] = []
            piles = all(isinstance(part, dict) and set(part) == {"size", "top"} for part in value)
            plays = all(isinstance(part, list) and _played_by(part, self.cards) for part in value)
            records = all(isinstance(part, dict) for part in value)
            for index, part in enumerate(value):
                if index and not records and not (isinstance(part, str) and part in self.cards):
                    items.append({"text": " " if piles or plays else ", "})
                shown = self.value(key, part)
                if piles:
                    shown = [{"text": f"{index + 1}: "}, *shown]
                if records and index < len(value) - 1:  # the "; " wraps with its record
                    shown = [*shown, {"text": "; "}]
                items.append({"group": shown} if len(shown) > 1 else shown[0])
            return items
        if isinstance(value, dict) and set(value) == {"size", "top"}:  # a face-up pile
            return self.pile(value["top"], value["size"])
        if isinstance(value, dict):
            template = self.layout["records"].get(" ".join(sorted(value)))
            if template is not None:
                return self.record(template, value)
            items = []
            for name, part in value.items():
                words = self.key(name)
                items.append({"text": f"{words}: " if words else ""})
                items.extend(self.value(name, part))
                items.append({"text": "; "})
            return items[:-1]
        return [{"text": f"{value:,}" if isinstance(value, int) else str(value)}]

    def by_player(self, key: str, values: list[Any]) -> list[Item]:
        """One value per player, each named: ``Player 1: 3, Player 2: 0``."""
        items: list[Item] = []
        for seat, value in enumerate(values):
            if seat:
                items.append({"text": ", "})
            items.append({"group": [{"text": f"{player(seat)}: "}, *self.value(key, value)]})
        return items

    def pile(self, top: str | None, size: int) -> list[Item]:
        """A pile by its top card and its size: ``[Robot] (13 cards)``."""
        if not size:
            return [{"text": "empty"}]
        shown = [self.thing(top), {"text": " "}] if top is not None else []
        return [*shown, {"text": f"({size} {'card' if size == 1 else 'cards'})"}]

    def entry(self, entry: dict[str, Any]) -> list[Item]:
        """One entry of a seat's log view: a move, or what the rules made happen."""
        if "action" in entry:
            return [{"text": f"{player(entry['player'])}: "}, *self.action(entry["action"])]
        template = self.event_words(entry)
        return self.listed(entry) if template is None else self.record(template, entry)

    def event_words(self, entry: dict[str, Any]) -> str | None:
        """An event's template (``events``), its optional ``[parts]`` kept where every field
        they name has a value; None for an event without words."""
        template = self.layout["events"].get(entry.get("event", ""))
        if template is None:
            return None

        def kept(part: re.Match[str]) -> str:
            names = [found.group(1) for found in FIELD.finditer(part.group(1))]
            return part.group(1) if all(entry.get(name) not in (None, []) for name in names) else ""

        return OPTIONAL.sub(kept, str(template))

    def listed(self, entry: dict[str, Any]) -> list[Item]:
        """An event without words of its own: its name, then each key and value."""
        kind = str(entry.get("event", ""))
        items: list[Item] = [{"text": kind.replace("-", " ").capitalize()}]
        for key, value in entry.items():
            if key in ("event", "game", "mode") or self.said(key, value) == "":
                continue
            joint = ": " if len(items) == 1 else "; "
            words = self.key(key)
            items.append({"text": f"{joint}{words} " if words else joint})
            items.extend(self.field(key, value, None))
        return items


def seat_view(session: Session, seat: int) -> dict[str, Any]:
    """What the Play page shows ``seat``: built from that seat's observation, legal actions
    (on its turn) and log view only."""
    state, game = session.state, session.game
    present = Presenter(game)
    seen = state.observation(seat)
    rules = present.layout
    over = state.current_player is None
    table = [
        {"label": part["label"], "words": _shown(present, part, seen[part["key"]])}
        for part in rules.get("table", [])
        if part["key"] in seen
    ]
    scores = state.scores() if over else None
    labels = rules.get("mode_labels", {}).get(session.mode, {})
    players = []
    for other in range(len(session.seats)):
        fields = [
            {
                "label": labels.get(part["key"], part["label"]),
                "words": present.value(part["key"], seen[part["key"]][other]),
            }
            for part in rules.get("players", [])
            if isinstance(seen.get(part["key"]), list) and len(seen[part["key"]]) > other
        ]
        if scores is not None:
            fields.append({"label": "Final score", "words": present.value("", scores[other])})
        players.append(
            {
                "name": player(other),
                "you": other == seat,
                "who": "you" if other == seat else _who(session.seats[other]),
                "fields": fields,
            }
        )
    legal = state.legal_actions() if state.current_player == seat else []
    hand = seen.get(rules["hand"]) or []
    start = max(1, len(state.log) - LATEST)
    return {
        "seat": seat,
        "moves": len(session.moves),
        "name": player(seat),
        "over": over,
        "winners": [player(s) for s in state.winners()] if over else [],
        "table": table,
        "players": players,
        "hand": [present.card(card) for card in hand],
        "actions": [{"action": str(a), "words": present.action(a)} for a in legal],
        "log": [present.entry(entry) for entry in state.log_view(seat, start)],
        "logged": len(state.log) - 1,
    }


def _played_by(value: list[Any], cards: dict[str, Any]) -> bool:
    """True for a seat and the card it played: ``[1, "red-800"]``."""
    return (
        len(value) == 2
        and isinstance(value[0], int)
        and not isinstance(value[0], bool)
        and isinstance(value[1], str)
        and value[1] in cards
    )


def _handed(value: list[Any], cards: dict[str, Any]) -> bool:
    """True for a card handed from one seat to another: ``[1, 0, "rock-3"]`` (or ``"?"``)."""
    return (
        len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
        and isinstance(value[2], str)
        and (value[2] in cards or value[2] == HIDDEN)
    )


def _who(seat: str) -> str:
    return "" if seat == HUMAN else f"{seat} bot"


def _shown(present: Presenter, part: dict[str, Any], value: Any) -> list[Item]:
    if part.get("top") and isinstance(value, list):  # a pile: its top card and its size
        return present.pile(value[-1] if value else None, len(value))
    return present.value(part["key"], value)
