"""Billeter, Olsson, Assarsson 2009 ("Efficient stream compaction on wide SIMD many-core
architectures"), suite `billeter` on cuda: Fig. 3 (4M 32-bit elements, 0-100 % valid, compactSIMD by
prefix sum or POPC × staged/scattered/buffered/selective output), Fig. 4 (size sweep, 32/64/128-bit
elements), Table 3 (averages over the densities: ours against the competitors, published beside),
Table 4 / §5.2 (the prefix sum of values, and the compaction built on the prefix sum of flags), §5.3
(the stream split), and from `winnow calibrate --api cuda` Tables 1-2 (the pass-through copy by access
width, and around 24M elements), Table 4's prefix sums and Table 5 (the radix sort built on the split);
from `winnow calibrate --api vk` Table 1 again through Vulkan compute.
"""

import csv
import pathlib
import re

from .common import (
    DASH,
    NotMeasured,
    Panel,
    Series,
    best,
    first_few,
    fvals,
    mean,
    parse_size,
    pct,
    ratio_range,
    size_label,
)

SUITE = "billeter"
APIS = ["cuda", "gl"]  # gl: Table 3's shader-era compactors (gl/geometry, gl/histopyramid), same device
GL_ALGOS = ("geometry", "histopyramid")
TITLE = "Billeter, Olsson, Assarsson 2009: stream compaction on wide SIMD (Figs. 3-4, Tables 1-5)"
OUTPUTS = ["staged", "scattered", "buffered", "selective"]
COMPACTS = ["prefix", "popc"]
COMPETITORS = [
    ("cub_if", "CUB DeviceSelect::If"),
    ("cub_flagged", "CUB DeviceSelect::Flagged"),
    ("thrust_copy_if", "thrust::copy_if"),
    ("ink", "InK"),
    ("ink_atomic", "InK, atomic ranges (unstable)"),
    ("scan_efficient", "work-efficient scan + scatter"),
    ("geometry", "geometry shader + transform feedback (GL)"),
    ("histopyramid", "HistoPyramid (GL)"),
    ("scan_naive", "naive scan + scatter"),
]
# The published row each stands for.
COUNTERPART = {"scan_efficient": "CUDPP", "geometry": "Geometry Shaders", "histopyramid": "Ziegler et al. [2006]"}
NAMES = dict(COMPETITORS)
PUB = pathlib.Path(__file__).resolve().parent.parent / "published"


def read_csv(name):
    with open(PUB / name) as f:
        return list(csv.DictReader(f))


def variant(r):
    return f"{r.p('compact')}/{r.p('output')}"


def billeter_recs(recs, element="32"):
    """cuda/billeter at one element width, unchunked (the L2-chunked mode is another experiment)."""
    return [r for r in recs if r.algo == "billeter" and r.p("element", "32") == element and r.p("chunk", "0") == "0"]


def density_set(recs):
    """The density sweep: uniform cases at the size with the most densities (4M in the suite)."""
    uni = [r for r in recs if r.case.family == "uniform" and r.case.fkey("p") is not None]
    if not uni:
        return None, []
    counts = {}
    for r in uni:
        counts.setdefault(r.n, set()).add(r.case.fkey("p"))
    n = max(counts, key=lambda m: (len(counts[m]), -m))
    return n, [r for r in uni if r.n == n]


def size_set(recs, p=0.5):
    """The size sweep: uniform cases at density p."""
    return [r for r in recs if r.case.family == "uniform" and r.case.fkey("p") == p]


def build(paper):
    src = paper.sources["cuda"]
    dev, drv, commit = paper.header("cuda")
    paper.intro += ["Paper: a GTX 280 (CUDA 2.1), 4M 32-bit elements for Fig. 3 and Table 3. Times in ms, medians."]
    lack = lambda what: paper.lacking("cuda", what)  # noqa: E731
    # gl/geometry and gl/histopyramid run in a process of their own (one API per process) on the same
    # device: their records join CUDA's as two more competitors.
    recs = src.usable + [r for r in paper.sources["gl"].usable if r.algo in GL_ALGOS]
    n3, dens = density_set(src.usable)
    dens = dens + [r for r in recs if r.algo in GL_ALGOS and r.n == n3 and r.case.family == "uniform"]
    b32 = billeter_recs(dens)
    fig3_table(paper, n3, b32, lack)
    fig4_table(paper, recs, lack)
    ours = table3(paper, n3, dens, lack)
    # Tables 1-2, 4 and 5 come from the calibrate step, on whatever device it ran (their notes say which;
    # Table 4's second part, from the records, names the records' device).
    cal = paper.run.calibration("cuda", None, pass_model=False)
    table4(paper, recs, cal, lack)
    table5(paper, cal)
    split_table(paper, n3, dens, lack)
    title = f"{dev}, cuda, winnow {commit}"
    fig3_figure(paper, n3, b32, title, lack)
    fig4_figure(paper, recs, title, lack)
    findings(paper, n3, dens, b32, recs, ours, cal, lack)
    tables12(paper, cal, paper.run.calibration("vk", None, pass_model=False))
    # The probes beside the records' mean: the same device's, or the table says whose they are not.
    gl_dev = paper.sources["gl"].first().get("device")
    geometry_table(paper, n3, dens, paper.run.calibration("gl", gl_dev, pass_model=False))


