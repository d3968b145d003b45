"""GOTCHA!'s data model: gacha, iTuned and operator-notice cards, the d10, spending and scoring.

Every number of the game lives in ``rules/gotcha/``; this module only says what shape it has.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from gachapress.data.model import (
    Card,
    Count,
    Deck,
    Decks,
    GameBase,
    Id,
    Percent,
    PlayerCount,
    Strict,
)

Yen = Annotated[int, Field(ge=1, le=1_000_000)]
"""An amount printed on an iTuned card, in yen."""
Points = Annotated[int, Field(ge=1, le=1_000_000)]
"""Points printed on a gacha card."""
RateDelta = Annotated[int, Field(ge=-100, le=100)]
"""A change to a gacha's rate, in percentage points (negative lowers it)."""


class GachaCard(Card):
    """A gacha card: the character everyone rolls for (seed: "同梱されているカード", "5.ガチャ").

    ``points`` score at the end for whoever pulls it; ``rate`` is its acquisition rate in percent,
    the base of the total a roll must reach.
    """

    rarity: Literal["R", "SR", "SSR", "UR"]
    """The rarity printed on the face; it only labels the card (points and rate do the work)."""
    points: Points
    rate: Percent


class ITunedCard(Card):
    """An iTuned card: money to spend on a pull (seed: "同梱されているカード", "3.課金").

    ``amount`` is in yen; ``rate_bonus`` is added (percent) to the rate of its owner's roll when
    it was revealed, 0 for most cards.
    """

    amount: Yen
    rate_bonus: Percent


class RateEffect(Strict):
    """An operator notice that moves the running gacha's rate up or down.

    ``delta`` percentage points apply to every roll on the current gacha card until it is pulled
    or closed (clarification notice-rate-duration).
    """

    kind: Literal["rate"]
    delta: RateDelta


class OrderEffect(Strict):
    """An operator notice that moves players within the rolling order (clarification
    notice-order-scope). ``move`` acts on the players of the current spend still to roll:

    - ``user-first``: the notice's user rolls next, if they are still to roll;
    - ``next-to-last``: the player due to roll next goes to the back;
    - ``reverse``: the remaining order is reversed;
    - ``last-to-first``: the last player still to roll rolls next.
    """

    kind: Literal["order"]
    move: Literal["user-first", "next-to-last", "reverse", "last-to-first"]


def _effect_tag(value: Any) -> str | None:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return (
        {"rate": "RateEffect", "order": "OrderEffect"}.get(kind) if isinstance(kind, str) else None
    )


NoticeEffect = Annotated[
    Annotated[RateEffect, Tag("RateEffect")] | Annotated[OrderEffect, Tag("OrderEffect")],
    Discriminator(
        _effect_tag,
        custom_error_type="effect_kind",
        custom_error_message="an effect's kind should be 'rate' or 'order'",
    ),
]
"""What an operator notice does when announced, as data the engine applies; ``kind`` says which
of the two shapes it has (the tags are class names so that errors point at the YAML keys)."""


class NoticeCard(Card):
    """An operator-notice card (seed: "同梱されているカード", "4.告知"): announced from the hand, it
    changes the running gacha's rate or the rolling order, then leaves the game."""

    effect: NoticeEffect


class GotchaDecks(Decks):
    """The three decks of the box (seed: 72 cards in all)."""

    gacha: Deck[GachaCard]
    ituned: Deck[ITunedCard]
    notices: Deck[NoticeCard]


class PlayerCountSetup(Strict):
    """Setup for one player count (seed: "ゲームを遊ぶ前の準備")."""

    hand: Count
    """Cards dealt to each player from the mixed iTuned and notice deck."""


class Redraw(Strict):
    """The redraw of a starting hand made only of notices (seed: setup step 3;
    clarification redraw-details): the player may show it and draw as many cards again; the
    shown cards are then shuffled into the draw deck."""

    times: Annotated[int, Field(ge=0, le=3)]
    """How many times one player may redraw at setup."""


class Die(Strict):
    """The ten-sided die a roll uses (seed: "5.ガチャ").

    Its faces read ``0`` to ``faces - 1``; the ``0`` face counts as ``faces``. A face hits when
    it times ``percent_per_pip`` is at most the total rate.
    """

    faces: Annotated[int, Field(ge=2, le=100)]
    percent_per_pip: Annotated[int, Field(ge=1, le=100)]


SpendKey = Literal["most-yen", "fewest-cards", "clockwise-from-turn-player"]


class Spending(Strict):
    """How a spend turns into a rolling order (seed: "3.課金")."""

    order: Annotated[list[SpendKey], Field(min_length=1, max_length=3)]
    """Sort keys of the rolling order, first to last; the last must settle every tie."""
    min_revealed_to_roll: Annotated[int, Field(ge=0, le=10)]
    """Cards a player must reveal to roll at all (clarification no-reveal-no-roll)."""
    placing_round_limit: Annotated[int, Field(ge=1, le=1_000_000)]
    """A safety valve: placing ends after a round in which nobody changed anything (seed, "2.課金
    準備"), or after this many rounds, a bound set so high that real play never reaches it
    (clarification placing-limit; ``rare_events`` counts the games that do)."""


class Announcements(Strict):
    """The announcement step before every roll (seed: "4.告知", FAQ)."""

    notices_per_turn: Count
    """Notices a player may use each time the announcement circle reaches them."""


class Refill(Strict):
    """The refill step (seed: "6.iTuned補充")."""

    draw: Count
    """Cards each player draws, starting with the turn player and going clockwise."""
    reshuffle: Literal["discarded-ituned"]
    """What makes a new draw deck when it runs out: the discarded iTuned cards only."""


class End(Strict):
    """When the game ends (seed: "ゲームの終了"; clarifications unclaimed-gacha, end-timing)."""

    when: Literal["gacha-deck-empty"]
    """The game ends after the turn that opened the last gacha card."""
    unclaimed_gacha: Literal["remove"]
    """A gacha card nobody spent on leaves the game, so every turn uses up one gacha card."""
    final_refill: bool
    """Whether players still draw in the refill step of the last turn (the seed says no)."""


class Scoring(Strict):
    """Final scoring (seed: "ゲームの終了"; clarifications score-scale, winner-ties)."""

    ituned_divisor: Annotated[int, Field(ge=1, le=1000)]
    """The iTuned yen left in a hand are divided by this: 2 scores half the amount."""
    ranking: Annotated[
        list[Literal["most-points", "most-gacha-points"]], Field(min_length=1, max_length=2)
    ]
    """How the final standings are ordered; players still tied after all of these share."""


class Gotcha(GameBase):
    """The whole of GOTCHA!'s rules data."""

    decks: GotchaDecks
    setup: dict[PlayerCount, PlayerCountSetup]
    draw_deck: Annotated[list[Id], Field(min_length=1, max_length=2)]
    """The decks shuffled together into the draw deck hands are dealt from (seed: setup 1); the
    gacha cards are shuffled into a deck of their own (setup 2)."""
    redraw: Redraw
    die: Die
    spending: Spending
    announcements: Announcements
    refill: Refill
    end: End
    scoring: Scoring

    def derived_values(self) -> dict[str, Any]:
        """``notice_kinds``: notices per effect kind; ``ituned_amounts``: the distinct amounts."""
        kinds: dict[str, int] = {}
        for card in self.decks.notices.faces():
            kinds[card.effect.kind] = kinds.get(card.effect.kind, 0) + card.count
        amounts = sorted({card.amount for card in self.decks.ituned.faces()})
        return {"notice_kinds": kinds, "ituned_amounts": amounts}
