"""Rock, Paper, Scissors, Fire's rule functions: pure, small, each tied to the seed rule it
implements and to the clarification it follows."""

from __future__ import annotations

from gachapress.games.rps_fire.model import Direction, RpsCard, RpsFire
from gachapress.spec import RuleSet

RULES = RuleSet()


@RULES.rule
def beats(game: RpsFire, played: RpsCard, top: RpsCard) -> bool:
    """Whether ``played`` beats ``top``, the card on top of the pile.

    Seed, "So What Beats What?": rock beats scissors, scissors beat paper, paper beats rock,
    whatever the values; a higher value of the same type beats a lower one, a tie never beats;
    a fire alarm beats everything. Clarification play-on-fire-alarm: any card may be played on a
    fire alarm (and fire-alarm-on-fire-alarm: an alarm on an alarm is allowed, not a tie).
    """
    if played.is_fire_alarm or top.is_fire_alarm:
        return True
    if game.type_beats.get(played.type) == top.type:  # type: ignore[call-overload]
        return True
    return played.type == top.type and played.value > top.value


@RULES.rule
def legal_play(game: RpsFire, cards: list[RpsCard], top: RpsCard, open_pile: bool = False) -> bool:
    """Whether ``cards`` may go on the pile together as one play.

    Seed, "Turns are Simple": a play beats the top card, and copies of the same card may be
    played at once. Clarification identical-copies: copies share one face (same id), and any
    number of them may be played. Clarification deck-runs-out: on an open pile (everyone passed
    in a row) any card may be played.
    """
    if not cards or any(card.id != cards[0].id for card in cards):
        return False
    return open_pile or beats(game, cards[0], top)


@RULES.rule
def playable(
    game: RpsFire, hand: list[RpsCard], top: RpsCard, open_pile: bool = False
) -> list[str]:
    """The distinct faces of ``hand`` that can be played now, in hand order.

    Seed, "Turns are Simple"; a face that can be played may be played with its copies.
    """
    faces: list[str] = []
    for card in hand:
        if card.id not in faces and legal_play(game, [card], top, open_pile):
            faces.append(card.id)
    return faces


@RULES.rule
def has_legal_play(
    game: RpsFire, hand: list[RpsCard], top: RpsCard, open_pile: bool = False
) -> bool:
    """Whether the player can play; if not, they draw until they can.

    Seed, "Can't beat the top of the pile? Draw cards until you can!". Clarification must-play:
    a player who can play must play (``game.turn.must_play``).
    """
    return bool(playable(game, hand, top, open_pile))


@RULES.rule
def round_score(game: RpsFire, hand: list[RpsCard]) -> int:
    """Points for the cards left in ``hand`` when the round ends (lower is better).

    Seed, "Ending & Scoring the Round": add up the values; holding a fire alarm doubles the
    score; a hand of only fire alarms scores 10 per alarm. Clarifications fire-alarm-value (an
    alarm counts its ``value``) and fire-alarm-doubling (doubled once). An empty hand scores 0.
    """
    if not hand:
        return 0
    alarms = sum(1 for card in hand if card.is_fire_alarm)
    if alarms == len(hand):
        return alarms * game.scoring.only_fire_alarms_each
    total = sum(card.value for card in hand)
    return total * game.scoring.fire_alarm_multiplier if alarms else total


@RULES.rule
def round_scores(game: RpsFire, hands: list[list[str]], went_out: int) -> list[int]:
    """Every seat's points for a round, given the hands (card ids) as the round ended.

    Seed, "Ending & Scoring the Round": the player who played their last card scores a perfect
    0 (``game.scoring.went_out``); everyone else scores their hand with ``round_score``.
    """
    if not 0 <= went_out < len(hands):
        raise ValueError(f"seat {went_out} is not at the table of {len(hands)}")
    if hands[went_out]:
        raise ValueError(f"seat {went_out} went out, so their hand must be empty")
    cards = game.face_by_id
    scores = []
    for seat, hand in enumerate(hands):
        unknown = [card_id for card_id in hand if card_id not in cards]
        if unknown:
            raise ValueError(f"unknown card {unknown[0]!r}")
        held = [cards[card_id] for card_id in hand]
        scores.append(
            game.scoring.went_out if seat == went_out else round_score(game, held)  # type: ignore[arg-type]
        )
    return scores


