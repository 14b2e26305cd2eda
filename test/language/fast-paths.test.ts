// validate's fast paths read common templates without the general parser: whatever they accept,
// they must read exactly as the parser does (the same references, the same syntax tree), and
// what they refuse is left to the parser. Checked on hand-picked strings and on random ones
// built from the pieces that matter (names, dots, "${", "}", "$", "%", escapes, spaces, digits).
import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preloadTypes, validateFiles, validateHclJsonSync } from "../../language/index.js";
import { evaluate, UNKNOWN } from "../../language/expr/evaluate.js";
import { referenceTemplate } from "../../language/expr/reference-template.js";
import { parseTemplate } from "../../language/expr/template-parser.js";
import { lowerNative } from "../../language/syntax/native/lower.js";
import { parseNative } from "../../language/syntax/native/parser.js";

function sameAsParser(s: string): void {
  const fast = referenceTemplate(s);
  if (fast === null) return;
  const parsed = parseTemplate(s);
  expect(parsed.ok, s).toBe(true);
  if (!parsed.ok) return;
  expect(fast.references, s).toEqual(parsed.refs);
  expect(fast.expr, s).toEqual(parsed.expr);
  // nothing known: the value is unknown and evaluating it fails on nothing
  expect(evaluate(fast.expr, null)).toBe(UNKNOWN);
}

describe("templates of literal text and plain references", () => {
  it("reads the common shapes as the parser does", () => {
    const read = [
      "${local.prefix}-db-1",
      "/tsdb/${var.env}/7",
      "${tsdb_service.db1.name} source",
      "projects/${var.project}",
      "${var.a}${var.b}",
      "${var.a}-${tsdb_vpcs.net-1.vpcs_id}-${local.x_y}",
      "a ${each.key} b ${count.index}",
      "${self.name}:${path.module}",
      "${for}-x",
      "${trueish}-${nullable}-${falsey}",
      "héllo ${var.名前} wörld",
      "{${var.a}}",
      "$ {var.a} ${var.b}",
    ];
    for (const s of read) sameAsParser(s);
    for (const s of read.slice(0, 11)) expect(referenceTemplate(s), s).not.toBeNull();
  });

  it("leaves everything else to the parser", () => {
    const left = [
      "${var.a}",
      "${tsdb_vpcs.a.vpcs_id}",
      "${ var.a }-x",
      "${var.a[0]}-x",
      "${var.a.0}-x",
      '${var.a["k"]}-x',
      "${upper(var.a)}-x",
      "${var.a}-$${x}",
      "${var.a}-%{if true}y%{endif}",
      "%{for x in var.l}${x}%{endfor}",
      "${true}-x",
      "${null}-x",
      "x-${false}",
      "${var.a~}-x",
      "${~var.a}-x",
      "${var.a}-\\n",
      "${var.a-x",
      "${var.}-x",
      "${1}-x",
      "${var.a}-$",
      "${var.a}%",
      "x-${}",
      "${var.a * 2}-x",
      "${var.a.b.c[*].d}-x",
    ];
    for (const s of left) expect(referenceTemplate(s), s).toBeNull();
  });

  it("agrees with the parser on random strings", () => {
    const piece = fc.constantFrom("${", "}", "$", "%", "%{", "$${", ".", "var", "local", "a", "b-c", "_x", "0", "1.5", " ", "\\", "-", "/", "true", "null", "é", "[0]", "(", ")", "~", '"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        sameAsParser(pieces.join(""));
      }),
      { numRuns: 5000, seed: 21 },
    );
  });
});

describe("templates of literal text and plain references at validate", () => {
  // validate skips evaluating such a template when no reference can be known (known-values.ts):
  // one that reads a known local value must still be evaluated, its value judged, its errors given
  const work = mkdtempSync(join(tmpdir(), "schemaform-fast-paths-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  let n = 0;
  async function errors(locals: object, regionCode: string): Promise<string[]> {
    const dir = join(work, String(n++));
    mkdirSync(dir);
    const config = { terraform: { required_providers: { tsdb: { source: "schemaform/tsdb" } } }, variable: { env: {} }, locals, resource: { tsdb_vpcs: { main: { cidr: "10.0.0.0/16", region_code: regionCode } } } };
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(config));
    const result = await validateFiles([dir]);
    return result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message.split("\n")[0]!);
  }

  it("judges the value when a local value it reads is known", async () => {
    expect(await errors({ r: "az" }, "${local.r}-1")).toEqual([expect.stringContaining('got "az-1"')]);
    expect(await errors({ r: "us-east" }, "${local.r}-1")).toEqual([]);
    expect(await errors({ r: "az", z: "x" }, "${local.z}-${local.r}-1")).toEqual([expect.stringContaining('got "x-az-1"')]);
  });

  it("reports what evaluating it with a known local value fails on", async () => {
    expect(await errors({ r: ["a"] }, "${local.r}-1")).toEqual([expect.stringContaining("Invalid template interpolation value")]);
    expect(await errors({ r: null }, "${var.env}-${local.r}")).toEqual([expect.stringContaining("Invalid template interpolation value")]);
  });

  it("leaves it unknown when nothing it reads is known", async () => {
    expect(await errors({ r: "${var.env}" }, "${local.r}-1")).toEqual([]);
    expect(await errors({}, "az-${var.env}")).toEqual([]);
  });
});

