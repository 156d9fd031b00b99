"""What lets a phone install ``preflog serve`` on its home screen: the web app manifest and its icons.

The icon is a white spade on the green of a card table, drawn by this module from a few shapes (two
circles, a four-cornered top, a triangle for the stem), nothing downloaded and no image file kept: as SVG
(:func:`icon_svg`) and as PNG at the sizes phones ask for (:func:`icon_png`: a scanline fill, 4
sub-scanlines a pixel each covered exactly along x, written with :mod:`zlib` as PNG's format asks). The
shapes stay inside the centre circle of 80 % of the side, so a launcher that masks the icon to a circle
or a rounded square cuts nothing of the spade (``"purpose": "any maskable"``).

Every URL in the manifest is relative to the manifest's own address, so the same manifest serves an app
at the root of its host and one behind a proxy under a path (``--root-path``): ``start_url`` and
``scope`` are the folder the manifest is in.
"""

from __future__ import annotations

import json
import struct
import zlib
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["ICON_SIZES", "icon_png", "icon_svg", "manifest", "routes"]

GREEN = (11, 93, 42)      # the background: a card table's cloth
WHITE = (255, 255, 255)   # the spade
ICON_SIZES = (180, 192, 512)
"""The PNG sizes served (``/icon-N.png``): 180 for iOS's home screen, 192 and 512 for the manifest."""

# The spade in a unit square (y downwards): the two lower lobes, the top, the stem.
LOBES = ((0.385, 0.56, 0.15), (0.615, 0.56, 0.15))
POLYGONS = (((0.5, 0.16), (0.245, 0.5), (0.5, 0.62), (0.755, 0.5)),
            ((0.5, 0.55), (0.40, 0.82), (0.60, 0.82)))


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def icon_svg() -> str:
    """The icon as an SVG document (100 units a side)."""
    shapes = [f'<circle cx="{x * 100:g}" cy="{y * 100:g}" r="{r * 100:g}"/>' for x, y, r in LOBES]
    shapes += ['<polygon points="' + " ".join(f"{x * 100:g},{y * 100:g}" for x, y in poly) + '"/>'
               for poly in POLYGONS]
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" fill="{_hex(GREEN)}"/>'
            f'<g fill="{_hex(WHITE)}">{"".join(shapes)}</g></svg>\n')


def _spans(y: float) -> list[tuple[float, float]]:
    """Where the scanline at height ``y`` (unit square) crosses the spade: its intervals of x."""
    out: list[tuple[float, float]] = []
    for cx, cy, r in LOBES:
        d = r * r - (y - cy) ** 2
        if d > 0:
            half = d ** 0.5
            out.append((cx - half, cx + half))
    for poly in POLYGONS:  # each is convex: the scanline meets its edges at two x at most
        xs = []
        for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True):
            if (y0 <= y < y1) or (y1 <= y < y0):
                xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
        if len(xs) >= 2:
            out.append((min(xs), max(xs)))
    return out


SAMPLES = 4  # sub-scanlines a pixel row, and the coverage of each is exact along x


@lru_cache(maxsize=len(ICON_SIZES))
def icon_png(size: int) -> bytes:
    """The icon as a ``size``×``size`` RGB PNG, its edges anti-aliased."""
    import numpy as np

    x = np.arange(size, dtype=np.float64)
    cover = np.zeros((size, size))  # the spade's share of each pixel, 0 to 1
    for py in range(size):
        for s in range(SAMPLES):
            line = np.zeros(size)
            for a, b in _spans((py + (s + 0.5) / SAMPLES) / size):
                line = np.maximum(line, np.clip(np.minimum(b * size, x + 1) - np.maximum(a * size, x), 0, 1))
            cover[py] += line / SAMPLES
    green, white = np.array(GREEN, dtype=np.float64), np.array(WHITE, dtype=np.float64)
    pixels = np.rint(green + (white - green) * cover[:, :, None]).astype(np.uint8)
    rows = np.concatenate([np.zeros((size, 1), dtype=np.uint8), pixels.reshape(size, 3 * size)], axis=1)
    # (each row led by its filter type, 0: the row as it is)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8 bits a sample, RGB, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + \
        chunk(b"IEND", b"")


def manifest() -> dict[str, object]:
    """The web app manifest: standalone on the home screen, its URLs relative to the manifest's."""
    icons: list[dict[str, str]] = [{"src": "icon.svg", "sizes": "any", "type": "image/svg+xml"}]
    icons += [{"src": f"icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any maskable"}
              for n in ICON_SIZES if n != 180]
    return {"name": "preflog", "short_name": "preflog",
            "description": "The pulka sheet of the table: enter the deals, read the sheet and the settlement.",
            "start_url": "./", "scope": "./", "display": "standalone",
            "background_color": "#ffffff", "theme_color": _hex(GREEN), "icons": icons}


_CACHED = {"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"}


async def _manifest(request: Request) -> Response:
    return Response(json.dumps(manifest(), ensure_ascii=False), media_type="application/manifest+json",
                    headers=_CACHED)


async def _svg(request: Request) -> Response:
    return Response(icon_svg(), media_type="image/svg+xml", headers=_CACHED)


def _png(size: int) -> Route:
    async def handler(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        return Response(await run_in_threadpool(icon_png, size), media_type="image/png", headers=_CACHED)
    return Route(f"/icon-{size}.png", handler)


def routes() -> list[Route]:
    """The manifest's and the icons' routes. They need no token: a browser fetches a manifest without the
    page's cookies, and none of them says anything about the store."""
    return [Route("/manifest.webmanifest", _manifest), Route("/icon.svg", _svg), *(_png(n) for n in ICON_SIZES)]
