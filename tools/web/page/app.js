// The page: pick cases, make them through the web build's module, run the CPU reference and the
// verifier on each; run a WebGL 2 algorithm on them (the module's webgl path, every result checked);
// show the tables and hand out the records (JSONL).
//
// The query string drives it too (the tests use it; a link can share a run):
//   ?cases=SPEC%0ASPEC…   specs (one a line), in place of the examples
//   &preset=conformance   a preset's specs (conformance, families, sizes); cases and presets in order
//   &run=1                make and check them as soon as the module is there
//   &trace=webgl/horn     trace that algorithm on the first case (&params=block=64 its parameters)
//                         once the module is there; winnowResult is then {kind: "trace", trace, elapsed_ms},
//                         and window.winnowTracePng(i) gives pass i's picture as a PNG file in base64
// window.winnowReady is true once the module is loaded and the page takes input; when a list ends,
// window.winnowResult holds {kind: "cases" or "runs", records, summary, elapsed_ms, environment}. A
// page that cannot start sets window.winnowError (tests/web/browser.py waits for these).
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
let engine = null; // startEngine's answer
let records = []; // the last list's: case records, or winnow's run records (what Download hands out)
let recordsKind = "cases";
let lines = []; // the run records' JSON lines, as the module wrote them
let environment = {};

/// The WebGL 2 context the algorithms will run in: version, renderer (WEBGL_debug_renderer_info where
/// offered) and whether it offers a timer query.
function probeWebGL() {
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return { webgl: null, renderer: null, timer: "none (no WebGL 2)" };
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  const timer = gl.getExtension("EXT_disjoint_timer_query_webgl2")
    ? "EXT_disjoint_timer_query_webgl2 offered"
    : "no timer query offered";
  return { webgl: gl.getParameter(gl.VERSION), renderer, timer };
}

