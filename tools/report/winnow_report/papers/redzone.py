"""Bontes & Gain 2024 ("Redzone stream compaction: removing k items in parallel O(k) time") on the
GPU, suite `redzone` on cuda: Fig. 4 (Redzone 2 against CUB, thrust::remove_if and InK, each with
the marking phase, n sweep at k = 2, 10, 50, 90 %), Fig. 5 (Redzone 1 against Single pass on one
block), Fig. 6 (the red-zone fraction r: at one size beside the competitors, and suite `redzone-r`, Alg. 2 as
published over the paper's n range). Then their future work, compaction from a preserve list (suite
`preserve`, on cuda and cpu), against Redzone and the O(n) compactions across p. The paper gives these only as plots: the
findings are the statements of its text (§5.1, §5.2, §6), judged on our numbers.
"""

import copy
import csv
import pathlib

from .common import DASH, NotMeasured, Panel, Series, bytes_label, pc, pct, size_label
from .removal import (
    fmt_time,
    gains_table,
    largest_common,
    phase_bars_figure,
    range_text,
    seed_counts,
    seeds_note,
    share,
    share_figure,
    short_points,
    speedups,
    sweep,
    sweep_figure,
    sweep_table,
)

SUITE = "redzone"
R_SUITE = "redzone-r"  # Fig. 6 over n: Redzone 2 as published on the r cases, 512 KiB … 2 GiB
P_SUITE = "preserve"  # the future work: O(p) compaction from a preserve list, on both APIs
PRESERVE = {
    "cuda": [("preserve", "preserve list"), ("redzone2", "Redzone 2"), ("cub_if", "CUB DeviceSelect::If")],
    "cpu": [
        ("preserve", "preserve list"),
        ("redzone", "Redzone"),
        ("stencil", "Stencil"),
        ("par_remove_if", "std::remove_if (parallel)"),
    ],
}
APIS = ["cuda"]
TITLE = "Bontes & Gain 2024: Redzone stream compaction on the GPU (Figs. 4-6)"
FIG4 = [
    ("redzone2", "Redzone 2 (§6 options)"),
    ("redzone2_published", "Redzone 2 (Alg. 2 as published)"),
    ("cub_if", "CUB DeviceSelect::If"),
    ("thrust_remove_if", "thrust::remove_if"),
    ("ink", "InK"),
]
# Alg. 2 as the paper publishes it (its Fig. 4): none of §6's options, no ordered fill. The suite runs
# it beside the defaults (§6's early pairing and shared orphans on); it is drawn as its own series.
PUBLISHED = {"early": "off", "shared": "off", "prefetch": "off", "order": "off"}
FIG5 = [("redzone1", "Redzone 1"), ("single_pass", "Single pass")]
COMPETITORS = ["cub_if", "thrust_remove_if", "ink"]
MIN_N = 2 << 20  # 8 MiB of 32-bit items: below it the paper finds constant factors dominate (§5.1)
TEXT = pathlib.Path(__file__).resolve().parent.parent / "published" / "bontes2024_text.csv"


