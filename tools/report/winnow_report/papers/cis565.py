"""The CIS 565 stream-compaction write-up (Project 2, on an RTX 4060 Laptop). Its scans timed as scans come
from `winnow calibrate --api cuda` (the cis565_scan_* constants: one exclusive scan of n values at a time,
the CPU's std::exclusive_scan, the naive Hillis-Steele, the work-efficient Blelloch and thrust::exclusive_scan,
each checked against the CPU's sums before it is timed); its compactions from suite `cis565` on cpu and cuda:
the CPU without a scan (cpu/sequential) and with one (cpu/scan_compact) against the GPU's map → scan →
scatter with each scan (cuda/scan_naive, scan_efficient, scan_thrust). Sizes are powers of two and 3 less;
the block-size study runs the GPU scans at 32 … 1024 threads a block. The write-up gives its results as
plots and its test program's timings at 2^8 and 2^8 − 3; those are beside ours, and its findings are the
statements of its text, judged on our numbers.
"""

import math
import re

from .common import DASH, InputError, NotMeasured, Panel, Series, size_label

SUITE = "cis565"
APIS = ["cpu", "cuda"]
TITLE = "CIS 565 stream compaction (exclusive scans, compaction with and without a scan)"
BLOCK = "128"  # the write-up's blockSize, for every table and figure but the block-size study
# The standalone scans (calibrate's cis565_scan_<key>_n<N>[_b<B>]): key, label, plot style (the compaction using it).
SCANS = [
    ("cpu", "CPU scan", "scan_compact"),
    ("naive", "naive (Hillis-Steele)", "scan_naive"),
    ("efficient", "work-efficient (Blelloch)", "scan_efficient"),
    ("thrust", "thrust::exclusive_scan", "scan_thrust"),
]
SCAN_NAME = re.compile(r"^cis565_scan_(cpu|naive|efficient|thrust)_n(\d+)(?:_b(\d+))?$")
COMPACTIONS = [
    ("cpu", "sequential", "CPU without scan"),
    ("cpu", "scan_compact", "CPU with scan"),
    ("cuda", "scan_naive", "GPU, naive scan"),
    ("cuda", "scan_efficient", "GPU, work-efficient scan"),
    ("cuda", "scan_thrust", "GPU, thrust scan"),
]
# The write-up's test program (n = 2^8 and 2^8 − 3, its SIZE and NPOT; values below 50 for the scans, below 4
# for the compactions), ms: (power of two, 3 less). Its "cpu compact with scan" runs at the power of two only.
PUBLISHED_N = 256
PUBLISHED = [
    ("scan", "cpu", "CPU scan", (0.0005, 0.0004)),
    ("scan", "naive", "naive scan", (0.15872, 0.119808)),
    ("scan", "efficient", "work-efficient scan", (0.344064, 0.162912)),
    ("scan", "thrust", "thrust scan", (0.1024, 0.048128)),
    ("compact", ("cpu", "sequential"), "CPU compact without scan", (0.0011, 0.0007)),
    ("compact", ("cpu", "scan_compact"), "CPU compact with scan", (0.0035, None)),
    ("compact", ("cuda", "scan_efficient"), "work-efficient compact", (0.305152, 0.195584)),
]


def pow2(n):
    return n > 0 and n & (n - 1) == 0


def npot(n):
    """The write-up's non-power-of-two size: 3 less than a power of two."""
    return pow2(n + 3) and n > 3


def label(n):
    return size_label(n) if pow2(n) else f"{size_label(n + 3)} − 3"


def records(paper):
    """(api, algo, n) -> the compaction record at the write-up's block size (or without one)."""
    at = {}
    for api in APIS:
        for r in paper.sources[api].usable:
            if r.p("block") in (None, BLOCK):
                at[(api, r.algo, r.n)] = r
    return at


def standalone(cal):
    """The calibrate step's scans: (key, n) -> ns at the write-up's block (or none), and (key, n) -> {block: ns}."""
    at, blocks = {}, {}
    for name, us in cal.values.items():
        m = SCAN_NAME.match(name)
        if not m:
            continue
        if cal.units.get(name) not in (None, "µs"):
            raise InputError(f"cuda/calibrate.jsonl: {name} in {cal.units[name]}, not µs")
        key, n, b = m.group(1), int(m.group(2)), m.group(3)
        if b:
            blocks.setdefault((key, n), {})[int(b)] = us * 1e3
        if b in (None, BLOCK):
            at[(key, n)] = us * 1e3
    return at, blocks


