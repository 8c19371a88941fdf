"""Bontes & Gain 2024 on the CPU (§5.3, Fig. 7), suite `cpu`: Redzone 2 (TBB) against Stencil
(Bernabé et al.'s Algorithm 2), std::remove_if (sequential and parallel) and a sequential loop, each
with the marking phase, n sweep at k = 2, 10, 50, 90 %. The paper plots Fig. 7 only: the findings
are its text's statements (abstract, §5.3, §6), judged on our numbers.
"""

import itertools

from .common import DASH, NotMeasured, pct, size_label
from .removal import (
    gains_table,
    largest_common,
    phase_bars_figure,
    range_text,
    seed_counts,
    seeds_note,
    share,
    share_figure,
    share_points,
    speedups,
    sweep,
    sweep_figure,
    sweep_points,
    sweep_table,
)

SUITE = "cpu"
APIS = ["cpu"]
TITLE = "Bontes & Gain 2024: Redzone on the CPU (Fig. 7)"
ALGOS = [
    ("redzone", "Redzone"),
    ("stencil", "Stencil"),
    ("remove_if", "std::remove_if"),
    ("par_remove_if", "std::remove_if (parallel)"),
    ("sequential", "sequential loop"),
]
COMPETITORS = ["stencil", "remove_if", "par_remove_if", "sequential"]


def build(paper):
    src = paper.sources["cpu"]
    dev, drv, commit = paper.header("cpu")
    threads = sorted({r.p("threads") for r in src.usable if r.p("threads")})
    paper.intro += [
        f"Paper: 2 × Xeon Gold 6330 (56 threads), n = 512 KiB … 2 GiB of 32-bit items. Sizes: the paper "
        "counts bytes, winnow's case specs count 32-bit elements (2 GiB = 512M); the tables give both. "
        f"Here: {dev}"
        + f" ({drv})"
        + (f"; the parallel algorithms ran on {'/'.join(threads)} threads" if threads else "")
        + ". Times in ms."
    ]
    lack = lambda what: paper.lacking("cpu", what)  # noqa: E731
    cells, skipped = sweep(src.usable + src.skipped, {a for a, _ in ALGOS})
    t = sweep_table(
        paper,
        "Fig. 7: Redzone against Stencil and std::remove_if, n sweep",
        (
            "Median total time in ms, marking included; 'best other / Redzone' > 1 means Redzone is faster; skipped = "
            "too large for this machine (the reason is in the records)."
        ),
        cells,
        skipped,
        ALGOS,
        "redzone",
        scale=1e6,
        unit="ms",
    )
    if not t.filled:
        t.missing = lack("the n sweep (removal:N:k=K)")
    phase_table(paper, cells, lack)
    gains_table(paper, src.usable, ALGOS, "redzone", lack, scale=1e6, unit="ms")
    _, most = seed_counts(cells)
    few = sweep_points(cells, ALGOS)
    short = f" Fewer seeds than the rest: {few}." if few else ""
    f = sweep_figure(
        paper,
        "cpu-fig7.png",
        f"Redzone Fig. 7 on the CPU — {dev}, cpu, winnow {commit}",
        "Fig. 7 layout: total time (marking included) against n, one panel per k; "
        + (
            f"each point the logarithmic mean over its seeds' medians (up to {most} seeds)."
            if most > 1
            else "each point one record's median."
        )
        + short,
        cells,
        ALGOS,
        scale=1e6,
        unit="ms",
    )
    if not f.rows:
        f.missing = lack("the n sweep")
    f = phase_bars_figure(
        paper,
        "cpu-fig7-phases.png",
        f"Redzone Fig. 7 on the CPU, by phase — {dev}, cpu, winnow {commit}",
        "Fig. 7 as the paper draws it: per n one bar per algorithm, stacked by its phases (the last "
        "at the bottom, phase 1, the marking, on top), log scale"
        + (
            f"; logarithmic means over up to {most} seeds, the black mark the largest total"
            if most > 1
            else "; one seed per point (bench --seeds 20 for the paper's statistics)"
        )
        + "."
        + short,
        cells,
        ALGOS,
        scale=1e6,
        unit="ms",
    )
    if not f.rows:
        f.missing = lack("the n sweep")
    f = share_figure(
        paper,
        "cpu-fig7-shares.png",
        f"Redzone Fig. 7 (horizontal bars): share of each phase — {dev}, cpu",
        "Each algorithm's phases as a share of its total, at the largest n every algorithm ran at that k (the "
        "paper: 2 GiB)." + short,
        cells,
        ALGOS,
    )
    if not f.rows:
        f.missing = lack("the n sweep")
    findings(paper, cells, lack)


