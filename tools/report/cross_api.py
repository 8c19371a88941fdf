#!/usr/bin/python3
"""The same shader-era passes on three paths of one GPU (issues 6 and 11): GL fragment passes (gl),
Vulkan fragment passes (vkfrag) and Vulkan compute dispatches (vk). Per algorithm and block size at
1M and 4M: each path's time, its ratio to its own pass model (passes × fixed pass cost + bytes moved /
copy bandwidth, both from `winnow calibrate` in the same session), and the ratios between paths.

Usage: tools/report/cross_api.py RESULTS_DIR
RESULTS_DIR holds records (*.jsonl in it or in subfolders: winnow bench --suite paths or --suite
moreira, one process per api) and calibrate.jsonl. A path missing from either is left out of the table, and says so.
"""
import argparse
import collections
import json
import pathlib
import statistics
import sys

IMAGES = ["finger", "i_finger", "hand", "i_hand", "bunny", "i_bunny"]
DEFAULTS = {"scan": "hillis", "runs": "doubling", "search": "fast"}
PATHS = [("gl", "GL fragment"), ("vkfrag", "Vulkan fragment"), ("vk", "Vulkan compute")]
DEFAULT_CONCAT = {"gl": "lines", "vkfrag": "lines", "vk": "copy"}  # each path's default concatenation


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    a = ap.parse_args()
    folder = pathlib.Path(a.results)
    calib = collections.defaultdict(dict)
    for line in open(folder / "calibrate.jsonl"):
        c = json.loads(line)
        calib[c["api"]][c["name"]] = c["value"]
    cells = collections.defaultdict(list)  # (algo, block, size, api) → [(ms, model ms, launches)]
    records = [f for f in sorted(folder.rglob("*.jsonl")) if f.name != "calibrate.jsonl"]
    for line in (l for f in records for l in open(f)):
        r = json.loads(line)
        if "algorithm" not in r or r["skipped"] or not r["verified"]:
            continue
        fam, size = r["case"].split(":")[:2]
        if fam not in IMAGES or size not in ("1M", "4M"):
            continue
        api, algo = r["algorithm"].split("/")
        p = r["params"]
        if api not in calib or "block" not in p:  # vk/ballot rides along in the suite: not a shader-era algorithm
            continue
        if any(p.get(k, v) != v for k, v in DEFAULTS.items()) or p.get("concat") != DEFAULT_CONCAT[api]:
            continue
        if api == "vk" and p.get("items", "4") != "4":
            continue
        model = r["launches"] * calib[api]["empty_pass_ns"] + (r["bytes_read"] + r["bytes_written"]) / calib[api]["copy_bytes_per_ns_4M"]
        cells[(algo, p["block"], size, api)].append((r["total"]["median_ns"] / 1e6, model / 1e6, r["launches"]))

    paths = [(api, title) for api, title in PATHS if any(k[3] == api for k in cells)]
    missing = [title for api, title in PATHS if (api, title) not in paths]
    if not paths:
        sys.exit("cross_api: no shader-era records with calibrate constants in " + str(folder))
    out = ["# The same passes on GL fragment, Vulkan fragment and Vulkan compute, one GPU", "",
           "Pass models (winnow calibrate, this session): " +
           "; ".join(f"{title} {calib[api]['empty_pass_ns'] / 1e3:.2f} µs per pass and {calib[api]['copy_bytes_per_ns_4M']:.4g} GB/s"
                     for api, title in paths) + ". " +
           "Times are the mean over the six images of each record's median; default parameters (Hillis-Steele; RLZ "
           "doubling + fast search; lines on the fragment paths, a copy on compute). ratio = measured / model." +
           (f" Not in these results: {', '.join(missing)}." if missing else ""), ""]
    head = "| algorithm | block | n | passes |"
    rule = "|---|---|---|---|"
    for _, title in paths:
        head += f" {title} [ms] | ratio |"
        rule += "---|---|"
    pairs = [(x, y) for x, y in [("gl", "vkfrag"), ("vkfrag", "vk"), ("gl", "vk")] if any(p[0] == x for p in paths) and any(p[0] == y for p in paths)]
    names = dict(PATHS)
    for x, y in pairs:
        head += f" {names[x]} / {names[y]} |"
        rule += "---|"
    out += [head, rule]
    worst = collections.defaultdict(dict)  # api → algo → worst ratio at 4M
    slower = collections.defaultdict(float)  # algo → worst vkfrag / gl at 4M
    for algo in ["horn", "jj", "rlz", "bt"]:
        for block in ["32", "128", "512", "2048"]:
            for size in ["1M", "4M"]:
                got = {api: cells.get((algo, block, size, api)) for api, _ in paths}
                if not any(got.values()):
                    continue
                mean = {api: (statistics.mean(x[0] for x in v), statistics.mean(x[1] for x in v), v[0][2]) for api, v in got.items() if v}
                passes = sorted({m[2] for m in mean.values()})
                row = f"| {algo} | {block} | {size} | {'/'.join(map(str, passes))} |"
                for api, _ in paths:
                    if api not in mean:
                        row += " — | — |"
                        continue
                    ms, model, _ = mean[api]
                    row += f" {ms:.3f} | {ms / model:.2f} |"
                    if size == "4M":
                        worst[api][algo] = max(worst[api].get(algo, 0), ms / model)
                for x, y in pairs:
                    row += f" {mean[x][0] / mean[y][0]:.2f}× |" if x in mean and y in mean else " — |"
                if size == "4M" and "gl" in mean and "vkfrag" in mean:
                    slower[algo] = max(slower[algo], mean["vkfrag"][0] / mean["gl"][0])
                out.append(row)
    out.append("")
    for api, title in paths:
        out.append(f"- Worst ratio to its pass model at 4M, {title}: " +
                   (", ".join(f"{k} {v:.2f}" for k, v in worst[api].items()) or "— (no 4M records)"))
    if slower:
        out.append("- Worst Vulkan fragment / GL fragment time at 4M (issue 11's target: ≤ 1): " +
                   ", ".join(f"{k} {v:.2f}" for k, v in slower.items()))
    out.append("")
    (folder / "cross_api.md").write_text("\n".join(out))
    print(f"cross_api: wrote {folder / 'cross_api.md'}")


if __name__ == "__main__":
    main()
