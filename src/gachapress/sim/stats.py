"""Streaming statistics: integer counters that merge in any order to the same result.

Nothing keeps a list of games, so memory stays flat however many games are played, and the
numbers do not depend on how the games were split between processes.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gachapress.engine.play import GameResult

#: A shared win is credited in units of 1/CREDIT, which every count of sharers up to 6 divides.
CREDIT = 60


@dataclass
class Summary:
    """Everything `sim` reports, as mergeable counts."""

    players: int
    games: int = 0
    win_credit: list[int] = field(default_factory=list)
    outright_wins: list[int] = field(default_factory=list)
    shared_wins: list[int] = field(default_factory=list)
    scores: list[Counter[int]] = field(default_factory=list)
    actions: Counter[int] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    end_conditions: Counter[str] = field(default_factory=Counter)
    rare_events: Counter[str] = field(default_factory=Counter)
    """Games that took each rare path the game names (a name with 0 games is kept)."""

    def __post_init__(self) -> None:
        n = self.players
        self.win_credit = self.win_credit or [0] * n
        self.outright_wins = self.outright_wins or [0] * n
        self.shared_wins = self.shared_wins or [0] * n
        self.scores = self.scores or [Counter() for _ in range(n)]

    def add(self, result: GameResult) -> None:
        self.games += 1
        share = CREDIT // len(result.winners)
        for seat in result.winners:
            self.win_credit[seat] += share
            if len(result.winners) == 1:
                self.outright_wins[seat] += 1
            else:
                self.shared_wins[seat] += 1
        for seat, score in enumerate(result.scores):
            self.scores[seat][score] += 1
        self.actions[result.actions] += 1
        self.rounds[result.rounds] += 1
        self.end_conditions[result.end_condition] += 1
        for name, happened in result.rare_events.items():
            self.rare_events[name] += happened

    def merge(self, other: Summary) -> None:
        self.games += other.games
        for mine, theirs in (
            (self.win_credit, other.win_credit),
            (self.outright_wins, other.outright_wins),
            (self.shared_wins, other.shared_wins),
        ):
            for seat, value in enumerate(theirs):
                mine[seat] += value
        for seat, counts in enumerate(other.scores):
            self.scores[seat].update(counts)
        self.actions.update(other.actions)
        self.rounds.update(other.rounds)
        self.end_conditions.update(other.end_conditions)
        for name, games in other.rare_events.items():
            self.rare_events[name] += games

    def counts(self) -> dict[str, Any]:
        """The raw counts as JSON-ready data (``from_counts`` reads them back)."""
        return {
            "players": self.players,
            "games": self.games,
            "win_credit": self.win_credit,
            "outright_wins": self.outright_wins,
            "shared_wins": self.shared_wins,
            "scores": [_histogram(counts) for counts in self.scores],
            "actions": _histogram(self.actions),
            "rounds": _histogram(self.rounds),
            "end_conditions": dict(sorted(self.end_conditions.items())),
            "rare_events": dict(sorted(self.rare_events.items())),
        }

    @classmethod
    def from_counts(cls, data: dict[str, Any]) -> Summary:
        """The summary whose ``counts()`` is ``data``."""
        return cls(
            players=data["players"],
            games=data["games"],
            win_credit=list(data["win_credit"]),
            outright_wins=list(data["outright_wins"]),
            shared_wins=list(data["shared_wins"]),
            scores=[_from_histogram(h) for h in data["scores"]],
            actions=_from_histogram(data["actions"]),
            rounds=_from_histogram(data["rounds"]),
            end_conditions=Counter(data["end_conditions"]),
            rare_events=Counter(data["rare_events"]),
        )

    def report(self) -> dict[str, Any]:
        """The JSON-ready statistics (rounded, so the same counts always print the same)."""
        all_scores: Counter[int] = Counter()
        for counts in self.scores:
            all_scores.update(counts)
        return {
            "games": self.games,
            "win_rate": [
                {
                    "seat": seat,
                    "rate": _r(self.win_credit[seat] / (CREDIT * self.games)),
                    "ci95": [_r(x) for x in wilson(self.win_credit[seat] / CREDIT, self.games)],
                    "wins": self.outright_wins[seat],
                    "shared_wins": self.shared_wins[seat],
                }
                for seat in range(self.players)
            ],
            "scores": {
                "by_seat": [distribution(counts) for counts in self.scores],
                "all": distribution(all_scores),
            },
            "length": {"actions": distribution(self.actions), "rounds": distribution(self.rounds)},
            "end_conditions": {
                name: _r(count / self.games) for name, count in sorted(self.end_conditions.items())
            },
            "rare_events": dict(sorted(self.rare_events.items())),
        }


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def distribution(counts: Counter[int]) -> dict[str, Any]:
    """Mean, spread and quantiles of a histogram of integers."""
    total = sum(counts.values())
    if total == 0:
        return {"n": 0}
    values = sorted(counts)
    mean = sum(v * c for v, c in counts.items()) / total
    variance = sum(c * (v - mean) ** 2 for v, c in counts.items()) / total
    return {
        "n": total,
        "mean": _r(mean),
        "stdev": _r(math.sqrt(variance)),
        "min": values[0],
        "p10": _quantile(values, counts, total, 0.10),
        "p50": _quantile(values, counts, total, 0.50),
        "p90": _quantile(values, counts, total, 0.90),
        "max": values[-1],
    }


def _quantile(values: list[int], counts: Counter[int], total: int, q: float) -> int:
    """The smallest value with at least a fraction q of the observations at or below it."""
    needed = max(1, math.ceil(q * total))
    running = 0
    for value in values:
        running += counts[value]
        if running >= needed:
            return value
    return values[-1]


def _histogram(counts: Counter[int]) -> list[list[int]]:
    return [[value, counts[value]] for value in sorted(counts)]


def _from_histogram(pairs: list[list[int]]) -> Counter[int]:
    return Counter({value: count for value, count in pairs})


def _r(x: float) -> float:
    return round(x, 4)
