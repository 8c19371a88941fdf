// The wasm side of tests/web/same_bytes.sh: the lines corpus_lines.cpp writes natively, made through
// the web build's module (tools/web/corpus_api.cpp) as the page calls it. The checksums are computed
// here from the words the module hands out (FNV-1a, as winnow::checksum, by the page's own fnv), and
// the case's is compared with the module's own: what crosses into JavaScript is what the C++ made.
// Usage: node corpus_lines.js WINNOW_WEB_JS SPEC_FILE
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

async function main() {
  const [moduleFile, specFile] = process.argv.slice(2);
  if (!moduleFile || !specFile) {
    console.error("usage: node corpus_lines.js WINNOW_WEB_JS SPEC_FILE");
    process.exit(2);
  }
  // The page's own checksum (tools/web/page/package.json makes its files ES modules for node too).
  const page = path.join(__dirname, "..", "..", "tools", "web", "page", "corpus.js");
  const { fnv } = await import(pathToFileURL(page).href);
  const m = await require(path.resolve(moduleFile))();
  const text = (p) => m.UTF8ToString(p);
  const words = (p, n) => m.HEAPU32.slice(p >>> 2, (p >>> 2) + n); // a copy: memory may grow later
  const verdict = (values, stable) => {
    const p = m._malloc(Math.max(4, values.length * 4));
    m.HEAPU32.set(values, p >>> 2);
    const wrong = m._winnow_verify(p, values.length, stable ? 1 : 0);
    m._free(p);
    return wrong ? text(m._winnow_message()) : "ok";
  };

  const specs = text(m._winnow_conformance_cases()).split("\n").filter((s) => s !== "");
  for (const s of fs.readFileSync(specFile, "utf8").split("\n")) if (s !== "" && s[0] !== "#") specs.push(s);

  const out = [];
  for (const spec of specs) {
    if (m.ccall("winnow_make_case", "number", ["string"], [spec]) !== 0) {
      out.push(`${spec}\trefused\t${text(m._winnow_message())}`);
      continue;
    }
    const n = m._winnow_case_size() >>> 0;
    const k = m._winnow_case_removal_count() >>> 0;
    const checksum = fnv([words(m._winnow_case_data(), n), words(m._winnow_case_removals(), k)]);
    const own = text(m._winnow_case_checksum());
    if (checksum !== own) throw new Error(`${spec}: the words handed out give ${checksum}, the module says ${own}`);
    const count = m._winnow_reference_count() >>> 0;
    const ref = words(m._winnow_reference_data(), count);
    let line =
      `${spec}\t${text(m._winnow_case_spec())}\tn=${n}\tremovals=${k}\twidth=${m._winnow_case_width() >>> 0}` +
      `\tchecksum=${checksum}\tkept=${count}\treference=${fnv([ref])}`;
    line += `\texact=${verdict(ref, true)}`;
    const reversed = ref.slice().reverse();
    line += `\treversed=${verdict(reversed, false)}`;
    if (count === 0) {
      out.push(`${line}\ttampered=-\tshort=-\tforeign=-`);
      continue;
    }
    const tampered = ref.slice();
    tampered[Math.floor(count / 2)] += 1;
    line += `\ttampered=${verdict(tampered, true)}`;
    line += `\tshort=${verdict(ref.slice(0, count - 1), false)}`;
    reversed[0] = 0xfffffff0;
    line += `\tforeign=${verdict(reversed, false)}`;
    out.push(line);
  }
  process.stdout.write(out.join("\n") + "\n");
}

main().catch((e) => {
  console.error(`corpus_lines.js: ${e.stack || e}`);
  process.exit(1);
});