@RULES.rule
def alarm_takes(game: RpsFire, direction: Direction, players: int) -> list[list[int]]:
    """Who takes a random card from whom when a fire alarm goes off: ``[taker, giver]`` pairs,
    by taker seat, the left neighbour before the right one.

    Seed, "But Then, Fire Alarms!": everyone takes a card from the player on their left, right,
    or both, as the alarm shows. On your left is the next seat, on your right the previous one.
    Clarifications alarm-takes (the alarm player takes too) and alarm-two-players (with two
    players the opponent sits on both sides, so "both" takes two cards from them).
    """
    _check_players(game, players)
    sides = game.fire_alarm.takes.get(direction)
    if sides is None:
        raise ValueError(f"no takes defined for fire alarms pointing {direction}")
    pairs = []
    for seat in range(players):
        for side in sides:
            step = 1 if side == "left" else -1
            pairs.append([seat, (seat + step) % players])
    return pairs


@RULES.rule
def give_away_legal(
    game: RpsFire, giver: int, recipients: list[int], players: int, hand_size: int
) -> bool:
    """Whether the alarm player may give one card to each seat of ``recipients``.

    Seed, "But Then, Fire Alarms!": the alarm player gives 2 cards away, both to one opponent or
    one each to two different opponents. Clarification alarm-give-away: with fewer cards than
    that, they give all they hold; with one opponent, everything goes to them.
    """
    allowed = give_recipients(game, giver, players)
    if len(recipients) != give_count(game, hand_size):
        return False
    return all(seat in allowed for seat in recipients)


@RULES.rule
def give_count(game: RpsFire, hand_size: int) -> int:
    """How many cards the alarm player gives away, holding ``hand_size`` cards after the draw.

    Seed, "But Then, Fire Alarms!": they give 2 cards away (``game.fire_alarm.give``).
    Clarification alarm-give-away: with fewer cards than that, they give all they hold.
    """
    if hand_size < 0:
        raise ValueError("a hand cannot hold fewer than 0 cards")
    return min(game.fire_alarm.give, hand_size)


@RULES.rule
def give_recipients(game: RpsFire, giver: int, players: int) -> list[int]:
    """The seats the alarm player may give a card to, clockwise from their left.

    Seed, "But Then, Fire Alarms!": cards go to opponents, both to one or one each to two, so
    every opponent may receive each card (clarification alarm-two-players: with two players,
    both go to the one opponent).
    """
    _check_players(game, players)
    if not 0 <= giver < players:
        raise ValueError(f"seat {giver} is not at the table of {players}")
    return [(giver + step) % players for step in range(1, players)]


@RULES.rule
def can_start_pile(game: RpsFire, card: RpsCard) -> bool:
    """Whether ``card``, turned up from the deck after dealing, starts the pile.

    Clarification pile-start (``game.pile_start.fire_alarm``): a fire alarm does nothing there;
    it is shuffled back into the deck and the next card is turned up instead.
    """
    return not card.is_fire_alarm


@RULES.rule
def next_seat(game: RpsFire, seat: int, players: int) -> int:
    """Who plays after ``seat``, also after a fire alarm.

    Clarification turn-order (``game.turn.direction``): clockwise, the player on your left, who
    sits in the next seat.
    """
    _check_players(game, players)
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not at the table of {players}")
    return (seat + 1) % players


@RULES.rule
def play_ends_round(game: RpsFire, cards_left: int) -> bool:
    """Whether a play that leaves its player ``cards_left`` cards ends the round.

    Seed, "Ending & Scoring the Round": the round ends once someone plays the last card from
    their hand. Clarification emptied-by-alarm: only a play ends it, never an alarm's takes.
    """
    if cards_left < 0:
        raise ValueError("a hand cannot hold fewer than 0 cards")
    return cards_left == 0


