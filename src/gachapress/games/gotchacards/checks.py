"""GotchaCards' deck checks: the type cycle, card effects, balance, turns, draft and setup."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from gachapress.data.load import GameData
from gachapress.errors import Problem
from gachapress.games.gotchacards.model import GotchaCards
from gachapress.games.gotchacards.rules import draft_hands

#: Effects that belong on a fighting card; every other effect belongs on an item.
FIGHTER_EFFECTS = {"bonus"}


def _model(game: GameData) -> GotchaCards:
    model = game.model
    assert isinstance(model, GotchaCards)
    return model


def beats_cycle(game: GameData) -> Iterator[Problem]:
    """Seed, "Summary": each fighting type beats exactly one other and is beaten by exactly one."""
    model = _model(game)
    types = ("rock", "scissors", "paper")
    for t in types:
        if t not in model.beats:
            yield game.where(("beats",)).problem(f"beats: {t!r} beats nothing")
    beaten = Counter(model.beats.values())
    for t, victim in model.beats.items():
        if victim == t:
            yield game.where(("beats", t)).problem(f"beats: {t!r} cannot beat itself")
        elif beaten[victim] > 1:
            yield game.where(("beats", t)).problem(
                f"beats: {victim!r} is beaten by {beaten[victim]} types; each must lose to one"
            )


def effects_fit_types(game: GameData) -> Iterator[Problem]:
    """Items carry an effect (it is all they do); a fighter's only effect is the lucky bonus."""
    for card in _model(game).decks.main.cards:
        path = game.card_path(card.id)
        if card.type == "item" and card.effect is None:
            yield game.where((*path, "type"), key=True).problem(
                f"card {card.id!r}: an item card needs an effect"
            )
        elif card.effect is None:
            continue
        elif card.type == "item" and card.effect.kind in FIGHTER_EFFECTS:
            yield game.where((*path, "effect", "kind")).problem(
                f"card {card.id!r}: a {card.effect.kind} effect needs a fighting card, not an item"
            )
        elif card.type != "item" and card.effect.kind not in FIGHTER_EFFECTS:
            yield game.where((*path, "effect", "kind")).problem(
                f"card {card.id!r}: a {card.effect.kind} effect belongs on an item card, "
                f"not a {card.type} card"
            )


def type_balance(game: GameData) -> Iterator[Problem]:
    """Rock, scissors and paper are equally common, in the full and in the beginner deck
    (clarification card-list: no throw is safer than another)."""
    model = _model(game)
    for beginner in (False, True):
        counts = Counter({t: 0 for t in model.beats})
        for card in model.deck_cards(beginner=beginner):
            if card.type != "item":
                counts[card.type] += card.count
        if len(set(counts.values())) > 1:
            shown = ", ".join(f"{t} {n}" for t, n in counts.items())
            which = "beginner" if beginner else "full"
            yield game.where(("decks", "main"), key=True).problem(
                f"the {which} deck has unequal fighting types: {shown}"
            )


def turn_structure(game: GameData) -> Iterator[Problem]:
    """Turns and rounds fit together (seed, "Game Flow" and "Win Conditions")."""
    comp = _model(game).competitive
    for i, turn in enumerate(comp.turns):
        if turn.play_all and turn.min_cards != 0:
            yield game.where(("competitive", "turns", i, "min_cards")).problem(
                f"turn {i + 1} plays every card, so min_cards must be 0"
            )
        if not turn.play_all and turn.min_cards < 1:
            yield game.where(("competitive", "turns", i, "min_cards")).problem(
                f"turn {i + 1}: each player must place at least one card"
            )
    if not comp.turns[-1].play_all:
        yield game.where(("competitive", "turns", len(comp.turns) - 1, "play_all")).problem(
            "the last turn of a round must play every card left in hand"
        )
    for i, turn_no in enumerate(comp.forfeit_check_turns):
        if turn_no > len(comp.turns):
            yield game.where(("competitive", "forfeit_check_turns", i)).problem(
                f"forfeit check on turn {turn_no}, but a round has {len(comp.turns)} turns"
            )
    if comp.max_rounds != 2 * comp.rounds_to_win - 1:
        yield game.where(("competitive", "max_rounds")).problem(
            f"first to {comp.rounds_to_win} round wins takes at most "
            f"{2 * comp.rounds_to_win - 1} rounds, not {comp.max_rounds}"
        )


