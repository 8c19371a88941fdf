"""At the limit (issue 58): how close winnow's fastest compactions come to what the card's memory allows,
all measured in one run on one card. Three suites:
- `limit` on cuda and vk: cuda/lookback and vk/lookback against cub::DeviceSelect::If and
  thrust::copy_if, 32-bit elements at 2^20 … 2^28, 10 / 50 / 90 % valid;
- `limit-wide` on cuda and vk: the single pass with 64- and 128-bit elements at 2^27;
- `limit-redzone` on cuda: Redzone 2 with the paper's fill (order=off, the default) and the ordered fill
  (order=auto) against CUB and thrust::remove_if, marking included, at 2^24 and 2^28.
Each time stands beside the copy roofline `winnow calibrate` measured in the same run (its
roofline_bytes_per_ns: the fastest copy of the api), and Redzone's fill beside its floor (cuda's
hole_writes_us_<n>_k<percent>: one write into each hole, nothing else).

The claims judged are the project's own targets (issue 58), not a paper's: "holds" is a target met,
"changed" a target missed, with the figures that decide it.
"""

import re

from .common import DASH, NotMeasured, Panel, Series, parse_size, pc, pct, ratio_range, size_label

SUITE = "limit"
WIDE = "limit-wide"
REDZONE = "limit-redzone"
APIS = ["cuda", "vk"]
TITLE = "At the limit: the single pass against the copy roofline, Vulkan against CUDA, Redzone against CUB"
# (api, short name, label): the single pass and the libraries it is held against.
SINGLE = [
    ("cuda", "lookback", "cuda/lookback"),
    ("vk", "lookback", "vk/lookback"),
    ("cuda", "cub_if", "CUB DeviceSelect::If"),
    ("cuda", "thrust_copy_if", "thrust::copy_if"),
]
REMOVAL = [
    ("off", "Redzone 2 (order=off, the default)"),
    ("auto", "Redzone 2 (order=auto)"),
    ("cub_if", "CUB DeviceSelect::If"),
    ("thrust_remove_if", "thrust::remove_if"),
]
ROOFLINE_TARGET = 0.90  # of the copy roofline, at every density, 32-bit at 2^28 and 64- and 128-bit at 2^27
VK_TARGET = 0.95  # vk/lookback's speed over cuda/lookback's
# Over CUB at every size: the H100's roofline caps the ratio near 1.33× at 50 % valid, so it is held to less.
CUB_TARGET, CUB_TARGET_BY_CARD = 1.30, {"H100": 1.25}
REDZONE_TARGET = {0.02: 3.5, 0.1: 2.5}  # CUB's time over Redzone 2's with the ordered fill
# Where a whole run judges the targets (a quick run: at its largest size): the suites' sizes.
MIN_N, FULL_N, WIDE_N = 1 << 20, 1 << 28, 1 << 27
DENSITIES = (0.1, 0.5, 0.9)
FLOOR_NAME = re.compile(r"^hole_writes_us_(\d+[KMG]?)_k(\d+)$")


def width(r):
    """Bytes per element."""
    return int(r.p("element", "32")) // 8


def ideal_bytes(r):
    """What a compaction cannot avoid moving: the input read once, the survivors written once."""
    return (r.n + int(r.d.get("kept") or 0)) * width(r)


def keep_fastest(cells, key, r):
    """One record a cell: a suite that ran an algorithm several ways shows its fastest."""
    if key not in cells or r.total < cells[key].total:
        cells[key] = r


def select_cells(sources):
    """(api, algo, element bits, n, p) -> record, for the uniform cases of the select suites."""
    cells = {}
    for src in sources:
        for r in src.usable:
            if r.case.family == "uniform" and r.case.fkey("p") is not None:
                keep_fastest(cells, (r.api, r.algo, 8 * width(r), r.n, r.case.fkey("p")), r)
    return cells


def removal_cells(src):
    """(column, n, k) -> record: Redzone 2 by the order it was given (off, auto), the others by name."""
    cells = {}
    for r in src.usable:
        if r.case.family != "removal" or r.case.fkey("k") is None:
            continue
        col = r.given.get("order", "off") if r.algo == "redzone2" else r.algo
        keep_fastest(cells, (col, r.n, r.case.fkey("k")), r)
    return cells


