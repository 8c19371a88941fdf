"""What the Redzone paper's GPU (redzone.py) and CPU (cpu.py) experiments share: removal-list cases
removal:N:k=K[:r=R], an n sweep per k with one algorithm against its competitors, the table and the
figure of that sweep, and the speed-ups the findings are judged on.
"""

from .common import DASH, Group, NotMeasured, Panel, Series, bytes_label, pc, pct, ratio_range, size_label


def is_sweep(r):
    """An n-sweep case: removal with the default red-zone fraction (r=uniform, or no r), no gains."""
    return (
        r.case.family == "removal"
        and r.case.key("r", "uniform") == "uniform"
        and r.case.fkey("k") is not None
        and not r.case.fkey("g")
    )


def gains_table(paper, records, algos, ours, lack, scale=1e3, unit="µs", competitors=None):
    """§4.6, adding and removing in one operation: cases removal:N:k=K:g=G (G = round(g·n) gains
    appended after the n). Ours appends them in its run (phase `append`); the others compact the
    n + j stream as given (their append, the same copy, is not in their time)."""
    cells = {}
    for r in records:
        if r.algo in dict(algos) and r.usable and r.case.family == "removal" and r.case.fkey("g"):
            key = (r.case.fkey("k"), r.case.fkey("g"), r.n, r.algo)
            if key not in cells or better(r, cells[key]):
                cells[key] = r
    seeds, most = seed_counts(cells)
    t = paper.table(
        "§4.6: adding and removing in one operation",
        note=(
            f"Median total in {unit} over the stream A + G (n + j elements, j = round(g·n) gains after the n); "
            f"{dict(algos)[ours]} appends G inside its timed run, then removes the k; the others compact the same "
            "stream with its gains already in place and their marking phase. 'append' is ours' append phase."
            + seeds_sentence(seeds, most)
        ),
    )
    present = [(a, label) for a, label in algos if any(k[3] == a for k in cells)]
    if not any(k[3] == ours for k in cells):
        t.missing = lack("the add-and-remove cases (removal:N:k=K:g=G)")
        return t
    comps = [a for a, _ in present if a != ours and (competitors is None or a in competitors)]
    t.sub(
        ["k", "g", "n + j"]
        + [f"{label} [{unit}]" for _, label in present]
        + ["append [" + unit + "]"]
        + (["best other / " + dict(algos)[ours]] if comps else [])
    )
    for k, g, n in sorted({key[:3] for key in cells}):
        o = cells.get((k, g, n, ours))
        row = [pct(k), pct(g), size_label(n)]
        row += [
            t.val(cells[(k, g, n, a)].total / scale, fmt_time) + seeds_note(seeds[(k, g, n, a)], most)
            if (k, g, n, a) in cells
            else DASH
            for a, _ in present
        ]
        row.append(t.val(o.phases.get("append", 0) / scale, fmt_time) if o else DASH)
        others = [cells[(k, g, n, a)].total for a in comps if (k, g, n, a) in cells]
        if comps:
            row.append(f"{min(others) / o.total:.2f}×" if o and others else DASH)
        t.add(row)
    return t


def sweep(records, algos):
    """(k, n, algo) -> the usable record of the variant with the most seeds, the fastest of those; skipped
    ones kept apart for the cells."""
    cells, skipped = {}, {}
    for r in records:
        if r.algo not in algos or not is_sweep(r):
            continue
        key = (r.case.fkey("k"), r.n, r.algo)
        if r.skipped:
            skipped[key] = r
        elif r.usable and (key not in cells or better(r, cells[key])):
            cells[key] = r
    return cells, skipped


def better(r, than):
    """Of two variants of one point: the one whose mean stands on more seeds (a variant an interrupted
    bench left with one lucky seed must not stand for the point), then the faster."""
    return (r.runs, -r.total) > (than.runs, -than.total)


def ks_ns(cells):
    return sorted({k[0] for k in cells}), sorted({k[1] for k in cells})


def share(rec, phase):
    return rec.phases.get(phase, 0) / rec.total if rec and rec.total else None


def seed_counts(cells):
    """How many seeds each cell's record merges, and the most any has: a point of an interrupted bench
    (or whose other seeds failed) has fewer, and its mean is of those only."""
    seeds = {key: rec.runs for key, rec in cells.items()}
    return seeds, max(seeds.values(), default=1)


