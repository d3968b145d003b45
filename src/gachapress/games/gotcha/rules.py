"""GOTCHA!'s rule functions: pure, small, and each tied to the seed rule it implements.

Seats are numbered 0 to N-1 clockwise; "the player on the left" is the next seat clockwise.
Seed sections are quoted by their Japanese headings (the seed is gotcha.ja.txt).
"""

from __future__ import annotations

from typing import Literal

from gachapress.data.model import Card
from gachapress.games.gotcha.model import GachaCard, Gotcha, ITunedCard, NoticeCard
from gachapress.spec import RuleSet

RULES = RuleSet()

Announcement = Literal["use", "pass"]


def _face_value(game: Gotcha, roll: int) -> int:
    if not 0 <= roll < game.die.faces:
        raise ValueError(f"a d{game.die.faces} shows 0 to {game.die.faces - 1}, not {roll}")
    return roll or game.die.faces


def _check_players(game: Gotcha, players: int) -> None:
    for mode in game.modes.values():  # rules run often: a loop, no generator
        if players in mode.players:
            return
    counts = ", ".join(map(str, game.player_counts()))
    raise ValueError(f"GOTCHA! is played by {counts} players, not {players}")


def _check_seat(players: int, seat: int, what: str) -> None:
    if not 0 <= seat < players:
        raise ValueError(f"{what} {seat} is not a seat of {players} players")


def _spend_pairs(spends: list[list[int]]) -> list[tuple[int, int]]:
    pairs = []
    for seat, spend in enumerate(spends):
        if len(spend) != 2 or spend[0] < 0 or spend[1] < 0:
            raise ValueError(f"seat {seat}: a spend is [yen, cards revealed], both >= 0")
        yen, cards = spend
        if cards == 0 and yen > 0:
            raise ValueError(f"seat {seat}: {yen} yen spent without revealing a card")
        pairs.append((yen, cards))
    return pairs


@RULES.rule
def gacha_hit(game: Gotcha, rate: int, roll: int) -> bool:
    """Whether a roll of the d10 showing ``roll`` pulls a gacha whose total rate is ``rate``.

    Seed, "5.ガチャ": the face times ten must be at most the total rate, and the 0 face counts
    as 10. A total below 10% never hits and 100% or more always does (clarification
    rate-bounds).
    """
    return _face_value(game, roll) * game.die.percent_per_pip <= rate


@RULES.rule
def hit_faces(game: Gotcha, rate: int) -> list[int]:
    """The faces that pull the gacha at a total rate of ``rate``, in die order (1 ... 9, then 0).

    Seed, "5.ガチャ" and its dice examples (30%: 1, 2, 3; 83%: all but 9 and 0).
    """
    faces = sorted(range(game.die.faces), key=lambda face: face or game.die.faces)
    return [face for face in faces if gacha_hit(game, rate, face)]


@RULES.rule
def spend_of(game: Gotcha, revealed: list[Card]) -> list[int]:
    """A player's spend, ``[yen, cards revealed]``, from the cards they turned face up.

    Seed, "3.課金": the amounts of the revealed iTuned cards are added up; a revealed notice has
    no effect, so it adds no yen but is still a revealed card (clarification no-reveal-no-roll).
    """
    yen = 0
    for card in revealed:  # one loop, no generators: every spend and every roll runs this
        if isinstance(card, ITunedCard):
            yen += card.amount
        elif isinstance(card, GachaCard):
            raise ValueError("gacha cards are never in a hand, so they cannot be revealed")
    return [yen, len(revealed)]


@RULES.rule
def spend_order(game: Gotcha, spends: list[list[int]], turn_player: int) -> list[int]:
    """The seats that roll, first to last, from each seat's ``[yen, cards revealed]``.

    Seed, "3.課金": the most yen rolls first; equal yen, fewer cards first; still equal, clockwise
    from the turn player (the game's ``spending.order``). A seat that revealed fewer cards than
    ``spending.min_revealed_to_roll`` does not roll (clarification no-reveal-no-roll).
    """
    pairs = _spend_pairs(spends)
    players = len(pairs)
    _check_seat(players, turn_player, "turn player")
    columns = {
        "most-yen": [-yen for yen, _ in pairs],
        "fewest-cards": [cards for _, cards in pairs],
        "clockwise-from-turn-player": [(seat - turn_player) % players for seat in range(players)],
    }
    rows = list(zip(*(columns[name] for name in game.spending.order), strict=True))
    least = max(1, game.spending.min_revealed_to_roll)
    rollers = [seat for seat in range(players) if pairs[seat][1] >= least]
    return sorted(rollers, key=rows.__getitem__)