class Roofline:
    """An api's copy roofline from its calibrate.jsonl on the records' device, or why there is none."""

    def __init__(self, paper, api, sources):
        device = next((s.first().get("device") for s in sources if s.usable), None)
        self.cal = paper.run.calibration(api, device, pass_model=False)
        self.bw = self.cal.values.get("roofline_bytes_per_ns") if not self.cal.reason else None
        self.reason = self.cal.reason or (
            None if self.bw else f"{api}/calibrate.jsonl has no roofline_bytes_per_ns (a calibration from before it)"
        )

    def share(self, r):
        """The roofline's time over the record's: 1.0 is a copy of the same bytes at the fastest copy's rate."""
        return ideal_bytes(r) / self.bw / r.total if self.bw and r else None


def card_target(device):
    return next((v for card, v in CUB_TARGET_BY_CARD.items() if card in (device or "")), CUB_TARGET)


def build(paper):
    wide = {api: paper.source(api, WIDE) for api in APIS}
    rz = paper.source("cuda", REDZONE)
    roof = {api: Roofline(paper, api, [paper.sources[api], wide[api]]) for api in APIS}
    sel = select_cells([paper.sources[api] for api in APIS])
    wid = select_cells(wide.values())
    rem = removal_cells(rz)
    devs = paper.devices([api for api in APIS if paper.sources[api].usable or wide[api].usable]) or "nothing measured"
    paper.intro += [
        f"Measured on {devs}. Times in µs, each record's median; a point run with several seeds shows the "
        "logarithmic mean over them. 'of roofline' is the time a copy of the bytes the compaction cannot avoid "
        "(the input read once, the survivors written once) takes at the api's fastest copy in this run "
        "(`winnow calibrate`), over the measured time. The findings are the project's targets (issue 58), not a "
        "paper's: **holds** is a target met, **changed** one missed."
    ]
    limits_table(paper, roof, rem)
    single_table(paper, sel, roof)
    wide_table(paper, wid, roof, wide)
    redzone_table(paper, rem, rz)
    floor_table(paper, rem, roof["cuda"], rz)
    roofline_figure(paper, sel, roof)
    findings(paper, sel, wid, rem, roof, wide, rz)


def us(t, ns):
    return t.val(ns / 1e3 if ns is not None else None, lambda v: f"{v:.1f}")


def share_cell(t, v):
    return t.val(v, pc)


def speed_cell(t, num, den):
    """num / den as a speed-up: how many times faster the record below the line runs."""
    return t.val(num.total / den.total if num and den else None, lambda v: f"{v:.2f}×")


def limits_table(paper, roof, rem):
    t = paper.table(
        "The limits this run measured",
        note=(
            "Each api's copy roofline (`winnow calibrate`'s roofline_bytes_per_ns: its fastest copy of the largest "
            "size, read and written bytes over time), and the floor under Redzone's fill (cuda's hole_writes_us_*: "
            "one 4-byte write into each hole a removal list of k leaves, in address order, each hole's index and "
            "source read contiguously)."
        ),
    )
    t.sub(["limit", "device", "value", "unit", "from"])
    for api in APIS:
        r = roof[api]
        t.add(
            [
                f"{api} copy roofline",
                r.cal.device if r.bw else DASH,
                t.val(r.bw, lambda v: f"{v:.0f}"),
                "GB/s",
                f"{api}/calibrate.jsonl: roofline_bytes_per_ns" if r.bw else r.reason,
            ]
        )
    for n, k, floor_us in floors(roof["cuda"]):
        name = f"hole_writes_us_{size_label(n)}_k{round(k * 100)}"
        t.add(
            [
                f"Redzone's fill floor, n = {size_label(n)}, k = {pct(k)}",
                roof["cuda"].cal.device,
                t.val(floor_us, lambda v: f"{v:.1f}"),
                "µs",
                f"cuda/calibrate.jsonl: {name}",
            ]
        )
    if not t.filled:
        t.missing = "; ".join(roof[api].reason for api in APIS if roof[api].reason)


def floors(roof):
    """[(n, k, µs)] of the fill's floor the calibration measured."""
    out = []
    for name, value in roof.cal.values.items():
        m = FLOOR_NAME.match(name)
        if m:
            out.append((parse_size(m.group(1)), int(m.group(2)) / 100, value))
    return sorted(out)


