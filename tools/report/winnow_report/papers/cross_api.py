"""The same shader-era passes on three paths of one GPU (issues 6 and 11), suite `paths`: GL fragment
passes (gl), Vulkan fragment passes (vkfrag), Vulkan compute dispatches (vk). Per algorithm, block
and size: each path's time, its ratio to its own pass model (passes × empty-pass cost + bytes moved /
copy bandwidth, from `winnow calibrate` in the same run), and the ratios between paths.

The claims judged are the project's own (docs/design-notes.md, "The cross-API report"; issue 11), not a
paper's: the fragment bandwidth belongs to the pipeline, not the API; Vulkan's pass is cheaper;
vkfrag no slower than GL; every path within 1.3× of its model; compute faster than fragments.
"""

from .common import DASH, NotMeasured, first_few, is_shader_default, mean, ratio_range, size_label

SUITE = "paths"
APIS = ["gl", "vkfrag", "vk"]
TITLE = "Cross-API: the same passes on GL fragment, Vulkan fragment and Vulkan compute"
PATHS = {"gl": "GL fragment", "vkfrag": "Vulkan fragment", "vk": "Vulkan compute"}
ALGOS = ["horn", "jj", "rlz", "bt"]
IMAGES = {"finger", "i_finger", "hand", "i_hand", "bunny", "i_bunny"}
PAIRS = [("gl", "vkfrag"), ("vkfrag", "vk"), ("gl", "vk")]
MODEL_TARGET = 1.3  # issue 11: each path within 1.3× of its own pass model


def cells_of(paper):
    """(algo, block, n, api) -> [(ms, model ms or None, launches)], and each api's calibration."""
    cells, calib = {}, {}
    for api in APIS:
        src = paper.sources[api]
        if not src.usable:
            continue
        calib[api] = paper.run.calibration(api, src.first().get("device"))
        for r in src.usable:
            if r.algo not in ALGOS or not r.p("block") or r.case.family not in IMAGES:
                continue  # vk/ballot and vk/lookback ride along in the suite: not shader-era passes
            if not is_shader_default(r, api):
                continue
            model = calib[api].model_ns(r)
            cells.setdefault((r.algo, int(r.p("block")), r.n, api), []).append(
                (r.total / 1e6, model / 1e6 if model else None, r.d.get("launches"))
            )
    return cells, calib


def summary(cells, key):
    """(mean ms, mean model ms or None, launches) over the six images of one cell."""
    v = cells.get(key)
    if not v:
        return None
    models = [x[1] for x in v]
    return mean(x[0] for x in v), mean(models) if all(m is not None for m in models) else None, v[0][2]


def build(paper):
    cells, calib = cells_of(paper)
    paths = [api for api in APIS if any(k[3] == api for k in cells)]
    paper.intro += [
        "Times are the mean over the six images of each record's median, default parameters (Hillis-Steele; "
        "RLZ doubling + fast search; on the fragment paths rectangles 8 rows high over an output laid out "
        "in stacks, concat=stacks, or in records before it concat=auto, the probe's lines; a copy on compute). "
        "ratio = measured / the path's pass model."
    ]
    constants(paper, calib)
    t = paper.table(
        "Each algorithm on the three paths",
        note=(
            "ms and ratio to the path's own model per path; the last columns divide one path's time by another's."
            + "".join(
                f" {PATHS[api]}: not in this run ({paper.sources[api].missing() or 'no shader-era record'})."
                for api in APIS
                if api not in paths
            )
        ),
    )
    pairs = [(x, y) for x, y in PAIRS if x in paths and y in paths]
    head = ["algorithm", "block", "n", "passes"]
    for api in paths:
        head += [f"{PATHS[api]} [ms]", "ratio"]
    head += [f"{x} / {y}" for x, y in pairs]
    t.sub(head)
    for algo in ALGOS:
        for block in sorted({k[1] for k in cells if k[0] == algo}):
            for n in sorted({k[2] for k in cells if k[0] == algo and k[1] == block}):
                s = {api: summary(cells, (algo, block, n, api)) for api in paths}
                passes = sorted({v[2] for v in s.values() if v})
                row = [algo, block, size_label(n), "/".join(map(str, passes))]
                for api in paths:
                    v = s[api]
                    row += [t.val(v[0] if v else None), f"{v[0] / v[1]:.2f}" if v and v[1] else DASH]
                row += [f"{s[x][0] / s[y][0]:.2f}×" if s[x] and s[y] else DASH for x, y in pairs]
                t.add(row)
    if not t.filled:
        t.missing = "; ".join(f"{api}: {paper.lacking(api, 'the image cases with default parameters')}" for api in APIS)
    findings(paper, cells, calib, paths)