@RULES.rule
def total_rate(
    game: Gotcha, gacha: GachaCard, revealed: list[Card], notices: list[NoticeCard]
) -> int:
    """The total rate of one player's roll, in percent.

    Seed, "5.ガチャ": the gacha card's rate, plus the rate bonuses of the iTuned cards the roller
    revealed (clarification bonus-scope), plus the rate notices announced for this gacha
    (clarification notice-rate-duration). Order notices and revealed notices add nothing.
    """
    spend_of(game, revealed)  # refuses impossible reveals
    bonus = sum(card.rate_bonus for card in revealed if isinstance(card, ITunedCard))
    deltas = sum(n.effect.delta for n in notices if n.effect.kind == "rate")
    return gacha.rate + bonus + deltas


@RULES.rule
def reorder_rollers(game: Gotcha, order: list[int], notice: NoticeCard, user: int) -> list[int]:
    """The players still to roll after ``user`` announces the order notice ``notice``.

    Seed, "運営からのお知らせカード": notices move players forward or back in the rolling order;
    the moves are the project's design (clarifications notice-card-list, notice-order-scope).
    """
    if notice.effect.kind != "order":
        raise ValueError(f"notice {notice.id!r} changes the rate, not the order")
    if len(set(order)) != len(order) or min(order, default=0) < 0:
        raise ValueError("the rolling order lists distinct seats")
    move = notice.effect.move
    if not order:
        return []
    if move == "user-first":
        return [user, *(s for s in order if s != user)] if user in order else list(order)
    if move == "next-to-last":
        return [*order[1:], order[0]]
    if move == "reverse":
        return list(reversed(order))
    return [order[-1], *order[:-1]]  # last-to-first


@RULES.rule
def announcement_round_over(game: Gotcha, players: int, actions: list[Announcement]) -> bool:
    """Whether the announcement step is over after ``actions`` (use or pass, in turn).

    Seed, "4.告知": the choice goes round clockwise until everybody has passed; a pass does not
    stop a player from using a notice when the choice comes back to them. So the step ends once
    the last ``players`` choices were all passes (clarification announcement-end).
    """
    _check_players(game, players)
    return len(actions) >= players and actions[-players:].count("pass") == players


@RULES.rule
def next_announcer(
    game: Gotcha, players: int, turn_player: int, actions: list[Announcement]
) -> int | None:
    """Who chooses next in the announcement step, or None once it is over.

    Seed, "4.告知" and its example: the turn player chooses first, then each player clockwise,
    round and round, until everybody has passed in a row.
    """
    _check_seat(players, turn_player, "turn player")
    if announcement_round_over(game, players, actions):
        return None
    return (turn_player + len(actions)) % players


@RULES.rule
def spend_outcome(
    game: Gotcha, spends: list[list[int]], winner: int | None
) -> Literal["won", "restart", "closed"]:
    """What follows a spend's rolls: ``won`` (someone pulled the card), ``restart`` (everybody
    who rolled missed: place cards again for the same gacha) or ``closed`` (nobody revealed a
    card: the gacha ends unclaimed).

    Seed, "5.ガチャ": everybody missing goes back to "2.課金準備"; a pull or nobody revealing
    goes on to "6.iTuned補充". The unclaimed card leaves the game (clarification
    unclaimed-gacha, the game's ``end.unclaimed_gacha``).
    """
    pairs = _spend_pairs(spends)
    if winner is not None:
        _check_seat(len(pairs), winner, "winner")
        if pairs[winner][1] < max(1, game.spending.min_revealed_to_roll):
            raise ValueError(f"seat {winner} revealed no card, so it did not roll")
        return "won"
    rolled = any(cards >= max(1, game.spending.min_revealed_to_roll) for _, cards in pairs)
    return "restart" if rolled else "closed"


@RULES.rule
def next_turn_player(game: Gotcha, players: int, turn_player: int, winner: int | None) -> int:
    """The next turn's turn player: the player on the left of whoever pulled the gacha card, or
    on the left of the turn player when nobody did.

    Seed, "6.iTuned補充" and its seating example (A B over C D sit clockwise A, B, D, C: when D
    pulls, C is next; when B is turn player and nobody pulls, D is next).
    """
    _check_players(game, players)
    _check_seat(players, turn_player, "turn player")
    if winner is not None:
        _check_seat(players, winner, "winner")
    return ((turn_player if winner is None else winner) + 1) % players


