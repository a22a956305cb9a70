# cython: language_level=3
"""The worlds a seat can be in (docs/contract.rst, "Inference"): ``determinize`` and
``allows``, checked, over the games' ``determinize_c`` and ``allows_c``, and the
``inference`` option's values; in a view, the chance outcomes that narrow them.
:class:`~catsearch._core.state.State` delegates here."""
from catsearch._core.rng cimport Rng, rng_seed
from catsearch._core.state cimport State, Header

from catsearch._core.options import OptionError, as_int, check_seed, fresh_seed

#: what ``determinize`` honours: every world the seat cannot tell apart, or only those in
#: which every move seen so far was legal
INFERENCE = ("none", "rules")


cpdef int inference_off(object inference) except -1:
    """``Header.no_inference`` for ``inference``: 1 for ``"none"``, 0 for ``"rules"``."""
    if not isinstance(inference, str):
        raise TypeError(f"inference is one of {', '.join(INFERENCE)}, not a "
                        f"{type(inference).__name__} ({inference!r})")
    if inference not in INFERENCE:
        raise OptionError(f"inference={inference!r}: not one of {', '.join(INFERENCE)}")
    return inference == "none"


def view(State st, seat, hands) -> State:
    """:meth:`State.view <catsearch._core.state.State.view>`."""
    cdef int s = st._check_seat(seat)
    if not isinstance(hands, bool):
        raise TypeError(f"hands is a bool, not a {type(hands).__name__} ({hands!r})")
    if hands and (<Header*>st._data).view_seat >= 0 and not (<Header*>st._data).show_hands:
        raise ValueError(f"hands=True on seat {s}'s view: a view cannot show the hands it hid; "
                         f"make it from the full state")
    cdef State c = st.clone_c()
    (<Header*>c._data).show_hands = hands
    c.hide_c(s)
    return c


def determinize(State st, seat, seed, inference) -> State:
    """:meth:`State.determinize <catsearch._core.state.State.determinize>`."""
    cdef int s = st._check_seat(seat)
    seed = check_seed(seed)
    cdef int off = (<Header*>st._data).no_inference if inference is None \
        else inference_off(inference)
    cdef Rng r
    rng_seed(&r, fresh_seed() if seed is None else seed)
    cdef State c = st.clone_c()
    cdef Header* h = <Header*>c._data
    cdef int kept = h.no_inference
    h.no_inference = off
    c.determinize_c(s, &r)
    h.no_inference = kept
    return c


def allows(State st, world, seat) -> bool:
    """:meth:`State.allows <catsearch._core.state.State.allows>`."""
    if not isinstance(world, State):
        raise TypeError(f"world is a State, not a {type(world).__name__}")
    if world.game_id != st.game_id or world.players != st.players:
        raise ValueError(f"world is a {world.players}-player {world.game_id} state; this is "
                         f"a {st.players}-player {st.game_id} one")
    if world.view_seat is not None:
        raise ValueError(f"world is seat {world.view_seat}'s view; a world is a full state")
    if seat is None:
        if st.view_seat is None:
            raise ValueError("a full state: name the seat whose view it stands for")
        seat = st.view_seat
    cdef int s = st._check_seat(seat)
    if st.view_seat is not None and s != st.view_seat:
        raise ValueError(f"seat={s}, but this is seat {st.view_seat}'s view")
    hands = bool((<Header*>st._data).show_hands) and st.view_seat is not None
    if st.view(s, hands=hands).to_text() != world.view(s, hands=hands).to_text():
        raise ValueError(f"seat {s} can tell world {world.to_text()!r} from this state: they "
                         f"differ in what it sees")
    return st.allows_c(<State>world, s)


def chance_outcomes(State st) -> list:
    """:meth:`State.chance_outcomes <catsearch._core.state.State.chance_outcomes>`."""
    cdef int outcomes[64]
    cdef double weights[64]
    cdef int n = st.chance_outcomes_c(outcomes, weights)
    return [(outcomes[i], weights[i]) for i in range(n)]


def apply_chance(State st, outcome) -> None:
    """:meth:`State.apply_chance <catsearch._core.state.State.apply_chance>`, checked."""
    o = as_int(outcome, "outcome")
    outcomes = [x for x, _ in chance_outcomes(st)]
    if o not in outcomes:
        raise ValueError(f"outcome={o} is not a chance outcome here; the outcomes are "
                         f"{outcomes or 'none (this is not a chance node)'}")
    st.apply_chance_c(o)
