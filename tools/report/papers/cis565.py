"""The CIS 565 stream-compaction write-up (Project 2, on an RTX 4060 Laptop), suite `cis565` on cpu and
cuda: exclusive scans timed as scans — the `scan` phase of cpu/scan_compact (CPU), cuda/scan_naive
(Hillis-Steele), cuda/scan_efficient (Blelloch) and cuda/scan_thrust (thrust::exclusive_scan) — and
compaction on the CPU without a scan (cpu/sequential) and with one (cpu/scan_compact) against the
GPU's map → scan → scatter; at powers of two and at 3 less, the GPU scans at block sizes 32 … 1024.
The write-up gives its results as plots and a few sample timings; its findings are the statements of
its text, judged on our numbers.
"""
from .common import DASH, NotMeasured, Panel, Series, size_label

SUITE = "cis565"
APIS = ["cpu", "cuda"]
TITLE = "CIS 565 stream compaction (exclusive scans, compaction with and without a scan)"
BLOCK = "128"  # the write-up's blockSize, for every table and figure but the block-size study
SCANS = [("cpu", "scan_compact", "CPU scan"), ("cuda", "scan_naive", "naive (Hillis-Steele)"),
         ("cuda", "scan_efficient", "work-efficient (Blelloch)"), ("cuda", "scan_thrust", "thrust::exclusive_scan")]
COMPACTIONS = [("cpu", "sequential", "CPU without scan"), ("cpu", "scan_compact", "CPU with scan"),
               ("cuda", "scan_naive", "GPU, naive scan"), ("cuda", "scan_efficient", "GPU, work-efficient scan"),
               ("cuda", "scan_thrust", "GPU, thrust scan")]


def pow2(n):
    return n > 0 and n & (n - 1) == 0


def npot(n):
    """The write-up's non-power-of-two size: 3 less than a power of two."""
    return pow2(n + 3) and n > 3


def label(n):
    return size_label(n) if pow2(n) else f"{size_label(n + 3)} − 3"


def records(paper):
    """(api, algo, n) -> the record at the write-up's block size (or without one), and the block study."""
    at, blocks = {}, {}
    for api in APIS:
        for r in paper.sources[api].usable:
            b = r.p("block")
            if b is not None:
                blocks.setdefault((r.algo, r.n), {})[int(b)] = r
                if b != BLOCK:
                    continue
            at[(api, r.algo, r.n)] = r
    return at, blocks


def scan_ns(r):
    return r.phases.get("scan") if r else None


def build(paper):
    at, blocks = records(paper)
    devs = paper.devices([api for api in APIS if paper.sources[api].usable]) or "nothing measured"
    paper.intro += ["Write-up: an i7-14700HX and an RTX 4060 Laptop GPU, blockSize = 128, timings of the GPU work "
                    f"only. Here: {devs}. Scans are each algorithm's `scan` phase; times in ms, medians."]
    lack = lambda api, what: paper.lacking(api, what)  # noqa: E731
    ns = sorted({n for (_, _, n) in at})
    for kind, test in (("power-of-two", pow2), ("non-power-of-two", npot)):
        scan_table(paper, kind, [n for n in ns if test(n)], at, lack)
    for kind, test in (("power-of-two", pow2), ("non-power-of-two", npot)):
        compaction_table(paper, kind, [n for n in ns if test(n)], at, lack)
    block_table(paper, blocks, lack)
    figure(paper, "cis565-scan.png", f"CIS 565: exclusive scan against n — {devs}",
           "The write-up's scan plots: time of the scan alone against n (log-log), power-of-two n left, 3 less right; "
           f"GPU scans at {BLOCK} threads a block.", ns, at, SCANS, scan_ns, lack)
    figure(paper, "cis565-compaction.png", f"CIS 565: stream compaction against n — {devs}",
           "The write-up's compaction plots: the whole compaction (map, scan, scatter; the CPU loop without a scan) "
           "against n (log-log), power-of-two n left, 3 less right.", ns, at, COMPACTIONS, lambda r: r.total, lack)
    findings(paper, ns, at, blocks, lack)