describe("templates judged from their text at validate (schema/plain-template.ts)", () => {
  // what the fast path accepts must give exactly the general path's diagnostics: the same template
  // with a directive that changes nothing appended ("%{if true}%{endif}") takes the general path
  const module = (template: string) =>
    JSON.stringify({
      variable: { a: {}, l: { type: "list(string)" }, checked: { validation: { condition: '${var.checked != ""}', error_message: "empty" } } },
      locals: { known: "k", unknown: "${var.a}", list: ["x"], ring: "${tsdb_service.db.name}" },
      resource: {
        tsdb_vpcs: { net: { cidr: "10.0.0.0/16", name: "n", region_code: "us-east-1" }, many: { count: 2, cidr: "10.1.0.0/16", name: "m", region_code: "us-east-1" } },
        tsdb_service: { db: { name: template, vpc_id: "${tsdb_vpcs.net.vpcs_id}" } },
      },
    });
  const shown = (text: string) => validateHclJsonSync(text, { filename: "main.tf.json" }).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
  const general = (template: string) => `${template}%{if true}%{endif}`;
  beforeAll(() => preloadTypes());

  it("accepts literal text around declared, unknown references and adds their edges", () => {
    expect(shown(module("${local.unknown}-db-${var.a}/${tsdb_vpcs.net.name}"))).toEqual([]);
    // the edge to local.ring closes a cycle: db -> local.ring -> db
    const cycle = shown(module("x-${local.ring}"));
    expect(cycle).toEqual(shown(module(general("x-${local.ring}"))));
    expect(cycle.some((d) => d.includes("Cycle"))).toBe(true);
  });

  it("gives the general path's verdict on any mix of pieces", () => {
    const piece = fc.constantFrom("x", "-", "/", " ", "${var.a}", "${var.nope}", "${var.l}", "${var.checked}", "${local.known}", "${local.unknown}", "${local.list}", "${local.nope}", "${local.ring}", "${tsdb_vpcs.net.name}", "${tsdb_vpcs.net.nope}", "${tsdb_vpcs.many.name}", "${tsdb_vpcs.gone.name}", "${tsdb_vpcs.net}", "${data.tsdb_vpcs.v.vpcs}", "${each.key}", "${path.module}");
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), (pieces) => {
        // a lone interpolation is a whole reference, typed against the argument: not this path
        fc.pre(pieces.length > 1 || !pieces[0]!.startsWith("${"));
        const template = pieces.join("");
        expect(shown(module(template)), template).toEqual(shown(module(general(template))));
      }),
      { numRuns: 400, seed: 27 },
    );
  });
});

