"""What Gachapon Trick's card layouts may name beyond a card's own fields."""

from __future__ import annotations

from typing import Any

from gachapress.data.model import Card
from gachapress.games.gachapon_trick.model import GachaponTrick, ToyCard


def face_context(model: GachaponTrick, deck_id: str, card: Card) -> dict[str, Any]:
    """A toy card's suit (id, names, colour and symbol) for its frame and corner index."""
    if not isinstance(card, ToyCard):
        return {}
    colour = model.decks.toys.color(card.color)
    return {
        "suit": {
            "id": colour.id,
            "hex": colour.hex,
            "symbol": colour.symbol,
            "names": dict(colour.name),
        }
    }