def single_table(paper, sel, roof):
    t = paper.table(
        "The single pass against the roofline and the libraries (32-bit elements)",
        note=(
            "Uniform cases, out of place. 'CUB / lookback': CUB's time over cuda/lookback's (≥ "
            f"{CUB_TARGET:.2f}× is the target, {CUB_TARGET_BY_CARD['H100']:.2f}× on an H100); 'vk / cuda speed': "
            f"cuda/lookback's time over vk/lookback's (target ≥ {VK_TARGET} at {size_label(FULL_N)}); cuda/lookback's "
            f"target: ≥ {pc(ROOFLINE_TARGET)} of the roofline at {size_label(FULL_N)}. vk/lookback's share is of "
            "Vulkan's own copy roofline, for comparison (its target is against cuda/lookback's speed). Below 2^24 the "
            "stream fits in L2, so a share can pass 100 %."
        ),
    )
    t.sub(
        [
            "n",
            "valid",
            "cuda/lookback [µs]",
            "of roofline",
            "CUB [µs]",
            "thrust::copy_if [µs]",
            "CUB / lookback",
            "thrust / lookback",
            "vk/lookback [µs]",
            "of roofline (vk)",
            "vk / cuda speed",
        ]
    )
    for n, p in sorted({(k[3], k[4]) for k in sel if k[2] == 32}):
        at = {(api, a): sel.get((api, a, 32, n, p)) for api, a, _ in SINGLE}
        cu, vk = at[("cuda", "lookback")], at[("vk", "lookback")]
        cub, thr = at[("cuda", "cub_if")], at[("cuda", "thrust_copy_if")]
        t.add(
            [
                size_label(n),
                pct(p),
                us(t, cu.total if cu else None),
                share_cell(t, roof["cuda"].share(cu)),
                us(t, cub.total if cub else None),
                us(t, thr.total if thr else None),
                speed_cell(t, cub, cu),
                speed_cell(t, thr, cu),
                us(t, vk.total if vk else None),
                share_cell(t, roof["vk"].share(vk)),
                speed_cell(t, cu, vk),
            ]
        )
    if not t.filled:
        t.missing = "; ".join(paper.lacking(api, f"suite {SUITE}") for api in APIS)
    else:
        t.after += params_lines(sel, "vk", "lookback") + chosen_lines(sel, "cuda", "lookback")


def params_lines(cells, api, algo):
    """What the records ran with where the suite set parameters (the quick suite's vk/lookback on lavapipe)."""
    given = {
        ",".join(f"{k}={v}" for k, v in sorted(r.given.items()) if k != "element")
        for key, r in cells.items()
        if key[:2] == (api, algo)
    }
    given = sorted(g for g in given if g)
    return [f"{api}/{algo} ran with {'; '.join(given)}."] if given else []


def chosen_lines(cells, api, algo):
    """What the records' "auto" parameters settled for on this device (cuda/lookback's tile and pause, which
    a probe chooses per card), by element size."""
    by_bits = {}
    for key, r in cells.items():
        if key[:2] == (api, algo) and r.d.get("chosen"):
            by_bits.setdefault(key[2], set()).add(", ".join(f"{k}={v}" for k, v in sorted(r.d["chosen"].items())))
    parts = [f"{bits}-bit {' or '.join(sorted(c))}" for bits, c in sorted(by_bits.items())]
    return [f"{api}/{algo} chose on this device: {'; '.join(parts)}."] if parts else []


def wide_table(paper, wid, roof, wide):
    t = paper.table(
        "The single pass with wide elements",
        note=(
            f"Uniform cases, out of place; cuda/lookback's target: ≥ {pc(ROOFLINE_TARGET)} of the roofline at 64 and "
            f"128 bits, {size_label(WIDE_N)}, every density."
        ),
    )
    t.sub(
        [
            "element",
            "n",
            "valid",
            "cuda/lookback [µs]",
            "of roofline",
            "vk/lookback [µs]",
            "of roofline (vk)",
            "vk / cuda speed",
        ]
    )
    for bits, n, p in sorted({(k[2], k[3], k[4]) for k in wid if k[1] == "lookback"}):
        cu, vk = wid.get(("cuda", "lookback", bits, n, p)), wid.get(("vk", "lookback", bits, n, p))
        t.add(
            [
                f"{bits}-bit",
                size_label(n),
                pct(p),
                us(t, cu.total if cu else None),
                share_cell(t, roof["cuda"].share(cu)),
                us(t, vk.total if vk else None),
                share_cell(t, roof["vk"].share(vk)),
                speed_cell(t, cu, vk),
            ]
        )
    if not t.filled:
        t.missing = "; ".join(wide[api].missing() or f"no wide element in {wide[api].rel()}" for api in APIS)
    else:
        t.after += params_lines(wid, "vk", "lookback") + chosen_lines(wid, "cuda", "lookback")