describe("whole references judged from their text at validate (schema/reference-fast-paths.ts)", () => {
  // "${X}" takes the fast paths; "${ X }" is the same whole reference to Terraform, but the fast
  // paths refuse its spaces and leave it to the general path: both must get the same diagnostics
  const module = (argument: string, value: string) =>
    JSON.stringify({
      // names that are no identifiers are refused where declared, and a reference to one is no reference
      variable: { a: {}, n: { type: "number" }, l: { type: "list(string)" }, "b c": {} },
      check: { probe: { data: { tsdb_service: { probe: { id: "svc-probe" } } }, assert: { condition: '${data.tsdb_service.probe.id != ""}', error_message: "x" } } },
      data: { tsdb_vpcs: { all: {} } },
      resource: {
        tsdb_vpcs: { net: { cidr: "10.0.0.0/16", name: "n", region_code: "us-east-1" }, "x y": { cidr: "10.3.0.0/16", name: "xy", region_code: "us-east-1" }, west: { cidr: "10.2.0.0/16", name: "w", region_code: "us-west-2" }, many: { count: 2, cidr: "10.1.0.0/16", name: "m", region_code: "us-east-1" } },
        tsdb_log_exporter: { logs: { name: "l", region: "us-east-1", cloudmon: { log_group_name: "g", log_stream_name: "s", region: "us-east-1", role_arn: "arn:aws:iam::123456789012:role/x" } } },
        tsdb_service: { other: { name: "o" }, db: { name: "db", [argument]: value } },
      },
    });
  const shown = (text: string) => validateHclJsonSync(text, { filename: "main.tf.json" }).map((d) => `${d.line} ${d.code} ${d.message}`);
  beforeAll(() => preloadTypes());

  it("gives the general path's verdict for any target in any argument", () => {
    const argument = fc.constantFrom("vpc_id", "name", "ha_replicas", "region_code", "log_exporter_id", "read_replica_source");
    const target = fc.constantFrom(
      "tsdb_vpcs.net.vpcs_id", "tsdb_vpcs.net.id", "tsdb_vpcs.west.vpcs_id", "tsdb_vpcs.west.region_code", "tsdb_vpcs.net.region_code", "tsdb_vpcs.many.vpcs_id",
      "tsdb_vpcs.net.nope", "tsdb_vpcs.gone.id", "tsdb_vpcs.net.timeouts", "tsdb_vpcs.net.cidr", "tsdb_service.other.id", "tsdb_service.other.ha_replicas",
      "tsdb_log_exporter.logs.id", "data.tsdb_service.probe.vpc_id", "data.tsdb_vpcs.all.vpcs", "data.tsdb_vpcs.gone.vpcs", "var.a", "var.n", "var.l", "var.nope", "var.b c", "tsdb_vpcs.x y.vpcs_id", "tsdb_vpcs.net.vpcs_id.x", "tsdb_vpcs.net.vpcs_id ",
    );
    fc.assert(
      fc.property(argument, target, (name, ref) => {
        expect(shown(module(name, `\${${ref}}`)), `${name} = ${ref}`).toEqual(shown(module(name, `\${ ${ref} }`)));
      }),
      { numRuns: 300, seed: 28 },
    );
  });

  it("gives the general path's verdict outside our types' arguments", () => {
    const place = fc.constantFrom("output", "local", "local-ring", "assert", "other-provider");
    const target = fc.constantFrom("tsdb_vpcs.net.vpcs_id", "tsdb_vpcs.many.vpcs_id", "tsdb_vpcs.net.nope", "tsdb_vpcs.gone.id", "tsdb_vpcs.net.timeouts", "tsdb_service.db.hostname", "data.tsdb_service.probe.vpc_id", "data.tsdb_vpcs.all.vpcs");
    const placed = (where: string, value: string) => {
      const config = JSON.parse(module("name", "db")) as Record<string, Record<string, unknown>>;
      if (where === "output") config.output = { o: { value } };
      if (where === "local") config.locals = { l: value };
      // db's name reads the local value that reads db: a cycle only if the edge is made
      if (where === "local-ring") {
        config.locals = { l: value };
        (config.resource!.tsdb_service as Record<string, Record<string, unknown>>).db!.name = "${local.l}";
      }
      if (where === "assert") config.check = { c: { assert: { condition: value, error_message: "x" } } };
      if (where === "other-provider") config.resource!.null_resource = { n: { triggers: { t: value } } };
      return JSON.stringify(config);
    };
    fc.assert(
      fc.property(place, target, (where, ref) => {
        expect(shown(placed(where, `\${${ref}}`)), `${where}: ${ref}`).toEqual(shown(placed(where, `\${ ${ref} }`)));
      }),
      { numRuns: 200, seed: 29 },
    );
  });
});

describe("native files lowered to the JSON tree", () => {
  // the writer joins a property name and its colon into one piece when their positions allow it
  it("maps each name's colon to the end of the name in the .tf text, escaped or not", () => {
    const text = 'resource "tsdb_vpcs" "a\\u00e9\\"b" {\n  name = "x"\n  tags = { "k\\u00e9" = 1, plain = 2 }\n}\n';
    const parsed = parseNative(text, "main.tf");
    expect(parsed.problems).toEqual([]);
    const lowered = lowerNative(parsed.file);
    const colonAfter = (quotedName: string) => lowered.json.indexOf(`${quotedName}:`) + quotedName.length;
    // a label's name ends before its closing quote, an argument's where it ends
    expect(lowered.toNative(colonAfter(JSON.stringify('aé"b')))).toBe(text.indexOf('" {'));
    expect(lowered.toNative(colonAfter('"tsdb_vpcs"'))).toBe(text.indexOf('" "a'));
    expect(lowered.toNative(colonAfter('"name"'))).toBe(text.indexOf(" = \"x\""));
    // an object's quoted key ends after its closing quote
    expect(lowered.toNative(colonAfter(JSON.stringify("ké")))).toBe(text.indexOf('" = 1') + 1);
    expect(lowered.toNative(colonAfter('"plain"'))).toBe(text.indexOf(" = 2"));
    expect(JSON.parse(lowered.json)).toEqual({ resource: { tsdb_vpcs: { 'aé"b': { name: "x", tags: { ké: 1, plain: 2 } } } } });
  });
});
