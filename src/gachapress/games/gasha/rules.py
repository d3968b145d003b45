"""Gasha's rule functions: pure, small, and each tied to the seed rule it implements."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any, get_args

from gachapress.games.gasha.model import (
    BonusToken,
    Gasha,
    Kind,
    SetRewardCard,
    SetupRow,
    TicketColour,
)
from gachapress.games.spec import RuleSet

RULES = RuleSet()

WILD: TicketColour = "wild"


def _setup(game: Gasha, players: int) -> SetupRow:
    row = game.setup.get(players)
    if row is None:
        raise ValueError(f"Gasha is not played with {players} players")
    return row


def _kind_order(game: Gasha) -> dict[str, int]:
    """Each kind's place in the game's kinds table (kinds missing from it go last)."""
    order: dict[str, int] = {}
    for kind in [k.id for k in game.kinds] + list(get_args(Kind)):
        order.setdefault(kind, len(order))
    return order


# --- trading -----------------------------------------------------------------------------------


def fits(reward: SetRewardCard, cards: list[Kind] | tuple[Kind, ...]) -> bool:
    """Whether ``cards`` can all be placed on the reward's requirement (maybe not filling it)."""
    counts = Counter(cards)
    if reward.identical is not None:
        return len(counts) <= 1 and len(cards) <= reward.identical
    overflow = sum(max(0, n - reward.needs.get(kind, 0)) for kind, n in counts.items())
    return overflow <= reward.wild and len(cards) <= reward.size()


def _sub_multisets(game: Gasha, hand: list[Kind]) -> Iterator[tuple[Kind, ...]]:
    """Every sub-multiset of ``hand``, each once, kinds in the game's order."""
    order = _kind_order(game)
    have = Counter(hand)
    kinds = sorted(have, key=order.__getitem__)

    def pick(i: int) -> Iterator[tuple[Kind, ...]]:
        if i == len(kinds):
            yield ()
            return
        for rest in pick(i + 1):
            for n in range(have[kinds[i]] + 1):
                yield (kinds[i],) * n + rest

    yield from pick(0)