def redzone_table(paper, rem, rz):
    t = paper.table(
        "Redzone 2 against the libraries (a removal list)",
        note=(
            "Removal cases (k of n removed, uniform), every competitor with its marking phase; Redzone 2's order "
            "counted inside its time. 'CUB / …': CUB's time over that Redzone's (targets with the ordered fill, at "
            f"{size_label(FULL_N)}: "
            + ", ".join(f"≥ {v}× at k = {pct(k)}" for k, v in REDZONE_TARGET.items())
            + "). The paper's fill stays the default; 'auto chose' is the fill order=auto ran (bitmap: R ordered, "
            "off: the paper's)."
        ),
    )
    t.sub(
        ["n", "k"] + [f"{label} [µs]" for _, label in REMOVAL] + ["CUB / order=off", "CUB / order=auto", "auto chose"]
    )
    for n, k in sorted({(key[1], key[2]) for key in rem}):
        at = {col: rem.get((col, n, k)) for col, _ in REMOVAL}
        auto = at["auto"]
        t.add(
            [size_label(n), pct(k)]
            + [us(t, at[col].total if at[col] else None) for col, _ in REMOVAL]
            + [speed_cell(t, at["cub_if"], at["off"]), speed_cell(t, at["cub_if"], auto)]
            + [order_ran(auto) if auto else DASH]
        )
    if not t.filled:
        t.missing = rz.missing() or "no removal case in " + rz.rel()


def order_ran(r):
    """The fill a Redzone 2 record ran: its chosen order, or (records from before cuda/redzone2 said which)
    read from its phases: an order phase without a mark is the bitmap fill's, one with a mark a sort's."""
    chosen = r.p("order", "off")
    if chosen != "auto":
        return chosen
    if "order" not in r.phases:
        return "off"
    return "sorted" if "mark" in r.phases else "bitmap"


def floor_table(paper, rem, roof, rz):
    t = paper.table(
        "Redzone's fill against its floor",
        note=(
            "The fill phase of each Redzone 2 (µs) where the calibration measured the floor at the same n and k, "
            "and the fill's time over the floor's. The bitmap fill's phase also counts its holes and places its "
            "kept red-zone items, so its gap to the floor bounds what is left to gain from above."
        ),
    )
    t.sub(["n", "k", "floor [µs]", "fill, order=off [µs]", "over floor", "fill, order=auto [µs]", "over floor"])
    for n, k, floor_us in floors(roof):
        row = [size_label(n), pct(k), t.val(floor_us, lambda v: f"{v:.1f}")]
        for col in ("off", "auto"):
            r = rem.get((col, n, k))
            fill = r.phases.get("fill") if r else None
            row += [us(t, fill), t.val(fill / 1e3 / floor_us if fill else None, lambda v: f"{v:.2f}×")]
        t.add(row)
    if not t.filled:
        t.missing = roof.cal.reason or (
            "cuda/calibrate.jsonl holds no hole_writes_us_* (a calibration from before the floor was measured)"
            if not floors(roof)
            else rz.missing() or "no Redzone 2 record at the floor's n and k"
        )