def fig3_table(paper, n, b32, lack):
    t = paper.table(
        "Fig. 3: compact × output at every density (32-bit)",
        note=(
            f"cuda/billeter, 32-bit elements, uniform at {size_label(n) if n else '?'}: ms per compactSIMD variant "
            "(prefix sum or POPC) and output variant; the paper's Fig. 3 is the same grid on a GTX 280."
        ),
    )
    variants = [f"{c}/{o}" for c in COMPACTS for o in OUTPUTS if any(variant(r) == f"{c}/{o}" for r in b32)]
    t.sub(["valid"] + variants + ["fastest"])
    for p in fvals(b32, "p"):
        at = {variant(r): r for r in b32 if r.case.fkey("p") == p}
        b = best(at.values())
        t.add(
            [pct(p)] + [t.val(at[v].total / 1e6 if v in at else None) for v in variants] + [variant(b) if b else DASH]
        )
    if not t.filled:
        t.missing = lack("cuda/billeter on the density sweep (uniform:4M:p=...)")


def fixed_variant(recs):
    """The variant (compact/output) fastest summed over the sizes it ran: one line per element width."""
    by = {}
    for r in recs:
        by.setdefault(variant(r), {})[r.n] = r
    if not by:
        return None, {}
    v = min(by, key=lambda k: (-len(by[k]), sum(r.total for r in by[k].values())))
    return v, by[v]


FIG4_PS = (0.1, 0.5, 0.9)  # the densities each size runs at; the paper plots their mean, with the range
SMALL_N = 1 << 20  # the small-n panel: n up to 1M


def fig4_sweep(recs):
    """The size sweep: uniform cases at the densities of FIG4_PS (the 4M density sweep contributes the same three)."""
    return [r for r in recs if r.case.family == "uniform" and r.case.fkey("p") in FIG4_PS]


def over_densities(recs):
    """n -> (mean, smallest, largest total [ns], the densities) of records of one algorithm and variant."""
    by = {}
    for r in recs:
        by.setdefault(r.n, {})[r.case.fkey("p")] = r.total
    return {n: (sum(v.values()) / len(v), min(v.values()), max(v.values()), sorted(v)) for n, v in by.items()}


def fig4_columns(recs):
    """(label, style key, n -> over_densities) per line of Fig. 4: Billeter's fastest variant per element width
    (fixed over the sizes, chosen by its summed means), then the 32-bit competitors."""
    sweep = fig4_sweep(recs)
    cols = []
    for e in ("32", "64", "128"):
        by = {}
        for r in billeter_recs(sweep, e):
            by.setdefault(variant(r), []).append(r)
        stats = {v: over_densities(rs) for v, rs in by.items()}
        if stats:
            v = min(stats, key=lambda k: (-len(stats[k]), sum(m for m, *_ in stats[k].values())))
            cols.append((f"Billeter {e}-bit ({v})", f"billeter:{e}", stats[v]))
    for a, label in COMPETITORS:
        st = over_densities([r for r in sweep if r.algo == a])
        if st:
            cols.append((f"{label} (32-bit)", a, st))
    return cols


def fig4_lines(cols):
    """The columns Fig. 4 draws: all but the naive scan (it stays in the table), at most 11 lines a panel."""
    return [c for c in cols if c[1] != "scan_naive"][:11]


def fig4_table(paper, recs, lack):
    cols = fig4_columns(recs)
    t = paper.table(
        "Fig. 4: time against n, the mean over 10, 50 and 90 % valid",
        note=(
            "ms: the mean over the densities measured at that n, and in brackets their range (the paper's error bars); "
            "a cell measured at fewer densities lists them. cuda/billeter at each element width in its fastest variant "
            "(compact/output, in the header), the competitors with 32-bit elements."
        ),
    )
    ns = sorted({n for *_, st in cols for n in st})
    t.sub(["n"] + [f"{label} [ms]" for label, *_ in cols])

    def cell(st, n):
        if n not in st:
            return DASH
        mean, lo, hi, ps = st[n]
        text = f"{mean / 1e6:.3f}" + (f" [{lo / 1e6:.3f}, {hi / 1e6:.3f}]" if len(ps) > 1 else "")
        return text + ("" if list(ps) == list(FIG4_PS) else " (" + ", ".join(pct(p) for p in ps) + ")")

    for n in ns:
        t.add([size_label(n)] + [t.val(cell(st, n), lambda v: v) if n in st else DASH for *_, st in cols])
    if not t.filled:
        t.missing = lack("the size sweep (uniform:N:p=0.1, 0.5, 0.9)")