def build(paper):
    at = records(paper)
    cal = paper.run.calibration("cuda", None, pass_model=False)
    scans, blocks = standalone(cal)
    no_scans = cal.reason or (
        "cuda/calibrate.jsonl holds no cis565_scan_* (calibrated by a winnow from before the "
        "CIS 565 scans were timed alone)"
    )
    devs = paper.devices([api for api in APIS if paper.sources[api].usable]) or "nothing measured"
    paper.intro += [
        "Write-up: an i7-14700HX and an RTX 4060 Laptop GPU, blockSize = 128, timings of the GPU work "
        f"only. Here: the compactions on {devs}; the scans alone on {cal.device if scans else DASH} "
        "(`winnow calibrate --api cuda`: the CPU scan on its host). Times in ms, medians."
    ]
    lack = lambda api, what: paper.lacking(api, what)  # noqa: E731
    published_table(paper, scans, at, no_scans, lack)
    ns = sorted({n for (_, _, n) in at})
    sns = sorted({n for (_, n) in scans})
    for kind, test in (("power-of-two", pow2), ("non-power-of-two", npot)):
        scan_table(paper, kind, [n for n in sns if test(n)], scans, no_scans)
    for kind, test in (("power-of-two", pow2), ("non-power-of-two", npot)):
        compaction_table(paper, kind, [n for n in ns if test(n)], at, lack)
    block_table(paper, blocks, no_scans)
    figure(
        paper,
        "cis565-scan.png",
        f"CIS 565: exclusive scan against n — {cal.device if scans else DASH}",
        "The write-up's scan plots: one scan of n values alone against n (log-log), power-of-two n left, 3 less "
        f"right; GPU scans at {BLOCK} threads a block.",
        sns,
        [(k, name, style) for k, name, style in SCANS],
        lambda k, n: scans.get((k, n)),
        no_scans,
    )
    figure(
        paper,
        "cis565-compaction.png",
        f"CIS 565: stream compaction against n — {devs}",
        "The write-up's compaction plots: the whole compaction (map, scan, scatter; the CPU loop without a scan) "
        "against n (log-log), power-of-two n left, 3 less right.",
        ns,
        [((api, a), name, a) for api, a, name in COMPACTIONS],
        lambda k, n: at[(*k, n)].total if (*k, n) in at else None,
        lack("cuda", "two sizes of any compaction"),
    )
    block_figure(paper, blocks, cal.device, no_scans)
    findings(paper, ns, at, scans, lack, no_scans)


def ms(v):
    """ms to four decimals; below 1 µs two significant digits, never in exponent form (the CPU's scans of 256 values)."""
    if v >= 1e-3 or v <= 0:
        return f"{v:.4f}"
    return f"{v:.{1 - math.floor(math.log10(v))}f}"


def cell(t, ns_value):
    return t.val(ns_value / 1e6 if ns_value is not None else None, ms)


def published_table(paper, scans, at, no_scans, lack):
    n, m = PUBLISHED_N, PUBLISHED_N - 3
    t = paper.table(
        "The write-up's test program: n = 256 and 256 − 3, blockSize = 128",
        note=(
            "ms; the write-up's numbers are its test program's output (one run each, on an RTX 4060 Laptop and an "
            "i7-14700HX), ours medians as in the tables below. Its scans run on values below 50, its compactions on values below 4 "
            "(3/4 valid), as ours."
        ),
    )
    t.sub(["", "write-up, 256", "here, 256", "write-up, 256 − 3", "here, 256 − 3"])
    for kind, key, name, (pub_n, pub_m) in PUBLISHED:
        if kind == "scan":
            ours = (scans.get((key, n)), scans.get((key, m)))
        else:
            ours = tuple(at[(*key, x)].total if (*key, x) in at else None for x in (n, m))
        t.add(
            [
                name,
                DASH if pub_n is None else f"{pub_n:g}",
                cell(t, ours[0]),
                DASH if pub_m is None else f"{pub_m:g}",
                cell(t, ours[1]),
            ]
        )
    if not t.filled:
        t.missing = no_scans if not scans else lack("cuda", "the compactions at 256 and 256 − 3 (suite cis565)")


