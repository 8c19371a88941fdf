// The page's hold on the web build's module (winnow_web.js: tools/web/corpus_api.cpp, winnow::common
// compiled to wasm): make a case by its spec, as the CLI takes it, with the same bytes as natively;
// run the reference compaction; check any output with the native verifier. One case at a time: making
// one replaces the last in the module.

/// Loads `url` (a -sMODULARIZE script defining the global factory winnow_web) and resolves to a Corpus.
export async function loadCorpus(url = "winnow_web.js") {
  await new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.onload = resolve;
    script.onerror = () =>
      reject(new Error(`${url} did not load: build the page and serve it with tools/web.sh (tools/web/README.md)`));
    document.head.append(script);
  });
  if (typeof window.winnow_web !== "function") throw new Error(`${url} defines no winnow_web factory`);
  return new Corpus(await window.winnow_web());
}

/// FNV-1a 64 (winnow::checksum) over the little-endian bytes of each Uint32Array, in 32-bit halves
/// (no BigInt: a 4M case is 24M bytes). The prime is 2^40 + 0x1b3. 16 hex digits.
export function fnv(arrays) {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const words of arrays)
    for (let i = 0; i < words.length; ++i) {
      const x = words[i];
      for (let b = 0; b < 32; b += 8) {
        lo = (lo ^ ((x >>> b) & 0xff)) >>> 0;
        const low = lo * 0x1b3; // below 2^41: exact
        hi = (Math.imul(hi, 0x1b3) + Math.floor(low / 4294967296) + (lo << 8)) >>> 0;
        lo = low >>> 0;
      }
    }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}

export class Corpus {
  constructor(module) {
    this.m = module;
  }

  text(p) {
    return this.m.UTF8ToString(p);
  }

  /// A copy of n words at byte offset p (the module's memory may grow, and its views with it).
  words(p, n) {
    return this.m.HEAPU32.slice(p >>> 2, (p >>> 2) + n);
  }

  /// The conformance sample (corpus.hpp's conformance_cases), every spec.
  conformanceCases() {
    return this.text(this.m._winnow_conformance_cases())
      .split("\n")
      .filter((s) => s !== "");
  }

  /// Puts an image's bytes where a file: spec finds them (the module's in-memory file system, in its
  /// working folder "/") and returns that spec. The name keeps letters, digits, '.', '-' and '_' only:
  /// ':' would end the path in the spec's grammar.
  addFile(name, bytes) {
    const safe = name.replace(/[^A-Za-z0-9._-]/g, "_") || "image.pgm";
    this.m.FS.writeFile(`/${safe}`, bytes);
    return `file:${safe}`;
  }

  /// The verifier's verdict on `values` (a Uint32Array) as a compaction of the current case: "ok", or
  /// the native verifier's message naming the first difference. `stable`: element by element, else
  /// as a multiset.
  verify(values, stable) {
    const m = this.m;
    const p = m._malloc(Math.max(4, values.length * 4));
    m.HEAPU32.set(values, p >>> 2);
    const wrong = m._winnow_verify(p, values.length, stable ? 1 : 0);
    m._free(p);
    return wrong ? this.text(m._winnow_message()) : "ok";
  }

  /// Makes `spec` the current case, runs the reference and checks it with the verifier. A record
  /// (JSONL's "kind": "case"): the spec as asked and as the native build prints it ("case"), its
  /// sizes, its checksum and the reference's, the verdict, and the times [ms]. A spec refused has
  /// "status": "refused" and the native build's message.
  make(spec) {
    const m = this.m;
    const t0 = performance.now();
    const refused = m.ccall("winnow_make_case", "number", ["string"], [spec]);
    const made = performance.now();
    const record = { kind: "case", spec };
    if (refused) return { ...record, status: "refused", message: this.text(m._winnow_message()) };
    const n = m._winnow_case_size() >>> 0;
    const removals = m._winnow_case_removal_count() >>> 0;
    const checksum = this.text(m._winnow_case_checksum());
    // What the page holds is what the C++ made: its words, checksummed here, give the module's checksum.
    const held = fnv([this.words(m._winnow_case_data(), n), this.words(m._winnow_case_removals(), removals)]);
    const r0 = performance.now();
    const kept = m._winnow_reference_count() >>> 0;
    const r1 = performance.now();
    const reference = this.words(m._winnow_reference_data(), kept);
    const v0 = performance.now();
    const verdict = this.verify(reference, true);
    const v1 = performance.now();
    const status = held !== checksum ? "error" : verdict === "ok" ? "ok" : "wrong";
    return {
      ...record,
      status,
      message: held !== checksum ? `the words handed out give ${held}, the module says ${checksum}` : "",
      case: this.text(m._winnow_case_spec()),
      n,
      removals,
      removal_list: m._winnow_case_removal_list() !== 0,
      width: m._winnow_case_width() >>> 0,
      valid: kept,
      checksum,
      reference_checksum: fnv([reference]),
      verified: verdict,
      make_ms: made - t0,
      reference_ms: r1 - r0,
      verify_ms: v1 - v0,
    };
  }
}
