"""Real images the adaptive algorithm's model never saw, for `file:` cases (4M elements: 2048 × 2048).

The corpus's finger, hand and bunny are procedural; these are real: a photograph (Grace Hopper), a
digital elevation model (the Jacksboro fault), an MRI slice and a logo, from the sample data of
Debian's python-matplotlib-data (installed with python3-matplotlib). Each is cropped to a square,
resized bilinearly to SIDE × SIDE and written as a gray PNG (RGBA, R = G = B) whose value 128 is the split
between kept and dropped (the `file:` family's default threshold), with its negative where the
split is not symmetric in meaning. Usage: held_back_images.py OUT_DIR [--side N] (N a power of two,
2048 by default; `winnow reproduce moreira --quick` asks for 256); prints the case specs and writes
OUT_DIR/cases.txt, the images' file names one a line, last and whole: `winnow reproduce moreira` makes
the images so (into DIR/held-back-N) and takes a folder with cases.txt as made.
"""

import argparse
import gzip
import pathlib
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402

SAMPLES = pathlib.Path(matplotlib.get_data_path()) / "sample_data"
SIDE = 2048


def square(a):
    h, w = a.shape
    s = min(h, w)
    return a[(h - s) // 2 : (h - s) // 2 + s, (w - s) // 2 : (w - s) // 2 + s]


def resize(a, side):
    """Bilinear, corner-aligned."""
    h, w = a.shape
    y, x = np.linspace(0, h - 1, side), np.linspace(0, w - 1, side)
    y0, x0 = np.floor(y).astype(int), np.floor(x).astype(int)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    fy, fx = (y - y0)[:, None], (x - x0)[None, :]
    a = a.astype(np.float64)
    top = a[y0][:, x0] * (1 - fx) + a[y0][:, x1] * fx
    bottom = a[y1][:, x0] * (1 - fx) + a[y1][:, x1] * fx
    return top * (1 - fy) + bottom * fy


def split_at(a, cut):
    """Values mapped so that `cut` lands on 128 (kept at ≥ 128), clipped to 0-255."""
    lo, hi = float(a.min()), float(a.max())
    below = (a - lo) / max(cut - lo, 1e-9) * 127.0
    above = 128.0 + (a - cut) / max(hi - cut, 1e-9) * 127.0
    return np.clip(np.where(a < cut, below, above), 0, 255)


def images(side=SIDE):
    hopper = mpimg.imread(SAMPLES / "grace_hopper.jpg").astype(np.float64) @ [0.299, 0.587, 0.114]
    yield "hopper", resize(square(hopper), side)  # luminance, kept where ≥ 128
    yield "i_hopper", 255 - resize(square(hopper), side)
    dem = np.load(SAMPLES / "jacksboro_fault_dem.npz")["elevation"].astype(np.float64)
    yield "dem", split_at(resize(square(dem), side), float(np.median(dem)))  # the higher half of the terrain
    with gzip.open(SAMPLES / "s1045.ima.gz") as f:
        raw = np.frombuffer(f.read(), dtype=">u2").reshape(256, 256).astype(np.float64)
    yield "mri", split_at(resize(raw, side), 0.25 * raw.max())  # tissue against the background
    logo = mpimg.imread(SAMPLES / "logo2.png")
    rgb = logo[..., :3] @ [0.299, 0.587, 0.114] * 255.0
    if logo.shape[-1] == 4:
        rgb = rgb * logo[..., 3] + 255.0 * (1 - logo[..., 3])  # on white
    yield "logo", 255 - resize(square(rgb), side)  # the drawing kept, the white page dropped


def main():
    ap = argparse.ArgumentParser(description="Writes the held-back real images as PNGs and OUT_DIR/cases.txt.")
    ap.add_argument("out")
    ap.add_argument("--side", type=int, default=SIDE, help="pixels a side, a power of two from 16 (default 2048: 4M)")
    a = ap.parse_args()
    if a.side < 16 or a.side & (a.side - 1):
        ap.error(f"--side {a.side}: not a power of two from 16")
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for name, img in images(a.side):
        path = out / f"{name}.png"
        mpimg.imsave(path, np.round(img).astype(np.uint8), cmap="gray", vmin=0, vmax=255)
        kept = float((np.round(img) >= 128).mean())
        names.append(path.name)
        print(f"file:{path}", f"# {kept:.1%} kept", file=sys.stdout)
    part = out / "cases.txt.part"
    part.write_text("".join(n + "\n" for n in names))
    part.replace(out / "cases.txt")  # last: a folder with cases.txt holds every image


if __name__ == "__main__":
    main()