def table3(paper, n, dens, lack):
    """Means over the densities, as Table 3; returns (our variant's label, our mean) for the findings."""
    pub = {row["method"]: row for row in read_csv("billeter2009_table3.csv")}
    t = paper.table(
        "Table 3: mean over 0-100 % valid, against the competitors",
        note=(
            f"ms, mean over the densities measured at {size_label(n) if n else '?'} (32-bit); relative = mean / ours. "
            "Published (GTX 280, 4M): the counterpart of each row where there is one — CUDPP's compaction is the "
            "work-efficient scan followed by a scatter; the geometry-shader compactor and Ziegler et al.'s HistoPyramid run on "
            "GL on the same device."
        ),
    )
    t.sub(["algorithm", "densities", "mean [ms]", "relative", "min / max [ms]", "published: method, mean, relative"])
    b32 = billeter_recs(dens)
    by_var = {}
    for r in b32:
        by_var.setdefault(variant(r), []).append(r.total)
    ours = None
    if by_var:
        v = min(by_var, key=lambda k: mean(by_var[k]))
        ours = (f"Billeter {v}", mean(by_var[v]))
        rows = [(f"Billeter ({v}, the fastest variant on average)", by_var[v], pub.get("Our"))]
    else:
        rows = []
    for a, label in COMPETITORS:
        ts = [r.total for r in dens if r.algo == a]
        if ts:
            rows.append((label, ts, pub.get(COUNTERPART[a]) if a in COUNTERPART else None))
    for label, ts, p in rows:
        m = mean(ts)
        t.add(
            [
                label,
                len(ts),
                t.val(m / 1e6),
                f"{m / ours[1]:.2f}×" if ours else DASH,
                f"{min(ts) / 1e6:.3f} / {max(ts) / 1e6:.3f}",
                f"{p['method']} ({p['gpu']}) {p['mean_ms']} ms, {p['relative']}×" if p else DASH,
            ]
        )
    t.after.append(
        "Published rows without a counterpart here: "
        + "; ".join(
            f"{row['method']} ({row['gpu']}) {row['mean_ms']} ms, {row['relative']}×"
            for k, row in pub.items()
            if k
            not in ["Our"]
            + [COUNTERPART[a] for a, _ in COMPETITORS if a in COUNTERPART and any(r.algo == a for r in dens)]
        )
        + "."
    )
    if not t.filled:
        t.missing = lack("the density sweep (uniform:4M:p=...)")
    return ours


# The geometry-shader compactor's draw taken apart by `winnow calibrate --api gl` (gl/src/geometry.cpp
# names the constants): (name, what the draw does).
FEEDBACK = [
    ("feedback_geometry_none_ns_4M", "gl/geometry's draw, no word valid: nothing emitted"),
    ("feedback_geometry_all_ns_4M", "gl/geometry's draw, every word valid: every point emitted"),
    ("feedback_vertex_ns_4M", "the vertex stage alone, every point captured (no geometry stage)"),
]