def roofline_figure(paper, sel, roof):
    f = paper.figure(
        "limit-roofline.png",
        "The single pass and the libraries against the copy roofline — " + (paper.devices(APIS) or DASH),
        f"Share of the copy roofline against n, 32-bit elements, a panel per density; cuda/lookback's target is "
        f"{pc(ROOFLINE_TARGET)} at {size_label(FULL_N)}. Each api against its own roofline from the same run; where "
        "the stream fits in L2 (below 2^24 on an H100 or H200) a share can pass 100 %.",
    )
    f.notes += [f"{api}: not drawn, {roof[api].reason}" for api in APIS if roof[api].reason and sel_has(sel, api)]
    row = []
    for p in sorted({k[4] for k in sel if k[2] == 32}):
        panel = Panel(f"{pct(p)} valid", "n [elements]", "of the copy roofline [%]", xlog=2)
        for api, algo, label in SINGLE:
            pts = sorted((k[3], roof[api].share(r)) for k, r in sel.items() if k[:3] == (api, algo, 32) and k[4] == p)
            pts = [(n, s) for n, s in pts if s is not None]
            if len(pts) >= 2:
                style = "lookback:vk" if api == "vk" else algo
                panel.series.append(Series(label, [n for n, _ in pts], [100 * s for _, s in pts], style))
        if panel.series:
            ns = sorted({x for s in panel.series for x in s.xs})
            panel.xticks = (ns, [size_label(n) for n in ns])
            ends = [ns[0], ns[-1]]
            panel.series.append(Series("the copy roofline", ends, [100, 100], "roofline"))
            panel.series.append(
                Series(f"the target, {pc(ROOFLINE_TARGET)}", ends, [100 * ROOFLINE_TARGET] * 2, "target", ":")
            )
            row.append(panel)
    if row:
        f.rows.append(row)
        f.sharey = True
    else:
        f.missing = "; ".join(filter(None, (roof[api].reason for api in APIS))) or "; ".join(
            paper.lacking(api, "two sizes of the single pass") for api in APIS
        )


def sel_has(cells, api):
    return any(k[0] == api for k in cells)


