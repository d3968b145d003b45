"""What Gasha's card layouts may name beyond a card's own fields."""

from __future__ import annotations

from typing import Any

from gachapress.data.model import Card
from gachapress.games.gasha.model import Gasha, SetRewardCard


def face_context(model: Gasha, deck_id: str, card: Card) -> dict[str, Any]:
    """A Set Reward's ticket half named in each language (``ticket_names.ja``: "赤")."""
    if not isinstance(card, SetRewardCard) or card.ticket is None:
        return {}
    colour = next(c for c in model.ticket_colours if c.id == card.ticket)
    return {"ticket_names": dict(colour.name)}
