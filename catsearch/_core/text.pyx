# cython: language_level=3
"""A state's notation: the kit writes and reads its own fields (``players``, ``rng``, ``view``)
around the game's (its ``_write`` / ``_read``), in the order the game's spec declares."""
from catsearch._core.state cimport State, Header, header, NO_SEAT

from catsearch._core.notation import Fields, rng_text


def read_state(cls, text):
    """:meth:`State.from_text <catsearch._core.state.State.from_text>` of the game ``cls``."""
    if not isinstance(text, str):
        raise TypeError(f"a state notation is a str, not {type(text).__name__}")
    spec = cls.spec
    f = Fields(text, spec.keys, spec.optional_keys)
    cdef State st = cls.__new__(cls)
    cdef Header* h = header(st)
    cdef int n = f.int("players", spec.seats[0], spec.seats[1])
    h.players = n
    h.view_seat = f.int("view", 0, n - 1) if "view" in f else NO_SEAT
    st._read(f)
    r = f.rng()
    if (r is None and h.view_seat < 0) or (
            r is not None and h.view_seat >= 0 and spec.view_hides_rng):
        raise f.error(f["rng"], "a seat's view hides the generator (rng=?); a full state "
                      "gives it as 16 hex digits")
    h.rng_known = r is not None
    h.rng.s = 0 if r is None else r
    h.hash = st.compute_hash_c()
    return st


def write_state(State st):
    """:meth:`State.to_text <catsearch._core.state.State.to_text>`."""
    cdef Header* h = header(st)
    values = st._write()
    out = []
    for key in type(st).spec.notation:
        if key == "players":
            out.append(f"players={h.players}")
        elif key == "rng":
            out.append(f"rng={rng_text(h.rng_known, h.rng.s)}")
        elif key == "view?":
            if h.view_seat >= 0:
                out.append(f"view={h.view_seat}")
        elif key.endswith("?"):
            key = key.rstrip("?")
            if values.get(key) is not None:
                out.append(f"{key}={values[key]}")
        else:
            out.append(f"{key}={values[key]}")
    return " ".join(out)