def published_text():
    with open(TEXT) as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def build(paper):
    api = "cuda"
    src = paper.sources[api]
    text = published_text()
    paper.intro += [
        "Paper: an A100 (MIG 4g.20gb) and an RTX 3070, n = 128 KiB … 2 GiB of 32-bit items, each competitor "
        "with the paper's marking phase (phase 1). Sizes: the paper counts bytes, winnow's case specs count "
        "32-bit elements (2 GiB = 512M); the tables give both. Times in µs: each record's median; where a "
        "point ran with several seeds (the suite asks for 20, as the paper does), the logarithmic mean over them."
    ]
    recs = [as_published(r) for r in src.usable + src.skipped]
    cells4, skipped4 = sweep(recs, {a for a, _ in FIG4})
    cells5, skipped5 = sweep(recs, {a for a, _ in FIG5})
    lack = lambda what: paper.lacking(api, what)  # noqa: E731

    t = sweep_table(
        paper,
        "Fig. 4: Redzone 2 against the O(n) compactions, n sweep",
        (
            "Median total time in µs, marking (phase 1) included; 'best other / Redzone 2' > 1 means Redzone 2 is faster; "
            "'mark share' is Redzone 2's phase 1 over its total; 'best other' counts the competitors only, not "
            "Redzone 2 as published."
        ),
        cells4,
        skipped4,
        FIG4,
        "redzone2",
        competitors=COMPETITORS,
    )
    if not t.filled:
        t.missing = lack("the n sweep (removal:N:k=K)")
    t = sweep_table(
        paper,
        "Fig. 5: Redzone 1 against Single pass on one block",
        (
            "One block of 1024 threads, µs. Published (§5.1): phase 1 takes about "
            f"{pc(float(text['fig5_phase1_share_k90']['low']))}-{pc(float(text['fig5_phase1_share_k90']['high']))} of the "
            f"time at k = 90 % on one block, against about {pc(float(text['fig4_phase1_share_k90']['low']))} GPU-wide."
        ),
        cells5,
        skipped5,
        FIG5,
        "redzone1",
    )
    if not t.filled:
        t.missing = lack("Redzone 1 and Single pass on the n sweep")
    gains_table(paper, recs, FIG4, "redzone2", lack, competitors=COMPETITORS)
    rsweep = fig6_table(paper, src, text, lack)

    title = figure_title(paper, api)
    f = sweep_figure(
        paper,
        "redzone-fig4.png",
        f"Redzone Fig. 4: Redzone 2 vs O(n) compaction — {title}",
        "Fig. 4 layout: median total time (marking included) against n, one panel per k.",
        cells4,
        FIG4,
    )
    if not f.rows:
        f.missing = lack("the n sweep")
    f = sweep_figure(
        paper,
        "redzone-fig5.png",
        f"Redzone Fig. 5: one block of 1024 threads — {title}",
        "Fig. 5 layout: Redzone 1 and Single pass on one block, against n, one panel per k.",
        cells5,
        FIG5,
    )
    if not f.rows:
        f.missing = lack("Redzone 1 and Single pass")
    seeds = sorted({len(r.seeds) for r in list(cells4.values()) + list(cells5.values()) if r.seeds})
    how = (
        f"logarithmic means over {'/'.join(map(str, seeds))} seeds, the black mark the largest total"
        if seeds
        else "one seed per point"
    )
    for file, name, cells, algos, what in (
        ("redzone-fig4-phases.png", "Fig. 4", cells4, FIG4, "the n sweep"),
        ("redzone-fig5-phases.png", "Fig. 5", cells5, FIG5, "Redzone 1 and Single pass"),
    ):
        f = phase_bars_figure(
            paper,
            file,
            f"Redzone {name} by phase — {title}",
            f"{name} as the paper draws it: per n one bar per algorithm, stacked by its phases (the last "
            f"at the bottom, phase 1, the marking, on top), log scale; {how}.",
            cells,
            algos,
        )
        if not f.rows:
            f.missing = lack(what)
        f = share_figure(
            paper,
            file.replace("-phases", "-shares"),
            f"Redzone {name} (horizontal bars): share of each phase — {title}",
            "Each algorithm's phases as a share of its total, at the largest n every "
            "algorithm ran at that k (the paper: 2 GiB).",
            cells,
            algos,
        )
        if not f.rows:
            f.missing = lack(what)
    fig6_figure(paper, rsweep, title, lack)
    fig6_over_n(paper, paper.source(api, R_SUITE))
    findings(paper, cells4, cells5, rsweep, text, lack)
    preserve(paper)


def preserve(paper):
    """The future work (§6, Conclusion): the inverse of Redzone, out[i] = A[P[i]] from a preserve list, O(p). Per API a
    table over k and n (the others with their marking) and one figure: time against p, a panel per API and n."""
    f = paper.figure(
        "redzone-preserve.png",
        "Redzone's inverse: compaction from a preserve list, across p",
        "Median total time against the survivors p = n − k, one panel per API and n; the others with their "
        "marking phase. The preserve list gathers one element per survivor, Redzone fills one hole per removal.",
    )
    panels, why, devices = [], [], []
    for api, algos in PRESERVE.items():
        src = paper.source(api, P_SUITE)
        cells, skipped = sweep(src.usable + src.skipped, {a for a, _ in algos})
        t = sweep_table(
            paper,
            f"Future work: compaction from a preserve list ({api})",
            (
                f"Suite `preserve` on {api}: median total time in µs, the others' marking included; 'best other / preserve "
                "list' > 1 means the preserve list is faster; p = n − k survive. The paper proposes it (§6, future work) and measures "
                "nothing, so there are no published numbers."
            ),
            cells,
            skipped,
            algos,
            "preserve",
            phase=None,
        )  # its one phase, the gather
        if not t.filled:
            t.missing = src.missing() or f"no usable {api} record of suite {P_SUITE}"
            why.append(f"{api}: {t.missing}")
            continue
        devices.append(figure_title(paper, api, src))
        for n in sorted({n for _, n, _ in cells}):
            panel = Panel(
                f"{api}, n = {size_label(n)} ({bytes_label(n)})", "survivors p [% of n]", "total time [µs]", ylog=True
            )
            for a, label in algos:
                pts = sorted((100 * (1 - k), r.total / 1e3) for (k, nn, aa), r in cells.items() if nn == n and aa == a)
                if pts:
                    panel.series.append(Series(label, [x for x, _ in pts], [y for _, y in pts], a))
            panels.append(panel)
    if panels:
        f.rows.append(panels)
        f.title += " — " + "; ".join(devices)
    else:
        f.missing = "; ".join(why)