def scan_table(paper, kind, ns, scans, no_scans):
    t = paper.table(
        f"Scan, {kind} n",
        note=(
            f"ms, one exclusive scan of n values below 50 alone (calibrate's cis565_scan_*), GPU at {BLOCK} threads a block."
        ),
    )
    t.sub(["n"] + [name for _, name, _ in SCANS])
    for n in ns:
        t.add([label(n)] + [cell(t, scans.get((k, n))) for k, _, _ in SCANS])
    if not t.filled:
        t.missing = no_scans


def compaction_table(paper, kind, ns, at, lack):
    t = paper.table(f"Stream compaction, {kind} n", note="ms, the whole compaction, 3/4 of the elements valid.")
    t.sub(["n"] + [name for *_, name in COMPACTIONS])
    for n in ns:
        t.add(
            [label(n)]
            + [cell(t, (at.get((api, a, n)).total if at.get((api, a, n)) else None)) for api, a, _ in COMPACTIONS]
        )
    if not t.filled:
        t.missing = lack("cpu", "the compactions (suite cis565)")


GPU_SCANS = SCANS[1:3]  # the two with a block size
ONE_BLOCK = "the calibration ran each GPU scan at one block size only"  # why the block study is empty


def block_table(paper, blocks, no_scans):
    t = paper.table(
        "Block size",
        note=(
            "ms, one GPU scan alone against the threads per block, at each size the study ran (the write-up chose 128)."
        ),
    )
    bs = sorted({b for by in blocks.values() for b in by})
    t.sub(["scan"] + [str(b) for b in bs] + ["fastest"])
    for key, name, _ in GPU_SCANS:
        for n in sorted(m for (k, m) in blocks if k == key and len(blocks[(k, m)]) > 1):
            by = blocks[(key, n)]
            t.add([f"{name}, n = {label(n)}"] + [cell(t, by.get(b)) for b in bs] + [str(min(by, key=by.get))])
    if not t.filled:
        t.missing = no_scans if not blocks else ONE_BLOCK


def figure(paper, file, title, caption, ns, lines, value, missing):
    """Time against n, a panel for powers of two and one for 3 less; lines: (key, label, style), value(key, n) -> ns."""
    f = paper.figure(file, title, caption)
    row = []
    for name, test in (("power-of-two n", pow2), ("n = 2^k − 3 (3 less than each tick)", npot)):
        xs = [n for n in ns if test(n)]
        panel = Panel(
            name,
            "n [elements]",
            "time [ms]",
            xlog=2,
            ylog=True,
            xticks=(xs, [size_label(n if pow2(n) else n + 3) for n in xs]),
        )
        for key, label_, style in lines:
            pts = [(n, value(key, n)) for n in xs if value(key, n)]
            if len(pts) >= 2:
                panel.series.append(Series(label_, [p[0] for p in pts], [p[1] / 1e6 for p in pts], style))
        if panel.series:
            row.append(panel)
    if row:
        f.rows.append(row)
    else:
        f.missing = missing


def block_figure(paper, blocks, device, missing):
    f = paper.figure(
        "cis565-blocks.png",
        f"CIS 565: the GPU scans against the block size — {device}",
        "One scan alone against the threads per block (log-log), a panel per n the study ran; the write-up "
        f"ran {BLOCK}.",
    )
    row = []
    for n in sorted({m for (k, m), by in blocks.items() if len(by) > 1}):
        bs = sorted({b for (k, m), by in blocks.items() if m == n for b in by})
        panel = Panel(
            f"n = {label(n)}", "threads per block", "time [ms]", xlog=2, ylog=True, xticks=(bs, [str(b) for b in bs])
        )
        for key, name, style in GPU_SCANS:
            by = blocks.get((key, n), {})
            if len(by) >= 2:
                panel.series.append(Series(name, sorted(by), [by[b] / 1e6 for b in sorted(by)], style))
        if panel.series:
            row.append(panel)
    if row:
        f.rows.append(row)
    else:
        f.missing = missing if not blocks else ONE_BLOCK