def geometry_table(paper, n, dens, gcal):
    """Where Table 3's geometry-shader compactor spends its time: the same draw with nothing and with
    everything to emit, and without its geometry stage, beside its mean over the densities."""
    t = paper.table(
        "Table 3's geometry-shader compactor taken apart",
        note=(
            "ms for 4M points in one transform-feedback draw with the rasterizer off, from gl/calibrate.jsonl (`winnow "
            f"calibrate --api gl`, on {gcal.device}); where the records have gl/geometry at 4M, the first row is Table 3's "
            "mean over their densities. Relative: to the vertex stage alone. The paper's GTX 280 took 7.05 ms (Table 3, "
            "mean over the densities)."
        ),
    )
    t.sub(["draw", "time [ms]", "points / ns", "relative"])
    v = gcal.values if gcal.ok else {}
    base = v.get("feedback_vertex_ns_4M")
    ts = [r.total for r in dens if r.algo == "geometry"]
    if ts and n == 1 << 22:
        m = mean(ts)
        t.add(
            [
                f"gl/geometry, mean over {len(ts)} densities (Table 3's row)",
                t.val(m / 1e6),
                f"{n / m:.3f}",
                f"{m / base:.2f}×" if base else DASH,
            ]
        )
    for name, what in FEEDBACK:
        ns = v.get(name)
        t.add(
            [
                what,
                t.val(ns / 1e6 if ns else None),
                f"{(1 << 22) / ns:.3f}" if ns else DASH,
                f"{ns / base:.2f}×" if ns and base else DASH,
            ]
        )
    if all(name in v for name, _ in FEEDBACK):
        none, every = v["feedback_geometry_none_ns_4M"], v["feedback_geometry_all_ns_4M"]
        t.after.append(
            f"Of the {every / 1e6:.3f} ms with every point emitted, the geometry stage adds {(every - base) / 1e6:.3f} ms "
            f"({(every - base) / every:.0%}) to the same draw without it, and emitting adds {(every - none) / 1e6:.3f} ms "
            f"({(every - none) / every:.0%}) to emitting nothing; the rest, {base / 1e6:.3f} ms ({base / every:.0%}), is the "
            "points through the vertex stage and transform feedback alone."
        )
    if not gcal.ok and t.filled:  # the records' row stands; say why the probes' rows do not
        t.after.append(f"The probes: {gcal.reason}.")
    if not any(v.get(name) for name, _ in FEEDBACK):
        t.missing = gcal.reason or (
            "gl/calibrate.jsonl has no transform-feedback draws: calibrated on an OpenGL ES context (no geometry shaders), "
            "or before the draws were measured (delete gl/calibrate.jsonl and run `winnow reproduce billeter` again), "
            "or the probes failed (the calibrate step's output says why)"
        )


# Table 4's measurements in the calibrate step (cuda/src/primitives.cpp names them): size, place.
PREFIX_CASES = [("32M", "out"), ("32M", "in"), ("220M", "in")]


def table4(paper, recs, cal, lack):
    pub = read_csv("billeter2009_table4.csv")
    v = cal.values if cal.ok else {}
    t = paper.table(
        "Table 4 (§5.2): the prefix sum",
        note=(
            "The exclusive prefix sum of 32-bit values (modulo 2^32), from cuda/calibrate.jsonl (`winnow calibrate --api "
            "cuda`): Billeter's count / scan / prefix over P warps (phase 1 sums each warp's range, phase 3 scans each "
            "step's values over the lanes) against cub::DeviceScan::ExclusiveSum, each checked against the CPU's sum, then "
            f"the mean of 10 runs back to back, on {cal.device}; ms, and GB/s as (read + written bytes) / time. Published (GTX 280 unless "
            "said): " + "; ".join(f"{row['method']} ({row['gpu']}, {row['n']}) {row['ms']} ms" for row in pub) + "."
        ),
    )
    gtx = {(row["method"], row["n"]): row["ms"] for row in pub if row["gpu"] == "GTX280"}
    t.sub(
        ["n", "place", "Billeter [ms]", "CUB [ms]", "Billeter / CUB", "Billeter [GB/s]", "published: Our / CUDPP [ms]"]
    )
    for size, place in PREFIX_CASES:
        b, c = v.get(f"prefix_sum_billeter_{size}_{place}"), v.get(f"prefix_sum_cub_{size}_{place}")  # µs
        published = " / ".join(
            gtx.get((m, size), DASH) for m in (("Our", "CUDPP") if place == "out" else ("Our (in place)",))
        )
        t.add(
            [
                size,
                "out of place" if place == "out" else "in place",
                t.val(b / 1000 if b else None),
                t.val(c / 1000 if c else None),
                f"{b / c:.2f}×" if b and c else DASH,
                t.val(8 * parse_size(size) / (b * 1000) if b else None, lambda x: f"{x:.0f}"),
                published,
            ]
        )
    if not t.filled:
        t.missing = (
            cal.reason or "cuda/calibrate.jsonl has no prefix sums (a calibration from before they were measured)"
        )
    scans = [r for r in recs if r.algo == "billeter_scan"]
    if scans:
        kinds = sorted({r.p("scan") for r in scans})
        t.sub(["n (cuda/billeter_scan)"] + [f"flags, scan = {k} [ms]" for k in kinds])
        for n in sizes(scans):
            t.add([size_label(n)] + [t.val(fastest(scans, n, scan=k)) for k in kinds])
        t.after.append(
            "The second part is the compaction built on the prefix sum of the valid flags (cuda/billeter_scan: "
            "count, scan, prefix of the flags, scatter), with Billeter's scan or CUB's, the fastest output per "
            f"size, from the billeter suite's records on {scans[0].d.get('device') or '?'}."
        )


# Table 5's rows: calibrate's names (cuda/src/primitives.cpp) and what they sort.
SORTS = [
    ("keys", "32-bit keys"),
    ("pairs_interleaved", "32-bit keys, 32-bit values, interleaved"),
    ("pairs_separate", "32-bit keys, 32-bit values, separate arrays"),
    ("key96_interleaved", "32-bit keys, 96-bit values, interleaved"),
]