def figure_title(paper, api, src=None):
    """'card, api, winnow commits' of the main suite's records, or of `src`'s."""
    dev, _, commit = paper.header(api, src)
    return f"{dev}, {api}, winnow {commit}"


def as_published(r):
    """Redzone 2 as published gets an algorithm key of its own (a copy of the record): its own series."""
    if r.algo != "redzone2" or any(r.p(k) != v for k, v in PUBLISHED.items()):
        return r
    c = copy.copy(r)
    c.algo = "redzone2_published"
    return c


def r_sweep(src):
    """(k, r) -> Redzone 2's fastest record on the explicit-r cases, at the largest size they ran."""
    cells = r_cells(src)
    if not cells:
        return None, {}
    n = max(n for _, _, n in cells)
    return n, {(k, r): rec for (k, r, size), rec in cells.items() if size == n}


def fig6_table(paper, src, text, lack):
    n, cells = r_sweep(src)
    phases = []
    for r in cells.values():
        phases += [p for p in r.phases if p not in phases]
    t = paper.table(
        "Fig. 6: the red-zone fraction r, Redzone 2",
        note=(
            f"r = the fraction of the removals inside the red zone, at {size_label(n) if n else '?'}; µs and each phase's "
            f"share. Published (§6): phase 3 (orphans) takes {pc(float(text['fig6_phase3_share']['low']))}-"
            f"{pc(float(text['fig6_phase3_share']['high']))} of the total."
        ),
    )
    t.sub(["k", "r", "total [µs]"] + [f"{p} [µs]" for p in phases] + [f"{p} share" for p in phases])
    for (k, r), rec in sorted(cells.items()):
        t.add(
            [pct(k), pct(r), t.val(rec.total / 1e3, lambda v: f"{v:.1f}")]
            + [f"{rec.phases[p] / 1e3:.1f}" if p in rec.phases else DASH for p in phases]
            + [pc(share(rec, p)) if p in rec.phases else DASH for p in phases]
        )
    if not t.filled:
        t.missing = lack("Redzone 2 on the r cases (removal:N:k=K:r=R)")
    return n, cells


def fig6_figure(paper, rsweep, title, lack):
    n, cells = rsweep
    f = paper.figure(
        "redzone-fig6.png",
        f"Redzone Fig. 6: the red-zone fraction r — {title}",
        "Fig. 6 layout (its left panel): Redzone 2's total time and its phase 1 (marking) against r, one line per k.",
    )
    if not cells:
        f.missing = lack("Redzone 2 on the r cases")
        return
    total = Panel(f"total, n = {size_label(n)}", "removals inside the red zone r [%]", "total time [µs]", ylog=True)
    mark = Panel(
        f"phase 1 (mark), n = {size_label(n)}", "removals inside the red zone r [%]", "phase 1 time [µs]", ylog=True
    )
    for k in sorted({k for k, _ in cells}):
        pts = sorted((r * 100, rec) for (kk, r), rec in cells.items() if kk == k)
        total.series.append(
            Series(f"Redzone 2, k = {pct(k)}", [x for x, _ in pts], [rec.total / 1e3 for _, rec in pts], f"k:{k:g}")
        )
        mark.series.append(
            Series(
                f"Redzone 2, k = {pct(k)}",
                [x for x, _ in pts],
                [rec.phases.get("mark", 0) / 1e3 or None for _, rec in pts],
                f"k:{k:g}",
            )
        )
    f.rows.append([total, mark])