def findings(paper, ns, at, scans, lack, no_scans):
    def need(n, keys):
        if n is None or any(scans.get((k, n)) is None for k in keys):
            raise NotMeasured(
                no_scans if not scans else f"not every scan of {', '.join(keys)} at n = {label(n) if n else DASH}"
            )
        return {k: scans[(k, n)] for k in keys}

    p2 = [n for n in ns if pow2(n)]
    large = p2[-1] if p2 else None
    # The write-up states the scan findings in its section on non-power-of-two sizes: judged there.
    snp2 = sorted({n for (_, n) in scans if npot(n)})
    nsmall, nlarge = (snp2[0], snp2[-1]) if snp2 else (None, None)

    def cpu_small():
        got = need(nsmall, ["cpu", "naive", "efficient", "thrust"])
        gpu = min(got[k] for k in ("naive", "efficient", "thrust"))
        return got[
            "cpu"
        ] < gpu, f"at n = {label(nsmall)}: CPU {got['cpu'] / 1e3:.2f} µs, fastest GPU scan {gpu / 1e3:.2f} µs"

    paper.check("For tiny inputs the CPU scan wins", "write-up: Scan, non-power-of-two Ns", cpu_small)

    def thrust_large():
        got = need(nlarge, ["naive", "efficient", "thrust"])
        return got["thrust"] < min(got["naive"], got["efficient"]), (
            f"at n = {label(nlarge)}: thrust {got['thrust'] / 1e6:.3f} ms, work-efficient {got['efficient'] / 1e6:.3f}, "
            f"naive {got['naive'] / 1e6:.3f}"
        )

    paper.check("Thrust's scan is the fastest on large inputs", "write-up: Scan, non-power-of-two Ns", thrust_large)

    def naive_degrades():
        a, b = need(nsmall, ["naive", "efficient"]), need(nlarge, ["naive", "efficient"])
        r0, r1 = a["naive"] / a["efficient"], b["naive"] / b["efficient"]
        return r1 > r0 and r1 > 1, f"naive / work-efficient: {r0:.2f}× at {label(nsmall)}, {r1:.2f}× at {label(nlarge)}"

    paper.check(
        "The naive scan degrades fastest as n grows (O(n log n) work)",
        "write-up: Scan, non-power-of-two Ns",
        naive_degrades,
    )

    def padding():
        pairs = [
            (n, n - 3)
            for n in sorted({m for (_, m) in scans if pow2(m)})
            if scans.get(("efficient", n)) and scans.get(("efficient", n - 3))
        ]
        if not pairs:
            raise NotMeasured(no_scans if not scans else "the work-efficient scan at 2^k and 2^k − 3")
        n, m = pairs[-1]
        r = scans[("efficient", m)] / scans[("efficient", n)]
        return r > 1.05, (
            f"work-efficient scan at {label(m)} / at {size_label(n)}: {r:.2f}× (rule: > 1.05; winnow's "
            "Blelloch scan pads only its last block, not the whole array to a power of two)"
        )

    paper.check(
        "The work-efficient scan is slower on non-power-of-two sizes (padding)",
        "write-up: Scan, power-of-two Ns",
        padding,
    )

    def gpu_wins_compaction():
        seq, eff = at.get(("cpu", "sequential", large)), at.get(("cuda", "scan_efficient", large))
        if not (seq and eff):
            raise NotMeasured(lack("cuda", "cpu/sequential and cuda/scan_efficient at the largest n"))
        cross = next(
            (
                n
                for n in p2
                if at.get(("cpu", "sequential", n))
                and at.get(("cuda", "scan_efficient", n))
                and at[("cuda", "scan_efficient", n)].total < at[("cpu", "sequential", n)].total
            ),
            None,
        )
        return eff.total < seq.total, (
            f"at {size_label(large)}: GPU work-efficient compaction {eff.total / 1e6:.3f} ms, CPU "
            f"without scan {seq.total / 1e6:.3f} ms; the GPU first faster at "
            f"{size_label(cross) if cross else DASH}"
        )

    paper.check(
        "GPU work-efficient compaction overtakes the CPU as n grows", "write-up: Stream Compaction", gpu_wins_compaction
    )

    def scan_dominates():
        eff = at.get(("cuda", "scan_efficient", large))
        if not eff or not eff.phases.get("scan"):
            raise NotMeasured(lack("cuda", "cuda/scan_efficient's phases at the largest n"))
        share = eff.phases["scan"] / sum(eff.phases.values())
        return share > 0.5, (
            f"the scan's share of the work-efficient compaction at {size_label(large)}: {share:.1%} (rule: "
            "> 50 %, more than the map and the scatter together; the write-up's Nsight capture: the "
            "scatter about 2.6 %)"
        )

    paper.check(
        "The scan, not the scatter, dominates the GPU compaction",
        "write-up: Nsight kernel memory analysis",
        scan_dominates,
    )