def seeds_sentence(seeds, most):
    """For a table's note: what a merged point's time is, and that a short one says so."""
    if most <= 1:
        return ""
    return f" A point that ran with several seeds gives the logarithmic mean of their medians (up to {most} seeds)" + (
        "; one with fewer than the most says how many it has." if any(m < most for m in seeds.values()) else "."
    )


def seeds_note(m, most):
    return f" ({m} of {most} seeds)" if m < most else ""


def short_points(cells, describe, order=None):
    """'k = 2 %, 512M, Redzone (9 of 20); …' for captions: the points with fewer seeds than the most, each
    named by describe(key), in the order of order(key) (the keys' own by default)."""
    seeds, most = seed_counts(cells)
    rank = order or (lambda key: key)
    return "; ".join(
        f"{describe(key)} ({m} of {most})" for key, m in sorted(seeds.items(), key=lambda e: rank(e[0])) if m < most
    )


def sweep_points(cells, algos):
    """'k = 2 %, 512M, Redzone (9 of 20); …': short_points of an n sweep's cells, the algorithms in their drawing order."""
    rank, names = {a: i for i, (a, _) in enumerate(algos)}, dict(algos)
    return short_points(
        cells,
        lambda key: f"k = {pct(key[0])}, {size_label(key[1])}, {names.get(key[2], key[2])}",
        lambda key: (key[0], key[1], rank.get(key[2], len(rank))),
    )


def share_points(cells, algos):
    """(k, n, present) per k: the largest n where every algorithm drawn at that k ran, and those algorithms
    — where the paper's horizontal bars stand (its 2 GiB), for the share figure and table alike."""
    out = []
    for k in ks_ns(cells)[0]:
        present = [(a, label) for a, label in algos if any(key[0] == k and key[2] == a for key in cells)]
        n = largest_common(cells, [a for a, _ in present], k)
        if n is not None:
            out.append((k, n, present))
    return out


def sweep_table(paper, name, note, cells, skipped, algos, ours, scale=1e3, unit="µs", phase="mark", competitors=None):
    """Rows k × n, a column per algorithm, then best competitor / ours and ours' share of `phase`
    (none where ours has only the one phase, so that share is always 100 %; competitors: every other
    algorithm drawn, unless given). Where points merge seeds, a time is their
    logarithmic mean, and a point with fewer seeds than the most says how many it has."""
    seeds, most = seed_counts(cells)
    t = paper.table(name, note=note + seeds_sentence(seeds, most))
    present = [(a, label) for a, label in algos if any(k[2] == a for k in cells)]
    comps = [a for a, _ in present if a != ours and (competitors is None or a in competitors)]
    t.sub(
        ["k", "n", "size"]
        + [f"{label} [{unit}]" for _, label in present]
        + (["best other / " + dict(algos)[ours]] if comps else [])
        + ([f"{dict(algos)[ours]}: {phase} share"] if phase else [])
    )
    ks, ns = ks_ns({**cells, **skipped})
    for k in ks:
        for n in ns:
            if not any((k, n, a) in cells or (k, n, a) in skipped for a, _ in present):
                continue
            row = [pct(k), size_label(n), bytes_label(n)]
            for a, _ in present:
                r = cells.get((k, n, a))
                row.append(
                    t.val(r.total / scale, fmt_time) + seeds_note(seeds[(k, n, a)], most)
                    if r
                    else ("skipped" if (k, n, a) in skipped else DASH)
                )
            o = cells.get((k, n, ours))
            others = [cells[(k, n, a)].total for a in comps if (k, n, a) in cells]
            if comps:
                row.append(f"{min(others) / o.total:.2f}×" if o and others else DASH)
            if phase:
                s = share(o, phase)
                row.append(pc(s) if s is not None else DASH)
            t.add(row)
    return t


