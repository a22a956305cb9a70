"""A small PNG plot writer in numpy, for budget sweeps when matplotlib is not installed.

It draws what a sweep plot needs and no more: axes with ticks, a line through the points,
95% error bars, and text in a built-in 3x5 pixel font (scaled up), written with ``zlib``.
"""

from __future__ import annotations

import math
import struct
import zlib

import numpy as np

__all__ = ["write_png", "line_plot"]

# 3x5 glyphs, rows top to bottom, "#" = ink
_FONT = {
    "0": "###|#.#|#.#|#.#|###", "1": ".#.|##.|.#.|.#.|###", "2": "###|..#|###|#..|###",
    "3": "###|..#|.##|..#|###", "4": "#.#|#.#|###|..#|..#", "5": "###|#..|###|..#|###",
    "6": "###|#..|###|#.#|###", "7": "###|..#|.#.|.#.|.#.", "8": "###|#.#|###|#.#|###",
    "9": "###|#.#|###|..#|###", "+": "...|.#.|###|.#.|...", "-": "...|...|###|...|...",
    ".": "...|...|...|...|.#.", " ": "...|...|...|...|...", "(": ".#.|#..|#..|#..|.#.",
    ")": ".#.|..#|..#|..#|.#.", "=": "...|###|...|###|...", ":": "...|.#.|...|.#.|...",
    "%": "#.#|..#|.#.|#..|#.#", "/": "..#|..#|.#.|#..|#..", "_": "...|...|...|...|###",
    ",": "...|...|...|.#.|#..", "#": "#.#|###|#.#|###|#.#", "?": "###|..#|.#.|...|.#.",
    "a": "...|###|.##|#.#|###", "b": "#..|#..|###|#.#|###", "c": "...|###|#..|#..|###",
    "d": "..#|..#|###|#.#|###", "e": "...|###|###|#..|###", "f": ".##|#..|###|#..|#..",
    "g": "...|###|#.#|###|.##", "h": "#..|#..|###|#.#|#.#", "i": ".#.|...|.#.|.#.|.#.",
    "j": "..#|...|..#|#.#|###", "k": "#..|#.#|##.|#.#|#.#", "l": "##.|.#.|.#.|.#.|###",
    "m": "...|###|###|#.#|#.#", "n": "...|##.|#.#|#.#|#.#", "o": "...|###|#.#|#.#|###",
    "p": "...|###|#.#|###|#..", "q": "...|###|#.#|###|..#", "r": "...|###|#..|#..|#..",
    "s": "...|.##|.#.|..#|##.", "t": ".#.|###|.#.|.#.|.##", "u": "...|#.#|#.#|#.#|###",
    "v": "...|#.#|#.#|#.#|.#.", "w": "...|#.#|#.#|###|###", "x": "...|#.#|.#.|#.#|#.#",
    "y": "...|#.#|###|..#|###", "z": "...|###|.#.|#..|###",
}