def r_cells(src):
    """(k, r, n) -> Redzone 2's record on an explicit-r case (its seeds merged), the fastest where several."""
    out = {}
    for r in src.usable:
        if r.algo == "redzone2" and r.case.family == "removal" and r.case.fkey("r") is not None:
            key = (r.case.fkey("k"), r.case.fkey("r"), r.n)
            if key not in out or r.total < out[key].total:
                out[key] = r
    return out


def fig6_over_n(paper, src):
    """Fig. 6 over the paper's n range (suite redzone-r): per k, Redzone 2's total and its phase 1 against n,
    one line per r; the table gives every point and each phase's share at the largest n. Titled by its own
    records, which may come from another card or build than the main suite's (or without them)."""
    title = figure_title(paper, "cuda", src)
    cells = r_cells(src)
    ns = sorted({n for _, _, n in cells})
    seeds, most = seed_counts(cells)
    few = short_points(cells, lambda key: f"k = {pct(key[0])}, r = {pct(key[1])}, {size_label(key[2])}")
    t = paper.table(
        "Fig. 6 over n: the red-zone fraction r, Redzone 2 as published",
        note=(
            "Suite `redzone-r`: Alg. 2 without §6's options, as the paper's Fig. 6 runs it; total µs per n (each point's "
            "logarithmic mean over its seeds), then each phase's share at the largest n."
            + (
                f" A point with fewer seeds than the others' {most} (an interrupted bench, or seeds that failed) says "
                "how many it has."
                if few
                else ""
            )
        ),
    )
    phases = []
    for r in cells.values():
        phases += [p for p in r.phases if p not in phases]
    t.sub(
        ["k", "r"]
        + [f"{size_label(n)} ({bytes_label(n)}) [µs]" for n in ns]
        + [f"{p} share at {size_label(ns[-1])}" for p in phases]
        if ns
        else ["k", "r"]
    )
    for k, rr in sorted({(k, r) for k, r, _ in cells}):
        last = cells.get((k, rr, ns[-1]))
        t.add(
            [pct(k), pct(rr)]
            + [
                t.val(cells[(k, rr, n)].total / 1e3, fmt_time) + seeds_note(seeds[(k, rr, n)], most)
                if (k, rr, n) in cells
                else DASH
                for n in ns
            ]
            + [pc(share(last, p)) if last and p in last.phases else DASH for p in phases]
        )
    if not t.filled:
        t.missing = src.missing() or paper.lacking("cuda", "Redzone 2 on suite redzone-r's cases")
    f = paper.figure(
        "redzone-fig6-n.png",
        f"Redzone Fig. 6 over n: the red-zone fraction r — {title}",
        "Fig. 6 over the paper's n range: per k, Redzone 2 (Alg. 2 as published) against n — its total "
        "(top) and its phase 1, the marking (bottom) — one line per r, the share of the removals inside "
        "the red zone." + (f" Fewer seeds than the rest: {few}." if few else ""),
    )
    fig6_phases(paper, cells, title, few, t.missing)
    if not cells:
        f.missing = t.missing
        return
    ks = sorted({k for k, _, _ in cells})
    rows = [[], []]
    for k in ks:
        total = Panel(f"total, k = {pct(k)} removed", "n [32-bit elements]", "total time [µs]", xlog=2, ylog=True)
        mark = Panel(
            f"phase 1 (mark), k = {pct(k)} removed", "n [32-bit elements]", "phase 1 time [µs]", xlog=2, ylog=True
        )
        for rr in sorted({r for kk, r, _ in cells if kk == k}):
            pts = sorted((n, rec) for (kk, r, n), rec in cells.items() if kk == k and r == rr)
            xs = [n for n, _ in pts]
            total.series.append(Series(f"r = {pct(rr)}", xs, [rec.total / 1e3 for _, rec in pts], f"r:{rr:g}"))
            mark.series.append(
                Series(f"r = {pct(rr)}", xs, [rec.phases.get("mark", 0) / 1e3 or None for _, rec in pts], f"r:{rr:g}")
            )
        rows[0].append(total)
        rows[1].append(mark)
    f.rows += rows


