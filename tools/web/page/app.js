// The page: pick cases, make them through the web build's module, run the CPU reference and the
// verifier on each, show the table and hand out the records (JSONL).
//
// The query string drives it too (the tests use it; a link can share a run):
//   ?cases=SPEC%0ASPEC…   specs (one a line), in place of the examples
//   &preset=conformance   a preset's specs (conformance, families, sizes); cases and presets in order
//   &run=1                make and check them as soon as the module is there
// window.winnowReady is true once the module is loaded and the page takes input; when a run ends,
// window.winnowResult holds {records, summary, elapsed_ms, environment}. A page that cannot start
// sets window.winnowError (tests/web/browser.py waits for these).
import { loadCorpus } from "./corpus.js";

const $ = (id) => document.getElementById(id);

const PRESETS = {
  families: [
    "all:64K",
    "none:64K",
    "single:64K",
    "alternating:64K",
    "uniform:64K:p=0.3",
    "runs:64K",
    "brownian:64K:p=0.4",
    "finger:64K",
    "i_finger:64K",
    "hand:64K",
    "i_hand:64K",
    "bunny:64K",
    "i_bunny:64K",
    "removal:64K:k=0.1",
  ],
  sizes: ["uniform:1K:p=0.5", "uniform:16K:p=0.5", "uniform:256K:p=0.5", "uniform:1M:p=0.5", "uniform:4M:p=0.5"],
};

let corpus = null;
let records = [];
let environment = {};

/// The WebGL 2 context the algorithms will run in: version, renderer (WEBGL_debug_renderer_info where
/// offered) and the timer the records will name.
function probeWebGL() {
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return { webgl: null, renderer: null, timer: "none (no WebGL 2)" };
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  const timer = gl.getExtension("EXT_disjoint_timer_query_webgl2")
    ? "EXT_disjoint_timer_query_webgl2"
    : "fences and performance.now()";
  return { webgl: gl.getParameter(gl.VERSION), renderer, timer };
}

/// ENGINE: the WebGL 2 algorithms, where the module has them (their C entry points, written apart for
/// issue 59, are named winnow_webgl_*). None yet: the panel stays disabled, with its note. When they
/// come, this returns what the algorithm and parameter pickers offer, and the "run" button runs them
/// on the cases made here, verified with corpus.verify and recorded in winnow's JSONL schema.
function engine(module) {
  const entries = Object.keys(module).filter((k) => k.startsWith("_winnow_webgl_"));
  return entries.length ? { entries } : null;
}

function specsOf(text) {
  return text
    .split("\n")
    .map((s) => s.trim())
    .filter((s) => s !== "" && !s.startsWith("#"));
}

function addSpecs(specs) {
  const area = $("specs");
  const text = area.value.replace(/\s*$/, "");
  area.value = (text ? text + "\n" : "") + specs.join("\n");
}

function presetSpecs(name) {
  if (name === "conformance") return corpus.conformanceCases();
  return PRESETS[name] ?? [];
}

const fmt = new Intl.NumberFormat("en-US");
const ms = (x) => (x === undefined ? "" : x < 10 ? x.toFixed(2) : x.toFixed(1));

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function addRow(i, r) {
  const row = $("results").tBodies[0].insertRow();
  row.className = r.status;
  cell(row, String(i + 1), "num dim");
  const name = cell(row, r.case ?? r.spec, "spec");
  if (r.case && r.case !== r.spec) name.title = `asked: ${r.spec}`;
  if (r.status === "refused") {
    const td = cell(row, `refused: ${r.message}`, "message");
    td.colSpan = 6;
    return;
  }
  cell(row, fmt.format(r.n), "num");
  cell(row, `${fmt.format(r.valid)} (${r.n ? ((100 * r.valid) / r.n).toFixed(1) : "0"} %)`, "num");
  cell(row, r.checksum, "mono");
  const verdict = cell(row, r.status === "ok" ? "✓ verified" : `✗ ${r.message || r.verified}`, "verdict");
  verdict.title = `reference checksum ${r.reference_checksum}`;
  cell(row, ms(r.make_ms), "num");
  cell(row, ms(r.reference_ms), "num");
}

