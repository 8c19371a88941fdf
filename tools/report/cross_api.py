#!/usr/bin/python3
"""GL fragment passes against the same passes as Vulkan compute dispatches (issue 6's cross-API
table): per algorithm and block size at 1M and 4M, each API's time, its pass model
(launches × fixed pass cost + bytes moved / bandwidth) and the ratios.

Usage: tools/report/cross_api.py RESULTS_DIR [--vk-pass-ns NS --vk-bytes-per-ns B]
RESULTS_DIR holds moreira*.jsonl (in it or in subfolders) with gl and vk records and calibrate.jsonl (gl constants). Vulkan's
constants default to DEVICE.md's H200 figures unless calibrate.jsonl has vk ones.
"""
import argparse
import collections
import json
import pathlib
import statistics

IMAGES = ["finger", "i_finger", "hand", "i_hand", "bunny", "i_bunny"]
DEFAULTS = {"scan": "hillis", "runs": "doubling", "search": "fast"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--vk-pass-ns", type=float, default=2100.0, help="DEVICE.md, H200: dispatch + barrier")
    ap.add_argument("--vk-bytes-per-ns", type=float, default=2350.0, help="DEVICE.md, H200: 2.2-2.5 TB/s")
    a = ap.parse_args()
    folder = pathlib.Path(a.results)
    calib = collections.defaultdict(dict)
    for line in open(folder / "calibrate.jsonl"):
        c = json.loads(line)
        calib[c["api"]][c["name"]] = c["value"]
    model = {
        "gl": (calib["gl"]["empty_pass_ns"], calib["gl"]["copy_bytes_per_ns_4M"], "this session (winnow calibrate)"),
        "vk": (calib["vk"].get("empty_pass_ns", a.vk_pass_ns), calib["vk"].get("copy_bytes_per_ns_4M", a.vk_bytes_per_ns),
               "this session" if "empty_pass_ns" in calib["vk"] else "DEVICE.md (H200, not this session)"),
    }
    cells = collections.defaultdict(list)  # (algo, block, size, api) → [(ms, model ms, launches)]
    for line in (l for f in sorted(folder.rglob("moreira*.jsonl")) for l in open(f)):
        r = json.loads(line)
        if r["skipped"] or not r["verified"]:
            continue
        fam, size = r["case"].split(":")[:2]
        if fam not in IMAGES or size not in ("1M", "4M"):
            continue
        p = r["params"]
        if "block" not in p:  # vk/ballot rides along in the suite: not a shader-era algorithm
            continue
        if any(p.get(k, v) != v for k, v in DEFAULTS.items()) or p.get("concat", "lines") not in ("lines", "copy"):
            continue
        api, algo = r["algorithm"].split("/")
        pass_ns, bw, _ = model[api]
        m = r["launches"] * pass_ns + (r["bytes_read"] + r["bytes_written"]) / bw
        cells[(algo, p["block"], size, api)].append((r["total"]["median_ns"] / 1e6, m / 1e6, r["launches"]))

    out = ["# GL fragment passes vs Vulkan compute dispatches, same passes, same GPU", "",
           f"Pass models: GL {model['gl'][0] / 1e3:.2f} µs per pass and {model['gl'][1]:.1f} GB/s ({model['gl'][2]}); "
           f"Vulkan {model['vk'][0] / 1e3:.2f} µs per dispatch and {model['vk'][1]:.0f} GB/s ({model['vk'][2]}). "
           "Times are the mean over the six images of each record's median; default parameters (Hillis-Steele; RLZ "
           "doubling + fast search; GL lines, Vulkan copy concatenation). ratio = measured / model.", "",
           "| algorithm | block | n | GL [ms] | GL passes | GL model [ms] | GL ratio | VK [ms] | VK dispatches | VK model [ms] | VK ratio | GL / VK |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    worst = {}
    for algo in ["horn", "jj", "rlz", "bt"]:
        for block in ["32", "128", "512", "2048"]:
            for size in ["1M", "4M"]:
                g, v = cells.get((algo, block, size, "gl")), cells.get((algo, block, size, "vk"))
                if not g or not v:
                    continue
                gm, gmod, gl_l = statistics.mean(x[0] for x in g), statistics.mean(x[1] for x in g), g[0][2]
                vm, vmod, vk_l = statistics.mean(x[0] for x in v), statistics.mean(x[1] for x in v), v[0][2]
                if size == "4M":
                    worst[algo] = max(worst.get(algo, 0), vm / vmod)
                out.append(f"| {algo} | {block} | {size} | {gm:.3f} | {gl_l} | {gmod:.3f} | {gm / gmod:.2f} | {vm:.3f} | {vk_l} | "
                           f"{vmod:.3f} | {vm / vmod:.2f} | {gm / vm:.1f}× |")
    out += ["", "Worst Vulkan ratio to its pass model at 4M, per algorithm (issue 6's target: within 1.3×): " +
            ", ".join(f"{k} {v:.2f}" for k, v in worst.items()), ""]
    (folder / "cross_api.md").write_text("\n".join(out))
    print(f"cross_api: wrote {folder / 'cross_api.md'}")


if __name__ == "__main__":
    main()
