"""The HTML rulebooks and the site index agree with the rules: they are built from the model,
verified against the engine, escaped, and say nothing the data does not."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from gachapress.book.words import StringTable, missing_labels
from gachapress.data.load import load_rules
from gachapress.errors import RulesError
from gachapress.publish import stats as stats_module
from gachapress.publish.book_html import render_rulebooks, write_rulebooks
from gachapress.publish.charts import Bar, Span, bar_chart, range_chart
from gachapress.publish.site import render_index, write_index
from tests.conftest import GAME_IDS, RULES, TEMPLATES


@pytest.fixture(scope="module")
def pages() -> dict[str, dict[str, str]]:
    """Every game's rulebooks, by game and language, without statistics."""
    return {game_id: render_rulebooks(load_rules(game_id)) for game_id in GAME_IDS}


def copy_rules(tmp_path: Path) -> Path:
    shutil.copytree(RULES, tmp_path / "rules")
    return tmp_path / "rules"


def section(html: str, section_id: str) -> str:
    """The markup of one top-level section of a rulebook."""
    start = html.index(f'<h2 id="{section_id}">')
    end = html.find('<section class="part', start)
    return html[start : end if end != -1 else len(html)]


def visible_text(html: str) -> str:
    """The text a reader sees (and alt texts), without the stylesheet and the icon sprite."""

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []
            self.skip = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in {"style", "svg"}:
                self.skip += 1
            for name, value in attrs:
                if name in {"alt", "aria-label"} and value:
                    self.parts.append(value)

        def handle_endtag(self, tag: str) -> None:
            if tag in {"style", "svg"}:
                self.skip -= 1

        def handle_data(self, data: str) -> None:
            if not self.skip:
                self.parts.append(data)

    parser = Text()
    parser.feed(html)
    return " ".join(parser.parts)