@RULES.rule
def reward_payments(
    game: Gasha, reward: SetRewardCard, hand: list[Kind], wild_tokens: int
) -> list[list[Any]]:
    """Every way to pay for ``reward``: ``[cards, tokens]`` pairs, none when it cannot be taken.

    Seed, "Trade Gasha cards for a Set Reward card": the matching Gasha cards go to the discard
    pile; "2 Wild Gashas!" is worth two wild Gashas in a later trade. ``cards`` is a multiset of
    the hand (kinds in the game's order) and ``tokens`` the fewest of the player's
    ``wild_tokens`` unspent 2 Wild Gashas! tokens that complete it; each token is spent whole
    (clarifications trade-payment, two-wild-use). Sorted by tokens, then by cards.
    """
    if wild_tokens < 0:
        raise ValueError("a player cannot hold a negative number of tokens")
    wilds_per_token = _wild_gashas_per_token(game)
    order = _kind_order(game)
    payments = []
    for cards in _sub_multisets(game, hand):
        if not fits(reward, cards):
            continue
        missing = reward.size() - len(cards)
        if missing and not wilds_per_token:
            continue
        tokens = -(-missing // wilds_per_token) if missing else 0
        if tokens <= wild_tokens:
            payments.append((tokens, [order[c] for c in cards], list(cards)))
    return [[cards, tokens] for tokens, _, cards in sorted(payments)]


def _wild_gashas_per_token(game: Gasha) -> int:
    """Wild Gashas one 2 Wild Gashas! token gives (the bonus-tokens check makes them agree;
    should they not, the smallest is the safe reading)."""
    amounts = [
        token.effect.amount
        for token in game.decks.bonus_tokens.cards
        if token.effect.kind == "wild-gashas"
    ]
    return min(amounts, default=0)


@RULES.rule
def reward_satisfied(
    game: Gasha, reward: SetRewardCard, hand: list[Kind], wild_tokens: int
) -> bool:
    """Whether a player holding ``hand`` (Gasha kinds) and ``wild_tokens`` unspent 2 Wild
    Gashas! tokens may trade for ``reward``.

    Seed, "Trade Gasha cards for a Set Reward card" and "Card notes": named Gashas must be
    matched; a wild Gasha on the card is any Gasha; a card with no ticket half needs identical
    Gashas (clarification identical-any-kind); each token adds two wild Gashas.
    """
    return bool(reward_payments(game, reward, hand, wild_tokens))


# --- setup -------------------------------------------------------------------------------------


@RULES.rule
def reward_in_play(game: Gasha, reward: SetRewardCard, players: int) -> bool:
    """Whether ``reward`` is shuffled into the reward deck for ``players`` players.

    Seed, "Setup" 2: with 5 or 6 players, cards with the 5+ symbol are added, and with 6 the
    cards with the 6 symbol too (clarification player-markers).
    """
    row = _setup(game, players)
    return reward.marker is None or reward.marker in row.markers


@RULES.rule
def rewards_in_play(game: Gasha, players: int) -> int:
    """How many Set Reward cards are used with ``players`` players (seed, "Setup" 2)."""
    return sum(
        card.count for card in game.decks.set_rewards.cards if reward_in_play(game, card, players)
    )


@RULES.rule
def bonus_tokens_in_play(game: Gasha, players: int) -> int:
    """How many Bonus tokens are placed face down (seed, "Setup" 3: 5, 6, 8, 10, 12)."""
    return _setup(game, players).bonus_tokens


@RULES.rule
def gasha_deck_sizes(game: Gasha, players: int) -> list[int]:
    """The sizes of the draw decks after each player is dealt their hand.

    Seed, "Setup" 1: deal the hands, then make roughly equal decks of the rest; dealt one card
    at a time, so the first decks get the extra cards (clarification deck-sizes).
    """
    row = _setup(game, players)
    left = game.decks.gasha.size() - players * row.hand
    if left < 0:
        raise ValueError(f"{players} hands of {row.hand} need more than the Gasha deck holds")
    n = row.gasha_decks
    return [left // n + (1 if i < left % n else 0) for i in range(n)]


# --- drawing -----------------------------------------------------------------------------------


@RULES.rule
def refill_gasha_decks(game: Gasha, sizes: list[int], discard: int) -> dict[str, Any]:
    """Rebuild empty draw decks: ``{sizes, discard, formed}``.

    Seed, "Draw two Gasha cards": when a deck runs out, cut the biggest remaining deck in half
    to make a new one; if 4 decks cannot be made so, shuffle the discard pile to form new decks;
    no deck's top card may change. The biggest deck (the first among equals) keeps its top half,
    rounded up; its bottom half fills the empty place (clarification deck-split). When no deck
    has 2 cards, the shuffled discard pile is dealt evenly into the empty places only
    (discard-reshuffle). ``formed`` is False when even that cannot give every place a card
    (decks-unformable), which triggers the end of the game.
    """
    if any(n < 0 for n in sizes) or discard < 0:
        raise ValueError("deck and discard sizes cannot be negative")
    sizes = list(sizes)
    while 0 in sizes:
        empty = sizes.index(0)
        biggest = max(sizes)
        if biggest >= 2:
            cut = sizes.index(biggest)
            sizes[cut], sizes[empty] = (biggest + 1) // 2, biggest // 2
            continue
        empties = [i for i, n in enumerate(sizes) if n == 0]
        if discard < len(empties):
            return {"sizes": sizes, "discard": discard, "formed": False}
        for k, i in enumerate(empties):
            sizes[i] = discard // len(empties) + (1 if k < discard % len(empties) else 0)
        discard = 0
    return {"sizes": sizes, "discard": discard, "formed": True}


# --- tickets and bonuses -----------------------------------------------------------------------


@RULES.rule
def same_colour(game: Gasha, a: TicketColour, b: TicketColour) -> bool:
    """Whether two ticket halves count as the same colour.

    Seed, "How do I get Bonus tokens?" and "Card notes": a wild half counts as any colour.
    """
    return WILD in (a, b) or a == b


@RULES.rule
def complete_tickets(game: Gasha, rewards: list[SetRewardCard]) -> dict[str, Any]:
    """The tickets a player has completed: ``{tickets: [{pair, extra_gasha}], unpaired}``.

    Seed, "How do I get Bonus tokens?": two Set Rewards with a ticket half each make a ticket,
    worth a Bonus token, plus a Gasha card when the halves share a colour; those two cards
    cannot make another ticket. ``rewards`` are the player's Set Rewards in the order taken:
    each new half pairs at once with the one waiting (clarification ticket-pairing); cards with
    no half never pair.
    """
    halves = [card for card in rewards if card.ticket is not None]
    size = game.tickets.halves
    tickets = []
    for start in range(0, len(halves) - size + 1, size):
        group = halves[start : start + size]
        colours = {card.ticket for card in group} - {WILD}
        tickets.append({"pair": [card.id for card in group], "extra_gasha": len(colours) <= 1})
    paired = len(tickets) * size
    return {"tickets": tickets, "unpaired": [card.id for card in halves[paired:]]}


@RULES.rule
def extra_turns(game: Gasha, token: BonusToken, end_triggered: bool) -> int:
    """How many turns a just-taken token adds right after the current one.

    Seed, "Bonus Token Abilities": One more turn! lets the player play again immediately. Once
    the end is triggered it gives nothing (clarification one-more-turn-timing).
    """
    if token.effect.kind != "extra-turn" or end_triggered:
        return 0
    return token.effect.amount


# --- end and scoring ---------------------------------------------------------------------------


@RULES.rule
def end_triggered(game: Gasha, tokens_left: int, reward_pile: int, decks_formed: bool) -> bool:
    """Whether the end of the game is triggered (seed, "End of the Game").

    ``tokens_left``: face-down Bonus tokens left; ``reward_pile``: cards left in the face-down
    Set Reward pile; ``decks_formed``: whether the draw decks could all be made.
    """
    if tokens_left < 0 or reward_pile < 0:
        raise ValueError("counts of tokens and cards cannot be negative")
    reached = {
        "last-bonus-token": tokens_left == 0,
        "reward-pile-empty": reward_pile == 0,
        "gasha-decks-impossible": not decks_formed,
    }
    return any(reached[trigger] for trigger in game.end.triggers)


@RULES.rule
def last_turns(game: Gasha, trigger_player: int, players: int) -> list[int]:
    """The seats that still play, in order, after ``trigger_player`` triggers the end.

    Seed, "End of the Game": all other players play a last turn, clockwise from the trigger
    player's left (clarification last-turns).
    """
    _setup(game, players)
    if not 0 <= trigger_player < players:
        raise ValueError(f"no seat {trigger_player} with {players} players")
    return [(trigger_player + step) % players for step in range(1, players)]


@RULES.rule
def final_score(
    game: Gasha, rewards: list[SetRewardCard], hand: list[Kind], tokens: list[BonusToken]
) -> int:
    """A player's final score (seed, "Scoring").

    ``tokens`` are the player's Bonus tokens not yet flipped. Set Reward points, plus each
    points token's value, plus one point for each Gasha card in hand and for each wild Gasha of
    an unspent 2 Wild Gashas! token (clarifications unused-wild-token, token-end-values).
    """
    unused = game.scoring.per_unused_gasha
    score = sum(card.points for card in rewards) + unused * len(hand)
    for token in tokens:
        if token.effect.kind == "points":
            score += token.effect.amount
        elif token.effect.kind == "wild-gashas":
            score += unused * token.effect.amount
    return score


@RULES.rule
def winners(game: Gasha, scores: list[int], bonus_tokens: list[int]) -> list[int]:
    """The winning seats: highest score, then most Bonus tokens; still tied, they share.

    Seed, "Scoring"; every token taken counts, flipped or not (clarification tie-break-tokens).
    """
    if not scores or len(scores) != len(bonus_tokens):
        raise ValueError("give one score and one token count per player")
    columns = {"most-points": scores, "most-bonus-tokens": bonus_tokens}
    keys = [tuple(columns[c][seat] for c in game.ranking) for seat in range(len(scores))]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
