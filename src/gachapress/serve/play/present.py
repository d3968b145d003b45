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


#: The languages the Play page speaks: every word of tables.yaml is given in each.
SPOKEN = ("en", "ja")


@cache
def layouts() -> dict[str, Any]:
    text = Path(__file__).with_name("tables.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def localized(node: Any, lang: str) -> Any:
    """``node`` with each ``{en: ..., ja: ...}`` in it replaced by its words in ``lang``."""
    if isinstance(node, dict):
        if node and set(node) == set(SPOKEN):
            return node[lang]
        return {key: localized(value, lang) for key, value in node.items()}
    if isinstance(node, list):
        return [localized(value, lang) for value in node]
    return node


@cache
def page_words(lang: str) -> dict[str, str]:
    """The Play page's own words (``page``) in ``lang``."""
    return localized(layouts()["page"], lang)  # type: ignore[no-any-return]


@cache
def layout(game_id: str, lang: str = "en") -> dict[str, Any]:
    """A game's layout in ``lang``: the shared entries, with the game's own added on top."""
    every = localized(layouts(), lang)
    shared, own = every["shared"], every.get(game_id, {})
    merged = {**shared, **own}
    for key in ("actions", "events", "things", "kinds", "keys", "values", "records"):
        merged[key] = {**shared.get(key, {}), **own.get(key, {})}
    return merged


#: Card fields that never tell two faces of one name apart.
NOT_TELLING = {"id", "count", "name", "text", "art"}


@lru_cache(maxsize=32)  # per loaded game and language; a new game loads the rules again
def card_names(game: Game, lang: str) -> dict[str, str]:
    """Each card's name in ``lang``; faces that share a name get the fields that tell them
    apart (``Rock 3``, ``Rhino Red 800``), a field's value by its deck's name for it where the
    deck names it (``赤``)."""
    cards = game.model.cards()
    named = value_names(game, lang)
    groups: dict[str, list[str]] = {}
    for card_id, card in cards.items():
        groups.setdefault(card.name.get(lang, card_id), []).append(card_id)
    names = {}
    for name, ids in groups.items():
        fields = [card_fields(cards[card_id]) for card_id in ids]
        telling = [key for key in fields[0] if len({str(f.get(key)) for f in fields}) > 1]
        for card_id, values in zip(ids, fields, strict=True):
            extra = " ".join(
                named.get(str(values[key]), str(values[key]))
                for key in telling
                if values[key] is not None
            )
            names[card_id] = f"{name} {extra}".strip()
    return names


def value_names(game: Game, lang: str) -> dict[str, str]:
    """The names in ``lang`` of the things the decks list by id (a deck's colours: ``red``,
    ``赤``), which cards' fields name."""
    named: dict[str, str] = {}
    for _, deck in game.model.deck_items():
        for field, listed in deck.model_dump().items():
            for thing in listed if isinstance(listed, list) and field != "cards" else []:
                name = thing.get("name") if isinstance(thing, dict) else None
                if isinstance(name, dict) and isinstance(thing.get("id"), str) and lang in name:
                    named[thing["id"]] = name[lang]
    return named


def language(game: Game, asked: str | None = None) -> str:
    """The Play page's language: ``asked`` (``?lang=``) where the game is published in it and
    the page speaks it; else, when nothing is asked, the preview's pages' (English where the
    game has it); else the game's first language the page speaks."""
    spoken = [lang for lang in game.model.languages if lang in SPOKEN] or ["en"]
    if asked in spoken:
        return str(asked)
    if asked is None:
        default = page_language(game.model.languages)
        return default if default in spoken else spoken[0]
    return spoken[0]


def first_language(game: Game) -> str:
    """The language a Play page opens in when none is asked: the game's first (GOTCHA!'s
    Japanese), where the page speaks it."""
    return language(game, "")


def card_fields(card: Any) -> dict[str, Any]:
    return {k: v for k, v in card.model_dump().items() if k not in NOT_TELLING}


class Presenter:
    """Words and pictures for one game's values, in one language (``lang``; by default the
    preview's pages')."""

    def __init__(self, game: Game, lang: str | None = None) -> None:
        self.game = game
        self.lang = language(game, lang)
        self.layout = layout(game.id, self.lang)
        self.words = page_words(self.lang)
        self.cards = game.model.cards()
        self.seats = set(self.layout["seats"])
        self.names = card_names(game, self.lang)

    def player(self, seat: int) -> str:
        """``Player 2``: a seat as players count them, from 1."""
        return self.words["player"].format(n=seat + 1)

    def say(self, word: str, **fields: Any) -> str:
        """One of the page's own words, its fields filled."""
        return self.words[word].format(**fields)

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
            return {
                "text": self.player(n)
                if kind == "seat"
                else self.say("numbered", kind=self.layout["kinds"].get(kind, kind), n=n)
            }
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
                items.append({"text": self.player(int(to)) if to.isdigit() else to})
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
            return [{"text": self.say("none")}]
        if isinstance(value, bool):
            return [{"text": self.say("yes" if value else "no")}]
        if isinstance(value, int) and key in self.seats:
            return [{"text": self.player(value)}]
        if isinstance(value, str):
            return [self.thing(value)]
        if isinstance(value, list) and _played_by(value, self.cards):  # [seat, card]
            return [
                {"text": self.say("player_turn", player=self.player(value[0]))},
                self.card(value[-1]),
            ]
        if isinstance(value, list) and _handed(value, self.cards):  # [from, to, card]
            moved = self.say(
                "handed", **{"from": self.player(value[0]), "to": self.player(value[1])}
            )
            return [{"text": moved}, self.thing(value[2])]
        if isinstance(value, list):
            items: list[Item] = []
            piles = all(isinstance(part, dict) and set(part) == {"size", "top"} for part in value)
            plays = all(isinstance(part, list) and _played_by(part, self.cards) for part in value)
            records = all(isinstance(part, dict) for part in value)
            for index, part in enumerate(value):
                if index and not records and not (isinstance(part, str) and part in self.cards):
                    items.append({"text": " " if piles or plays else self.say("list_sep")})
                shown = self.value(key, part)
                if piles:
                    shown = [{"text": f"{index + 1}{self.say('label_sep')}"}, *shown]
                if records and index < len(value) - 1:  # the "; " wraps with its record
                    shown = [*shown, {"text": self.say("record_sep")}]
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
                items.append({"text": f"{words}{self.say('label_sep')}" if words else ""})
                items.extend(self.value(name, part))
                items.append({"text": self.say("record_sep")})
            return items[:-1]
        return [{"text": f"{value:,}" if isinstance(value, int) else str(value)}]

    def by_player(self, key: str, values: list[Any]) -> list[Item]:
        """One value per player, each named: ``Player 1: 3, Player 2: 0``."""
        items: list[Item] = []
        for seat, value in enumerate(values):
            if seat:
                items.append({"text": self.say("player_sep")})
            named = {"text": self.say("player_turn", player=self.player(seat))}
            items.append({"group": [named, *self.value(key, value)]})
        return items

    def pile(self, top: str | None, size: int) -> list[Item]:
        """A pile by its top card and its size: ``[Robot] (13 cards)``."""
        if not size:
            return [{"text": self.say("empty")}]
        shown = [self.thing(top), {"text": " "}] if top is not None else []
        count = self.say("card_count_one") if size == 1 else self.say("card_count", n=size)
        return [*shown, {"text": count}]

    def entry(self, entry: dict[str, Any]) -> list[Item]:
        """One entry of a seat's log view: a move, or what the rules made happen."""
        if "action" in entry:
            mover = self.say("player_turn", player=self.player(entry["player"]))
            return [{"text": mover}, *self.action(entry["action"])]
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
            joint = self.say("label_sep" if len(items) == 1 else "record_sep")
            words = self.key(key)
            items.append({"text": f"{joint}{words} " if words else joint})
            items.extend(self.field(key, value, None))
        return items


def seat_view(session: Session, seat: int, lang: str | None = None) -> dict[str, Any]:
    """What the Play page shows ``seat``, in ``lang``: built from that seat's observation,
    legal actions (on its turn) and log view only."""
    state, game = session.state, session.game
    present = Presenter(game, lang)
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
            fields.append(
                {"label": present.say("final_score"), "words": present.value("", scores[other])}
            )
        players.append(
            {
                "name": present.player(other),
                "you": other == seat,
                "who": present.say("you") if other == seat else _who(present, session.seats[other]),
                "fields": fields,
            }
        )
    legal = state.legal_actions() if state.current_player == seat else []
    hand = seen.get(rules["hand"]) or []
    start = max(1, len(state.log) - LATEST)
    log = [present.entry(entry) for entry in state.log_view(seat, start)]
    logged = len(state.log) - 1
    winners = [present.player(s) for s in state.winners()] if over else []
    return {
        "seat": seat,
        "lang": present.lang,
        "moves": len(session.moves),
        "status": _status(present, seat, over, winners),
        "words": present.words,
        "latest": present.say("log_latest", shown=len(log), all=logged),
        "over": over,
        "table": table,
        "players": players,
        "hand": [present.card(card) for card in hand],
        "actions": [{"action": str(a), "words": present.action(a)} for a in legal],
        "log": log,
        "logged": logged,
    }


def _status(present: Presenter, seat: int, over: bool, winners: list[str]) -> str:
    """The view's heading: whose turn, or who won."""
    if not over:
        return present.say("your_turn", player=present.player(seat))
    if not winners:
        return present.say("over_nobody")
    verb = present.say("wins" if len(winners) == 1 else "win")
    return present.say("over", winners=present.say("list_sep").join(winners), verb=verb).strip()


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


def _who(present: Presenter, seat: str) -> str:
    """Who plays a seat that is not yours: "" for a person, else the computer player."""
    return "" if seat == HUMAN else bot_name(present.words, seat)


def bot_name(words: dict[str, str], bot: str) -> str:
    """A computer player in the page's words: ``random bot``, ``コンピューター（ランダム）``."""
    return words["bot"].format(bot=words.get(f"bot_{bot}", bot))


def _shown(present: Presenter, part: dict[str, Any], value: Any) -> list[Item]:
    if part.get("top") and isinstance(value, list):  # a pile: its top card and its size
        return present.pile(value[-1] if value else None, len(value))
    return present.value(part["key"], value)