@RULES.rule
def clockwise_order(game: Gotcha, players: int, turn_player: int) -> list[int]:
    """The seats from the turn player clockwise: who acts in turn when placing face-down cards,
    when choosing what to reveal, and when drawing in the refill step.

    Seed, "4.告知" and "6.iTuned補充" go from the turn player clockwise; the placing and the
    reveal follow the same order (clarification hidden-placement).
    """
    _check_players(game, players)
    _check_seat(players, turn_player, "turn player")
    return [(turn_player + step) % players for step in range(players)]


@RULES.rule
def draw_order(game: Gotcha, players: int, turn_player: int) -> list[int]:
    """The order in which players draw in the refill step: the turn player, then clockwise.

    Seed, "6.iTuned補充".
    """
    return clockwise_order(game, players, turn_player)


@RULES.rule
def placing_over(game: Gotcha, placing_round: int, changed: bool) -> bool:
    """Whether spending preparation ends after placing round ``placing_round`` (the first is 1);
    ``changed`` says whether anybody put a card face down or took one back in that round,
    whatever the cards (clarification placing-moves-count: a swap of two identical cards is a
    change too, since the others cannot tell).

    Seed, "2.課金準備": players put cards face down and may add or take back cards while watching
    the others; once every player declares they will change nothing more, spending begins. So
    placing ends after a round in which every player said "no change" (clarification
    hidden-placement). Only as a safety valve that play never reaches does it end after
    ``spending.placing_round_limit`` rounds (clarification placing-limit).
    """
    if placing_round < 1:
        raise ValueError(f"placing rounds are numbered from 1, not {placing_round}")
    return not changed or placing_round >= game.spending.placing_round_limit


@RULES.rule
def game_over(game: Gotcha, gacha_left: int) -> bool:
    """Whether the game ends once the current turn is played out: no gacha card is left to open.

    Seed, "ゲームの終了" (clarification end-timing, the game's ``end.when``).
    """
    if gacha_left < 0:
        raise ValueError("a deck cannot hold fewer than 0 cards")
    return gacha_left == 0


@RULES.rule
def reshuffle_pool(game: Gotcha, discard: list[Card]) -> list[str]:
    """The discarded cards (ids, in discard order) that become the new draw deck.

    Seed, "6.iTuned補充": when the draw deck runs out, only the discarded iTuned cards are
    shuffled into a new one; discarded notices stay out (clarification revealed-cards-fate).
    """
    return [card.id for card in discard if isinstance(card, ITunedCard)]


@RULES.rule
def may_redraw(game: Gotcha, hand: list[Card]) -> bool:
    """Whether a starting hand may be shown and redrawn: it is made of notices only.

    Seed, "ゲームを遊ぶ前の準備" step 3 (clarification redraw-details).
    """
    return bool(hand) and all(isinstance(card, NoticeCard) for card in hand)


@RULES.rule
def final_score(game: Gotcha, gacha: list[GachaCard], hand: list[Card]) -> int:
    """A player's final score: the points of their gacha cards plus half the yen of the iTuned
    cards left in their hand (notices score nothing).

    Seed, "ゲームの終了"; the scale is clarification score-scale (``scoring.ituned_divisor``).
    """
    if any(isinstance(card, GachaCard) for card in hand):
        raise ValueError("gacha cards are kept apart from the hand")
    yen = sum(card.amount for card in hand if isinstance(card, ITunedCard))
    return sum(card.points for card in gacha) + yen // game.scoring.ituned_divisor


@RULES.rule
def game_winners(game: Gotcha, points: list[int], gacha_points: list[int]) -> list[int]:
    """The winning seats: the best final score, then the most gacha points; a tie after both is
    shared.

    Seed, "ゲームの終了"; the tie-break is clarification winner-ties (``scoring.ranking``).
    """
    if len(points) != len(gacha_points) or not points:
        raise ValueError("give one final score and one gacha total per player")
    columns = {"most-points": points, "most-gacha-points": gacha_points}
    keys = [tuple(columns[c][seat] for c in game.scoring.ranking) for seat in range(len(points))]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