def fig6_phases(paper, cells, title, few, missing):
    """Fig. 6's large panel: per k (rows) and r (columns), each phase's time against n as a line and its
    share of the total as grey areas behind them."""
    f = paper.figure(
        "redzone-fig6-phases.png",
        f"Redzone Fig. 6, per phase: the red-zone fraction r — {title}",
        "Fig. 6's large panel: Redzone 2 (Alg. 2 as published) per k removed (rows) and r, the share of the "
        "removals inside the red zone (columns): each phase's time against n (lines, log-log), and each "
        "phase's share of the phases' sum (grey areas, right axis; phase 1 at the bottom, darkest)."
        + (f" Fewer seeds than the rest: {few}." if few else ""),
    )
    if not cells:
        f.missing = missing
        return
    # One phase list for every panel: a phase keeps its grey (its place in the stack) and its colour.
    phases = []
    for rec in cells.values():
        phases += [p for p in rec.phases if p not in phases]

    def part(rec, p):  # per cent of the phases' sum: the shares stack to 100 (a total that merges seeds does not)
        whole = sum(rec.phases.values())
        return 100 * rec.phases.get(p, 0) / whole if whole else 0

    for k in sorted({k for k, _, _ in cells}):
        row = []
        for rr in sorted({r for kk, r, _ in cells if kk == k}):
            pts = sorted((n, rec) for (kk, r, n), rec in cells.items() if kk == k and r == rr)
            panel = Panel(f"k = {pct(k)}, r = {pct(rr)}", "n [32-bit elements]", "phase time [µs]", xlog=2, ylog=True)
            xs = [n for n, _ in pts]
            for p in phases:
                panel.series.append(Series(p, xs, [rec.phases.get(p, 0) / 1e3 or None for _, rec in pts], f"phase:{p}"))
            panel.shares = (xs, [(p, [part(rec, p) for _, rec in pts]) for p in phases])
            row.append(panel)
        f.rows.append(row)