def write_png(path: str, rgb: np.ndarray) -> None:
    """Write an ``(h, w, 3)`` uint8 array as an 8-bit RGB PNG."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


class _Canvas:
    def __init__(self, w: int, h: int) -> None:
        self.img = np.full((h, w, 3), 255, dtype=np.uint8)
        self.w, self.h = w, h

    def rect(self, x0, y0, x1, y1, color) -> None:
        x0, x1 = sorted((int(round(x0)), int(round(x1))))
        y0, y1 = sorted((int(round(y0)), int(round(y1))))
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.w - 1), min(y1, self.h - 1)
        if x0 <= x1 and y0 <= y1:
            self.img[y0:y1 + 1, x0:x1 + 1] = color

    def line(self, x0, y0, x1, y1, color, width: int = 1) -> None:
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        r = width // 2
        for t in np.linspace(0.0, 1.0, n):
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            self.rect(x - r, y - r, x + r, y + r, color)

    def text(self, x, y, s: str, color=(0, 0, 0), scale: int = 2, anchor: str = "left",
             vertical: bool = False) -> None:
        width = (4 * len(s) - 1) * scale
        if anchor == "center":
            shift = width / 2
        elif anchor == "right":
            shift = width
        else:
            shift = 0
        for i, ch in enumerate(s):
            glyph = _FONT.get(ch.lower(), _FONT["?"]).split("|")
            for gy, row in enumerate(glyph):
                for gx, c in enumerate(row):
                    if c == "#":
                        off = 4 * i * scale + gx * scale - shift
                        if vertical:
                            px, py = x + gy * scale, y - off - scale + 1
                        else:
                            px, py = x + off, y + gy * scale
                        self.rect(px, py, px + scale - 1, py + scale - 1, color)


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    span = hi - lo
    if span <= 0:
        return [lo]
    step = 10 ** math.floor(math.log10(span / n))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= n:
            step *= m
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def _fmt(v: float) -> str:
    return f"{v:.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.2g}"


def line_plot(path: str, xs, ys, lows, highs, *, title: str, xlabel: str, ylabel: str,
              logx: bool = True, hline: float | None = None, width: int = 720,
              height: int = 440) -> None:
    """Points ``(x, y)`` joined by a line, with error bars ``[low, high]``, as a PNG."""
    xs = np.asarray(xs, float)
    ys = np.asarray(ys, float)
    lows = np.asarray(lows, float)
    highs = np.asarray(highs, float)
    c = _Canvas(width, height)
    left, right, top, bottom = 80, width - 20, 40, height - 60
    fx = np.log10 if logx else (lambda v: v)
    gx = fx(xs)
    xlo, xhi = float(gx.min()), float(gx.max())
    if xhi == xlo:
        xlo, xhi = xlo - 0.5, xhi + 0.5
    pad = (xhi - xlo) * 0.06
    xlo, xhi = xlo - pad, xhi + pad
    finite = np.concatenate([v[np.isfinite(v)] for v in (ys, lows, highs)] +
                            ([np.array([hline])] if hline is not None else []))
    ylo, yhi = float(finite.min()), float(finite.max())
    if yhi == ylo:
        ylo, yhi = ylo - 1, yhi + 1
    pad = (yhi - ylo) * 0.08
    ylo, yhi = ylo - pad, yhi + pad

    def px(v):
        return left + (fx(v) - xlo) / (xhi - xlo) * (right - left)

    def py(v):
        v = min(max(v, ylo), yhi)
        return bottom - (v - ylo) / (yhi - ylo) * (bottom - top)

    grey, dark, blue = (225, 225, 225), (60, 60, 60), (31, 119, 180)
    for t in _ticks(ylo, yhi):
        c.line(left, py(t), right, py(t), grey)
        c.text(left - 8, py(t) - 5, _fmt(t), dark, anchor="right")
    for x in xs:
        c.line(px(x), top, px(x), bottom, grey)
        c.text(px(x), bottom + 10, _fmt(x), dark, anchor="center")
    if hline is not None:
        c.line(left, py(hline), right, py(hline), (150, 150, 150))
    c.line(left, bottom, right, bottom, dark)
    c.line(left, top, left, bottom, dark)
    for i in range(len(xs) - 1):
        if math.isfinite(ys[i]) and math.isfinite(ys[i + 1]):
            c.line(px(xs[i]), py(ys[i]), px(xs[i + 1]), py(ys[i + 1]), blue, 2)
    for x, y, lo, hi in zip(xs, ys, lows, highs):
        lo_ = lo if math.isfinite(lo) else ylo      # an unbounded end runs off the plot
        hi_ = hi if math.isfinite(hi) else yhi
        c.line(px(x), py(lo_), px(x), py(hi_), blue)
        c.line(px(x) - 5, py(lo_), px(x) + 5, py(lo_), blue)
        c.line(px(x) - 5, py(hi_), px(x) + 5, py(hi_), blue)
        if math.isfinite(y):
            c.rect(px(x) - 3, py(y) - 3, px(x) + 3, py(y) + 3, blue)
    c.text(width / 2, 12, title, (0, 0, 0), anchor="center")
    c.text(width / 2, height - 24, xlabel, dark, anchor="center")
    c.text(16, (top + bottom) / 2, ylabel, dark, anchor="center", vertical=True)
    write_png(path, c.img)