def cell(t, ns_value):
    return t.val(ns_value / 1e6 if ns_value is not None else None, lambda v: f"{v:.4f}")


def scan_table(paper, kind, ns, at, lack):
    t = paper.table(f"Scan, {kind} n", note=(
        f"ms, the `scan` phase (an exclusive scan of the valid flags), GPU at {BLOCK} threads a block."))
    t.sub(["n"] + [name for *_, name in SCANS])
    for n in ns:
        t.add([label(n)] + [cell(t, scan_ns(at.get((api, a, n)))) for api, a, _ in SCANS])
    if not t.filled:
        t.missing = lack("cuda", "the scans (suite cis565)")


def compaction_table(paper, kind, ns, at, lack):
    t = paper.table(f"Stream compaction, {kind} n", note="ms, the whole compaction, 3/4 of the elements valid.")
    t.sub(["n"] + [name for *_, name in COMPACTIONS])
    for n in ns:
        t.add([label(n)] + [cell(t, (at.get((api, a, n)).total if at.get((api, a, n)) else None)) for api, a, _ in COMPACTIONS])
    if not t.filled:
        t.missing = lack("cpu", "the compactions (suite cis565)")


def block_table(paper, blocks, lack):
    t = paper.table("Block size", note=(
        "ms, the GPU scans' `scan` phase against the threads per block, at the largest power-of-two n measured "
        "(the write-up chose 128)."))
    sizes = [n for (_, n) in blocks if pow2(n)]
    n = max(sizes) if sizes else None
    bs = sorted({b for (a, m), by in blocks.items() if m == n for b in by})
    t.sub(["algorithm"] + [str(b) for b in bs] + ["fastest"])
    for algo, name in (("scan_naive", "naive (Hillis-Steele)"), ("scan_efficient", "work-efficient (Blelloch)")):
        by = blocks.get((algo, n), {})
        if not by:
            continue
        best = min(by, key=lambda b: scan_ns(by[b]) or float("inf"))
        t.add([f"{name}, n = {size_label(n)}"] + [cell(t, scan_ns(by.get(b))) for b in bs] + [str(best)])
    if not t.filled:
        t.missing = lack("cuda", "the GPU scans at several block sizes")


def figure(paper, file, title, caption, ns, at, lines, value, lack):
    f = paper.figure(file, title, caption)
    row = []
    for name, test in (("power-of-two n", pow2), ("n = 2^k − 3 (3 less than each tick)", npot)):
        xs = [n for n in ns if test(n)]
        panel = Panel(name, "n [elements]", "time [ms]", xlog=2, ylog=True,
                      xticks=(xs, [size_label(n if pow2(n) else n + 3) for n in xs]))
        for api, a, label_ in lines:
            pts = [(n, value(at[(api, a, n)])) for n in ns if test(n) and (api, a, n) in at and value(at[(api, a, n)])]
            if len(pts) >= 2:
                panel.series.append(Series(label_, [p[0] for p in pts], [p[1] / 1e6 for p in pts], a))
        if panel.series:
            row.append(panel)
    if row:
        f.rows.append(row)
    else:
        f.missing = lack("cuda", "two sizes of any line")


