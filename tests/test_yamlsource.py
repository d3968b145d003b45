"""Reading YAML safely, with a location for every node."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gachapress.data.yamlsource import MAX_EXPANDED_NODES, Mark, load_yaml
from gachapress.errors import RulesError


def write(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "doc.yaml"
    file.write_text(text, encoding="utf-8")
    return file


def test_values_and_keys_are_located(tmp_path: Path) -> None:
    file = write(tmp_path, "a:\n  b: [1, two]\n  c: {d: true}\n")
    data, where = load_yaml(file)
    assert data == {"a": {"b": [1, "two"], "c": {"d": True}}}
    assert where.at(("a", "b", 1)) == Mark(file, 2, 10)
    assert where.at(("a", "c"), key=True) == Mark(file, 3, 3)
    assert where.at(("a", "c", "d")) == Mark(file, 3, 10)


def test_missing_path_falls_back_to_nearest_ancestor(tmp_path: Path) -> None:
    file = write(tmp_path, "a:\n  b: 1\n")
    _, where = load_yaml(file)
    assert where.at(("a", "nothing", 3)) == Mark(file, 2, 3)


def test_empty_file_is_none(tmp_path: Path) -> None:
    data, where = load_yaml(write(tmp_path, "# only a comment\n"))
    assert data is None and where.at(()).line == 1


def test_aliases_within_the_limit_are_expanded(tmp_path: Path) -> None:
    data, _ = load_yaml(write(tmp_path, "a: &x [1, 2]\nb: *x\n"))
    assert data == {"a": [1, 2], "b": [1, 2]}


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 9)]
    with pytest.raises(RulesError) as caught:
        load_yaml(write(tmp_path, "\n".join(lines) + "\n"))
    (problem,) = caught.value.problems
    assert f"past {MAX_EXPANDED_NODES} nodes" in problem.message


def test_non_string_keys_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as caught:
        load_yaml(write(tmp_path, "? [a, b]\n: 1\n"))
    assert [p.message for p in caught.value.problems] == [
        "a mapping key must be a plain string or number"
    ]


def test_integer_keys_are_kept(tmp_path: Path) -> None:
    data, _ = load_yaml(write(tmp_path, "2: 5\n3: 6\n"))
    assert data == {2: 5, 3: 6}


def test_huge_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="larger than"):
        load_yaml(write(tmp_path, "#" * 2_000_001))


scalars = st.one_of(
    st.integers(-(10**6), 10**6),
    st.booleans(),
    st.none(),
    st.text(alphabet="abcxyz <>&'\"日本", max_size=8),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(alphabet="abc", min_size=1, max_size=3), inner, max_size=4),
    ),
    max_leaves=20,
)


@given(documents)
def test_round_trip_through_json_compatible_yaml(document: object) -> None:
    import json
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "doc.yaml"
        file.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        data, where = load_yaml(file)
    assert data == document
    assert where.at(()).line == 1
