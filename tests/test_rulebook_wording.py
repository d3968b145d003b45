"""The wording bugs of issue 13, each pinned on the page a player reads: players named, answers
labelled, moves told in words, counts and labels whole."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont as FontToolsFont

from gachapress.data.load import load_rules
from gachapress.publish.book_html import render_rulebooks
from gachapress.publish.stats import book_statistics
from gachapress.render.fonts import cache_dir, font_files
from tests.conftest import GAME_IDS, RULES
from tests.test_rulebooks import section, visible_text


@cache
def book(game_id: str, lang: str = "en") -> str:
    return render_rulebooks(load_rules(game_id))[lang]


def example(game_id: str, example_id: str, lang: str = "en") -> str:
    """The visible text of one worked example."""
    html = book(game_id, lang)
    start = html.index(f'<article class="example" id="example-{example_id}">')
    return " ".join(visible_text(html[start : html.index("</article>", start)]).split())


def test_header_counts_cards_when_a_game_has_no_tokens() -> None:
    header = visible_text(book("gotcha").split("</header>")[0])
    assert "Cards 72" in header and "tokens" not in header
    assert "Cards and tokens" in visible_text(book("gasha").split("</header>")[0])


def test_a_single_item_is_listed_by_its_name_alone() -> None:
    components = visible_text(section(book("gotcha"), "components"))
    assert "A 10-sided die" in components and "1 A 10-sided" not in components
    money = visible_text(section(book("gachapon-trick"), "components"))
    assert "1 Money" not in money and "Money: coins" in money


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_component_note_is_not_a_second_parenthesis(game_id: str) -> None:
    components = " ".join(visible_text(section(book(game_id), "components")).split())
    assert not re.search(r"\) \(", components), components


def test_labels_with_commas_are_whole() -> None:
    assert '<h3 id="rule-beats">Rock, scissors, paper</h3>' in book("gotchacards")
    assert "Cards played, in order" in example("gachapon-trick", book_first_id("gachapon-trick"))


def book_first_id(game_id: str) -> str:
    return load_rules(game_id).model.examples[0].id


def test_seats_read_as_players_and_per_player_rows_are_labelled() -> None:
    text = example("gotchacards", next_example("gotchacards", "round_winner"))
    assert "Points Player 1: 4 Player 2: 3 Answer Player 1" in text
    scores = example("rps-fire", next_example("rps-fire", "round_scores"))
    assert re.search(r"Answer Player 1: \d+ points Player 2: \d+ points", scores)
    assert "#0" not in scores.split("Answer")[1]


def next_example(game_id: str, rule: str) -> str:
    return next(e.id for e in load_rules(game_id).model.examples if e.rule == rule)


def test_tied_players_are_not_called_overtime_turns() -> None:
    text = example("gotchacards", next_example("gotchacards", "party_overtime_priority"))
    assert "Players tied Player 2, Player 4" in text
    assert "Tied overtime turns" not in text


def test_answers_of_several_values_are_labelled() -> None:
    assert "Answer Spend: ¥4,500 Cards: 3" in example("gotcha", next_example("gotcha", "spend_of"))
    limits = example("gotchacards", next_example("gotchacards", "place_limits"))
    assert re.search(r"Answer At least: \d+ At most: \d+", limits)


def story_moves(html: str) -> list[str]:
    """The moves of a book's whole-game examples, each as its HTML (the notes under a move,
    what it changed, left out), turn by turn."""
    turns = re.findall(r'<ul class="moves">(.*?)</ul></li>', html, flags=re.S)
    return [move for turn in turns for move in re.findall(r"<li><div>(.*?)</div>", turn, re.S)]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_whole_games_are_told_as_moves_of_players(game_id: str) -> None:
    moves = story_moves(book(game_id))
    assert moves
    assert all(visible_text(move).startswith("Player") for move in moves)
    assert not any("<code>" in move for move in moves)


def test_a_whole_game_names_who_moves_and_pictures_the_card() -> None:
    first = story_moves(book("gachapon-trick"))[0]
    assert " ".join(visible_text(first).split()).startswith("Player 3 plays Rhino")
    assert 'src="cards/red-800.svg"' in first


def test_the_japanese_whole_game_is_told_in_japanese() -> None:
    first = visible_text(story_moves(book("gotcha", "ja"))[0])
    assert first.startswith("プレイヤー1、プレイヤー2、プレイヤー3")
    assert "手札をそのままにする" in first


def test_the_party_deal_points_at_the_setup_table() -> None:
    turn = book("gotchacards")
    start = turn.index('id="play-party-turn"')
    assert "table below" not in visible_text(turn[start : turn.index("</section>", start)])


def test_redraws_are_counted_in_words() -> None:
    assert "once per player" in visible_text(section(book("gotcha"), "clarifications"))
    rules = rules_text("gotcha")
    assert "(once per player at most)" in rules and "1 time" not in rules


def rules_text(game_id: str, lang: str = "en") -> str:
    """What the rules sections say (setup to the end of the game and variants), without the
    worked examples and clarifications: the procedure a player reads at the table."""
    html = book(game_id, lang)
    parts = ("setup", "play", "scoring", "end", "modes")
    return " ".join(
        " ".join(visible_text(section(html, s)).split()) for s in parts if f'id="{s}"' in html
    )


def quick_reference(game_id: str, lang: str = "en") -> str:
    return " ".join(visible_text(section(book(game_id, lang), "quick-reference")).split())


def test_rps_fire_quick_reference_says_what_an_alarm_counts() -> None:
    alarm = load_rules("rps-fire").model.cards()["fire-alarm-left"].value
    assert f"a fire alarm counting {alarm}" in quick_reference("rps-fire")


def test_rps_fire_rules_cover_the_short_alarm_draw_and_an_empty_hand() -> None:
    rules = rules_text("rps-fire")
    assert "refill it from the pile as for any draw" in rules
    assert "If a take or the give-away leaves a player with no cards, the round goes on" in rules
    assert "a both alarm 2." not in rules
    assert "a both alarm has each take 2 random cards from the other" in rules


def test_gachapon_trick_rules_say_how_many_tricks_and_that_money_is_open() -> None:
    rules = rules_text("gachapon-trick")
    setup = load_rules("gachapon-trick").model.setup
    assert f"{setup[3].hand} tricks with 3 players and {setup[4].hand} with 4" in rules
    assert "Money is open" in rules


def test_gasha_rules_cover_the_row_passing_rebuilds_and_the_discard_pile() -> None:
    rules = rules_text("gasha")
    for procedure in (
        "gaps are no longer filled and the row shrinks",
        "If you can neither draw a card nor make a trade, you pass",
        "cut the leftmost of them",
        "try the rebuild again after every trade",
        "anyone may look through it at any time",
    ):
        assert procedure in rules


def test_gotchacards_wildcard_fights_and_party_overtime_plays_from_the_hand() -> None:
    text = rules_text("gotchacards") + quick_reference("gotchacards")
    assert "never fight" not in text
    assert "except a Wildcard, which fights" in text
    assert "draws 1 card from the deck and plays it" not in text
    assert "then places one card from their hand face down" in text


@pytest.mark.parametrize("game_id", ["rps-fire", "gachapon-trick"])
def test_games_scored_on_paper_list_pencil_and_paper(game_id: str) -> None:
    components = visible_text(section(book(game_id), "components"))
    assert "Pencil and paper for the scores (not included)" in " ".join(components.split())


ENGINE_WORDS = re.compile(
    r"\bengine\b|\btrigger player|collected-effect|\bresponder\b|エンジン", re.I
)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_clarifications_speak_of_the_table_not_the_engine(game_id: str) -> None:
    model = load_rules(game_id).model
    for clarification in model.clarifications:
        for field in (clarification.question, clarification.decision, clarification.reason):
            for text in field.values():
                assert not ENGINE_WORDS.search(text), (clarification.id, text)


def test_japanese_notes_use_full_width_parentheses() -> None:
    components = visible_text(section(book("gotcha", "ja"), "components"))
    assert "（別途用意）" in components and "(別途用意)" not in components


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_examples_name_no_clarification_ids(game_id: str) -> None:
    text = visible_text(section(book(game_id), "examples"))
    assert not re.search(r"\(clarification [a-z0-9-]+\)", text)


def test_gasha_end_reasons_are_told_in_words() -> None:
    text = example("gasha", next_example("gasha", "end_reasons"))
    assert "last-bonus-token" not in text
    assert "the last Bonus token is taken" in text


def answer_of(text: str) -> str:
    return text.split(" Answer ", 1)[1]


def test_an_answer_that_names_a_card_of_the_list_shows_that_card() -> None:
    html = book("gachapon-trick")
    start = html.index('<article class="example" id="example-majority-suit-wins">')
    answer = html[start : html.index("</article>", start)].split("Answer", 1)[1]
    assert 'src="cards/blue-300.svg"' in answer
    order = example("gachapon-trick", next_example("gachapon-trick", "win_order"))
    assert "2, 1, 0" not in answer_of(order)


def test_numbers_carry_their_unit() -> None:
    affordable = example("gachapon-trick", next_example("gachapon-trick", "can_afford"))
    assert "Your money ¥300" in affordable
    assert re.search(
        r"Answer \d+ points? ",
        example("gachapon-trick", next_example("gachapon-trick", "set_points")),
    )
    rate = example("gotcha", next_example("gotcha", "total_rate"))
    assert re.search(r"Answer \d+% ", rate)
    assert re.search(
        r"Answer \d+ points ", example("rps-fire", next_example("rps-fire", "round_score"))
    )
    assert not re.search(r"\b1 (?:points|cards)\b", visible_text(book("gachapon-trick")))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_player_is_they_not_it(game_id: str) -> None:
    text = " ".join(visible_text(book(game_id)).split())
    assert not re.findall(r"Player \d+\b[^.;:]*?\bits\b", text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_examples_speak_of_players_not_seats(game_id: str) -> None:
    text = " ".join(visible_text(section(book(game_id), "examples")).split())
    assert not re.findall(r".{0,30}\bseats?\b.{0,20}", text, flags=re.I)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_multiplication_is_a_times_sign(game_id: str) -> None:
    text = " ".join(visible_text(book(game_id)).split())
    assert not re.findall(r".{0,20}\d\)? x \d.{0,10}", text)


def test_gotcha_letters_are_tied_to_players() -> None:
    turn = example("gotcha", next_example("gotcha", "next_turn_player"))
    assert "clockwise runs A, B, D, C: Players 1 to 4" in turn
    assert "A to D are Players 1 to 4" in example(
        "gotcha", next_example("gotcha", "next_announcer")
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_japanese_books_list_and_label_with_japanese_punctuation(game_id: str) -> None:
    html = book(game_id, "ja")
    text = visible_text(html[: html.index('id="credits"')])
    found = re.findall(r".{0,15}(?:, |(?<![0-9A-Za-z]): ).{0,15}", text)
    assert found == []
    assert '<span class="key">プレイヤー1：</span>' in book("gotcha", "ja")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_credits_do_not_say_the_book_uses_the_readers_fonts(lang: str) -> None:
    """The PDF and the Japanese page embed their fonts: "your device's own fonts" is untrue."""
    credits = visible_text(section(book("gotcha", lang), "credits"))
    assert "device" not in credits and "端末" not in credits
    assert "IPAex" in credits


def test_gasha_deck_places_are_counted_from_1() -> None:
    rebuild = example("gasha", next_example("gasha", "rebuild_gasha_decks"))
    assert "counted from 0" not in rebuild
    assert "Cut the deck at place: 3 Into the empty place: 1" in rebuild


@pytest.mark.parametrize(
    ("lang", "deal", "priority", "not_last"),
    [
        (
            "en",
            "Deal every player",
            "In the first turn Player 1 has priority",
            "turns before the last",
        ),
        (
            "ja",
            "各プレイヤーにカードを配ります",
            "最初のターンはプレイヤー1が優先権",
            "最後より前のターン",
        ),
    ],
)
def test_gotchacards_turns_read_in_table_order(
    lang: str, deal: str, priority: str, not_last: str
) -> None:
    html = book("gotchacards", lang)
    start = html.index('id="play-party-turn"')
    joiner = "" if lang == "ja" else " "  # Japanese runs on across the bold player name
    party = joiner.join(visible_text(html[start : html.index("</section>", start)]).split())
    assert 0 <= party.index(deal) < party.index(priority)
    assert not_last in joiner.join(rules_text("gotchacards", lang).split())


def test_answers_that_are_players_lanes_or_counts_say_so() -> None:
    forfeit = example("gotchacards", next_example("gotchacards", "turn_start_check"))
    assert "Player 2 wins the round at once" in forfeit and answer_of(forfeit).startswith(
        "Player 2 "
    )
    out = [e.id for e in load_rules("gotchacards").model.examples if e.expect == "points"]
    assert answer_of(example("gotchacards", out[0])).startswith("the points decide ")
    lane = example("gotchacards", next_example("gotchacards", "swap_target_lane"))
    assert answer_of(lane).startswith("lane 3 ")
    assert answer_of(example("rps-fire", next_example("rps-fire", "alarm_effects"))).startswith(
        "once "
    )
    tokens = example("gasha", next_example("gasha", "bonus_tokens_in_play"))
    assert re.match(r"\d+ tokens ", answer_of(tokens))


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_example_says_an_answer(game_id: str, lang: str) -> None:
    """An answer with nothing in it (no way to pay, say) still says so in words."""
    html = book(game_id, lang)
    answers = re.findall(r'<div class="result"><dt>[^<]*</dt><dd>(.*?)</dd></div>', html, re.S)
    assert answers
    blank = [a for a in answers if not visible_text(a).strip()]
    assert not blank, blank


def turn_summary(game_id: str, mode: str = "standard", lang: str = "en") -> str:
    html = book(game_id, lang)
    start = html.index(f'<aside class="turn-summary" aria-labelledby="turn-{mode}">')
    return " ".join(visible_text(html[start : html.index("</aside>", start)]).split())


def test_gasha_turn_summary_pays_the_same_colour_card_and_offers_one_choice() -> None:
    """The box under "On your turn" is read instead of the rules: it keeps the same-colour
    Gasha card, and the two actions read as a choice, not as steps 2 and 3 of a turn."""
    summary = turn_summary("gasha")
    assert "1 Gasha card from a deck if their colours match" in summary
    assert "Choose one: draw or trade" in summary and "To draw:" in summary


def test_gotchacards_turn_summaries_agree_with_the_rules_on_priority_and_items() -> None:
    """Party priority passes on after each turn, so the summary may not say Player 1 always
    resolves first; the Competitive one says where items go."""
    party = turn_summary("gotchacards", "party")
    assert "Player 1's first" not in party
    assert "after each turn it passes clockwise" in party
    assert "Items, except a Wildcard, go to the trash" in turn_summary("gotchacards", "competitive")


def test_gotchacards_clarifications_agree_on_the_card_a_magnet_takes() -> None:
    """Two answers speak of the Magnet: both take the top card of the pile."""
    magnet = [
        c.decision["en"]
        for c in load_rules("gotchacards").model.clarifications
        if "Magnet" in c.question["en"] and "take" in c.question["en"]
    ]
    assert len(magnet) == 2
    assert all("top" in text and "Any one card" not in text for text in magnet), magnet


def test_a_lane_example_says_whose_card_is_whose_and_counts_points() -> None:
    """The answer gives points per player, so the two cards must say which player owns them."""
    text = example("gotchacards", "lane-win-takes-both")
    assert re.search(r"Player 1's card Pebble .*Player 2's card Pincer Crab", text), text
    assert "Player 1: 2 points Player 2: 0 points" in text, text


def test_a_player_chosen_by_a_party_effect_is_named_as_a_player() -> None:
    """The Party Swap Across picks Player 3; its choice may not read as the bare seat "2"."""
    text = example("gotchacards", "party-swap-across-chooses")
    assert "Choices made Player 3" in text, text


def test_gotchacards_quick_reference_covers_both_hands_empty_and_a_party_tie() -> None:
    """Read instead of the rules, the quick reference may not make an empty hand always lose
    nor leave a tied Party game without its overtime."""
    text = " ".join(quick_reference("gotchacards").split())
    assert "if both hold none, the points decide" in text
    assert "players tied for it play overtime" in text


def test_rps_fire_turn_summary_keeps_the_refill_the_last_card_alarm_and_the_open_pile() -> None:
    """The summary may not send a player to pass before the pile is reshuffled, nor set off an
    alarm played as the last card, nor forget that any card follows an alarm."""
    summary = turn_summary("rps-fire")
    assert "the pile under its top card becomes the new deck" in summary
    assert "not as your last card" in summary and "Any card may follow a fire alarm" in summary


def test_gotcha_turn_summary_sends_a_round_of_misses_back_to_placing() -> None:
    """In the rules, when every roll misses the same card stays up and placing starts again;
    the summary may not go straight on to the refill."""
    summary = turn_summary("gotcha")
    assert "If everyone misses, place cards again for the same gacha card" in summary
    assert "if nobody won it, of the turn player" in summary


def test_every_character_of_the_books_is_in_a_shipped_font(tmp_path: Path) -> None:
    """The PDF books set text in Noto Sans and IPAexGothic only: a character neither has (a
    "≤" in a quick reference) prints as an empty box."""
    fonts = font_files(cache_dir(tmp_path))
    covered = {
        chr(code)
        for role in ("regular", "ja")
        for code in FontToolsFont(fonts[role].path, lazy=True).getBestCmap()
    }
    root = Path(__file__).resolve().parents[1]
    missing = {
        str(path.relative_to(root)): chars
        for path in [*root.glob("rules/*/*.yaml"), *root.glob("templates/**/*.yaml")]
        if (chars := {c for c in path.read_text(encoding="utf-8") if ord(c) > 127} - covered)
    }
    assert not missing


def test_a_list_of_labelled_entries_has_no_stray_comma() -> None:
    """Two tickets are two runs of labelled rows, not rows with a lone comma between them."""
    text = example("gasha", "ticket-two-tickets")
    assert re.search(r"Extra Gasha card: no Pair:", text), text
    assert not re.search(r"Extra Gasha card: no ?, Pair", text), text


def test_a_party_turn_without_choices_says_nothing_was_chosen() -> None:
    text = example("gotchacards", "party-swap-left")
    assert "Choices made nothing" in text, text


def test_a_competitive_match_is_charted_in_rounds_won_not_points(tmp_path: Path) -> None:
    """A Competitive match ends 2 rounds to 1: its score chart says rounds, Party's points."""
    stats = book_statistics("gotchacards", RULES, tmp_path, games=2)
    html = render_rulebooks(load_rules("gotchacards"), stats)["en"]
    numbers = " ".join(visible_text(section(html, "numbers")).split())
    assert "Rounds won by the end of a match (10th percentile" in numbers
    assert numbers.count("Final scores (10th percentile") == 1  # Party's


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_yes_or_no_answer_says_what_happens(lang: str) -> None:
    """ "¥200 still buys the cheapest toy, so you stay in. Answer: no" read as a contradiction:
    an "Out of money" answer says whether the player is out or stays."""
    answer = {"en": "Answer", "ja": "答え"}[lang]
    stays, out = (
        example("gachapon-trick", example_id, lang).rsplit(answer, 1)[1]
        for example_id in ("in-at-200", "out-at-0")
    )
    said = {"en": ("Still in the round", "Out of the round"), "ja": ("ラウンドに残る", "脱落する")}
    assert said[lang][0] in stays and said[lang][1] in out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_japanese_answers_count_in_japanese(game_id: str) -> None:
    """A counted answer takes the language's counter: RPS-Fire's Japanese book answered
    「答え：once」 (an English-only format chosen before the Japanese 回)."""
    html = book(game_id, "ja")
    start = html.index('id="examples"')
    text = " ".join(visible_text(html[start:]).split())
    answers = re.findall(r"答え (.*?) ✓", text)
    assert answers
    english = [a for a in answers if re.search(r"\b(?:once|twice|times|points?|cards?)\b", a)]
    assert not english


@pytest.mark.parametrize(("lang", "places"), [("en", "1st 2nd 3rd"), ("ja", "1番目 2番目 3番目")])
def test_a_list_says_each_cards_place_from_the_first(lang: str, places: str) -> None:
    text = example("gachapon-trick", book_first_id("gachapon-trick"), lang)
    assert re.findall(r"\d+(?:st|nd|rd|th|番目)", text)[:3] == places.split()
    assert "#" not in text


def test_the_statistics_say_once_how_their_figures_were_made(tmp_path: Path) -> None:
    """Once, in the statistics section, in words: who played how many games; the kinds of
    players named as the charts name them."""
    stats = book_statistics("gasha", RULES, tmp_path, games=4)
    told = {
        "en": ("How these figures were made", "the best immediate gain", "(“best gain” below)"),
        "ja": ("この数値の出し方", "その場でいちばん得をする手を選ぶ", "（以下「その場の得」）"),
    }
    for lang, html in render_rulebooks(load_rules("gasha"), stats).items():
        numbers = " ".join(visible_text(section(html, "numbers")).split())
        made, kind, named = told[lang]
        assert visible_text(html).count(made) == 1 and made in numbers, lang
        assert kind in numbers and named in numbers, lang