def findings(paper, cells4, cells5, rsweep, text, lack):
    def faster_small_k():
        parts, ok, seen = [], True, False
        for k in (0.02, 0.1, 0.5):
            ns = sorted({n for (kk, n, a) in cells4 if kk == k and n >= MIN_N})
            pairs = []
            for n in ns:
                o = cells4.get((k, n, "redzone2"))
                for a in COMPETITORS:
                    c = cells4.get((k, n, a))
                    if o and c:
                        pairs.append((n, c.total / o.total))
            if pairs:
                seen = True
                ok &= all(x > 1 for _, x in pairs)
                parts.append(f"k = {pct(k)}: each competitor / Redzone 2 {range_text(pairs)}")
        if not seen:
            raise NotMeasured(lack(f"Redzone 2 and a competitor at k ≤ 50 % with n ≥ {size_label(MIN_N)} (8 MiB)"))
        return ok, "; ".join(parts)

    paper.check(
        "Redzone 2 is faster than CUB, thrust::remove_if and InK for k ≤ 50 % (n ≥ 8 MiB)",
        "§5.1, Fig. 4",
        faster_small_k,
    )

    def order_of_magnitude():
        n = largest_common(cells4, ["redzone2"], 0.02)
        if n is None:
            raise NotMeasured(lack("Redzone 2 at k = 2 %"))
        s = speedups(cells4, "redzone2", COMPETITORS, 0.02, [n])
        if not s:
            raise NotMeasured(lack(f"a competitor at k = 2 %, n = {size_label(n)}"))
        return s[0][1] >= 5, (
            f"best competitor / Redzone 2 at k = 2 %, n = {size_label(n)}: {s[0][1]:.1f}× "
            f"(rule: ≥ 5×, an order of magnitude within a factor 2; published: ≈ {text['speedup_k2']['low']}×)"
        )

    paper.check(
        "Redzone 2 is about an order of magnitude faster than the O(n) compactions at k = 2 %",
        "abstract, §6",
        order_of_magnitude,
    )

    def slightly_slower_k90():
        n = largest_common(cells4, ["redzone2", "thrust_remove_if"], 0.9)
        if n is None:
            raise NotMeasured(lack("Redzone 2 and thrust::remove_if at k = 90 %"))
        x = cells4[(0.9, n, "redzone2")].total / cells4[(0.9, n, "thrust_remove_if")].total
        return (
            1 < x <= 1.5,
            f"Redzone 2 / thrust::remove_if at k = 90 %, n = {size_label(n)}: {x:.2f} (rule: slower, by at most 1.5×)",
        )

    paper.check(
        "At k = 90 % Redzone 2 is only slightly slower than thrust::remove_if", "§5.1, Fig. 4", slightly_slower_k90
    )

    def grows_with_k():
        algos = ["redzone2"] + [a for a in COMPETITORS if any(key[2] == a for key in cells4)]
        ns = [n for n in {key[1] for key in cells4} if all((k, n, a) in cells4 for k in (0.02, 0.9) for a in algos)]
        if not ns or len(algos) < 2:
            raise NotMeasured(lack("Redzone 2 and a competitor at k = 2 % and 90 % at one size"))
        n = max(ns)
        g = {a: cells4[(0.9, n, a)].total / cells4[(0.02, n, a)].total for a in algos}
        return all(g["redzone2"] > g[a] for a in algos[1:]), (
            f"time at k = 90 % / time at k = 2 %, n = {size_label(n)}: "
            + ", ".join(f"{a} {v:.1f}×" for a, v in g.items())
            + " (rule: Redzone 2's growth is the largest)"
        )

    paper.check(
        "Redzone's time grows with k (O(k)), more than the O(n) compactions' does",
        "title, abstract, §4.2",
        grows_with_k,
    )

    def one_block():
        ns = sorted({n for (k, n, a) in cells5 if k == 0.02 and n >= MIN_N})
        pairs = speedups(cells5, "redzone1", ["single_pass"], 0.02, ns)
        if not pairs:
            raise NotMeasured(lack(f"Redzone 1 and Single pass at k = 2 % with n ≥ {size_label(MIN_N)}"))
        return all(x > 1 for _, x in pairs), f"Single pass / Redzone 1 at k = 2 %: {range_text(pairs)}"

    paper.check("On one block, Redzone 1 is faster than Single pass at k = 2 %", "§5.1, Fig. 5; §6", one_block)

    def mark_share():
        n = largest_common({**cells4, **cells5}, ["redzone1", "redzone2"], 0.9)
        if n is None:
            raise NotMeasured(lack("Redzone 1 and Redzone 2 at k = 90 % at one size"))
        one, wide = share(cells5[(0.9, n, "redzone1")], "mark"), share(cells4[(0.9, n, "redzone2")], "mark")
        return one < wide, (
            f"phase 1's share at k = 90 %, n = {size_label(n)}: one block {pc(one)}, GPU-wide {pc(wide)} "
            f"(published: about {pc(float(text['fig5_phase1_share_k90']['low']))}-"
            f"{pc(float(text['fig5_phase1_share_k90']['high']))} and "
            f"{pc(float(text['fig4_phase1_share_k90']['low']))})"
        )

    paper.check(
        "Marking (phase 1) takes a smaller share of Redzone's time on one block than GPU-wide at k = 90 %",
        "§5.1, Figs. 4-5",
        mark_share,
    )

    def r_effect():
        n, cells = rsweep
        if not cells:
            raise NotMeasured(lack("Redzone 2 on the r cases"))
        ok, parts, seen = True, [], False
        for k in (0.02, 0.1):
            rs = sorted(r for kk, r in cells if kk == k)
            if len(rs) < 2 or rs[0] != 0:
                continue
            seen = True
            tot = {r: cells[(k, r)].total for r in rs}
            mk = {r: cells[(k, r)].phases.get("mark") for r in rs}
            ok &= max(tot, key=tot.get) == 0 and tot[rs[-1]] < tot[0] and (mk[rs[-1]] or 0) > (mk[0] or 0)
            parts.append(
                f"k = {pct(k)}: total {tot[0] / 1e3:.0f} µs at r = 0 → {tot[rs[-1]] / 1e3:.0f} µs at r = "
                f"{pct(rs[-1])} (slowest r: {pct(max(tot, key=tot.get))}), phase 1 {(mk[0] or 0) / 1e3:.0f} → "
                f"{(mk[rs[-1]] or 0) / 1e3:.0f} µs"
            )
        if not seen:
            raise NotMeasured(lack("k = 2 % or 10 % at r = 0 and a larger r"))
        k50 = [cells[key].total for key in cells if key[0] == 0.5]
        if len(k50) >= 2:
            parts.append(f"k = 50 %: total varies {max(k50) / min(k50):.2f}× over r (the paper: little)")
        return ok, f"n = {size_label(n)}; " + "; ".join(parts)

    paper.check(
        "At k ≤ 10 %, r = 0 takes the longest and the total falls as r grows, while phase 1 grows with r",
        "§5.2, Fig. 6",
        r_effect,
    )