def findings(paper, ns, at, blocks, lack):
    def scans_at(n):
        return {a: scan_ns(at.get((api, a, n))) for api, a, _ in SCANS}

    def need(n, names, what):
        got = scans_at(n)
        if n is None or any(got.get(a) is None for a in names):
            raise NotMeasured(lack("cuda", what))
        return got

    p2, np2 = [n for n in ns if pow2(n)], [n for n in ns if npot(n)]
    small, large = (p2[0], p2[-1]) if p2 else (None, None)
    # The write-up states these three in its section on non-power-of-two sizes: judged there.
    nsmall, nlarge = (np2[0], np2[-1]) if np2 else (None, None)

    def cpu_small():
        got = need(nsmall, ["scan_compact", "scan_naive", "scan_efficient", "scan_thrust"], "every scan at the smallest n")
        gpu = min(got[a] for a in ("scan_naive", "scan_efficient", "scan_thrust"))
        return got["scan_compact"] < gpu, (f"at n = {label(nsmall)}: CPU {got['scan_compact'] / 1e3:.2f} µs, fastest GPU "
                                           f"scan {gpu / 1e3:.2f} µs")

    paper.check("For tiny inputs the CPU scan wins", "write-up: Scan, non-power-of-two Ns", cpu_small)

    def thrust_large():
        got = need(nlarge, ["scan_naive", "scan_efficient", "scan_thrust"], "the GPU scans at the largest n")
        others = min(got["scan_naive"], got["scan_efficient"])
        return got["scan_thrust"] < others, (f"at n = {label(nlarge)}: thrust {got['scan_thrust'] / 1e6:.3f} ms, "
                                             f"work-efficient {got['scan_efficient'] / 1e6:.3f}, naive {got['scan_naive'] / 1e6:.3f}")

    paper.check("Thrust's scan is the fastest on large inputs", "write-up: Scan, non-power-of-two Ns", thrust_large)

    def naive_degrades():
        a, b = need(nsmall, ["scan_naive", "scan_efficient"], "both GPU scans"), need(nlarge, ["scan_naive", "scan_efficient"], "both GPU scans")
        r0, r1 = a["scan_naive"] / a["scan_efficient"], b["scan_naive"] / b["scan_efficient"]
        return r1 > r0 and r1 > 1, (f"naive / work-efficient: {r0:.2f}× at {label(nsmall)}, {r1:.2f}× at {label(nlarge)}")

    paper.check("The naive scan degrades fastest as n grows (O(n log n) work)", "write-up: Scan, non-power-of-two Ns", naive_degrades)

    def padding():
        pairs = [(n, n - 3) for n in p2 if (n - 3) in ns and scan_ns(at.get(("cuda", "scan_efficient", n))) and
                 scan_ns(at.get(("cuda", "scan_efficient", n - 3)))]
        if not pairs:
            raise NotMeasured(lack("cuda", "the work-efficient scan at 2^k and 2^k − 3"))
        n, m = pairs[-1]
        r = scan_ns(at[("cuda", "scan_efficient", m)]) / scan_ns(at[("cuda", "scan_efficient", n)])
        return r > 1.05, (f"work-efficient scan at {label(m)} / at {size_label(n)}: {r:.2f}× (rule: > 1.05; winnow's "
                          "Blelloch scan pads only its last block, not the whole array to a power of two)")

    paper.check("The work-efficient scan is slower on non-power-of-two sizes (padding)", "write-up: Scan, power-of-two Ns", padding)

    def gpu_wins_compaction():
        seq, eff = at.get(("cpu", "sequential", large)), at.get(("cuda", "scan_efficient", large))
        if not (seq and eff):
            raise NotMeasured(lack("cuda", "cpu/sequential and cuda/scan_efficient at the largest n"))
        cross = next((n for n in p2 if at.get(("cpu", "sequential", n)) and at.get(("cuda", "scan_efficient", n))
                      and at[("cuda", "scan_efficient", n)].total < at[("cpu", "sequential", n)].total), None)
        return eff.total < seq.total, (f"at {size_label(large)}: GPU work-efficient compaction {eff.total / 1e6:.3f} ms, CPU "
                                       f"without scan {seq.total / 1e6:.3f} ms; the GPU first faster at "
                                       f"{size_label(cross) if cross else DASH}")

    paper.check("GPU work-efficient compaction overtakes the CPU as n grows", "write-up: Stream Compaction", gpu_wins_compaction)

    def scan_dominates():
        eff = at.get(("cuda", "scan_efficient", large))
        if not eff or not eff.phases.get("scan"):
            raise NotMeasured(lack("cuda", "cuda/scan_efficient's phases at the largest n"))
        share = eff.phases["scan"] / sum(eff.phases.values())
        return share > 0.5, (f"the scan's share of the work-efficient compaction at {size_label(large)}: {share:.1%} (rule: "
                             "> 50 %, more than the map and the scatter together; the write-up's Nsight capture: the "
                             "scatter about 2.6 %)")

    paper.check("The scan, not the scatter, dominates the GPU compaction", "write-up: Nsight kernel memory analysis", scan_dominates)