def draft_feasible(game: GameData) -> Iterator[Problem]:
    """The draft gives both players a full hand, a hand lasts every turn, and the deck (full and
    beginner) holds every round's draft without reshuffling (seed, "Setting Up", "Continuing the
    Game": the deck is not shuffled between rounds)."""
    model = _model(game)
    comp = model.competitive
    draft = comp.draft
    hands = draft_hands(model, draft.draw)["after_draw"]
    for role, size in zip(("Player1", "Player2"), hands, strict=True):
        if size != draft.hand:
            yield game.where(("competitive", "draft")).problem(
                f"the draft gives {role} {size} cards, but a hand holds {draft.hand}"
            )
    if draft.hand < len(comp.turns):
        yield game.where(("competitive", "draft", "hand")).problem(
            f"a hand of {draft.hand} cannot place a card in each of {len(comp.turns)} turns"
        )
    needed = comp.max_rounds * (draft.draw + draft.player2_draw)
    for beginner in (False, True):
        size = model.deck_size(beginner=beginner)
        if size < needed:
            which = "beginner" if beginner else "full"
            yield game.where(("competitive", "draft", "draw")).problem(
                f"{comp.max_rounds} rounds of drafting need {needed} cards, but the {which} "
                f"deck has {size}"
            )


def setup_feasible(game: GameData) -> Iterator[Problem]:
    """Both modes exist with the player counts the engine supports, Party has a deal for each of
    its player counts, and the deck (full and beginner) can deal it."""
    model = _model(game)
    for mode in ("competitive", "party"):
        if mode not in model.modes:
            yield game.where(("modes",)).problem(f"GotchaCards needs a mode {mode!r}")
    if "competitive" in model.modes and model.modes["competitive"].players != [2]:
        yield game.where(("modes", "competitive", "players")).problem(
            "Competitive mode is for exactly 2 players"
        )
    for mode in model.modes:
        if mode not in ("competitive", "party"):
            yield game.where(("modes", mode), key=True).problem(
                f"unknown mode {mode!r}: GotchaCards has competitive and party"
            )
    for i, mode in enumerate(model.beginner.modes):
        if mode not in model.modes:
            yield game.where(("beginner", "modes", i)).problem(f"unknown mode {mode!r}")
    party = model.modes.get("party")
    counts = party.players if party is not None else []
    for players in counts:
        if players not in model.party.deal:
            yield game.where(("modes", "party", "players")).problem(
                f"no Party deal for {players} players"
            )
            continue
        dealt = players * model.party.deal[players]
        for beginner in (False, True):
            size = model.deck_size(beginner=beginner)
            if dealt > size:
                which = "beginner" if beginner else "full"
                yield game.where(("party", "deal", players)).problem(
                    f"{players} players are dealt {dealt} cards, but the {which} deck has {size}"
                )
    for players in model.party.deal:
        if players not in counts:
            yield game.where(("party", "deal", players), key=True).problem(
                f"Party deal for {players} players, which the mode does not allow"
            )


def party_ends(game: GameData) -> Iterator[Problem]:
    """A Party game always ends (seed, Party "Game Flow": play goes on while two players hold
    cards). Every turn each player with cards plays one; only draw effects put cards back into
    hands. Before the trash could ever be shuffled into a new deck (clarification
    deck-runs-out), each draw card can be played once (it then lies in the trash or a victory
    pile) and each lucky card collected once, its bonus shared by at most all the other players
    (party-shared-effects). If all those draws fit in the deck left after dealing, the trash
    never comes back, hands only shrink in the end, and the game ends."""
    model = _model(game)
    party = model.modes.get("party")
    failing: list[str] = []
    worst: tuple[int, int, int, str] | None = None
    for beginner in (False, True):
        which = "beginner" if beginner else "full"
        counts = []
        for players in party.players if party is not None else []:
            dealt = players * model.party.deal.get(players, 0)
            if not 0 < dealt <= model.deck_size(beginner=True):
                continue  # no deal, or one bigger than a deck: setup-feasible reports it
            draws = 0
            for card in model.deck_cards(beginner=beginner):
                effect = card.effect
                if effect is not None and effect.kind == "draw":
                    draws += effect.count * card.count
                elif effect is not None and effect.kind == "bonus":
                    draws += effect.count * card.count * (players - 1)
            left = model.deck_size(beginner=beginner) - dealt
            if draws > left:
                counts.append(str(players))
                if worst is None or draws - left > worst[1] - worst[2]:
                    worst = (players, draws, left, which)
        if counts:
            failing.append(f"{which} deck: {', '.join(counts)} players")
    if worst is not None:
        players, draws, left, which = worst
        yield game.where(("party", "deal")).problem(
            f"Party games might never end ({'; '.join(failing)}): with {players} players and "
            f"the {which} deck, draw and lucky-bonus effects can take {draws} cards from a deck "
            f"of {left}, so the trash would be shuffled back into play"
        )