def table5(paper, cal):
    pub = {row["input"]: row for row in read_csv("billeter2009_table5.csv")}
    v = cal.values if cal.ok else {}
    t = paper.table(
        "Table 5 (§5.3): the radix sort built on the stream split",
        note=(
            "4M elements sorted by all 32 key bits, from cuda/calibrate.jsonl (`winnow calibrate --api cuda`): Billeter's "
            "radix sort (one stream split per key bit, count / scan / split, from the lowest bit) against "
            "cub::DeviceRadixSort where CUB sorts the same layout (it sorts no interleaved pairs); each checked against "
            f"std::stable_sort, then the median of 10 runs from the unsorted input, on {cal.device}; ms. Published: the GTX 280, "
            "Satish et al. (CUDA 2.1 SDK), theirs and CUDPP."
        ),
    )
    t.sub(["input", "Billeter [ms]", "CUB [ms]", "Billeter / CUB", "published: Satish / Our / CUDPP [ms]"])
    for key, what in SORTS:
        b, c = v.get(f"radix_sort_billeter_{key}_4M"), v.get(f"radix_sort_cub_{key}_4M")  # µs
        p = pub.get(key, {})
        t.add(
            [
                what,
                t.val(b / 1000 if b else None),
                t.val(c / 1000 if c else None),
                f"{b / c:.2f}×" if b and c else DASH,
                " / ".join(p.get(k) or DASH for k in ("satish_ms", "our_ms", "cudpp_ms")),
            ]
        )
    if not t.filled:
        t.missing = (
            cal.reason or "cuda/calibrate.jsonl has no radix sorts (a calibration from before they were measured)"
        )

    def comparable():
        b, c = v.get("radix_sort_billeter_keys_4M"), v.get("radix_sort_cub_keys_4M")
        if b is None or c is None:
            raise NotMeasured(cal.reason or "cuda/calibrate.jsonl has no radix sorts")
        return b <= 1.1 * c, (
            f"4M 32-bit keys: Billeter's {b / 1000:.3f} ms, CUB's {c / 1000:.3f} ms (Billeter / CUB {b / c:.2f}×; rule: "
            "within 1.1×; published: 28.2 ms against Satish et al.'s 27.6 ms on the GTX 280)"
        )

    paper.check("The split radix sort is as fast as the fastest library sort", "§5.3, Table 5", comparable)


def sizes(recs):
    return sorted({r.n for r in recs})


def fastest(recs, n, **params):
    b = best([r for r in recs if r.n == n and all(r.p(k) == v for k, v in params.items())])
    return b.total / 1e6 if b else None


def split_table(paper, n, dens, lack):
    t = paper.table(
        "§5.3: the stream split against one compaction",
        note=(
            "cuda/billeter_split writes the valid elements to the front and the others to the back; against the fastest "
            f"32-bit cuda/billeter variant on the same case, ms, at {size_label(n) if n else '?'}."
        ),
    )
    t.sub(["valid", "split [ms]", "compaction [ms]", "split / compaction"])
    split = [r for r in dens if r.algo == "billeter_split"]
    for p in fvals(split, "p"):
        s = best([r for r in split if r.case.fkey("p") == p])
        c = best([r for r in billeter_recs(dens) if r.case.fkey("p") == p])
        t.add(
            [
                pct(p),
                t.val(s.total / 1e6),
                f"{c.total / 1e6:.3f}" if c else DASH,
                f"{s.total / c.total:.2f}" if c else DASH,
            ]
        )
    if not t.filled:
        t.missing = lack("cuda/billeter_split on the density sweep")


def fig3_figure(paper, n, b32, title, lack):
    f = paper.figure(
        "billeter-fig3.png",
        f"Billeter Fig. 3: compaction variants, 32-bit, n = {size_label(n) if n else '?'} — {title}",
        "Fig. 3 layout: time against the fraction of valid elements, one panel per compactSIMD variant "
        "(prefix sum, POPC), one line per output variant; one y scale for both panels, not from 0 "
        "(the variants differ by a few per cent).",
        sharey=True,
    )
    row = []
    for c, name in (("prefix", "prefix-sum compactSIMD"), ("popc", "POPC compactSIMD")):
        panel = Panel(f"{name}, {size_label(n) if n else '?'} 32-bit", "valid elements [%]", "time [ms]", yzero=False)
        for o in OUTPUTS:
            pts = sorted((r.case.fkey("p") * 100, r.total / 1e6) for r in b32 if variant(r) == f"{c}/{o}")
            if pts:
                panel.series.append(Series(f"{o} output", [x for x, _ in pts], [y for _, y in pts], f"output:{o}"))
        if panel.series:
            row.append(panel)
    if row:
        f.rows.append(row)
    else:
        f.missing = lack("cuda/billeter on the density sweep")