function summarize(list) {
  const count = (s) => list.filter((r) => r.status === s).length;
  return { cases: list.length, verified: count("ok"), refused: count("refused"), wrong: count("wrong") + count("error") };
}

function summaryText(s) {
  let text = `${s.cases} case${s.cases === 1 ? "" : "s"}: ${s.verified} made and verified`;
  if (s.refused) text += `, ${s.refused} refused`;
  if (s.wrong) text += `, ${s.wrong} wrong`;
  return text;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0)); // lets the page draw

async function makeAll() {
  const specs = specsOf($("specs").value);
  const button = $("make");
  button.disabled = true;
  $("download").disabled = true;
  $("results").tBodies[0].replaceChildren();
  records = [];
  const progress = $("progress");
  progress.max = Math.max(1, specs.length);
  progress.value = 0;
  const start = performance.now();
  for (const [i, spec] of specs.entries()) {
    $("progress-text").textContent = `${i} / ${specs.length} · ${spec}`;
    await tick();
    let r;
    try {
      r = corpus.make(spec);
    } catch (e) {
      r = { kind: "case", spec, status: "error", message: String(e) };
    }
    r.browser = navigator.userAgent;
    records.push(r);
    addRow(i, r);
    progress.value = i + 1;
  }
  const elapsed = performance.now() - start;
  const summary = summarize(records);
  $("progress-text").textContent = `${summaryText(summary)} · ${(elapsed / 1000).toFixed(2)} s`;
  $("summary").textContent = summaryText(summary);
  button.disabled = false;
  $("download").disabled = records.length === 0;
  window.winnowResult = { records, summary, elapsed_ms: elapsed, environment };
}

function download() {
  const text = records.map((r) => JSON.stringify(r)).join("\n") + "\n";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
  a.download = `winnow-cases-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function addImage(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  addSpecs([corpus.addFile(file.name, bytes)]);
}

function wire() {
  $("make").addEventListener("click", makeAll);
  $("download").addEventListener("click", download);
  $("clear").addEventListener("click", () => ($("specs").value = ""));
  $("preset").addEventListener("change", (e) => {
    addSpecs(presetSpecs(e.target.value));
    e.target.value = "";
  });
  $("file").addEventListener("change", async (e) => {
    for (const f of e.target.files) await addImage(f);
    e.target.value = "";
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    for (const f of e.dataTransfer.files) await addImage(f);
  });
}

async function main() {
  const gl = probeWebGL();
  $("env-webgl").textContent = gl.webgl ? `${gl.webgl} · ${gl.renderer}` : "not offered by this browser";
  $("env-timer").textContent = gl.timer;
  try {
    corpus = await loadCorpus();
  } catch (e) {
    $("env-module").textContent = String(e.message ?? e);
    $("env-module").className = "bad";
    window.winnowError = String(e.message ?? e);
    return;
  }
  const algorithms = engine(corpus.m);
  environment = { ...gl, module: "winnow_web.js", engine: algorithms ? algorithms.entries : null };
  $("env-module").textContent = `winnow_web.js · corpus, reference, verifier${algorithms ? " · WebGL 2 algorithms" : ""}`;
  // ENGINE: with algorithms, enable the panel and wire "run" here; until then it stays disabled.
  if (algorithms)
    $("engine-note").textContent =
      `This module has the WebGL 2 entry points (${algorithms.entries.length}: ${algorithms.entries.join(", ")}), ` +
      "but the page does not drive them yet: it makes the cases, runs the CPU reference and checks it; no GPU result is shown.";
  wire();
  // cases and presets from the query, in its order, in place of the examples.
  const query = new URLSearchParams(location.search);
  if (query.has("cases") || query.has("preset")) $("specs").value = "";
  for (const [key, value] of query) {
    if (key === "cases") addSpecs(specsOf(value));
    if (key === "preset") addSpecs(presetSpecs(value));
  }
  $("make").disabled = false;
  window.winnowReady = true;
  if (query.get("run") === "1") await makeAll();
}

main().catch((e) => {
  console.error(e);
  window.winnowError = String(e.stack ?? e);
});
