"""A whole-game example told as a story: the table at the start, each turn with its moves and
what each move changed (cards into and out of hands, what the rules made happen), and the
result, all replayed through the engine so the book says only what the game did.

The words come from the strings: ``moves`` (a move, by its verb; ``-`` for a move that is not
told, as what only closes the move before), ``events`` (what the rules made happen, by the
log's event name; an event without words is not told) and ``table`` (the public cards of the
starting table, by observation key), each a game's own or shared.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gachapress.book import model as m
from gachapress.book.model import Inline, Inlines
from gachapress.book.words import Words
from gachapress.data.load import GameData
from gachapress.data.model import Playthrough
from gachapress.data.model import Text as DataText
from gachapress.data.yamlsource import PathKey
from gachapress.engine.core import Game, State
from gachapress.errors import RulesError

_FIELD = re.compile(r"\{(\w+)\}")
UNTOLD = "-"
"""The words of a move that is not told: what it changed goes with the move before."""


class BookBuilder(Protocol):
    """What a story asks of the book it is told in (``gachapress.book.build.BookBuilder``)."""

    game: GameData
    words: Words
    cards: dict[str, Any]

    def ui(self, key: str, **values: Any) -> str: ...
    def prose(self, value: DataText, path: PathKey) -> m.Blocks: ...
    def card(
        self, card_id: str, *, size: str = ..., caption: str | None = ...
    ) -> m.CardPicture: ...
    def players(self, value: Any) -> Inlines: ...
    def value(
        self, value: Any, key: str | None = None, *, nested: bool = False, unit: str | None = None
    ) -> Inlines: ...
    def named(self, value: str) -> Inlines: ...


@dataclass
class _Said:
    """One move as told (or a player's moves of one kind in a row), before it is drawn."""

    template: str
    players: list[int]
    cards: list[str]
    to: str | None
    before: list[list[str]]
    """Every hand before the move, and after it (what it changed is the difference)."""
    after: list[list[str]]
    events: list[Inlines]

    @property
    def quiet(self) -> bool:
        return not self.cards and not self.events and self.before == self.after


def tell(book: BookBuilder, item: Playthrough, index: int) -> m.Playthrough:
    """The story of ``item``, the ``index``-th whole-game example of the book's game."""
    state = Game(book.game).new_game(players=item.players, seed=item.seed, mode=item.mode)
    table = _table(book, state)
    turns: list[tuple[int, list[_Said]]] = []
    turn, before = -1, (-1, "")
    for action in item.actions:
        player = state.current_player
        assert player is not None  # the check has played this playthrough to its last action
        if state.rounds_played() != turn or not turns:
            turn = state.rounds_played()
            turns.append((player, []))
        verb, _, target = action.partition(" ")
        card, _, to = target.partition(" to ")
        template = _words(book, verb, state.observation(player).get("phase"), before, player)
        hands, logged = _hands(state), len(state.log)
        state.apply(action)
        events = [n for e in state.log[logged:] if (n := _event(book, e, item.players)) is not None]
        cards = [card] if card else []
        said = _Said(template, [player], cards, to or None, hands, _hands(state), events)
        _add(turns[-1][1], said, turns[-1][0])
        before = (player, verb)
    return m.Playthrough(
        f"playthrough-{item.id}",
        book.prose(item.text, ("playthroughs", index, "text")),
        book.ui("playthrough_setup", players=item.players),
        table,
        tuple(
            m.StoryTurn(
                book.ui("playthrough_turn", n=n + 1, player=book.ui("player", n=player + 1)),
                tuple(
                    m.StoryStep(
                        _move(book, said),
                        _notes(book, said),
                    )
                    for said in steps
                ),
            )
            for n, (player, steps) in enumerate(turns)
        ),
        _result(book, state),
    )


def _words(book: BookBuilder, verb: str, phase: Any, before: tuple[int, str], player: int) -> str:
    """A move's words: for the verb right after the same player's ``before`` verb
    (``done.after-place``), else in the phase the game's observation names (``place.done``),
    else for the verb alone."""
    keys = [f"{verb}.after-{before[1]}"] if before[0] == player else []
    if isinstance(phase, str):
        keys.append(f"{phase}.{verb}")
    keys.append(verb)
    for key in keys:
        template = book.words.optional("moves", key)
        if template is not None:
            return template
    raise RulesError([book.words.table.problem(("moves",), f"no words for {verb!r}")])


def _table(book: BookBuilder, state: State) -> tuple[m.Pair, ...]:
    """Each player's starting hand, then the public cards the game's ``table`` words name."""
    rows = [
        m.Pair(
            book.ui("playthrough_hand", player=book.ui("player", n=seat + 1)),
            _cards(book, h, "s", ""),
        )
        for seat, h in enumerate(_hands(state))
    ]
    seen = state.observation(0)
    for key in seen:
        label = book.words.optional("table", key)
        if label is not None:
            rows.append(m.Pair(label, _cards(book, list(seen[key]), "s", "")))
    return tuple(rows)


def _hands(state: State) -> list[list[str]]:
    return [list(state.observation(seat).get("hand", [])) for seat in range(state.players)]


def _cards(
    book: BookBuilder, ids: Sequence[str], size: str = "xs", caption: str | None = None
) -> Inlines:
    """Cards pictured, named unless ``caption`` is "" (the table's hands show the faces)."""
    if not ids:
        return (m.Text(book.ui("empty"), None, "word"),)
    return (m.CardRow(tuple(book.card(i, size=size, caption=caption) for i in ids)),)


def _notes(book: BookBuilder, said: _Said) -> tuple[Inlines, ...]:
    """What a move changed: the cards that left hands (a payment), what the rules made happen,
    then the cards that came into hands (draws), less the cards the move itself names."""
    lost, gained = [], []
    players = len(said.before)
    for seat, (old, new) in enumerate(zip(said.before, said.after, strict=True)):
        for key, cards, notes in (
            ("playthrough_loses", Counter(old) - Counter(new), lost),
            ("playthrough_gains", Counter(new) - Counter(old), gained),
        ):
            cards -= Counter(said.cards)  # the move says it
            if cards:
                values = {"player": seat, "cards": list(cards.elements())}
                notes.append(_fill(book, book.ui(key), values, players))
    return (*lost, *said.events, *gained)


#: The fields of a log entry that always name a player, whatever the game (the engine core's
#: moves and the engine bases' events); a game lists its own in its strings' player_keys.
PLAYER_FIELDS = ("player", "seat", "winner")


def _event(book: BookBuilder, entry: dict[str, Any], players: int) -> Inlines | None:
    """An event in the game's words, the template chosen by its yes-or-no fields first
    (``roll.hit`` or ``roll.no-hit`` before ``roll``); None when the game has no words for it."""
    kind = entry.get("event")
    if kind is None:
        return None
    flags = [
        f"{kind}.{k}" if v else f"{kind}.no-{k}"
        for k, v in entry.items()
        if v is True or v is False
    ]
    for key in (*flags, kind):
        template = book.words.optional("events", key)
        if template is not None:
            return _fill(book, template, entry, players)
    return None


def _per_player(value: Any, players: int) -> bool:
    """A list of card lists, one per player (the cards each player turned up)."""
    return (
        isinstance(value, list)
        and len(value) == players
        and all(isinstance(v, list) and all(isinstance(c, str) for c in v) for v in value)
    )


def _fill(book: BookBuilder, template: str, values: dict[str, Any], players: int) -> Inlines:
    """A template with its ``{fields}`` said as the book says values: players by name, cards
    pictured, numbers with the unit the game's strings give the field."""
    nodes: list[Inline] = []
    at = 0
    for found in _FIELD.finditer(template):
        if found.start() > at:
            nodes.append(m.Text(template[at : found.start()]))
        name = found.group(1)
        if name not in values:
            where = book.words.table.problem(("events",), f"no value {name!r} in {values}")
            raise RulesError([where])
        value = values[name]
        if name in PLAYER_FIELDS or book.words.holds_players("player_keys", name):
            nodes += book.players(value)
        elif _per_player(value, players):
            nodes.append(
                m.Pairs(
                    tuple(
                        m.Pair(book.ui("player", n=seat + 1), _cards(book, cards))
                        for seat, cards in enumerate(value)
                    )
                )
            )
        elif isinstance(value, list) and value and all(v in book.cards for v in value):
            nodes += _cards(book, value)
        else:
            nodes += book.value(value, name, nested=True)
        at = found.end()
    if at < len(template):
        nodes.append(m.Text(template[at:]))
    return tuple(nodes)


def _add(steps: list[_Said], said: _Said, first: int) -> None:
    """Append a move. A move that is not told adds what it changed to the move before; a
    player's moves of one kind in a row are told as one ("Player 1 draws from deck 3, deck 2");
    so are several players' same move that changes no card, until the turn's ``first`` player
    or another comes round again ("Player 2, Player 3: no change")."""
    last = steps[-1] if steps else None
    if said.template == UNTOLD:
        if last is not None:
            last.after = said.after
            last.events += said.events
        elif not said.quiet:
            steps.append(said)
        return
    if last is None or said.template != last.template:
        steps.append(said)
    elif last.players == said.players and last.cards and said.cards:
        last.cards += said.cards
        last.after = said.after
        last.events += said.events
    elif (
        not last.cards
        and not said.cards
        and not last.events
        and last.before == last.after
        and said.before == said.after
        and said.players[0] not in (*last.players, first)
    ):
        last.players += said.players
        last.events += said.events
    else:
        steps.append(said)


def _move(book: BookBuilder, said: _Said) -> Inlines:
    names = book.ui("list_sep").join(book.ui("player", n=p + 1) for p in said.players)
    to = "" if said.to is None else book.ui("player", n=int(said.to) + 1)
    nodes: list[Inline] = []
    at = 0
    for found in _FIELD.finditer(said.template):
        nodes.append(m.Text(said.template[at : found.start()]))
        name = found.group(1)
        if name == "card":
            for i, card in enumerate(said.cards):
                if i:
                    nodes.append(m.Text(book.ui("list_sep")))
                nodes += book.named(card)
        else:
            nodes.append(m.Text({"player": names, "to": to}.get(name, "")))
        at = found.end()
    nodes.append(m.Text(said.template[at:]))
    return tuple(n for n in nodes if not isinstance(n, m.Text) or n.text)


def _result(book: BookBuilder, state: State) -> tuple[Inlines, ...]:
    """The scores (final, or as they stand where the example stops), and the winners."""
    over = state.is_terminal()
    scores = tuple(
        m.Pair(book.ui("player", n=seat + 1), book.value(score, nested=True, unit="points"))
        for seat, score in enumerate(state.scores())
    )
    lines: list[Inlines] = [
        (m.Text(book.ui("playthrough_final" if over else "playthrough_so_far")), m.Pairs(scores))
    ]
    if over:
        lines.append((m.Text(book.ui("playthrough_wins")), *book.players(state.winners())))
    return tuple(lines)