def parsed_tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Every start tag of a page with its attributes, as a browser's parser sees them."""

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[tuple[str, dict[str, str | None]]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append((tag, dict(attrs)))

    parser = Tags()
    parser.feed(html)
    return parser.tags


# -- every page ---------------------------------------------------------------------------------


def test_every_game_has_a_book_in_each_of_its_languages(pages: dict[str, dict[str, str]]) -> None:
    assert set(pages) == set(GAME_IDS)
    assert all(set(by_lang) == {"ja", "en"} for by_lang in pages.values())
    for game_id, by_lang in pages.items():
        assert "en" in by_lang, game_id
        for lang, html in by_lang.items():
            assert html.startswith("<!DOCTYPE html>")
            assert f'<html lang="{lang}">' in html


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_sections_come_in_a_new_players_order(
    pages: dict[str, dict[str, str]], game_id: str
) -> None:
    html = pages[game_id]["en"]
    order = ["overview", "components", "setup", "play", "scoring", "end", "examples"]
    order += ["clarifications", "quick-reference", "credits"]
    positions = [html.index(f'<h2 id="{s}">') for s in order]
    assert positions == sorted(positions)
    toc = html[html.index('<nav class="toc"') : html.index("</nav>")]
    for s in order:
        assert f'href="#{s}"' in toc


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_example_is_shown_with_the_engines_verdict(
    pages: dict[str, dict[str, str]], game_id: str
) -> None:
    game = load_rules(game_id)
    for html in pages[game_id].values():
        examples = section(html, "examples")
        for example in game.model.examples:
            assert f'id="example-{example.id}"' in examples
        for playthrough in game.model.playthroughs:
            assert f'id="playthrough-{playthrough.id}"' in examples
        shown = len(game.model.examples) + len(game.model.playthroughs)
        assert examples.count('class="verdict"') == shown


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_clarification_is_listed(pages: dict[str, dict[str, str]], game_id: str) -> None:
    game = load_rules(game_id)
    html = section(pages[game_id]["en"], "clarifications")
    for clarification in game.model.clarifications:
        assert f'id="clar-{clarification.id}"' in html


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_card_face_is_pictured_with_alt_text(
    pages: dict[str, dict[str, str]], game_id: str
) -> None:
    game = load_rules(game_id)
    for lang, html in pages[game_id].items():
        components = section(html, "components")
        folder = "cards" if lang == game.model.languages[0] else f"cards/{lang}"  # its language's
        for card_id in game.model.cards():
            assert f'src="{folder}/{card_id}.svg"' in components, card_id
        for deck_id, _ in game.model.deck_items():
            assert f'src="{folder}/back-{deck_id}.svg"' in components
        for img in re.findall(r"<img [^>]*>", html):
            assert re.search(r'alt="[^"]+"', img), img


def test_the_japanese_book_is_in_japanese(pages: dict[str, dict[str, str]]) -> None:
    html = pages["gotcha"]["ja"]
    for heading in ("目次", "ゲームの概要", "内容物", "例題", "補足ルール", "クイックリファレンス"):
        assert heading in html
    for english in ("Contents", "Worked examples", "Clarifications", "Quick reference"):
        assert english not in visible_text(html)
    assert 'href="rulebook.en.html"' in html and 'href="rulebook.ja.html"' in pages["gotcha"]["en"]


def test_labels_exist_in_every_language_a_game_publishes() -> None:
    table = StringTable.load(TEMPLATES)
    for game_id in GAME_IDS:
        assert missing_labels(load_rules(game_id), table) == [], game_id


def test_pages_need_no_network(pages: dict[str, dict[str, str]]) -> None:
    index = render_index([load_rules(g) for g in GAME_IDS], TEMPLATES)
    for html in [index, *(h for by_lang in pages.values() for h in by_lang.values())]:
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
        assert "url(http" not in html and "@import" not in html
        assert "<script" not in html.lower()


def test_the_index_pictures_each_game_in_its_own_language() -> None:
    """The index is English: GOTCHA!, whose cards are printed in Japanese first, shows its
    English face (drawn into cards/en/); with `build --lang en` that face is in cards/."""
    games = [load_rules(g) for g in GAME_IDS]
    pictures = dict(re.findall(r'src="([a-z-]+)/(cards/[^"]+)"', render_index(games, TEMPLATES)))
    assert games[GAME_IDS.index("gotcha")].model.languages[0] == "ja"
    assert pictures["gotcha"].startswith("cards/en/")
    assert all(pictures[g].count("/") == 1 for g in GAME_IDS if g != "gotcha")
    english = render_index(games, TEMPLATES, card_lang="en")
    assert 'src="gotcha/cards/en/' not in english and 'src="gotcha/cards/' in english


def test_building_twice_gives_the_same_bytes() -> None:
    game = load_rules("gotcha")
    assert render_rulebooks(game) == render_rulebooks(game)


# -- tables come from the model ----------------------------------------------------------------


def test_latin_square_and_set_table_come_from_the_model(pages: dict[str, dict[str, str]]) -> None:
    model = load_rules("gachapon-trick").model
    html = pages["gachapon-trick"]["en"]
    latin = html[html.index('<table class="latin">') :]
    latin = latin[: latin.index("</table>")]
    deck = model.decks.toys  # type: ignore[attr-defined]
    rows = re.findall(r"<tr>(.*?)</tr>", latin, re.S)[1:]
    assert len(rows) == len(deck.colors)
    for colour, row, markup in zip(deck.colors, deck.square, rows, strict=True):
        assert f"{colour.symbol} {colour.name['en']}" in markup  # the card's corner symbol
        names = re.findall(r'class="toy-name">([^<]+)<', markup)
        assert names == [deck.toy(toy).name["en"] for toy in row]
    scoring = section(html, "scoring")
    points = model.scoring.set_points  # type: ignore[attr-defined]
    cells = re.findall(r"<td[^>]*><span>(\d+)</span></td>", scoring)
    assert [int(c) for c in cells[: len(points)]] == points


def test_gotcha_lists_every_card_value(pages: dict[str, dict[str, str]]) -> None:
    model = load_rules("gotcha").model
    components = section(pages["gotcha"]["en"], "components")
    for card in model.decks.ituned.cards:  # type: ignore[attr-defined]
        assert f"¥{card.amount:,}" in components
    for card in model.decks.gacha.cards:  # type: ignore[attr-defined]
        assert f"{card.points:,}" in components and f"{card.rate}%" in components


def test_gasha_reward_list_names_every_reward(pages: dict[str, dict[str, str]]) -> None:
    model = load_rules("gasha").model
    components = section(pages["gasha"]["en"], "components")
    for reward in model.decks.set_rewards.cards:  # type: ignore[attr-defined]
        assert reward.name["en"] in components


#: The simulated players as the English books name them.
KINDS = {"random": "random", "greedy": "best gain"}


def test_gasha_shows_its_token_choices_and_measured_endings(tmp_path: Path) -> None:
    game = load_rules("gasha")
    model: Any = game.model
    stats = stats_module.book_statistics("gasha", RULES, tmp_path, games=4)
    end = section(render_rulebooks(game, stats)["en"], "end")
    assert "in 4 simulated games" in end
    rows = re.findall(r"<tr><th scope=\"row\"><span>([^<]*)</span></th>(.*?)</tr>", end)
    assert len(rows) == len(stats["bots"]) * len(model.end.triggers)
    for (label, cells), (bot, trigger) in zip(
        rows, [(b, t) for b in stats["bots"] for t in model.end.triggers], strict=True
    ):
        assert f"(“{KINDS[bot]}” players)" in label
        by_count = stats["modes"]["standard"]
        shown = re.findall(r"<span>(\d+)%</span>", cells)
        measured = [by_count[str(n)][bot]["end_conditions"].get(trigger, 0) for n in range(2, 7)]
        assert shown == [f"{share * 100:.0f}" for share in measured]
    assert "simulated games" not in section(render_rulebooks(game)["en"], "end")
    variants = section(render_rulebooks(game)["en"], "modes")
    for choice in model.token_choices.values():
        assert f"{choice.name['en']}: the Bonus tokens set out face down" in variants


# -- one source of truth: change the data, the book follows --------------------------------------


def test_a_changed_number_shows_everywhere_and_the_old_one_nowhere(tmp_path: Path) -> None:
    rules = copy_rules(tmp_path)
    game_yaml = rules / "gachapon-trick" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "money: 8000" in text and text.count("money: 5000") == 2
    text = text.replace("money: 8000", "money: 8800").replace("money: 5000", "money: 5600")
    game_yaml.write_text(text, encoding="utf-8")
    html = render_rulebooks(load_rules("gachapon-trick", rules))["en"]
    shown = visible_text(html)
    assert "¥8,800" in shown and "¥5,600" in shown
    assert not re.search(r"8,?000", shown)
    # The worked examples are fixed situations with their own numbers (one has a player keep
    # ¥5000); outside them, the old starting money appears nowhere.
    before, after = html.index('<h2 id="examples">'), html.index('<h2 id="clarifications">')
    assert not re.search(r"5,?000", visible_text(html[:before] + html[after:]))


def test_a_failing_example_fails_the_build_with_its_location(tmp_path: Path) -> None:
    rules = copy_rules(tmp_path)
    examples = rules / "gachapon-trick" / "examples.yaml"
    lines = examples.read_text(encoding="utf-8").splitlines(keepends=True)
    target = next(i for i, line in enumerate(lines) if "id: set-of-three" in line)
    expect = next(i for i in range(target, len(lines)) if lines[i].strip() == "expect: 9")
    lines[expect] = lines[expect].replace("expect: 9", "expect: 10")
    examples.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(RulesError) as failure:
        write_rulebooks(load_rules("gachapon-trick", rules), out)
    (problem,) = failure.value.problems
    assert problem.file == examples and problem.line == expect + 1
    assert "set-of-three" in problem.message and "returned 9, expected 10" in problem.message
    assert not out.exists()


def test_a_placeholder_naming_nothing_is_a_located_error(tmp_path: Path) -> None:
    rules = copy_rules(tmp_path)
    book = rules / "rps-fire" / "book.yaml"
    text = book.read_text(encoding="utf-8").replace(
        "{rounds} rounds; the fewest", "{roundz} rounds"
    )
    book.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as failure:
        load_rules("rps-fire", rules) and render_rulebooks(load_rules("rps-fire", rules))
    (problem,) = failure.value.problems
    assert problem.file == book and "roundz" in problem.message


def test_hostile_text_comes_out_escaped(tmp_path: Path) -> None:
    rules = copy_rules(tmp_path)
    decks = rules / "gachapon-trick" / "decks.yaml"
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    text = decks.read_text(encoding="utf-8").replace(
        '{id: rhino, name: {en: Rhino, ja: "サイ"}',
        "{id: rhino, name: {en: '" + hostile + "', ja: '" + hostile + "'}",
    )
    decks.write_text(text, encoding="utf-8")
    game = load_rules("gachapon-trick", rules)
    out = tmp_path / "out"
    written = write_rulebooks(game, out / game.id)
    index = write_index([game], out, TEMPLATES)
    for file in [*written, index]:
        html = file.read_text(encoding="utf-8")
        tags = parsed_tags(html)
        assert "script" not in {tag for tag, _ in tags}
        assert not [name for _, attrs in tags for name in attrs if name.startswith("on")]
        assert [
            src for tag, attrs in tags if tag == "img" for src in [attrs["src"]] if src == "x"
        ] == []
        assert "&lt;script&gt;" in html


# -- the site index ------------------------------------------------------------------------------


def test_index_links_every_rulebook_and_pdf(tmp_path: Path) -> None:
    games = [load_rules(g) for g in GAME_IDS]
    html = write_index(games, tmp_path, TEMPLATES).read_text(encoding="utf-8")
    assert '<html lang="en">' in html
    for game in games:
        for lang in game.model.languages:
            assert f'href="{game.id}/rulebook.{lang}.html"' in html
            assert f'href="{game.id}/rulebook.{lang}.pdf"' in html  # the A5 booklet
            for paper in ("a4", "letter"):
                assert f'href="{game.id}/rulebook.{lang}.{paper}.pdf"' in html
                assert f'href="{game.id}/rulebook.{lang}.booklet-{paper}.pdf"' in html
        for paper in ("a4", "letter"):
            assert f'href="{game.id}/{game.id}-pnp-{paper}.pdf"' in html
        assert re.search(rf'<img src="{game.id}/cards/(en/)?[a-z0-9-]+\.svg" alt="[^"]+"', html)
    assert "OpenMoji" in html


# -- statistics and charts -----------------------------------------------------------------------


def test_statistics_are_cached_by_the_rules_that_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = copy_rules(tmp_path)
    calls: list[tuple[str, int, str]] = []
    real = stats_module.run_sims

    def counting(specs: list[stats_module.SimSpec], *args: object) -> object:
        calls.extend((spec.mode or "", spec.players, spec.bots[0]) for spec in specs)
        return real(specs, *args)

    monkeypatch.setattr(stats_module, "run_sims", counting)
    cache = tmp_path / "cache"
    first = stats_module.book_statistics("gachapon-trick", rules, cache, games=6)
    assert sorted(first["modes"]["standard"]) == ["2", "3", "4"]
    assert first["bots"] == ["random", "greedy"]
    assert len(calls) == 6
    assert stats_module.book_statistics("gachapon-trick", rules, cache, games=6) == first
    assert len(calls) == 6  # from the cache
    book = rules / "gachapon-trick" / "book.yaml"
    book.write_text(book.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    stats_module.book_statistics("gachapon-trick", rules, cache, games=6)
    assert len(calls) == 6  # prose does not change how the game plays
    decks = rules / "gachapon-trick" / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    edited = text.replace("it is worth nothing.", "it is worth nothing at all.")
    edited = edited.replace('hex: "#d62839"', 'hex: "#c01020"').replace("{en: Robot,", "{en: Bot,")
    assert edited.count("at all") == 1 and "#c01020" in edited and "{en: Bot," in edited
    decks.write_text(edited, encoding="utf-8")
    stats_module.book_statistics("gachapon-trick", rules, cache, games=6)
    assert len(calls) == 6  # a card's text, name or colour does not either
    decks.write_text(edited.replace("costs: [800,", "costs: [900,"), encoding="utf-8")
    stats_module.book_statistics("gachapon-trick", rules, cache, games=6)
    assert len(calls) == 12  # a card's cost does
    game_yaml = rules / "gachapon-trick" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("money: 8000", "money: 9000"))
    stats_module.book_statistics("gachapon-trick", rules, cache, games=6)
    assert len(calls) == 18


def test_statistics_appear_in_the_book(tmp_path: Path) -> None:
    stats = stats_module.book_statistics("gachapon-trick", RULES, tmp_path, games=8)
    html = render_rulebooks(load_rules("gachapon-trick"), stats)["en"]
    numbers = section(html, "numbers")
    assert numbers.count('<svg class="chart"') == 3 + 2  # seats at 2, 3, 4 players; length; scores
    for n in ("2", "3", "4"):
        for row in stats["modes"]["standard"][n]["greedy"]["win_rate"]:
            assert f"{row['rate'] * 100:.0f}%" in numbers


def test_the_book_counts_the_games_that_reached_the_overtime_limit(tmp_path: Path) -> None:
    stats = stats_module.book_statistics("gotchacards", RULES, tmp_path, games=6)
    party = stats["modes"]["party"]
    assert party["3"]["greedy"]["rare_events"] == {"overtime-limit": 0}
    numbers = visible_text(
        section(render_rulebooks(load_rules("gotchacards"), stats)["en"], "numbers")
    )
    assert numbers.count("overtime stopped at its limit") == 2  # one table for each mode
    assert "3p, best gain 0 of 6" in numbers


def test_charts_escape_their_labels_and_show_their_numbers() -> None:
    svg = bar_chart(
        "c",
        "<b>title</b>",
        [Bar("<i>seat</i>", 0.25, "25% (20–30%)", 0.2, 0.3)],
        maximum=0.5,
        axis=("0%", "50%"),
        reference=0.25,
        reference_label="fair",
    )
    assert "<b>" not in svg and "&lt;b&gt;" in svg and "25% (20–30%)" in svg
    spans = range_chart(
        "r", "t", [Span("2p", 10, 20, 30, "10–30")], minimum=0, maximum=40, axis=("0", "40")
    )
    assert "10–30" in spans and spans.startswith("<svg")