def fmt_time(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def sweep_figure(paper, file, title, caption, cells, algos, scale=1e3, unit="µs"):
    """One panel per k: time against n (log-log), one series per algorithm (its fastest variant)."""
    f = paper.figure(file, title, caption)
    ks, _ = ks_ns(cells)
    row = []
    for k in ks:
        panel = Panel(
            f"k = {pct(k)} removed", "n [32-bit elements]", f"total time [{unit}], marking included", xlog=2, ylog=True
        )
        for a, label in algos:
            pts = sorted((n, r.total / scale) for (kk, n, aa), r in cells.items() if kk == k and aa == a)
            if pts:
                panel.series.append(
                    Series(label + variant_label(cells, a), [x for x, _ in pts], [y for _, y in pts], a)
                )
        row.append(panel)
    if row:
        f.rows.append(row)
    return f


def phase_bars_figure(paper, file, title, caption, cells, algos, scale=1e3, unit="µs"):
    """The paper's own form of Figs. 4, 5 and 7: one panel per k; per n one bar per algorithm,
    stacked by its phases (the last at the bottom, phase 1, the marking, on top), on a log axis,
    with a mark at the largest total over the seeds where the point ran with several (bench --seeds)."""
    f = paper.figure(file, title, caption)
    ks, ns = ks_ns(cells)
    row = []
    for k in ks:
        here = sorted({n for (kk, n, _) in cells if kk == k})
        present = [(a, label) for a, label in algos if any((k, n, a) in cells for n in here)]
        groups = []
        for a, label in present:
            recs = [cells.get((k, n, a)) for n in here]
            groups.append(
                Group(
                    label + variant_label(cells, a),
                    a,
                    [[(p, v / scale) for p, v in r.phases.items()] if r else None for r in recs],
                    [r.total_max / scale if r and r.total_max is not None else None for r in recs],
                )
            )
        row.append(
            Panel(
                f"k = {pct(k)} removed",
                "n: 32-bit elements (bytes, as the paper counts)",
                f"time [{unit}] by phase (log scale)",
                ylog=True,
                categories=[f"{size_label(n)}\n{bytes_label(n)}" for n in here],
                groups=groups,
            )
        )
    if row:
        f.rows.append(row)
    return f


def share_figure(paper, file, title, caption, cells, algos):
    """The paper's horizontal bars: each algorithm's phases as shares of its total, one panel per k,
    at the largest n where every algorithm drawn ran at that k (the paper: 2 GiB)."""
    f = paper.figure(file, title, caption)
    row = []
    for k, n, present in share_points(cells, algos):
        recs = [cells[(k, n, a)] for a, _ in present]
        phases = list(dict.fromkeys(p for r in recs for p in r.phases))
        stacks = [(p, [100 * share(r, p) if p in r.phases else 0.0 for r in recs]) for p in phases]
        row.append(
            Panel(
                f"k = {pct(k)} removed, n = {size_label(n)} ({bytes_label(n)})",
                "share of the total [%]",
                "",
                categories=[label for _, label in present],
                stacks=stacks,
                horizontal=True,
            )
        )
    if row:
        f.rows.append(row)
    return f


def variant_label(cells, algo):
    """The parameters of the variant drawn, when the algorithm has any (one variant per series)."""
    params = {tuple(sorted(r.params.items())) for (_, _, a), r in cells.items() if a == algo}
    if len(params) == 1:
        p = dict(next(iter(params)))
        return f" ({', '.join(f'{k}={v}' for k, v in sorted(p.items()))})" if p else ""
    return " (fastest variant per point)"


def speedups(cells, ours, comps, k, ns):
    """[(n, best competitor's time / ours)] at removal fraction k over sizes ns (where both ran)."""
    out = []
    for n in ns:
        o = cells.get((k, n, ours))
        others = [cells[(k, n, a)].total for a in comps if (k, n, a) in cells]
        if o and others:
            out.append((n, min(others) / o.total))
    return out


def largest_common(cells, algos, k):
    """The largest n where every one of algos ran at k."""
    ns = [n for n in {key[1] for key in cells} if all((k, n, a) in cells for a in algos)]
    return max(ns) if ns else None


def need_k(cells, k, what, lack):
    if not any(key[0] == k for key in cells):
        raise NotMeasured(lack(f"k = {pct(k)} ({what})"))


def range_text(pairs):
    """'2.1×–9.8× (n = 2M … 64M)' from [(n, ratio)]."""
    if not pairs:
        return DASH
    ns = [n for n, _ in pairs]
    where = size_label(ns[0]) if len(ns) == 1 else f"{size_label(min(ns))} … {size_label(max(ns))}"
    return f"{ratio_range([x for _, x in pairs])} (n = {where})"
