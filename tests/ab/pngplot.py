"""A grouped horizontal bar chart as a PNG, with nothing but the standard library
(Debian's python3-matplotlib is not installed here). Used by validation.py.

bars(path, rows, series, unit): rows are (label, (value, half_width or None),
value, value, ...): the first series is drawn with its 95 % interval as a
whisker, the others as plain bars. Text is a 5x7 bitmap font, upper case (and m).
"""
import math
import struct
import zlib

# 5x7 glyphs, one 5-bit row each, top to bottom.
FONT = {
    'A': (14, 17, 17, 31, 17, 17, 17), 'B': (30, 17, 17, 30, 17, 17, 30), 'C': (14, 17, 16, 16, 16, 17, 14),
    'D': (30, 17, 17, 17, 17, 17, 30), 'E': (31, 16, 16, 30, 16, 16, 31), 'F': (31, 16, 16, 30, 16, 16, 16),
    'G': (14, 17, 16, 23, 17, 17, 15), 'H': (17, 17, 17, 31, 17, 17, 17), 'I': (14, 4, 4, 4, 4, 4, 14),
    'J': (7, 2, 2, 2, 2, 18, 12), 'K': (17, 18, 20, 24, 20, 18, 17), 'L': (16, 16, 16, 16, 16, 16, 31),
    'M': (17, 27, 21, 21, 17, 17, 17), 'N': (17, 17, 25, 21, 19, 17, 17), 'O': (14, 17, 17, 17, 17, 17, 14),
    'P': (30, 17, 17, 30, 16, 16, 16), 'Q': (14, 17, 17, 17, 21, 18, 13), 'R': (30, 17, 17, 30, 20, 18, 17),
    'S': (15, 16, 16, 14, 1, 1, 30), 'T': (31, 4, 4, 4, 4, 4, 4), 'U': (17, 17, 17, 17, 17, 17, 14),
    'V': (17, 17, 17, 17, 17, 10, 4), 'W': (17, 17, 17, 21, 21, 21, 10), 'X': (17, 17, 10, 4, 10, 17, 17),
    'Y': (17, 17, 10, 4, 4, 4, 4), 'Z': (31, 1, 2, 4, 8, 16, 31),
    '0': (14, 17, 19, 21, 25, 17, 14), '1': (4, 12, 4, 4, 4, 4, 14), '2': (14, 17, 1, 2, 4, 8, 31),
    '3': (31, 2, 4, 2, 1, 17, 14), '4': (2, 6, 10, 18, 31, 2, 2), '5': (31, 16, 30, 1, 1, 17, 14),
    '6': (6, 8, 16, 30, 17, 17, 14), '7': (31, 1, 2, 4, 8, 8, 8), '8': (14, 17, 17, 14, 17, 17, 14),
    '9': (14, 17, 17, 15, 1, 2, 12),
    '+': (0, 4, 4, 31, 4, 4, 0), '-': (0, 0, 0, 31, 0, 0, 0), '.': (0, 0, 0, 0, 0, 12, 12),
    '(': (2, 4, 8, 8, 8, 4, 2), ')': (8, 4, 2, 2, 2, 4, 8), '%': (24, 25, 2, 4, 8, 19, 3),
    '/': (0, 1, 2, 4, 8, 16, 0), ',': (0, 0, 0, 0, 12, 4, 8), ' ': (0, 0, 0, 0, 0, 0, 0), 'm': (0, 0, 26, 21, 21, 21, 21),
}
COLOURS = [(90, 90, 90), (52, 101, 164), (230, 140, 30), (60, 150, 60), (170, 60, 60)]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [bytearray(b'\xff' * (3 * w)) for _ in range(h)]

    def rect(self, x0, y0, x1, y1, c):
        x0, x1 = sorted((int(x0), int(x1)))
        y0, y1 = sorted((int(y0), int(y1)))
        for y in range(max(0, y0), min(self.h, y1 + 1)):
            row = self.px[y]
            for x in range(max(0, x0), min(self.w, x1 + 1)):
                row[3 * x:3 * x + 3] = bytes(c)

    def text(self, x, y, s, c=(0, 0, 0)):
        for ch in s:
            for dy, bits in enumerate(FONT.get(ch) or FONT.get(ch.upper(), FONT[' '])):
                for dx in range(5):
                    if bits >> (4 - dx) & 1:
                        self.rect(x + dx, y + dy, x + dx, y + dy, c)
            x += 6

    def save(self, path):
        raw = b''.join(b'\x00' + bytes(r) for r in self.px)

        def chunk(kind, data):
            return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
        with open(path, 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', self.w, self.h, 8, 2, 0, 0, 0))
                    + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def nice_step(span):
    for s in (10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / s <= 10:
            return s
    return 10000


def bars(path, rows, series, unit):
    nser = len(series)
    bar, gap, group = 9, 1, 14
    left, right, top = 150, 30, 16 + 11 * nser
    gh = nser * (bar + gap) + group
    w, h = 860, top + len(rows) * gh + 40
    lo = min([0.0] + [v for r in rows for v in [r[1][0] - (r[1][1] or 0)] + list(r[2:])])
    hi = max([0.0] + [v for r in rows for v in [r[1][0] + (r[1][1] or 0)] + list(r[2:])])
    step = nice_step(hi - lo)
    lo, hi = step * math.floor(lo / step), step * math.ceil(hi / step)
    c = Canvas(w, h)
    xs = lambda v: left + (v - lo) * (w - left - right) / (hi - lo)  # noqa: E731
    for i, name in enumerate(series):
        c.rect(left, 6 + 11 * i, left + 8, 13 + 11 * i, COLOURS[i])
        c.text(left + 14, 6 + 11 * i, name)
    y_end = top + len(rows) * gh
    t = lo
    while t <= hi:
        c.rect(xs(t), top - 2, xs(t), y_end, (225, 225, 225) if t else (0, 0, 0))
        lab = f'{t:+.0f}' if t else '0'
        c.text(xs(t) - 3 * len(lab), y_end + 6, lab)
        t += step
    c.text(left + (w - left - right) // 2 - 3 * len(unit), y_end + 20, unit)
    for g, r in enumerate(rows):
        y = top + g * gh + group // 2
        c.text(6, y + (nser * (bar + gap)) // 2 - 4, r[0])
        for i in range(nser):
            v = r[1][0] if i == 0 else r[1 + i]
            yy = y + i * (bar + gap)
            c.rect(xs(0), yy, xs(v), yy + bar - 1, COLOURS[i])
            if i == 0 and r[1][1] is not None:
                a, b = xs(r[1][0] - r[1][1]), xs(r[1][0] + r[1][1])
                c.rect(a, yy + bar // 2, b, yy + bar // 2, (0, 0, 0))
                c.rect(a, yy + 1, a, yy + bar - 2, (0, 0, 0))
                c.rect(b, yy + 1, b, yy + bar - 2, (0, 0, 0))
    c.save(path)