/// ENGINE: the WebGL 2 algorithms (tools/web/webgl_api.cpp: gl/'s executor, plans and shaders) on the
/// page's canvas: {device, algorithms: [{name, summary, stable, params: [{key, default, values, help}]}]},
/// or {reason} where the module or the browser has none.
function startEngine(m) {
  if (typeof m._winnow_webgl_run !== "function")
    return { reason: "This build of winnow_web.js has no WebGL 2 algorithms (tools/web/webgl_api.cpp)." };
  const text = (p) => m.UTF8ToString(p);
  if (m.ccall("winnow_webgl_use_canvas", "number", ["string"], ["#gl"]) !== 0)
    return { reason: text(m._winnow_webgl_message()) };
  const device = text(m._winnow_webgl_device());
  if (device === "") return { reason: `No WebGL 2 context: ${text(m._winnow_webgl_message())}` };
  return { device, algorithms: JSON.parse(text(m._winnow_webgl_algorithms())) };
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

function paramsText(params) {
  if (params && typeof params === "object")
    return Object.entries(params)
      .map(([k, v]) => `${k}=${v}`)
      .join(",");
  return String(params ?? "");
}

function addRunRow(i, r) {
  const row = $("runs").tBodies[0].insertRow();
  const rec = r.record;
  row.className = r.status;
  cell(row, String(i + 1), "num dim");
  const algo = cell(row, r.algorithm, "spec");
  if (rec) algo.title = paramsText(rec.params);
  cell(row, rec?.case ?? r.spec, "spec");
  if (!rec) {
    cell(row, `refused: ${r.message}`, "message").colSpan = 5;
    return;
  }
  cell(row, fmt.format(rec.n), "num");
  cell(row, fmt.format(rec.kept), "num");
  const text = r.status === "ok" ? "✓ verified" : r.status === "skipped" ? r.message : `✗ ${r.message}`;
  cell(row, text, "verdict");
  cell(row, rec.total ? ms(rec.total.median_ns / 1e6) : "", "num");
  const timer = cell(row, (rec.timer ?? "").replace(/ \(.*$/, ""), "dim");
  timer.title = rec.timer ?? "";
}

/// Runs the chosen algorithm on every case of the list through the module's harness (warm-up, timed
/// repetitions, the result checked against the reference): one record a case, as `winnow bench` writes.
async function runAll() {
  const m = corpus.m;
  const specs = specsOf($("specs").value);
  const algorithm = $("algorithm").value;
  const params = $("params").value.trim();
  const reps = Math.max(1, Number($("reps").value) || 1);
  const warmup = Math.max(0, Number($("warmup").value) || 0);
  setBusy(true);
  $("runs").hidden = false;
  $("runs").tBodies[0].replaceChildren();
  const list = [];
  const start = performance.now();
  for (const [i, spec] of specs.entries()) {
    $("progress-text").textContent = `${i} / ${specs.length} · ${algorithm} · ${spec}`;
    $("progress").value = i;
    await tick();
    // async: the module returns to the browser while it waits for a timer query's result.
    const rc = await m.ccall(
      "winnow_webgl_run",
      "number",
      ["string", "string", "string", "number", "number"],
      [algorithm, params, spec, reps, warmup],
      { async: true },
    );
    const message = corpus.text(m._winnow_webgl_message());
    const r = { algorithm, params, spec, message, record: null, status: "refused" };
    if (rc === 0) {
      r.line = corpus.text(m._winnow_webgl_record()); // downloaded as the module wrote it
      r.record = JSON.parse(r.line);
      r.status = m._winnow_webgl_verified() === 1 ? "ok" : r.record.skipped ? "skipped" : "wrong";
    }
    list.push(r);
    addRunRow(i, r);
  }
  $("progress").value = specs.length;
  const count = (s) => list.filter((r) => r.status === s).length;
  const summary = {
    runs: list.length,
    verified: count("ok"),
    wrong: count("wrong"),
    skipped: count("skipped"),
    refused: count("refused"),
  };
  let text = `${algorithm}: ${summary.runs} run${summary.runs === 1 ? "" : "s"}, ${summary.verified} verified`;
  for (const k of ["wrong", "skipped", "refused"]) if (summary[k]) text += `, ${summary[k]} ${k}`;
  lines = list.filter((r) => r.line).map((r) => r.line);
  finish(
    "runs",
    list.filter((r) => r.record).map((r) => r.record),
    { kind: "runs", runs: list, summary },
    text,
    start,
  );
}

/// Traces the chosen algorithm on the list's first case one pass at a time (winnow_webgl_trace: the
/// same trace() and pictures as `winnow trace`): a figure a pass, its picture, name and time.
async function traceFirst() {
  const m = corpus.m;
  const spec = specsOf($("specs").value)[0] ?? "";
  const algorithm = $("algorithm").value;
  const params = $("params").value.trim();
  setBusy(true);
  $("progress-text").textContent = `tracing ${algorithm} on ${spec}`;
  await tick();
  const start = performance.now();
  const rc = await m.ccall("winnow_webgl_trace", "number", ["string", "string", "string"], [algorithm, params, spec], {
    async: true,
  });
  const panel = $("trace-panel");
  panel.hidden = false;
  $("passes").replaceChildren();
  if (rc !== 0) {
    const message = corpus.text(m._winnow_webgl_message());
    $("trace-title").textContent = `${algorithm} on ${spec}: refused: ${message}`;
    finish("cases", records, { kind: "trace", trace: null, message }, `trace refused: ${message}`, start);
    return;
  }
  const trace = JSON.parse(corpus.text(m._winnow_webgl_trace_json()));
  $("trace-title").textContent = `${trace.algorithm} ${paramsText(trace.params)} · ${trace.case} · ${trace.passes.length} passes`;
  for (const [i, pass] of trace.passes.entries()) $("passes").append(passFigure(m, i, pass));
  finish("cases", records, { kind: "trace", trace }, `traced ${trace.passes.length} passes`, start);
  panel.scrollIntoView();
}

/// Pass i of the last trace as a figure: its picture (the module's RGB bytes) and a caption.
function passFigure(m, i, pass) {
  const { width, height } = pass.picture;
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const rgb = m.HEAPU8.subarray(m._winnow_webgl_trace_rgb(i), m._winnow_webgl_trace_rgb(i) + width * height * 3);
  const image = new ImageData(width, height);
  for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
    image.data[q] = rgb[p];
    image.data[q + 1] = rgb[p + 1];
    image.data[q + 2] = rgb[p + 2];
    image.data[q + 3] = 255;
  }
  canvas.getContext("2d").putImageData(image, 0, 0);
  const figure = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = `${pass.number} · ${pass.phase} · ${pass.name}${pass.ns ? ` · ${ms(pass.ns / 1e6)} ms` : ""}`;
  caption.title = `shader ${pass.shader || "none"} · ${pass.width} × ${pass.height} · words ${pass.words_fnv1a}`;
  figure.append(canvas, caption);
  return figure;
}

/// Pass i's picture of the last trace as the PNG file `winnow trace` writes, in base64.
window.winnowTracePng = (i) => {
  const m = corpus.m;
  const p = m._winnow_webgl_trace_png(i);
  const bytes = m.HEAPU8.subarray(p, p + m._winnow_webgl_trace_png_bytes());
  let text = "";
  for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(text);
};

function setBusy(busy) {
  for (const id of ["make", "run", "trace", "download"]) $(id).disabled = busy;
  const progress = $("progress");
  progress.max = Math.max(1, specsOf($("specs").value).length);
  progress.value = 0;
}

/// The end of a list: the records Download hands out, the summary, and window.winnowResult.
function finish(kind, list, result, text, start) {
  const elapsed = performance.now() - start;
  records = list;
  recordsKind = kind;
  $("progress-text").textContent = `${text} · ${(elapsed / 1000).toFixed(2)} s`;
  $("summary").textContent = text;
  $("make").disabled = false;
  $("run").disabled = false;
  $("trace").disabled = false;
  $("download").disabled = records.length === 0;
  $("download").textContent = `Download JSONL (${records.length} ${kind === "runs" ? "run records" : "cases"})`;
  window.winnowResult = { ...result, records: result.records ?? list, elapsed_ms: elapsed, environment };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0)); // lets the page draw

