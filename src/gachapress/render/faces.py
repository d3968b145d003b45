"""Every face of a game (fronts of each distinct card, one back per deck), resolved from the
game's data and its layout file."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gachapress.book.words import StringTable, Words
from gachapress.data.load import GameData
from gachapress.data.model import Card
from gachapress.data.placeholders import PlaceholderError, card_texts, printed
from gachapress.data.yamlsource import Locations, Mark
from gachapress.errors import Problem, RulesError
from gachapress.project import Templates
from gachapress.render import art as artwork
from gachapress.render.layout import (
    READABLE,
    Art,
    Face,
    FaceError,
    FaceLayout,
    LayoutFile,
    Shape,
    load_layout,
    resolve_face,
)
from gachapress.render.metrics import Measure
from gachapress.render.presets import PrintPresets


@dataclass(frozen=True)
class DeckFaces:
    """A deck's faces: each distinct front with its count, and the deck's back, their texts in
    the card language ``lang``."""

    deck: str
    lang: str
    shape_id: str
    shape: Shape
    fronts: tuple[tuple[Face, int], ...]
    back: Face


def layout_path(templates: Templates, game_id: str) -> Path:
    """A game's card layout: the project's ``templates/cards/<game>.yaml``."""
    return templates.path(f"cards/{game_id}.yaml")


def card_context(game: GameData, deck_id: str, card: Card | None, lang: str) -> dict[str, Any]:
    """The values a layout may name: the card's own fields, its texts in ``lang``, the deck's and
    the game's names, and whatever the game's package adds (``face_context``)."""
    model = game.model
    deck = model.deck(deck_id)
    # every text of the data prints as the book prints it: placeholders filled, names included
    game_names, deck_names = printed(model, model.name), printed(model, deck.name)
    context: dict[str, Any] = {
        "game": {"name": game_names.get(lang, ""), "names": game_names},
        "deck": {"id": deck_id, "name": deck_names.get(lang, ""), "names": deck_names},
    }
    if card is not None:
        fields = card.model_dump(mode="python", by_alias=True)
        context |= {name: "" if value is None else value for name, value in fields.items()}
        for name in deck.text_fields():
            context[name] = printed(model, getattr(card, name), card).get(lang, "")
        names = printed(model, card.name, card)
        context["names"] = names
        context["name"] = names.get(lang, "")
        texts = card_texts(model, card)
        context["texts"] = texts
        context["text"] = texts.get(lang, "")
        if game.spec.face_context is not None:
            context |= game.spec.face_context(model, deck_id, card)
    return context


def card_art(game: GameData, card: Card) -> str | None:
    """The art reference of a card (None: it has none); ArtError if its file is not inside
    the project."""
    if card.art is None:
        return None
    if card.art.openmoji:
        return f"openmoji:{card.art.openmoji}"
    return f"file:{artwork.art_file(game.folder, str(card.art.file), game.root)}"


def deck_faces(decks: Sequence[DeckFaces]) -> list[Face]:
    """The decks' faces: every distinct front, then each deck's back."""
    return [face for deck in decks for face, _ in deck.fronts] + [deck.back for deck in decks]


def draws_openmoji(faces: Iterable[Face]) -> bool:
    """Whether any of ``faces`` draws OpenMoji art (card art, an icon or an emoji in a text)."""
    return any(
        isinstance(item, Art) and artwork.is_openmoji(item.source)
        for face in faces
        for item in face.items
    )


def game_draws_openmoji(
    game: GameData, templates: Templates, presets: PrintPresets, measure: Measure
) -> bool:
    """Whether a face of ``game``, in any language it publishes, draws OpenMoji art."""
    return any(
        draws_openmoji(deck_faces(game_faces(game, templates, presets, measure, lang)))
        for lang in game.model.languages
    )


def game_faces(
    game: GameData,
    templates: Templates,
    presets: PrintPresets,
    measure: Measure,
    lang: str | None = None,
) -> list[DeckFaces]:
    """Resolve every face of the game with its texts in the card language (``lang``, by default
    the game's first: ``GameBase.card_language``); RulesError (located in the layout file) on a
    bad layout or a text that does not fit its box. UnknownLanguage for a ``lang`` the game does
    not publish."""
    lang = game.model.card_language(lang)
    file = layout_path(templates, game.id)
    layout, where = load_layout(file)
    problems = list(_layout_problems(game, layout, where, presets, lang))
    if problems:
        raise RulesError(problems)
    drawing = {"measure": measure, "lang": lang, "icons": layout.icons, "palette": layout.palette}
    words = Words(StringTable.load(templates), lang, game.id)
    decks = []
    for deck_id, deck in game.model.deck_items():
        deck_layout = layout.decks[deck_id]
        shape = presets.shapes[deck_layout.shape]
        fonts = sorted(str(font.path) for font in measure.fonts.values())
        same = repr((deck_layout.front, shape, lang, layout.icons, layout.palette, fonts))
        fronts = []
        for card in deck.faces():
            try:
                context = card_context(game, deck_id, card, lang)
            except PlaceholderError:
                raise _placeholder_problems(game) from None
            try:
                art = card_art(game, card)
            except artwork.ArtError as exc:
                mark = game.where((*game.card_path(card.id), "art", "file"))
                raise RulesError([mark.problem(f"card {card.id!r}: {exc}")]) from None
            try:
                face = _resolve_front(
                    card.id,
                    context["name"] or card.id,
                    deck_layout.front,
                    shape,
                    context,
                    same,
                    card_art=art,
                    **drawing,
                )
            except FaceError as exc:
                raise RulesError(
                    [_element(where, deck_id, "front", exc).problem(f"card {card.id!r}: {exc}")]
                ) from None
            fronts.append((face, card.count))
        try:
            context = card_context(game, deck_id, None, lang)
        except PlaceholderError:
            raise _placeholder_problems(game) from None
        try:
            back = resolve_face(
                f"back-{deck_id}",
                words.ui(
                    "card_back_title", game=context["game"]["name"], deck=context["deck"]["name"]
                ),
                deck_layout.back,
                shape,
                context,
                card_art=None,
                **drawing,
            )
        except FaceError as exc:
            raise RulesError(
                [_element(where, deck_id, "back", exc).problem(f"back of {deck_id!r}: {exc}")]
            ) from None
        decks.append(DeckFaces(deck_id, lang, deck_layout.shape, shape, tuple(fronts), back))
    return decks


#: Fronts resolved lately in this process, by all they were resolved from: the preview's
#: rebuild after an edit lays out the edited card's text alone.
_RESOLVED: OrderedDict[str, Face] = OrderedDict()
_RESOLVED_KEPT = 20_000


def _resolve_front(
    key: str,
    title: str,
    layout: FaceLayout,
    shape: Shape,
    context: dict[str, Any],
    same: str,
    **drawing: Any,
) -> Face:
    """``resolve_face``, kept by a digest of its arguments (``same``: a digest of those that
    are the same for every front of the deck)."""
    digest = hashlib.sha256(repr((same, key, title, context, drawing["card_art"])).encode())
    digest = digest.hexdigest()
    face = _RESOLVED.get(digest)
    if face is None:
        face = resolve_face(key, title, layout, shape, context, **drawing)
        _RESOLVED[digest] = face
        if len(_RESOLVED) > _RESOLVED_KEPT:
            _RESOLVED.popitem(last=False)
    return face


def _placeholder_problems(game: GameData) -> RulesError:
    """The placeholders check's located problems, for a text of a face that cannot be filled
    (said once, where the check says it, in each text)."""
    from gachapress.checks.common import placeholders

    return RulesError(list(placeholders(game)))


def _element(where: Locations, deck_id: str, side: str, exc: FaceError) -> Mark:
    return where.at(("decks", deck_id, side, "elements", exc.element))


def _layout_problems(
    game: GameData, layout: LayoutFile, where: Locations, presets: PrintPresets, lang: str
) -> Iterator[Problem]:
    if layout.game != game.id:
        yield where.at(("game",)).problem(f"layout for {layout.game!r}, expected {game.id!r}")
    decks = dict(game.model.deck_items())
    for deck_id in decks:
        if deck_id not in layout.decks:
            yield where.at(("decks",)).problem(f"no layout for deck {deck_id!r}")
    for deck_id, deck_layout in layout.decks.items():
        if deck_id not in decks:
            yield where.at(("decks", deck_id), key=True).problem(f"unknown deck {deck_id!r}")
        if deck_layout.shape not in presets.shapes:
            yield where.at(("decks", deck_id, "shape")).problem(
                f"unknown shape {deck_layout.shape!r} (shapes: {', '.join(presets.shapes)})"
            )
            continue
        shape = presets.shapes[deck_layout.shape]
        for side in ("front", "back"):
            for i, element in enumerate(getattr(deck_layout, side).elements):
                if element.kind != "text":
                    continue
                missing = [
                    other
                    for other in game.model.languages
                    if isinstance(element.text, dict) and other not in element.text
                ]
                if missing:
                    yield where.at(("decks", deck_id, side, "elements", i, "text")).problem(
                        f"no text in {', '.join(missing)} (the game's languages: "
                        f"{', '.join(game.model.languages)})"
                    )
                    continue
                # The layout's own language sets its floor; another card language's is applied
                # when it is drawn (``layout._text``).
                floor = READABLE.get(element.lang or game.model.card_language(), READABLE["en"])
                for key in ("size", "min_size"):
                    if (getattr(element, key) or floor) < floor:
                        at = ("decks", deck_id, side, "elements", i, key)  # or the element
                        yield where.at(at).problem(
                            f"text {key.replace('_', ' ')} {getattr(element, key):g} pt is below "
                            f"the {floor:g} pt a home printer keeps readable"
                        )
                x, y, w, h = element.box
                s = shape.safe
                if (
                    x < s - 1e-9
                    or y < s - 1e-9
                    or x + w > shape.width - s + 1e-9
                    or y + h > shape.height - s + 1e-9
                ):
                    yield where.at(("decks", deck_id, side, "elements", i, "box")).problem(
                        f"text box leaves the safe zone ({s} mm inside the "
                        f"{shape.width} x {shape.height} mm trim)"
                    )
                for icon in _icons(element.text_in(lang)):
                    if icon not in layout.icons:
                        yield where.at(("decks", deck_id, side, "elements", i, "text")).problem(
                            f"unknown icon :{icon}: (icons: {', '.join(layout.icons)})"
                        )


def _icons(text: str) -> Iterator[str]:
    from gachapress.render.text import ICON

    for match in ICON.finditer(text):
        yield match.group(1)
