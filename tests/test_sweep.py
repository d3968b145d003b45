"""`gachapress sweep`: the same bytes whatever the workers, located errors, resuming."""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from gachapress.assembly.builder import BuildOptions, _inputs_hash
from gachapress.project import Templates
from gachapress.sweep import Store, load_sweep, run_sweep
from gachapress.sweep.run import MAX_CELL_BYTES, in_process
from tests.conftest import GAME_IDS, ROOT, run_cli

SMALL = """\
game: rps-fire
players: [3, 4]
games: 60
seed: 5
chunk: 25
variants:
  - name: as-written
  - name: one-two-way-alarm
    set:
      decks.main.cards.fire-alarm-both.count: 1
      components.0.count: 55
"""


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """One 2-worker LocalCluster for the module (starting one costs seconds)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A scratch project: the real rules and templates, and a small sweep file."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    (tmp_path / "small.yaml").write_text(SMALL)
    return tmp_path


def _sweep(project: Path, *args: str, file: str = "small.yaml"):
    return run_cli("sweep", file, "--root", str(project), *args, cwd=project)


def test_one_worker_and_a_two_worker_cluster_print_the_same_bytes(
    project: Path, scheduler: str
) -> None:
    alone = _sweep(project, "--workers", "1", "--json", "--out", str(project / "a"))
    cluster = _sweep(project, "--scheduler", scheduler, "--json", "--out", str(project / "b"))
    assert alone.code == 0, alone.err
    assert cluster.code == 0, cluster.err
    assert alone.out == cluster.out
    report = json.loads(alone.out)
    assert [(c["variant"], c["players"]) for c in report["cells"]] == [
        ("as-written", 3),
        ("as-written", 4),
        ("one-two-way-alarm", 3),
        ("one-two-way-alarm", 4),
    ]
    cell = report["cells"][1]
    assert cell["games"] == 60
    assert sum(seat["rate"] for seat in cell["win_rate"]) == pytest.approx(1, abs=1e-3)
    assert cell["fair_band"] == [0.2, 0.3]
    page = (project / "a" / "rps-fire" / "sweeps" / "small.html").read_text()
    assert "Player 4" in page and "seat" not in page
    assert "<svg" in page


def test_a_game_seed_does_not_depend_on_the_chunk_size(project: Path) -> None:
    results = []
    for chunk in (25, 7):
        (project / "small.yaml").write_text(SMALL.replace("chunk: 25", f"chunk: {chunk}"))
        sweep = load_sweep(project / "small.yaml", project / "rules")
        store = Store(project / f"store-{chunk}")
        results.append([s.counts() for s in run_sweep(sweep, store, in_process)])
    assert results[0] == results[1]


@pytest.mark.parametrize(
    ("override", "where", "message"),
    [
        ("decks.main.cards.fire-alarm-up.count: [1]", "5:3", "no 'fire-alarm-up' in decks.main"),
        ("decks.main.cards.fire-alarm-both.count: [1]", "5:44", "the deck holds 55"),
        ("setup.3.hand: [seven]", "5:18", "expected an integer, got text 'seven'"),
        ("setup.3.hand: [19]", "5:18", "to draw from"),
    ],
    ids=["missing-path", "deck-count-mismatch", "bad-type", "infeasible-deal"],
)
def test_a_bad_override_is_located_in_the_sweep_file(
    project: Path, override: str, where: str, message: str
) -> None:
    (project / "bad.yaml").write_text(
        f"game: rps-fire\nplayers: [3]\ngames: 10\ncross:\n  {override}\n"
    )
    result = _sweep(project, "--workers", "1", "--out", str(project / "out"), file="bad.yaml")
    assert result.code == 1
    first = result.err.splitlines()[0]
    assert first.startswith(f"bad.yaml:{where}: error: "), result.err
    assert message in first
    assert not (project / "out").exists()  # nothing ran, nothing written


def test_a_sweep_resumes_without_replaying_finished_cells(project: Path) -> None:
    sweep = load_sweep(project / "small.yaml", project / "rules")
    store = Store(project / "store")
    first = run_sweep(sweep, store, in_process)
    kept = sweep.cells[:3]
    for cell in sweep.cells[3:]:
        store.path(cell).unlink()  # as if interrupted after three cells
    played: list[int] = []

    def watching(work):
        for chunk in work:
            played.append(chunk.cell)
            yield from in_process(iter([chunk]))

    heard: list[tuple[str, int, bool]] = []
    again = run_sweep(
        sweep,
        store,
        watching,
        finished=lambda cell, skipped: heard.append((cell.variant.name, cell.players, skipped)),
    )
    assert set(played) == {3}
    assert [s.counts() for s in again] == [s.counts() for s in first]
    assert [skipped for *_, skipped in heard] == [True] * len(kept) + [False]


def test_the_command_line_keeps_cells_and_says_so(project: Path) -> None:
    out = project / "out"
    first = _sweep(project, "--workers", "1", "--out", str(out))
    assert first.code == 0, first.err
    cells = sorted((out / "rps-fire" / "sweeps" / "small" / "cells").glob("*.json"))
    assert len(cells) == 4
    cells[-1].unlink()
    again = _sweep(project, "--workers", "1", "--out", str(out))
    assert again.code == 0, again.err
    assert again.err.count("kept from an earlier run") == 3
    assert again.err.count(": done (") == 1


def test_sweep_files_and_the_sweep_template_are_no_build_input(project: Path) -> None:
    options = BuildOptions(root=project, out=project / "out")
    before = _inputs_hash("rps-fire", options)
    (project / "rules" / "rps-fire" / "sweeps" / "new.yaml").write_text(SMALL)
    (project / "templates" / "sweep.html.j2").write_text("changed")
    assert _inputs_hash("rps-fire", options) == before
    (project / "rules" / "rps-fire" / "decks.yaml").write_text(
        (project / "rules" / "rps-fire" / "decks.yaml").read_text() + "\n"
    )
    assert _inputs_hash("rps-fire", options) != before


def test_every_example_sweep_file_loads() -> None:
    files = sorted((ROOT / "rules").glob("*/sweeps/*.yaml"))
    assert {f.parent.parent.name for f in files} == set(GAME_IDS)
    for file in files:
        sweep = load_sweep(file, ROOT / "rules")
        assert sweep.spec.game == file.parent.parent.name
        assert len(sweep.cells) >= 2


def test_workers_and_scheduler_together_are_a_usage_error(project: Path) -> None:
    result = _sweep(project, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert result.code == 2
    assert "not both" in result.err
    helped = run_cli("sweep", "--help")
    assert helped.code == 0 and "--scheduler" in helped.out and "--root" in helped.out


def test_the_page_marks_win_rates_outside_the_fair_band(project: Path) -> None:
    from gachapress.sim import Summary
    from gachapress.sweep.report import sweep_report, write_page

    sweep = load_sweep(project / "small.yaml", project / "rules")
    summaries = []
    for cell in sweep.cells:
        summary = Summary(cell.players)
        summaries.append(summary)
        for _ in range(100):
            summary.merge(_one_game(cell.players, winner=0))
    summaries[0] = Summary(3)
    for game in range(99):
        summaries[0].merge(_one_game(3, winner=game % 3))
    report = sweep_report(sweep, summaries)
    assert report["cells"][0]["unfair_seats"] == []
    assert report["cells"][1]["unfair_seats"] == [0, 1, 2, 3]
    assert report["cells"][1]["first_seat_advantage"] == 0.75
    page = project / "page.html"
    write_page(report, "a sweep", Templates(project), page)
    text = page.read_text()
    assert text.count('class="unfair"') == 4 + 3 + 4  # every seat of the three lopsided cells
    assert "Outside the fair band: Player 1, Player 2, Player 3, Player 4." in text
    assert "within 5" in text


def _one_game(players: int, winner: int):
    from gachapress.engine.play import GameResult
    from gachapress.sim import Summary

    summary = Summary(players)
    summary.add(GameResult(0, [0] * players, [winner], 10, 1, "finished"))
    return summary


def test_a_player_count_or_bot_the_game_lacks_is_located(project: Path) -> None:
    (project / "bad.yaml").write_text(
        "game: rps-fire\nplayers: [3, 9]\nbots: [random, clever]\ngames: 10\n"
    )
    result = _sweep(project, "--workers", "1", file="bad.yaml")
    assert result.code == 1
    assert result.err.splitlines() == [
        "bad.yaml:2:14: error: rps-fire standard is for 2, 3, 4, 5, 6 players, not 9",
        "bad.yaml:3:7: error: unknown bot 'clever' for rps-fire (bots: random, greedy)",
    ]


def test_a_build_keeps_the_sweep_outputs_and_ignores_sweep_files(project: Path) -> None:
    books = {"GACHAPRESS_BOOK_GAMES": "10"}
    assert run_cli("build", "rps-fire", "--root", str(project), env=books).code == 0
    swept = _sweep(project, "--workers", "1")
    assert swept.code == 0, swept.err
    sweeps = project / "out" / "rps-fire" / "sweeps"
    kept = sorted(p.relative_to(sweeps) for p in sweeps.rglob("*") if p.is_file())
    (project / "rules" / "rps-fire" / "sweeps" / "alarm-count.yaml").write_text(SMALL)
    again = run_cli("build", "rps-fire", "--root", str(project), env=books)
    assert again.code == 0, again.err
    assert "0 files written" in again.out
    assert sorted(p.relative_to(sweeps) for p in sweeps.rglob("*") if p.is_file()) == kept
    assert len(kept) == 5  # the page and four cells


def _edit_counts(change):
    """A tampering of a cell file: ``change`` edits its record (the digest is left as it was)."""

    def tamper(path: Path) -> None:
        record = json.loads(path.read_text())
        change(record)
        path.write_text(json.dumps(record, sort_keys=True))

    return tamper


def _swap_seats(record: dict) -> None:
    summary = record["summary"]
    summary["win_credit"] = summary["win_credit"][::-1]


def _resign(change):
    """A tampering that also writes a fresh digest: the counts themselves must be impossible."""
    from gachapress.sweep.run import _digest

    def tamper(path: Path) -> None:
        record = json.loads(path.read_text())
        record.pop("digest")
        change(record)
        record["digest"] = _digest(record)
        path.write_text(json.dumps(record, sort_keys=True))

    return tamper


def _link_to(target: str):
    def tamper(path: Path) -> None:
        path.unlink()
        path.symlink_to(target)

    return tamper


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _huge(path: Path) -> None:
    with path.open("ab") as file:
        file.truncate(MAX_CELL_BYTES + 1)


def _impossible(record: dict) -> None:
    record["summary"]["win_credit"] = [1]


def _negative(record: dict) -> None:
    record["summary"]["actions"] = [[10, -5], [11, 65]]


def _short_scores(record: dict) -> None:
    record["summary"]["scores"] = []


def _too_many_games(record: dict) -> None:
    record["summary"]["end_conditions"] = {"finished": 10**6}


@pytest.mark.parametrize(
    ("tamper", "why"),
    [
        (_link_to("/dev/zero"), "is not a regular file (a symbolic link)"),
        (_fifo, "is not a regular file (a FIFO)"),
        (_huge, "is too large"),
        (lambda path: path.write_text("{not json"), "is damaged"),
        (lambda path: path.write_text("[]"), "is damaged"),
        (_edit_counts(_swap_seats), "does not match the digest"),
        (_resign(_impossible), "does not have one count per seat"),
        (_resign(_negative), "has an impossible count -5"),
        (_resign(_short_scores), "does not have scores for each seat"),
        (_resign(_too_many_games), "has an impossible count 1000000"),
        (_resign(_swap_seats), None),  # re-signed and possible: a result (the digest's limit)
    ],
    ids=[
        "link-to-dev-zero",
        "fifo",
        "huge",
        "not-json",
        "not-an-object",
        "seats-swapped",
        "too-few-seats",
        "negative-count",
        "no-scores",
        "more-ends-than-games",
        "resigned-possible",
    ],
)
def test_a_kept_cell_is_trusted_only_as_written(project: Path, tamper, why: str | None) -> None:
    sweep = load_sweep(project / "small.yaml", project / "rules")
    store = Store(project / "store")
    first = run_sweep(sweep, store, in_process)
    tamper(store.path(sweep.cells[1]))
    played: list[int] = []

    def watching(work):
        for chunk in work:
            played.append(chunk.cell)
            yield from in_process(iter([chunk]))

    heard: list[tuple[int, str]] = []
    again = run_sweep(
        sweep, store, watching, rejected=lambda cell, reason: heard.append((cell.players, reason))
    )
    if why is None:
        assert heard == [] and played == []
        return
    assert [players for players, _ in heard] == [4]
    assert heard[0][1].startswith(why), heard
    assert set(played) == {1}
    assert [s.counts() for s in again] == [s.counts() for s in first]
    assert store.load(sweep.cells[1]) is not None  # replaced by a regular file as written


def test_the_command_line_replays_a_linked_or_fifo_cell_in_a_line(project: Path) -> None:
    out = project / "out"
    assert _sweep(project, "--workers", "1", "--out", str(out)).code == 0
    cells = sorted((out / "rps-fire" / "sweeps" / "small" / "cells").glob("*.json"))
    _link_to("/dev/zero")(cells[0])
    _fifo(cells[1])
    again = _sweep(project, "--workers", "1", "--out", str(out))
    assert again.code == 0, again.err
    assert "Traceback" not in again.err
    warnings = [line for line in again.err.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 2, again.err
    assert all("is not a regular file" in w and "again" in w for w in warnings)
    assert again.err.count(": done (") == 2
    assert all(c.is_file() and not c.is_symlink() for c in cells)


def test_the_readme_states_the_bound_on_variants() -> None:
    from gachapress.sweep.file import MAX_VARIANTS

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"A sweep has at most {MAX_VARIANTS:,} variants" in text


def test_workers_are_capped_at_the_cpus_as_jobs_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gachapress.cli.common import cap_processes

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert cap_processes("--workers", 24) == 2
    assert capsys.readouterr().err == "note: --workers 24 capped at this machine's 2 CPUs\n"
    assert cap_processes("--jobs", 2) == 2
    assert capsys.readouterr().err == ""


def test_many_workers_run_as_many_as_the_cpus_and_exit_quietly(project: Path) -> None:
    result = _sweep(project, "--workers", "512", "--out", str(project / "out"))
    assert result.code == 0, result.err
    assert f"note: --workers 512 capped at this machine's {os.cpu_count()} CPUs" in result.err
    assert "Traceback" not in result.err and "CommClosedError" not in result.err


def test_a_lost_cluster_is_one_error_not_a_traceback() -> None:
    from distributed.comm.core import CommClosedError

    from gachapress.errors import GachapressError
    from gachapress.sweep.run import dask_runner

    stopped = pytest.raises(GachapressError, match="the Dask cluster stopped answering")
    with stopped, dask_runner(1, None):
        raise CommClosedError("in <TCP (closed) ConnectionPool.gather local=tcp://x>")


def test_a_sweep_writes_into_out_only_under_its_lock(project: Path) -> None:
    """A build holding out/'s lock is waited for: no cell lands in a tree being swapped."""
    import subprocess
    import sys
    import time

    from gachapress.assembly import outdir

    out = project / "out"
    command = [sys.executable, "-m", "gachapress.cli.main", "sweep", "small.yaml"]
    command += ["--root", str(project), "--workers", "1", "--out", str(out)]
    with outdir.locked(out):  # as a build holds it
        sweep = subprocess.Popen(command, cwd=project, stderr=subprocess.PIPE, text=True)
        try:
            first = sweep.stderr.readline()  # the sweep's first word: it waits
            time.sleep(1)
            assert sweep.poll() is None
            assert not out.exists() or not any(out.rglob("*.json"))
        except BaseException:
            sweep.kill()
            raise
    _, err = sweep.communicate(timeout=300)
    assert sweep.returncode == 0, err
    assert first == f"waiting for the build writing {out} (process {os.getpid()}) to finish\n"
    assert len(list((out / "rps-fire" / "sweeps" / "small" / "cells").glob("*.json"))) == 4