def findings(paper, sel, wid, rem, roof, wide, rz):
    quick = paper.run.quick

    def at(cells, api, algo, bits, full_n, src):
        """The size and densities a target is judged at: in a whole run full_n at 10, 50 and 90 % valid,
        each measured (else not measured, naming what is missing: an interrupted run does not pass on
        what it has); in a quick run the largest size measured, at its densities."""
        ns = [k[3] for k in cells if k[:3] == (api, algo, bits)]
        if not ns:
            raise NotMeasured(src.missing() or f"no {api}/{algo} record at {bits} bits in {src.rel()}")
        if quick:
            n = max(ns)
            return n, fvals_of(cells, api, algo, bits, n)
        lacking = [pct(p) for p in DENSITIES if (api, algo, bits, full_n, p) not in cells]
        if lacking:
            why = src.interrupted() or src.failed()
            raise NotMeasured(
                f"{api}/{algo}, {bits}-bit, {size_label(full_n)}: no usable record at {', '.join(lacking)} valid"
                + (f" ({why})" if why else "")
            )
        return full_n, list(DENSITIES)

    def need_roofline(api):
        if roof[api].reason:
            raise NotMeasured(roof[api].reason)

    def at_roofline():
        need_roofline("cuda")
        n, ps = at(sel, "cuda", "lookback", 32, FULL_N, paper.sources["cuda"])
        got = {p: roof["cuda"].share(sel[("cuda", "lookback", 32, n, p)]) for p in ps}
        return all(v >= ROOFLINE_TARGET for v in got.values()), (
            f"cuda/lookback at {size_label(n)}: "
            + ", ".join(f"{pc(v)} at {pct(p)} valid" for p, v in sorted(got.items()))
            + f" of the {roof['cuda'].bw:.0f} GB/s roofline (target ≥ {pc(ROOFLINE_TARGET)})"
        )

    paper.check(
        f"cuda/lookback reaches {pc(ROOFLINE_TARGET)} of the copy roofline at 10, 50 and 90 % valid (32-bit, "
        f"{size_label(FULL_N)})",
        "issue 58",
        at_roofline,
    )

    def over_cub():
        src = paper.sources["cuda"]
        for algo in ("lookback", "cub_if"):  # a whole run spans 2^20 … 2^28 at every density
            for n in (MIN_N, FULL_N):
                at(sel, "cuda", algo, 32, n, src)
        pairs = {
            (k[3], k[4]): sel[("cuda", "cub_if", 32, k[3], k[4])].total / r.total
            for k, r in sel.items()
            if k[:3] == ("cuda", "lookback", 32) and ("cuda", "cub_if", 32, k[3], k[4]) in sel
        }
        if not pairs:
            raise NotMeasured(paper.lacking("cuda", "cuda/cub_if beside cuda/lookback"))
        target = card_target(src.first().get("device"))
        worst = min(pairs, key=pairs.get)
        return pairs[worst] >= target, (
            f"CUB / cuda/lookback: {ratio_range(pairs.values())} over {len(pairs)} (n, density) from "
            f"{size_label(min(n for n, _ in pairs))} to {size_label(max(n for n, _ in pairs))}; the least "
            f"{pairs[worst]:.2f}× at {size_label(worst[0])}, {pct(worst[1])} valid (target ≥ {target:.2f}× on this card)"
        )

    paper.check(
        f"cuda/lookback is at least {CUB_TARGET:.2f}× as fast as CUB at every size from {size_label(MIN_N)} to "
        f"{size_label(FULL_N)} and every density ({CUB_TARGET_BY_CARD['H100']:.2f}× on an H100)",
        "issue 58",
        over_cub,
    )

    def wide_roofline():
        need_roofline("cuda")
        got = {}
        for bits in (64, 128):
            n, ps = at(wid, "cuda", "lookback", bits, WIDE_N, wide["cuda"])
            for p in ps:
                got[(bits, n, p)] = roof["cuda"].share(wid[("cuda", "lookback", bits, n, p)])
        worst = min(got, key=got.get)
        return got[worst] >= ROOFLINE_TARGET, (
            "cuda/lookback: "
            + "; ".join(f"{b}-bit at {size_label(n)}, {pct(p)} valid: {pc(v)}" for (b, n, p), v in sorted(got.items()))
            + f" of the roofline (target ≥ {pc(ROOFLINE_TARGET)} at each)"
        )

    paper.check(
        f"cuda/lookback reaches {pc(ROOFLINE_TARGET)} of the copy roofline with 64- and 128-bit elements at 10, 50 "
        f"and 90 % valid ({size_label(WIDE_N)})",
        "issue 58",
        wide_roofline,
    )

    def vk_level():
        n, ps = at(sel, "vk", "lookback", 32, FULL_N, paper.sources["vk"])
        got = {}
        for p in ps:
            cu = sel.get(("cuda", "lookback", 32, n, p))
            if cu:
                got[p] = cu.total / sel[("vk", "lookback", 32, n, p)].total
        if len(got) < len(ps):
            raise NotMeasured(
                paper.lacking("cuda", f"cuda/lookback at {size_label(n)} at every density vk/lookback ran")
            )
        return all(v >= VK_TARGET for v in got.values()), (
            f"vk/lookback's speed over cuda/lookback's at {size_label(n)}: "
            + ", ".join(f"{v:.2f}× at {pct(p)} valid" for p, v in sorted(got.items()))
            + f" (target ≥ {VK_TARGET})"
        )

    paper.check(
        f"vk/lookback runs at {VK_TARGET}× cuda/lookback's speed or better at 10, 50 and 90 % valid "
        f"({size_label(FULL_N)})",
        "issue 58",
        vk_level,
    )

    def redzone_over_cub():
        ns = [key[1] for key in rem if key[0] == "auto"]
        if not ns:
            raise NotMeasured(rz.missing() or "no Redzone 2 record with order=auto in " + rz.rel())
        n = max(ns) if quick else FULL_N
        got = {}
        for k in REDZONE_TARGET:
            auto, cub = rem.get(("auto", n, k)), rem.get(("cub_if", n, k))
            if not (auto and cub):
                raise NotMeasured(f"Redzone 2 (order=auto) and CUB at {size_label(n)}, k = {pct(k)}: not both measured")
            got[k] = cub.total / auto.total
        return all(got[k] >= REDZONE_TARGET[k] for k in got), (
            f"CUB / Redzone 2 (order=auto) at {size_label(n)}: "
            + ", ".join(f"{got[k]:.2f}× at k = {pct(k)} (target ≥ {REDZONE_TARGET[k]}×)" for k in got)
        )

    paper.check(
        "Redzone 2 with the ordered fill beats CUB by "
        + " and ".join(f"{v}× at k = {pct(k)}" for k, v in REDZONE_TARGET.items())
        + f" ({size_label(FULL_N)}, order and marking included)",
        "issue 58",
        redzone_over_cub,
    )


def fvals_of(cells, api, algo, bits, n):
    return sorted(k[4] for k in cells if k[:4] == (api, algo, bits, n))