def fig4_figure(paper, recs, title, lack):
    f = paper.figure(
        "billeter-fig4.png",
        f"Billeter Fig. 4: time against n — {title}",
        "Fig. 4 layout: time against n (log-log), each point the mean over 10, 50 and 90 % valid with "
        "their range as a bar; left the small n (up to 1M), right every n. Billeter at three element "
        "widths (its fastest variant, fixed per width), the competitors with 32-bit elements.",
    )
    cols = fig4_columns(recs)
    small = Panel("n ≤ 1M", "n [elements]", "time [ms]", xlog=2, ylog=True)
    every = Panel("every n", "n [elements]", "time [ms]", xlog=2, ylog=True)
    for label, key, st in fig4_lines(cols):
        for panel, ns in ((small, [n for n in sorted(st) if n <= SMALL_N]), (every, sorted(st))):
            if len(ns) >= 2:
                panel.series.append(
                    Series(
                        label,
                        ns,
                        [st[n][0] / 1e6 for n in ns],
                        key,
                        lo=[st[n][1] / 1e6 for n in ns],
                        hi=[st[n][2] / 1e6 for n in ns],
                    )
                )
    row = [p for p in (small, every) if p.series]
    if row:
        f.rows.append(row)
    else:
        f.missing = lack("the size sweep at two sizes")