async function makeAll() {
  const specs = specsOf($("specs").value);
  setBusy(true);
  $("results").hidden = false;
  $("results").tBodies[0].replaceChildren();
  const list = [];
  const start = performance.now();
  for (const [i, spec] of specs.entries()) {
    $("progress-text").textContent = `${i} / ${specs.length} · ${spec}`;
    $("progress").value = i;
    await tick();
    let r;
    try {
      r = corpus.make(spec);
    } catch (e) {
      r = { kind: "case", spec, status: "error", message: String(e) };
    }
    r.browser = navigator.userAgent;
    list.push(r);
    addRow(i, r);
  }
  $("progress").value = specs.length;
  const summary = summarize(list);
  finish("cases", list, { kind: "cases", records: list, summary }, summaryText(summary), start);
}

/// What Download hands out: the last list's records, one JSON line each (the tests read it too).
function downloadText() {
  return (recordsKind === "runs" ? lines : records.map((r) => JSON.stringify(r))).join("\n") + "\n";
}
window.winnowDownloadText = downloadText;

function download() {
  const text = downloadText();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
  const kind = recordsKind === "runs" ? "webgl" : "cases";
  a.download = `winnow-${kind}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function addImage(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  addSpecs([corpus.addFile(file.name, bytes)]);
}

/// ENGINE: the panel, from startEngine's answer: the pickers filled and enabled, or the reason.
function showEngine() {
  const note = $("engine-note");
  if (!engine.device) {
    note.textContent = `${engine.reason} The page makes the cases, runs the CPU reference and checks it; no GPU result is shown.`;
    return;
  }
  const select = $("algorithm");
  for (const a of engine.algorithms) select.add(new Option(a.name.replace(/^webgl\//, ""), a.name));
  const describe = () => {
    const a = engine.algorithms.find((x) => x.name === select.value);
    $("algorithm-summary").textContent = `${a.summary}${a.stable ? " (stable)" : ""}`;
    $("params").placeholder = a.params.map((p) => `${p.key}=${p.default}`).join(",") || "none";
    $("params-help").textContent = a.params.map((p) => `${p.key}: ${p.values.join(", ")}`).join(" · ");
    $("params-help").title = a.params.map((p) => `${p.key}: ${p.help}`).join("\n");
  };
  select.addEventListener("change", describe);
  describe();
  $("engine").disabled = false;
  note.className = "hint";
  note.textContent = `On ${engine.device.split(" — ")[0]}. Records are winnow's (api webgl); winnow compare reads them.`;
}

function wire() {
  $("make").addEventListener("click", makeAll);
  $("run").addEventListener("click", runAll);
  $("trace").addEventListener("click", traceFirst);
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
  engine = startEngine(corpus.m);
  environment = { ...gl, module: "winnow_web.js", engine: engine.device ?? null };
  $("env-module").textContent = `winnow_web.js · corpus, reference, verifier${engine.device ? " · WebGL 2 algorithms" : ""}`;
  showEngine();
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
  if (query.has("trace") && engine.device) {
    $("algorithm").value = query.get("trace");
    $("algorithm").dispatchEvent(new Event("change")); // its summary and parameters' hints
    $("params").value = query.get("params") ?? "";
    await traceFirst();
  } else if (query.get("run") === "1") await makeAll();
}

main().catch((e) => {
  console.error(e);
  window.winnowError = String(e.stack ?? e);
});