@RULES.rule
def alarm_goes_off(game: RpsFire, cards_left: int) -> bool:
    """Whether a fire alarm just played takes effect, its player holding ``cards_left`` cards.

    Seed, "But Then, Fire Alarms!"; clarification last-card-alarm (``game.fire_alarm.last_card``):
    an alarm played as the last card ends the round without going off.
    """
    return not play_ends_round(game, cards_left)


@RULES.rule
def alarm_effects(game: RpsFire, copies: int) -> int:
    """How many times the alarm effect (takes, draw, give-away) happens when ``copies``
    identical alarms are played together.

    Clarification multi-alarm-effect (``game.fire_alarm.effects_per_play``): one play, one
    effect.
    """
    if copies < 1:
        raise ValueError("a play has at least one card")
    return min(copies, game.fire_alarm.effects_per_play)


@RULES.rule
def pile_opens(game: RpsFire, passes: int, players: int) -> bool:
    """Whether the pile opens after ``passes`` passes in a row: the next player may then play
    any card.

    Clarification deck-runs-out (``game.turn.all_passed``): when every player has passed in a
    row (nobody could beat the pile, nothing was left to draw), the pile opens. Clarification
    open-pile-until-played: it stays open, through further passes of empty hands, until a card
    is played (which resets the passes).
    """
    _check_players(game, players)
    if passes < 0:
        raise ValueError("passes cannot be fewer than 0")
    return passes >= players


@RULES.rule
def drawable(game: RpsFire, deck: int, pile: int) -> int:
    """How many cards can still be drawn: the deck, then the pile under its top card.

    Clarification deck-runs-out: an empty deck is refilled by shuffling the pile except its top
    card; a player who still finds nothing to draw passes.
    """
    if deck < 0 or pile < 0:
        raise ValueError("a deck or pile cannot hold fewer than 0 cards")
    return deck + max(pile - 1, 0)


@RULES.rule
def hand_size(game: RpsFire, players: int) -> int:
    """Cards dealt to each player every round (clarification hand-size)."""
    _check_players(game, players)
    row = game.setup.get(players)
    if row is None:
        raise ValueError(f"no setup row for {players} players")
    return row.hand


@RULES.rule
def round_starter(
    game: RpsFire, round_number: int, totals: list[int], previous_starter: int | None = None
) -> int:
    """The seat that plays first in round ``round_number`` (counted from 1).

    Clarification round-starter: the first round starts at ``round_start.first_round_seat``; a
    later round with the player who has the most points so far, ties going to the first of them
    clockwise from the left of the previous round's first player.
    """
    players = len(totals)
    _check_players(game, players)
    if not 1 <= round_number <= game.rounds:
        raise ValueError(f"there is no round {round_number} (the game has {game.rounds})")
    if round_number == 1:
        return game.round_start.first_round_seat
    if previous_starter is None or not 0 <= previous_starter < players:
        raise ValueError("a later round needs the seat that started the previous round")
    most = max(totals)
    for step in range(1, players + 1):
        seat = (previous_starter + step) % players
        if totals[seat] == most:
            return seat
    raise AssertionError("unreachable: some seat has the most points")


@RULES.rule
def game_winners(game: RpsFire, totals: list[int], rounds_out: list[int]) -> list[int]:
    """The winning seats after the last round.

    Seed, "Crown a Champion": the fewest points wins. Clarification winner-ties: then the most
    rounds gone out; players tied on everything share the win (order: ``game.ranking``).
    """
    if len(totals) != len(rounds_out):
        raise ValueError("give one total and one count of rounds gone out per seat")
    _check_players(game, len(totals))
    columns = {
        "fewest-points": [-points for points in totals],
        "most-rounds-out": rounds_out,
    }
    keys = [tuple(columns[c][seat] for c in game.ranking) for seat in range(len(totals))]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]


def _check_players(game: RpsFire, players: int) -> None:
    if players not in game.player_counts():
        counts = ", ".join(str(n) for n in game.player_counts())
        raise ValueError(f"the game is for {counts} players, not {players}")
