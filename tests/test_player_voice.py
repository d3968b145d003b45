"""Every rulebook (English and Japanese) and every card speaks to players: no rule function
names, no "seed", no raw action ids, no "time(s)", no seat numbers, no "Player1" or "Lane1", no
lists counted from #0, no deal numbers, "number of moves", rules folders, "rules engine", "bots"
or "greedy" players.

The books are the real ``gachapress build`` output of a scratch copy of the project (with short
book simulations, so the statistics section is there too), shared with the other tests that
only read it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from gachapress.data.load import load_rules
from tests.conftest import GAME_IDS

#: Wording a player should never read, whatever the game (case-insensitive).
ENGINE_WORDS = {
    "the word 'seed'": re.compile(r"\bseeds?\b|シード", re.IGNORECASE),
    "'time(s)'": re.compile(r"\(s\)"),
    "a seat number": re.compile(r"\bseats? \d|席\d", re.IGNORECASE),
    "'Player1' unspaced": re.compile(r"\bPlayer\d"),
    "'Lane1' unspaced": re.compile(r"\bLane\d"),
    "a list counted from #0": re.compile(r"#\d"),
    "a deal's number": re.compile(r"deal number|random sequence|シャッフル番号|乱数系列", re.I),
    "'number of moves'": re.compile(r"number of moves|手数(?!料)", re.IGNORECASE),
    "a rules folder": re.compile(r"\brules/[\w-]+/"),
    "'rules engine'": re.compile(r"\b(?:rules )?engine\b|エンジン", re.IGNORECASE),
    "'bots'": re.compile(r"\bbots?\b|(?<!ロ)ボット"),  # not Gasha's Farm Bot, nor a robot
    "'greedy'": re.compile(r"\bgreedy\b|目先重視|貪欲", re.IGNORECASE),
}
CJK = r"[\u3040-\u30ff\u4e00-\u9fff]"
KANA_OR_KANJI = re.compile(CJK)
#: An action as the engine spells it: a verb and a card id (``play red-800``).
RAW_ACTION = re.compile(r"\b(?:play|buy|give|place|reveal|trade|pay) [a-z0-9]+(?:-[a-z0-9]+)+\b")


@pytest.fixture(scope="module")
def built(built_site: Path) -> Path:
    """The site of the run (conftest's), read only."""
    return built_site


def visible_text(page: str) -> str:
    """What a reader sees of an HTML page or SVG: its text and its alt, title and label texts;
    not the styles, the icon sprite or the markup."""
    page = re.sub(r"<style.*?</style>|<defs>.*?</defs>", " ", page, flags=re.S)
    labels = re.findall(r'(?:alt|aria-label|title)="([^"]*)"', page)
    words = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(" ".join([words, *labels])))


def engine_talk(game_id: str, text: str) -> list[str]:
    """Every engine word, function name and raw id ``text`` holds, each with its context."""
    game = load_rules(game_id)
    # Rule names that are identifiers (``trick_winner``); one-word ones ("beats") are English.
    names = [n for n in game.spec.rules.names() if "_" in n]
    card_ids = [c for c in game.model.cards() if re.search(r"[-0-9]", c)]
    patterns = {
        **ENGINE_WORDS,
        "a rule function name": re.compile(rf"\b(?:{'|'.join(names)})\b"),
        "a raw action": RAW_ACTION,
        "a card id": re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, card_ids))})(?![\w-])"),
    }
    found = []
    for what, pattern in patterns.items():
        for match in pattern.finditer(text):
            found.append(f"{what}: ...{text[max(0, match.start() - 50) : match.end() + 30]}...")
    return found


def test_the_checker_catches_each_pattern() -> None:
    page = (
        "<p>Seat 0 leads (the seed says so): <code>play red-800</code>, 1 time(s), then "
        "Player1 in Lane1.</p><h3>Who wins a trick <code>trick_winner</code></h3>"
        "<p>#0 wins. 3 players, deal number 4. Number of moves: 9. Made from rules/gotcha/ "
        "by the rules engine's greedy bots.</p>"
    )
    found = engine_talk("gachapon-trick", visible_text(page))
    kinds = {line.split(":")[0] for line in found}
    assert kinds == {*ENGINE_WORDS, "a rule function name", "a raw action", "a card id"}
    japanese = "乱数系列1番で、ルールエンジンのボット（目先重視）が対戦した。手数 12。"
    kinds = {line.split(":")[0] for line in engine_talk("gotcha", japanese)}
    assert kinds == {"a deal's number", "'rules engine'", "'bots'", "'greedy'", "'number of moves'"}
    assert engine_talk("gasha", "ロボット寿司の手数料") == []  # a robot and a fee are no engine


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rulebooks_speak_to_players(built: Path, game_id: str) -> None:
    books = sorted((built / game_id).glob("rulebook.*.html"))
    assert {b.name for b in books} == {
        f"rulebook.{lang}.html" for lang in load_rules(game_id).model.languages
    }
    for book in books:
        assert engine_talk(game_id, visible_text(book.read_text(encoding="utf-8"))) == [], book.name
        pdf = book.with_suffix(".pdf")
        assert engine_talk(game_id, pdf_text(pdf)) == [], pdf.name


def pdf_text(path: Path) -> str:
    """A PDF's text, its lines joined; a Japanese word broken across lines made whole."""
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(path).pages)
    return re.sub(rf"(?<={CJK}) (?={CJK})", "", text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_cards_speak_to_players(built: Path, game_id: str) -> None:
    faces = sorted((built / game_id / "cards").glob("*.svg"))
    assert faces
    text = " | ".join(visible_text(face.read_text(encoding="utf-8")) for face in faces)
    assert engine_talk(game_id, text) == []


def squashed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_book_pictures_its_cards_drawn_in_its_language(built: Path, game_id: str) -> None:
    """Each card a book pictures (HTML) is the face printed with the card's name in the book's
    language; the PDF books name a card in another language only where their own faces and
    text do (GOTCHA!'s Japanese cards carry an English line); no English book shows a
    Japanese face."""
    model = load_rules(game_id).model
    for lang in model.languages:
        page = (built / game_id / f"rulebook.{lang}.html").read_text(encoding="utf-8")
        sources = set(re.findall(r'<img src="(cards/[^"]+\.svg)"', page))
        assert sources, lang
        drawn = ""
        for src in sorted(sources):
            face = visible_text((built / game_id / src).read_text(encoding="utf-8"))
            drawn += f" {face}"
            card = model.cards().get(Path(src).stem)
            if card is not None:
                assert squashed(card.name[lang]) in squashed(face), (lang, src)
            if lang == "en":
                assert not KANA_OR_KANJI.search(face), src
        own = squashed(drawn + visible_text(page))
        foreign = {
            squashed(card.name[other])
            for card in model.cards().values()
            for other in model.languages
            if other != lang
        }
        book = PdfReader(built / game_id / f"rulebook.{lang}.pdf")
        pdf = squashed("".join(pdf_page.extract_text() for pdf_page in book.pages))
        assert {name for name in foreign if name in pdf and name not in own} == set(), lang
