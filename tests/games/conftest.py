"""Fixtures shared by the games' tests."""

import pytest


def _check_tensor_layouts(st, lengths, parts, sizes):
    for kind in ("observation", "information_state"):
        layout = st.tensor_layout(kind)
        assert [p.name for p in layout] == parts[kind]
        assert all(p.stop - p.start == lengths[p.name] for p in layout)
        assert st.tensor_shape(kind) == (sizes[kind],)


@pytest.fixture
def check_tensor_layouts():
    """``check(st, lengths, parts, sizes)``: ``st``'s tensor layouts against a game's
    documented one (``parts``: each kind's part names in order; ``lengths``: each part's
    length; ``sizes``: each kind's total)."""
    return _check_tensor_layouts