def phase_table(paper, cells, lack):
    """The paper's horizontal bars: each phase's share of the total, per k at the largest n every
    algorithm ran at that k (as the share figure draws them)."""
    t = paper.table(
        "Fig. 7 (bars): share of each phase at the largest n",
        note=(
            "Each algorithm's phases as a share of its total, per k at the largest n every algorithm ran at that k "
            "(the paper: 2 GiB)."
        ),
    )
    seeds, most = seed_counts(cells)
    rows = [
        (label, k, n, cells[(k, n, a)], seeds[(k, n, a)])
        for k, n, present in share_points(cells, ALGOS)
        for a, label in present
    ]
    if not rows:
        t.missing = lack("the n sweep")
        return
    # Columns by phase order (the paper's phase 1, 2, 3), the phase's name in the cell: each algorithm
    # names its phases differently, so columns by name would be mostly empty.
    width = max(len(r.phases) for _, _, _, r, _ in rows)
    t.sub(["algorithm", "k", "n", "total [ms]"] + [f"phase {i + 1}" for i in range(width)])
    for label, k, n, r, m in rows:
        parts = [f"{p} {share(r, p) * 100:.0f} %" for p in r.phases] + [DASH] * (width - len(r.phases))
        t.add([label, pct(k), size_label(n), t.val(r.total / 1e6, lambda v: f"{v:.2f}") + seeds_note(m, most)] + parts)


def findings(paper, cells, lack):
    def best_other(k):
        n = largest_common(cells, ["redzone"], k)
        if n is None:
            raise NotMeasured(lack(f"Redzone at k = {pct(k)}"))
        s = speedups(cells, "redzone", COMPETITORS, k, [n])
        if not s:
            raise NotMeasured(lack(f"a competitor at k = {pct(k)}, n = {size_label(n)}"))
        return n, s[0][1]

    def order_of_magnitude():
        n, x = best_other(0.02)
        return x >= 5, f"best competitor / Redzone at k = 2 %, n = {size_label(n)}: {x:.1f}× (rule: ≥ 5×)"

    paper.check(
        "Redzone is about an order of magnitude faster than Stencil and std::remove_if at k = 2 %",
        "abstract, §6",
        order_of_magnitude,
    )

    def faster_small_k():
        parts, ok = [], True
        for k in (0.02, 0.1):
            pairs = speedups(cells, "redzone", COMPETITORS, k, sorted({key[1] for key in cells}))
            if pairs:
                ok &= all(x > 1 for _, x in pairs)
                parts.append(f"k = {pct(k)}: best competitor / Redzone {range_text(pairs)}")
        if not parts:
            raise NotMeasured(lack("Redzone and a competitor at k = 2 % or 10 %"))
        return ok, "; ".join(parts) + " (rule: > 1 at every n)"

    paper.check("Redzone beats every competitor for small k (2 % and 10 %) at every n", "§5.3, Fig. 7", faster_small_k)

    def par_k50():
        n, x = best_other(0.5)
        return (
            0.5 <= x <= 2,
            f"best competitor / Redzone at k = 50 %, n = {size_label(n)}: {x:.2f}× (rule: within 2× either way)",
        )

    paper.check("At k = 50 % Redzone is on par with the O(n) algorithms", "§6", par_k50)

    def slower_k90():
        n, x = best_other(0.9)
        return x < 1, (
            f"best competitor / Redzone at k = 90 %, n = {size_label(n)}: {x:.2f}× (rule: < 1, Redzone slower)"
        )

    paper.check("When k is close to n (90 %) Redzone is slower than the best O(n) algorithm", "abstract", slower_k90)

    def stencil_gains():
        ks = sorted({key[0] for key in cells})
        n = max(
            (
                n
                for n in {key[1] for key in cells}
                if all((k, n, a) in cells for k in ks for a in ("stencil", "remove_if"))
            ),
            default=None,
        )
        if n is None or len(ks) < 2:
            raise NotMeasured(lack("Stencil and std::remove_if at two values of k at one size"))
        r = [cells[(k, n, "stencil")].total / cells[(k, n, "remove_if")].total for k in ks]
        # Falls from each k to the next (5 % of noise allowed), and overall.
        ok = r[-1] < r[0] and all(b <= a * 1.05 for a, b in itertools.pairwise(r))
        return ok, (
            f"Stencil / std::remove_if at n = {size_label(n)}: "
            + ", ".join(f"k = {pct(k)} {x:.2f}" for k, x in zip(ks, r, strict=True))
            + " (rule: falls as k grows)"
        )

    paper.check("Stencil becomes more efficient as k grows (against std::remove_if)", "§5.3", stencil_gains)

    def grows_with_k():
        algos = ["redzone"] + [a for a in COMPETITORS if any(key[2] == a for key in cells)]
        ns = [n for n in {key[1] for key in cells} if all((k, n, a) in cells for k in (0.02, 0.9) for a in algos)]
        if not ns or len(algos) < 2:
            raise NotMeasured(lack("Redzone and a competitor at k = 2 % and 90 % at one size"))
        n = max(ns)
        g = {a: cells[(0.9, n, a)].total / cells[(0.02, n, a)].total for a in algos}
        return all(g["redzone"] > g[a] for a in algos[1:]), (
            f"time at k = 90 % / time at k = 2 %, n = {size_label(n)}: "
            + ", ".join(f"{a} {v:.1f}×" for a, v in g.items())
            + " (rule: Redzone's growth is the largest)"
        )

    paper.check(
        "Redzone's time grows with k (O(k)), more than the O(n) algorithms' does", "title, abstract", grows_with_k
    )
