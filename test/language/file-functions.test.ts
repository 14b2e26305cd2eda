// file() and templatefile() read the files they name at validate, as Terraform 1.11.4 does
// (expectations run against it): relative to the root module's directory, `path.module` being
// "." there and the called module's directory in a child. Only files inside the root module's
// directory are read; a module validated from memory reads none.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFiles, validateHclJson } from "../../language/index.js";
import { MAX_FILE_BYTES } from "../../language/expr/module-files.js";

const work = mkdtempSync(join(tmpdir(), "schemaform-file-functions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;

/** "file:line: message" of each error of a module directory holding `files`. */
async function errors(files: Record<string, string | Buffer>): Promise<string[]> {
  const dir = join(work, String(n++));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const result = await validateFiles([dir]);
  return result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.file.slice(dir.length + 1)}:${d.line}: ${d.message.split("\n")[0]!}`);
}

const MISSING = (path: string) =>
  `Invalid function argument: Invalid value for "path" parameter: no file exists at ${JSON.stringify(path)}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource.`;

const locals = (json: Record<string, string>) => JSON.stringify({ locals: json }, null, 1);

describe("a file that is not there", () => {
  it("is Terraform's error, in both syntaxes, the path as given", async () => {
    expect(await errors({ "main.tf.json": locals({ a: '${file("${path.module}/absent.txt")}' }) })).toEqual([`main.tf.json:3: ${MISSING("./absent.txt")}`]);
    expect(await errors({ "main.tf.json": locals({ a: '${templatefile("${path.module}/absent.tftpl", {})}' }) })).toEqual([`main.tf.json:3: ${MISSING("./absent.tftpl")}`]);
    expect(await errors({ "main.tf": 'locals {\n  a = 1\n  b = file("${path.module}/absent.txt")\n}\n' })).toEqual([`main.tf:3: ${MISSING("./absent.txt")}`]);
    expect(await errors({ "main.tf": 'output "o" { value = templatefile("absent.tftpl", { a = 1 }) }\n' })).toEqual([`main.tf:1: ${MISSING("absent.tftpl")}`]);
  });

  it("a directory, or a file that is not UTF-8, is an error too", async () => {
    expect(await errors({ "main.tf": 'locals { a = file("sub") }\n', "sub/x": "" })).toEqual(['main.tf:1: Invalid function argument: Invalid value for "path" parameter: failed to read file: read sub: is a directory.']);
    expect(await errors({ "main.tf": 'locals { a = file("bin.txt") }\n', "bin.txt": Buffer.from([0xff, 0xfe, 0x41]) })).toEqual([
      'main.tf:1: Error in function call: Call to function "file" failed: contents of "bin.txt" are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead.',
    ]);
  });

  it("in a called module, path.module is its directory from the root", async () => {
    expect(
      await errors({
        "main.tf": 'module "c" { source = "./modules/c" }\n',
        "modules/c/main.tf": 'locals {\n  x = file("${path.module}/absent.txt")\n  y = file("${path.module}/here.txt")\n}\n',
        "modules/c/here.txt": "x",
      }),
    ).toEqual([`modules/c/main.tf:2: ${MISSING("modules/c/absent.txt")}`]);
  });

  it("an unknown path, or templatefile's unknown variables, read nothing", async () => {
    expect(await errors({ "main.tf": 'variable "p" { type = string }\nlocals { a = file(var.p) }\n' })).toEqual([]);
    expect(await errors({ "main.tf": 'variable "v" { type = map(string) }\nlocals { a = templatefile("absent.tftpl", var.v) }\n' })).toEqual([]);
  });
});

describe("a file that is there is a known value", () => {
  const service = (cpu: string) =>
    `terraform {\n  required_providers {\n    tsdb = { source = "schemaform/tsdb" }\n  }\n}\nprovider "tsdb" { project_id = "p" }\nresource "tsdb_service" "db" {\n  name        = "db"\n  milli_cpu   = ${cpu}\n  memory_gb   = 2\n  region_code = "us-east-1"\n}\n`;

  it("file()'s content reaches the providers' rules", async () => {
    expect(await errors({ "main.tf": service('file("cpu.txt")'), "cpu.txt": "3" })).toContainEqual(expect.stringMatching(/^main.tf:9: milli_cpu must be one of 500, 1000/));
    expect(await errors({ "main.tf": service('file("cpu.txt")'), "cpu.txt": "500" })).toEqual([]);
  });

  it("templatefile renders the file with its variables", async () => {
    expect(await errors({ "main.tf": service('templatefile("cpu.tftpl", { n = 3 })'), "cpu.tftpl": "${n}" })).toContainEqual(expect.stringMatching(/^main.tf:9: milli_cpu must be one of/));
    expect(await errors({ "main.tf": service('templatefile("cpu.tftpl", { n = [5, 0, 0] })'), "cpu.tftpl": "%{ for d in n }${d}%{ endfor }" })).toEqual([]);
    // a variable the template names must be given; it sees no other names
    expect(await errors({ "main.tf": 'locals { a = templatefile("t.tftpl", { b = 1 }) }\n', "t.tftpl": "x\ny ${missing}" })).toEqual([
      'main.tf:1: Invalid function argument: Invalid value for "vars" parameter: vars map does not contain key "missing", referenced at t.tftpl:2,5-12.',
    ]);
    expect(await errors({ "main.tf": 'locals { a = [for x in [1] : templatefile("t.tftpl", {})] }\n', "t.tftpl": "${x}" })).toEqual([
      expect.stringContaining('vars map does not contain key "x", referenced at t.tftpl:1,3-4.'),
    ]);
    expect(await errors({ "main.tf": 'locals { a = templatefile("t.tftpl", "x") }\n', "t.tftpl": "" })).toEqual([
      'main.tf:1: Invalid function argument: Invalid value for "vars" parameter: invalid vars value: must be a map.',
    ]);
    expect(await errors({ "main.tf": 'locals { a = templatefile("t.tftpl", {}) }\n', "t.tftpl": "syn ${" })).toEqual([
      'main.tf:1: Error in function call: Call to function "templatefile" failed: t.tftpl:1,7-7: Missing expression; Expected the start of an expression, but found the end of the file..',
    ]);
  });
});

describe("what is not read", () => {
  it("paths leading out of the module's directory, and links out of it, stay unknown", async () => {
    const outside = join(work, "outside.txt");
    writeFileSync(outside, "x");
    expect(await errors({ "main.tf": `locals {\n  a = file(${JSON.stringify(outside)}) + 1\n  b = file("../absent.txt")\n  c = file("~/absent-schemaform.txt")\n}\n` })).toEqual([]);
    const dir = join(work, String(n++));
    mkdirSync(dir);
    symlinkSync(outside, join(dir, "link.txt"));
    writeFileSync(join(dir, "main.tf"), 'locals { a = file("link.txt") + 1 }\n');
    // read, "x" + 1 would be an error; unread, the sum is unknown
    expect((await validateFiles([dir])).diagnostics).toEqual([]);
    writeFileSync(join(dir, "main.tf"), `locals { a = file(${JSON.stringify(outside)}) + 1 }\n`);
    expect((await validateFiles([dir])).diagnostics).toEqual([]);
  });

  it("a file over the size bound stays unknown", async () => {
    expect(await errors({ "main.tf": 'locals { a = file("big.txt") + 1 }\n', "big.txt": "1".padEnd(MAX_FILE_BYTES + 1, " ") })).toEqual([]);
    expect(await errors({ "main.tf": 'locals { a = file("small.txt") + 1 }\n', "small.txt": "x" })).toEqual([expect.stringContaining("Invalid operand")]);
  });

  it("a document validated from memory reads nothing", async () => {
    expect(await validateHclJson(locals({ a: '${file("absent.txt")}' }))).toEqual([]);
  });
});