def findings(paper, n3, dens, b32, recs, ours, cal, lack):
    ps = fvals(b32, "p")

    def outputs_at(p):
        """output -> its best time (either compact) at density p."""
        out = {}
        for r in b32:
            if r.case.fkey("p") == p:
                o = r.p("output")
                out[o] = min(r.total, out.get(o, float("inf")))
        return out

    def need_outputs():
        if not ps:
            raise NotMeasured(lack("cuda/billeter on the density sweep"))

    def selective_fastest():
        need_outputs()
        wins = {p: min(outputs_at(p), key=outputs_at(p).get) for p in ps}
        sel = [p for p, w in wins.items() if w == "selective"]
        others = [f"{pct(p)}: {w}" for p, w in wins.items() if w != "selective"]
        return len(sel) == len(ps), (
            f"selective fastest at {len(sel)} of {len(ps)} densities"
            + (f"; elsewhere the fastest: {first_few(others, 6, ', ')}" if others else "")
        )

    paper.check("The selective output is the fastest variant at every density", "§5.1, Fig. 3", selective_fastest)

    def buffered_slowest():
        need_outputs()
        slow = {p: max(outputs_at(p), key=outputs_at(p).get) for p in ps}
        n = sum(w == "buffered" for w in slow.values())
        gaps = [
            outputs_at(p)["buffered"] / min(v for o, v in outputs_at(p).items() if o != "buffered")
            for p in ps
            if "buffered" in outputs_at(p) and len(outputs_at(p)) > 1
        ]
        return n == len(ps), (
            f"buffered slowest at {n} of {len(ps)} densities; buffered / fastest other output {ratio_range(gaps)}"
        )

    paper.check("The buffered output is slower than the others at every density", "§5.1, Fig. 3", buffered_slowest)

    def popc_no_faster():
        pairs = []
        for r in b32:
            if r.p("compact") == "popc":
                q = next(
                    (
                        x
                        for x in b32
                        if x.p("compact") == "prefix" and x.p("output") == r.p("output") and x.case.spec == r.case.spec
                    ),
                    None,
                )
                if q:
                    pairs.append(r.total / q.total)
        if not pairs:
            raise NotMeasured(lack("both compactSIMD variants (prefix and popc) on one case"))
        m = mean(pairs)
        return m >= 0.97, (
            f"POPC / prefix time {ratio_range(pairs)}, mean {m:.3f} over {len(pairs)} (output, density) "
            "pairs (rule: mean ≥ 0.97; the GTX 280 had no native POPC, today's GPUs have)"
        )

    paper.check("Compaction with POPC is no faster than with the SIMD prefix sum", "§4.2", popc_no_faster)

    def vs_scan():
        if not ours:
            raise NotMeasured(lack("cuda/billeter on the density sweep"))
        ts = [r.total for r in dens if r.algo == "scan_efficient"]
        if not ts:
            raise NotMeasured(lack("cuda/scan_efficient (the scan-then-scatter compaction CUDPP uses)"))
        x = mean(ts) / ours[1]
        pub = {row["method"]: row for row in read_csv("billeter2009_table3.csv")}["CUDPP"]["relative"]
        others = []
        for a, label in COMPETITORS:
            ts2 = [r.total for r in dens if r.algo == a]
            if ts2 and a != "scan_efficient":
                others.append(f"{label} {mean(ts2) / ours[1]:.2f}×")
        return x >= 2.5, (
            f"work-efficient scan + scatter / {ours[0]}, mean over the densities at {size_label(n3)}: "
            f"{x:.2f}× (rule: ≥ 2.5×; published CUDPP: {pub}×); the others: {', '.join(others)}"
        )

    paper.check(
        "Billeter's compaction is about 3× faster than scan-then-scatter compaction (CUDPP's method)",
        "§5.1, Table 3",
        vs_scan,
    )

    def wide_beats_narrow():
        sweep = size_set(recs)
        wide = {r.n: r for r in billeter_recs(sweep, "128")}
        pts, losses = [], []
        for n, w in sorted(wide.items()):
            b = best([w] + [r for r in billeter_recs(sweep, "128") if r.n == n])
            comps = [r for r in sweep if r.n == n and r.algo in ("cub_if", "cub_flagged", "thrust_copy_if")]
            if comps:
                c = best(comps)
                pts.append((n, c.total / b.total))
                if b.total >= c.total:
                    losses.append(f"{size_label(n)} ({c.algo})")
        if not pts:
            raise NotMeasured(lack("Billeter 128-bit and a library competitor at one size at 50 % valid"))
        return not losses, (
            f"fastest library competitor (32-bit) / Billeter 128-bit: {ratio_range([x for _, x in pts])} "
            f"at n = {', '.join(size_label(n) for n, _ in pts)}"
            + (f"; not faster at {', '.join(losses)}" if losses else "")
        )

    paper.check(
        "Billeter compacts 128-bit elements faster than the competitors compact 32-bit ones",
        "§5.1, Fig. 4",
        wide_beats_narrow,
    )

    def linear():
        v, by = fixed_variant(billeter_recs(size_set(recs), "32"))
        ns = sorted(by)
        if len(ns) < 3:
            raise NotMeasured(lack("Billeter 32-bit at three sizes at 50 % valid"))
        # Least squares t = a + b·n: linear, with the fixed cost of the launches as its intercept.
        ts = [by[n].total for n in ns]
        mn, mt = mean(ns), mean(ts)
        b = sum((n - mn) * (t - mt) for n, t in zip(ns, ts, strict=True)) / sum((n - mn) ** 2 for n in ns)
        a = mt - b * mn
        r2 = 1 - sum((t - a - b * n) ** 2 for n, t in zip(ns, ts, strict=True)) / sum((t - mt) ** 2 for t in ts)
        return r2 >= 0.99, (
            f"{v}, n = {size_label(ns[0])} … {size_label(ns[-1])}: t ≈ {a / 1e6:.3f} ms + "
            f"{b * (1 << 20) / 1e6:.4f} ms per M elements, R² = {r2:.4f} (rule: R² ≥ 0.99)"
        )

    paper.check("The time grows linearly with n", "§5.1, Fig. 4; §3.6", linear)

    def prefix_sum():
        v = cal.values if cal.ok else {}
        b, c = v.get("prefix_sum_billeter_32M_out"), v.get("prefix_sum_cub_32M_out")
        if b is None or c is None:
            raise NotMeasured(cal.reason or "cuda/calibrate.jsonl has no prefix sums at 32M")
        return b < c, (
            f"32M 32-bit values, out of place: Billeter's {b / 1000:.3f} ms, CUB's {c / 1000:.3f} ms "
            f"(Billeter / CUB {b / c:.2f}×; published: 3.7 ms against CUDPP's 5.3 ms on the GTX 280)"
        )

    paper.check("Billeter's prefix sum is faster than the library's", "§5.2, Table 4", prefix_sum)


# Tables 1-2: the calibrate step's constants (cuda/src/calibrate.cpp names them).
WIDTHS = [("32-bit", "b4"), ("64-bit", "b8"), ("128-bit", "b16")]
VK_COPY = re.compile(r"copy_bytes_per_ns_(\w+?)_(b\d+)_l(\d+)")
BAND = ["24M-100k", "24M", "24M+100k"]


def vk_widths(vk):
    """{size: {width key: (GB/s, workgroup size)}}: Vulkan's copy at each access width, the best of the
    workgroup sizes calibrate tried (vulkan/src/calibrate.cpp names them copy_bytes_per_ns_SIZE_bW_lL)."""
    out = {}
    for name, x in (vk.values if vk.ok else {}).items():
        m = VK_COPY.fullmatch(name)
        if m:
            size, width, local = m.groups()
            cell = out.setdefault(size, {})
            if width not in cell or x > cell[width][0]:
                cell[width] = (x, int(local))
    return dict(sorted(out.items(), key=lambda kv: parse_size(kv[0])))