def constants(paper, calib):
    t = paper.table(
        "Pass-model constants",
        note=(
            "From each api's calibrate.jsonl, measured on the records' device (never another's): the cost of an "
            "empty pass and the bandwidth of the largest copy pass measured (the items=N copy where the records run "
            "N items per invocation)."
        ),
    )
    t.sub(["path", "device", "empty pass [µs]", "copy [GB/s]", "from"])
    for api in APIS:
        src = paper.sources[api]
        if api not in calib:
            t.add([PATHS[api], DASH, DASH, DASH, src.missing() or "no records"])
            continue
        c = calib[api]
        items = next((r.p("items") for r in src.usable if r.p("items")), None)
        bw, name = c.copy(items) if c.ok else (None, None)
        t.add(
            [
                PATHS[api],
                src.first().get("device"),
                t.val(c.empty_pass_ns if c.ok else None, lambda v: f"{v / 1e3:.2f}"),
                t.val(bw, lambda v: f"{v:.4g}"),
                name or c.reason,
            ]
        )
    if not t.filled:
        t.missing = "; ".join(
            f"{api}: {calib[api].reason if api in calib else paper.sources[api].missing()}" for api in APIS
        )


def findings(paper, cells, calib, paths):
    def need_paths(*apis):
        for api in apis:
            if api not in paths:
                raise NotMeasured(
                    f"{PATHS[api]}: " + (paper.sources[api].missing() or "no shader-era record with default parameters")
                )

    def need_calib(*apis):
        need_paths(*apis)
        for api in apis:
            if not calib[api].ok:
                raise NotMeasured(calib[api].reason)

    def same_bandwidth():
        need_calib("gl", "vkfrag")
        g, gn = calib["gl"].copy()
        v, vn = calib["vkfrag"].copy()
        return (
            abs(g / v - 1) <= 0.10,
            f"copy pass: GL {g:.4g} GB/s ({gn}), Vulkan fragment {v:.4g} GB/s ({vn}): ratio {g / v:.2f} (rule: within 10 %)",
        )

    paper.check(
        "A fragment pass moves the same bandwidth through GL and through Vulkan", "H200 run 3, issue 11", same_bandwidth
    )

    def cheaper_pass():
        need_calib("gl", "vkfrag")
        g, v = calib["gl"].empty_pass_ns, calib["vkfrag"].empty_pass_ns
        return v < g, f"empty pass: GL {g / 1e3:.2f} µs, Vulkan fragment {v / 1e3:.2f} µs ({g / v:.2f}×)"

    paper.check(
        "An empty fragment pass costs less through Vulkan than through GL", "H200 run 3, issue 11", cheaper_pass
    )

    def largest_n(apis):
        ns = [n for n in {k[2] for k in cells} if all(any(k[2] == n and k[3] == a for k in cells) for a in apis)]
        if not ns:
            raise NotMeasured("no size measured on " + " and ".join(PATHS[a] for a in apis))
        return max(ns)

    def vkfrag_vs_gl():
        need_paths("gl", "vkfrag")
        n = largest_n(["gl", "vkfrag"])
        r = {}
        for algo, block, m, api in cells:
            if m == n and api == "gl" and summary(cells, (algo, block, n, "vkfrag")):
                r[f"{algo} B={block}"] = (
                    summary(cells, (algo, block, n, "vkfrag"))[0] / summary(cells, (algo, block, n, "gl"))[0]
                )
        worst = max(r, key=r.get)
        return all(v <= 1.0 for v in r.values()), (
            f"Vulkan fragment / GL at {size_label(n)}: {ratio_range(r.values())} "
            f"over {len(r)} (algorithm, block); worst {worst} {r[worst]:.2f} (target ≤ 1)"
        )

    paper.check(
        "The same passes are no slower on Vulkan fragment than on GL (target: ratio ≤ 1 at the largest size)",
        "issue 11",
        vkfrag_vs_gl,
    )

    for api in APIS:

        def within_model(api=api):
            need_calib(api)
            n = largest_n([api])
            r = {}
            for algo, block, m, a in cells:
                v = summary(cells, (algo, block, m, a))
                if a == api and m == n and v[1]:
                    r[f"{algo} B={block}"] = v[0] / v[1]
            if not r:
                raise NotMeasured(f"no {api} record with launches and bytes to model")
            worst = max(r, key=r.get)
            return r[worst] <= MODEL_TARGET, (
                f"measured / model at {size_label(n)}: {ratio_range(r.values())}; "
                f"worst {worst} {r[worst]:.2f} (target ≤ {MODEL_TARGET})"
            )

        paper.check(f"Each path runs within {MODEL_TARGET}× of its own pass model", "issue 11", within_model, scope=api)

    def compute_fastest():
        need_paths("vk")
        if not any(a in paths for a in ("gl", "vkfrag")):
            need_paths("gl")
        speed, slower = [], []
        for algo, block, n, api in cells:
            if api != "vk":
                continue
            vk = summary(cells, (algo, block, n, "vk"))[0]
            frag = [summary(cells, (algo, block, n, a)) for a in ("gl", "vkfrag")]
            frag = [f[0] for f in frag if f]
            if frag:
                speed.append(min(frag) / vk)
                if vk >= min(frag):
                    slower.append(f"{algo} B={block} {size_label(n)}")
        if not speed:
            raise NotMeasured("no (algorithm, block, size) measured on compute and on a fragment path")
        return not slower, (
            f"fastest fragment path / compute: {ratio_range(speed)} over {len(speed)} cells"
            + (f"; compute not faster in {len(slower)}: {first_few(slower, 4, ', ')}" if slower else "")
        )

    paper.check(
        "Compute dispatches are faster than fragment passes for every algorithm, block and size",
        "H200 run 3, issue 11",
        compute_fastest,
    )
