// `npm run bench:hcl2json`: could `schemaform validate` parse templates with HCL's own Go parser,
// compiled to WebAssembly in @cdktf/hcl2json (in the tree through cdktf-cli, a devDependency)?
// Measures, in one process: the WebAssembly module's start-up; the cost per template of
// hcl2json's getExpressionAst against our parser (language/expr/expressions.ts) and against JSON.parse
// of the same template as a JSON string; the cost of all
// templates of the 10 MB "expressions" bench file that way, against JSON.parse of the whole file;
// and what each parser says on templates where ours and Terraform's wording differ. Writes
// bench/results/hcl2json.json.
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseTemplate } from "../dist/language/expr/template-parser.js";
import { preloadTypes, validateHclJsonSync } from "../dist/language/index.js";
import { generateConfiguration } from "./validate-configurations.mjs";

const require = createRequire(import.meta.url);
const hcl2json = require("@cdktf/hcl2json");

/**
 * A template of a JSON string as HCL native syntax: a heredoc, where quotes and backslashes are
 * literal as they are in the decoded JSON string (a quoted string would change their meaning).
 */
const asHeredoc = (template) => `<<EOT\n${template}\nEOT\n`;

async function wasmProblem(template) {
  try {
    await hcl2json.getExpressionAst("main.tf", asHeredoc(template));
    return null;
  } catch (error) {
    // "…: main.tf:1,2-3: Summary; Detail"
    const m = /main\.tf:[\d,-]+: ([^;]+);/.exec(String(error.message));
    return m ? m[1] : String(error.message).slice(0, 80);
  }
}

function ourProblem(template) {
  const text = JSON.stringify({ locals: { t: template } });
  const found = validateHclJsonSync(text, { filename: "main.tf.json" }).find((d) => d.severity === "error");
  return found ? found.message.slice(0, found.message.indexOf(":")) : null;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const round = (x) => Math.round(x * 1000) / 1000;

/** Median microseconds per call of f over `n` calls, in 5 rounds. */
async function perCall(n, f) {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) await f();
    rounds.push(((performance.now() - t) * 1000) / n);
  }
  return round(median(rounds));
}

async function main() {
  await preloadTypes();
  let t = performance.now();
  await hcl2json.getExpressionAst("main.tf", '"x"');
  const startupMs = Math.round(performance.now() - t);

  const templates = ["${tsdb_vpcs.main.vpcs_id}", "${local.env}-db-7", "${local.cpu / 250}", "${local.ha ? 2 : 1}", "${upper(local.env)}", '${format("source %d", 7)} (${local.env})'];
  const perTemplate = [];
  for (const template of templates) {
    const json = JSON.stringify(template);
    perTemplate.push({
      template,
      hcl2jsonMicroseconds: await perCall(300, () => hcl2json.getExpressionAst("main.tf", asHeredoc(template))),
      schemaformParserMicroseconds: await perCall(30000, () => parseTemplate(template)),
      jsonParseMicroseconds: await perCall(30000, () => JSON.parse(json)),
    });
  }

  // the 10 MB bench file: every template in it through hcl2json (sampled) against JSON.parse of the file
  const { text } = generateConfiguration(10 * 1024 * 1024, "expressions");
  const all = [];
  (function collect(v) {
    if (typeof v === "string") {
      if (v.includes("${") || v.includes("%{")) all.push(v);
    } else if (v && typeof v === "object") for (const x of Object.values(v)) collect(x);
  })(JSON.parse(text));
  const sample = all.filter((_, i) => i % Math.max(1, Math.floor(all.length / 2000)) === 0);
  t = performance.now();
  for (const template of sample) await hcl2json.getExpressionAst("main.tf", asHeredoc(template));
  const sampleMs = performance.now() - t;
  const parseRounds = [];
  for (let r = 0; r < 5; r++) {
    t = performance.now();
    JSON.parse(text);
    parseRounds.push(performance.now() - t);
  }
  const jsonParseMs = median(parseRounds);
  const allTemplatesMs = (sampleMs / sample.length) * all.length;
  const tenMegabytes = {
    bytes: Buffer.byteLength(text),
    templates: all.length,
    sampled: sample.length,
    hcl2jsonAllTemplatesMs: Math.round(allTemplatesMs),
    jsonParseMs: round(jsonParseMs),
    ratioToJsonParse: Math.round(allTemplatesMs / jsonParseMs),
    bar: 3,
  };

  // where our parser's wording differs from Terraform's, or the syntax is subtle: what each says
  // ("terraform" as `terraform validate` 1.11.4 reported it on the same template in a local value)
  const cases = [
    { template: '${ upper("${1") }', terraform: "Unclosed template interpolation sequence" },
    { template: "${provider::nope::f(1)}", terraform: "Unknown provider function" },
    { template: "${nosuch(1)}", terraform: "Call to unknown function" },
    { template: '${upper("a", "b")}', terraform: "Too many function arguments" },
    { template: "${local.list...}", terraform: "Extra characters after interpolation expression" },
    { template: "${[[1]].0.0}", terraform: "Invalid legacy index syntax" },
    { template: "%{ if true }x", terraform: "Unexpected end of template" },
    { template: "${1 # note }", terraform: "Unclosed template interpolation sequence" },
  ];
  const exactness = [];
  for (const c of cases) exactness.push({ ...c, hcl2json: await wasmProblem(c.template), schemaform: ourProblem(c.template) });

  const out = {
    benchmark: "@cdktf/hcl2json (HCL's Go parser as WebAssembly) as validate's template parser: start-up, cost per template, the 10 MB expressions file's templates, and exactness",
    node: process.version,
    cpu: cpus()[0]?.model ?? "unknown",
    date: new Date().toISOString(),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    startupMs,
    perTemplate,
    tenMegabytes,
    exactness,
  };
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}hcl2json.json`, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`hcl2json start-up ${startupMs} ms`);
  for (const p of perTemplate) console.log(`${p.template}: hcl2json ${p.hcl2jsonMicroseconds} µs, our parser ${p.schemaformParserMicroseconds} µs, JSON.parse ${p.jsonParseMicroseconds} µs`);
  console.log(`10 MB expressions file: ${all.length} templates, through hcl2json ≈ ${tenMegabytes.hcl2jsonAllTemplatesMs} ms = ${tenMegabytes.ratioToJsonParse}× JSON.parse of the file (${tenMegabytes.jsonParseMs} ms; bar ≤ 3× for all of validate)`);
  for (const e of exactness) console.log(`${e.template}: terraform "${e.terraform}", hcl2json "${e.hcl2json}", schemaform "${e.schemaform}"`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