def tables12(paper, cal, vk):
    pub = {(row["table"], row["what"]): float(row["gbps"]) for row in read_csv("billeter2009_tables12.csv")}
    v = cal.values if cal.ok else {}
    t = paper.table(
        "Tables 1-2: the pass-through copy by access width",
        note=(
            f"GB/s, (read + written bytes) / time, from cuda/calibrate.jsonl (`winnow calibrate --api cuda`, on {cal.device}): a pass-through "
            "kernel copying 32-bit elements with 4-, 8- or 16-byte accesses, and cudaMemcpy, each a chain of ping-pong "
            "copies. The last part: the same copy through Vulkan compute (`winnow calibrate --api vk`), each invocation moving "
            "one 32-, 64- or 128-bit word, the best of the workgroup sizes tried. Published: the GTX 280's pass-through (Table 1: "
            "each thread of a warp moving one 32-, 64- or 128-bit word; Table 2: 32-bit accesses around 24M elements)."
        ),
    )
    t.sub(["n (32-bit elements)"] + [f"{w} accesses" for w, _ in WIDTHS] + ["cudaMemcpy"])
    sizes_measured = sorted(
        {k.split("_")[4] for k in v if k.startswith("copy_bytes_per_ns_") and k.endswith("_b8")}, key=parse_size
    )
    for size in sizes_measured:
        t.add(
            [size]
            + [t.val(v.get(f"copy_bytes_per_ns_{size}_{b}"), lambda x: f"{x:.0f}") for _, b in WIDTHS]
            + [t.val(v.get(f"memcpy_bytes_per_ns_{size}"), lambda x: f"{x:.0f}")]
        )
    t.add(["published: GTX 280 (Table 1)"] + [f"{pub[('1', w)]}" for w, _ in WIDTHS] + [DASH])
    t.sub(["n (Table 2's band)", "32-bit accesses", "published: GTX 280 (Table 2)"])
    for name in BAND:
        t.add([name, t.val(v.get(f"copy_bytes_per_ns_{name}_b4"), lambda x: f"{x:.0f}"), f"{pub[('2', name)]}"])
    # The same study through Vulkan compute: the API reaches the roofline only with wide accesses, and which
    # workgroup size is best differs by width, so each cell is the best workgroup size's (named).
    t.sub(
        ["n, Vulkan compute (vk/calibrate.jsonl" + (f", on {vk.device})" if vk.ok else ")")]
        + [f"{w} accesses" for w, _ in WIDTHS]
        + ["best workgroup size per width"]
    )
    widths = vk_widths(vk)
    for size, cell in widths.items():
        t.add(
            [size]
            + [t.val(cell[b][0] if b in cell else None, lambda x: f"{x:.0f}") for _, b in WIDTHS]
            + [" / ".join(str(cell[b][1]) if b in cell else DASH for _, b in WIDTHS)]
        )
    if not widths:
        t.add(
            ["not measured: " + (vk.reason or "vk/calibrate.jsonl has no copy by access width")]
            + [DASH] * (len(WIDTHS) + 1)
        )
    if not t.filled:
        t.missing = cal.reason or "cuda/calibrate.jsonl has no pass-through constants"

    def sixty_four_best():
        size = sizes_measured[-1] if sizes_measured else "256M"
        got = {w: v.get(f"copy_bytes_per_ns_{size}_{b}") for w, b in WIDTHS}
        if None in got.values():
            raise NotMeasured(cal.reason or f"cuda/calibrate.jsonl lacks the pass-through at {size}")
        top = max(got, key=got.get)
        published = " / ".join(str(pub[("1", w)]) for w, _ in WIDTHS)
        return top == "64-bit", (
            f"at {size}: "
            + ", ".join(f"{w} {x:.0f}" for w, x in got.items())
            + f" GB/s; the best: {top} (published: {published} GB/s on the GTX 280)"
        )

    paper.check("64-bit accesses give the pass-through its highest bandwidth", "§4.3, Table 1", sixty_four_best)

    def band():
        got = [v.get(f"copy_bytes_per_ns_{name}_b4") for name in BAND]
        if None in got:
            raise NotMeasured(cal.reason or "cuda/calibrate.jsonl lacks Table 2's band")
        drop = got[1] / mean([got[0], got[2]])
        return drop < 0.5, (
            f"24M-100k / 24M / 24M+100k: {got[0]:.0f} / {got[1]:.0f} / {got[2]:.0f} GB/s: 24M at "
            f"{drop:.2f}× its neighbours (rule: < 0.5×; published: {pub[('2', '24M')]} against "
            f"{pub[('2', '24M-100k')]} / {pub[('2', '24M+100k')]} GB/s)"
        )

    paper.check(
        "The pass-through bandwidth falls to a quarter in a narrow band around 24M elements", "§4.3, Table 2", band
    )
