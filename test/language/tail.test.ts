// The known leftovers of issue 21, each as Terraform 1.11.4 decides it (checked with terraform
// validate; the differential corpus records the same on whole modules in native-mutations.mjs).
import { describe, expect, it } from "vitest";
import { modulesOnDisk } from "./module-on-disk.js";

const { errors } = modulesOnDisk("tail");

const TERRAFORM = `terraform {
  required_providers {
    tsdb = {
      source = "schemaform/tsdb"
    }
  }
}

provider "tsdb" {
  alias = "east"
}
`;

const importing = (resourceProvider: string | null, importProvider: string) => `${TERRAFORM}
resource "tsdb_vpcs" "main" {
  cidr        = "10.0.0.0/16"
  region_code = "us-east-1"${resourceProvider === null ? "" : `\n  provider    = ${resourceProvider}`}
}

import {
  to       = tsdb_vpcs.main
  id       = "4242"
  provider = ${importProvider}
}
`;

describe("an import block's provider when its target resource is in the configuration", () => {
  it("is refused when the resource has no provider argument, even one naming the implied default", async () => {
    expect(await errors({ "main.tf": importing(null, "tsdb") })).toEqual(["main.tf:21: Invalid import provider argument: The provider argument can only be specified in import blocks that will generate configuration. Use the provider argument in the target resource block to configure the provider for a resource with explicit provider configuration."]);
  });

  it("is refused when it differs from the resource's", async () => {
    expect(await errors({ "main.tf": importing("tsdb.east", "tsdb") })).toEqual([expect.stringContaining("main.tf:22: Invalid import provider argument")]);
  });

  it("is accepted when it repeats the resource's, spaces around the dot included", async () => {
    expect(await errors({ "main.tf": importing("tsdb . east", "tsdb.east") })).toEqual([]);
  });
});

const CHILD_WITH_SYNTAX_ERROR = `variable "cidr" { type = string
}
`;

describe("a native file that stops at a syntax error", () => {
  it("still has the modules it calls after an argument's bad value loaded, as Terraform's init does", async () => {
    const files = {
      "main.tf": `locals {\n  t = "\\udc00x"\n}\n\nmodule "net" {\n  source = "./modules/net"\n}\n`,
      "modules/net/main.tf": CHILD_WITH_SYNTAX_ERROR,
    };
    expect(await errors(files)).toEqual([
      expect.stringMatching(/^main\.tf:2: Invalid escape sequence/),
      expect.stringMatching(/^modules\/net\/main\.tf:1: Invalid single-argument block definition/),
    ]);
  });

  it("does not call a module whose block HCL's recovery reads as part of the broken block", async () => {
    const files = {
      "main.tf": `locals {\n  t = (4\n}\n\nmodule "net" {\n  source = "./modules/net"\n}\n`,
      "modules/net/main.tf": CHILD_WITH_SYNTAX_ERROR,
    };
    expect(await errors(files)).toEqual([expect.stringMatching(/^main\.tf:3: Unbalanced parentheses/)]);
  });
});

/** The error messages of `locals { x = CALL }` with an output of it (what terraform validate evaluates). */
async function callErrors(call: string): Promise<string[]> {
  const found = await errors({ "main.tf": `locals {\n  x = ${call}\n}\n\noutput "o" {\n  value = local.x\n}\n` });
  return found.map((e) => e.replace(/^main\.tf:\d+: /, ""));
}
const failed = (name: string, why: string) => `Error in function call: Call to function "${name}" failed: ${why}.`;
const invalid = (param: string, why: string) => `Invalid function argument: Invalid value for "${param}" parameter: ${why}.`;

describe("core functions on known arguments, in Terraform 1.11's words", () => {
  it("yamldecode refuses text that is no single YAML document", async () => {
    expect(await callErrors(`yamldecode("a: [1, 2")`)).toEqual([failed("yamldecode", "on line 1, column 1: did not find expected ',' or ']'")]);
    expect(await callErrors(`yamldecode("x: 1\\na: {b: 1\\n")`)).toEqual([failed("yamldecode", "on line 2, column 1: did not find expected ',' or '}'")]);
    expect(await callErrors(`yamldecode("a: 1\\n\\n---\\nb: 2")`)).toEqual([failed("yamldecode", "on line 2, column 1: unexpected extra content after value")]);
    expect(await callErrors(`yamldecode("")`)).toEqual([failed("yamldecode", "on line 1, column 1: missing start of document")]);
    expect(await callErrors(`yamldecode("\\n\\n\\n")`)).toEqual([failed("yamldecode", "on line 3, column 1: missing start of document")]);
    expect(await callErrors(`yamldecode("x: 1\\na: 'open\\n")`)).toEqual([failed("yamldecode", "on line 3, column 1: found unexpected end of stream")]);
    expect(await callErrors(`yamldecode("a: b: c")`)).toEqual([failed("yamldecode", "mapping values are not allowed in this context")]);
    expect(await callErrors(`yamldecode("a: \\"x\\\\qy\\"")`)).toEqual([failed("yamldecode", "found unknown escape character")]);
    expect(await callErrors(`yamldecode("a: [1,")`)).toEqual([failed("yamldecode", "on line 1, column 1: did not find expected node content")]);
    expect(await callErrors(`yamldecode("x: 1\\n@a")`)).toEqual([failed("yamldecode", "on line 2, column 1: found character that cannot start any token")]);
  });

  it("yamldecode accepts what YAML allows, and leaves what it cannot tell to Terraform", async () => {
    for (const text of [`---\\na: 1`, `a: 1\\na: 2`, `a: [x, 'y]']`, `a: 1}`, `x\\n]`, `a: |\\n  text [\\n  more {`, `a: http://x:8080/y`, `a: "multi\\n  line"`, `a: &x 1\\nb: *x`]) {
      expect(await callErrors(`yamldecode("${text.replace(/"/g, '\\"')}")`), text).toEqual([]);
    }
  });

  it("textencodebase64 and textdecodebase64 know Terraform's character sets, base64 and bytes", async () => {
    expect(await callErrors(`textencodebase64("x", "ASCII")`)).toEqual([invalid("encoding", `"ASCII" is not a supported IANA encoding name or alias in this Terraform version`)]);
    expect(await callErrors(`textdecodebase64("YQ==", "UTF-32")`)).toEqual([invalid("encoding", `"UTF-32" is not a supported IANA encoding name or alias in this Terraform version`)]);
    expect(await callErrors(`textencodebase64("€", "latin1")`)).toEqual([invalid("string", "the given string contains characters that cannot be represented in ISO_8859-1:1987")]);
    expect(await callErrors(`textencodebase64("héllo", "US-ASCII")`)).toEqual([invalid("string", "the given string contains characters that cannot be represented in US-ASCII")]);
    expect(await callErrors(`textdecodebase64("aGVsbG8", "UTF-8")`)).toEqual([invalid("source", "the given value is has an invalid base64 symbol at offset 4")]);
    expect(await callErrors(`textdecodebase64("YQ=", "UTF-8")`)).toEqual([invalid("source", "the given value is has an invalid base64 symbol at offset 3")]);
    expect(await callErrors(`textdecodebase64("YQ==YQ==", "UTF-8")`)).toEqual([invalid("source", "the given value is has an invalid base64 symbol at offset 4")]);
    expect(await callErrors(`textdecodebase64("7aCA", "UTF-8")`)).toEqual([invalid("source", "the given string contains symbols that are not defined for UTF-8")]);
    expect(await callErrors(`textdecodebase64("2D3YPQ==", "UTF-16BE")`)).toEqual([invalid("source", "the given string contains symbols that are not defined for UTF-16BE")]);
    expect(await callErrors(`textdecodebase64("gA==", "US-ASCII")`)).toEqual([invalid("source", "the given string contains symbols that are not defined for US-ASCII")]);
    for (const ok of [`textencodebase64("hello", " utf-16le ")`, `textencodebase64("€", "windows-1252")`, `textdecodebase64("YQ==\\n", "UTF-8")`, `textdecodebase64("gA==", "windows-1252")`, `textencodebase64("é", "csISOLatin1")`]) {
      expect(await callErrors(ok), ok).toEqual([]);
    }
  });

  it("refuses null for any primitive-typed parameter", async () => {
    expect(await callErrors(`upper(null)`)).toEqual([invalid("str", "argument must not be null")]);
    expect(await callErrors(`cidrsubnet(null, 8, 1)`)).toEqual([invalid("prefix", "argument must not be null")]);
    expect(await callErrors(`substr("abc", null, 1)`)).toEqual([invalid("offset", "argument must not be null")]);
  });

  it("refuses null for the collection parameters that do not take it, and accepts it where Terraform does", async () => {
    expect(await callErrors(`length(null)`)).toEqual([invalid("value", "argument must not be null")]);
    expect(await callErrors(`lookup(null, "a")`)).toEqual([invalid("inputMap", "argument must not be null")]);
    expect(await callErrors(`join(",", null)`)).toEqual([invalid("lists", "argument must not be null")]);
    expect(await callErrors(`reverse(null)`)).toEqual([invalid("list", "argument must not be null")]);
    expect(await callErrors(`coalescelist([], null)`)).toEqual([failed("coalescelist", "coalescelist arguments must be lists or tuples")]);
    for (const ok of [`merge(null)`, `jsonencode(null)`, `tolist(null)`, `tostring(null)`, `format("a", null)`]) expect(await callErrors(ok), ok).toEqual([]);
  });

  it("refuses collection arguments Terraform cannot use", async () => {
    expect(await callErrors(`join(",", ["a"], ["b", null])`)).toEqual([invalid("lists", "element 1 of list 2 is null; cannot concatenate null values")]);
    expect(await callErrors(`join(",")`)).toEqual([failed("join", "at least one list is required")]);
    expect(await callErrors(`distinct({ a = 1 })`)).toEqual([invalid("list", "list of any single type required")]);
    expect(await callErrors(`setsubtract(1, [1])`)).toEqual([invalid("a", "set of any single type required")]);
    expect(await callErrors(`setproduct([1], 1)`)).toEqual([invalid("sets", "a set or a list is required")]);
    expect(await callErrors(`compact([["a"]])`)).toEqual([invalid("list", "element 0: string required")]);
    expect(await callErrors(`toset([1, {}])`)).toEqual([invalid("v", "cannot convert tuple to set of any single type")]);
    expect(await callErrors(`contains({ a = 1 }, 1)`)).toEqual([failed("contains", "argument must be list, tuple, or set")]);
    expect(await callErrors(`lookup(["a"], "x", "d")`)).toEqual([invalid("inputMap", "lookup() requires a map as the first argument")]);
    expect(await callErrors(`tolist([{ a = 1 }, { b = 1 }])`)).toEqual([]);
  });

  it("refuses numbers and patterns Terraform's implementation cannot take", async () => {
    expect(await callErrors(`log(10, -1)`)).toEqual([failed("log", "panic in function implementation: Float.SetFloat64(NaN)")]);
    expect(await callErrors(`log(0, 10)`)).toEqual([]);
    expect(await callErrors(`element([1, 2, 3], -4)`)).toEqual([failed("element", "panic in function implementation: runtime error: index out of range [-1]")]);
    expect(await callErrors(`element([1, 2, 3], -3)`)).toEqual([]);
    expect(await callErrors(`indent(-0.5, "x")`)).toEqual([failed("indent", "value must be a whole number, between -9223372036854775808 and 9223372036854775807")]);
    expect(await callErrors(`indent(-1, "")`)).toEqual([failed("indent", "panic in function implementation: strings: negative Repeat count")]);
    expect(await callErrors(`regexall("a)", "x")`)).toEqual([invalid("pattern", "invalid regexp pattern: unexpected ) in a)")]);
    expect(await callErrors(`regex("((a)", "x")`)).toEqual([invalid("pattern", "invalid regexp pattern: missing closing ) in ((a)")]);
    expect(await callErrors(`regexall("\\\\(", "x")`)).toEqual([]);
    expect(await callErrors(`regex("a[b", "x")`)).toEqual([invalid("pattern", "invalid regexp pattern: missing closing ] in [b")]);
    expect(await callErrors(`regexall("[a\\\\]", "x")`)).toEqual([invalid("pattern", "invalid regexp pattern: missing closing ] in [a\\]")]);
    expect(await callErrors(`regex("[^]a]", "b")`)).toEqual([]);
    expect(await callErrors(`rsadecrypt("!!", "x")`)).toEqual([invalid("ciphertext", `failed to decode input "!!": cipher text must be base64-encoded`)]);
    expect(await callErrors(`rsadecrypt("eA==", "")`)).toEqual([invalid("privatekey", "invalid private key: ssh: no key found")]);
  });

  it("words the errors it already found as Terraform does", async () => {
    expect(await callErrors(`format("a %5d", "x")`)).toEqual([failed("format", `unsupported value for "%5d" at 2: a number is required`)]);
    expect(await callErrors(`format("%5d", 1.5)`)).toEqual([failed("format", `unsupported value for "%5d" at 0: an integer is required`)]);
    expect(await callErrors(`format("a %s")`)).toEqual([failed("format", `not enough arguments for "%s" at 2: need index 1 but have 0 total`)]);
    expect(await callErrors(`format("a", 1)`)).toEqual([invalid("args", "too many arguments; no verbs in format string")]);
    expect(await callErrors(`format("%s", "x", null)`)).toEqual([]);
    expect(await callErrors(`tostring({ a = 1 })`)).toEqual([invalid("v", "cannot convert object to string")]);
    expect(await callErrors(`base64decode("YQ")`)).toEqual([failed("base64decode", `failed to decode base64 data "YQ"`)]);
    expect(await callErrors(`cidrhost("10.0.0.0/30", 9)`)).toEqual([failed("cidrhost", "prefix of 30 does not accommodate a host numbered 9")]);
  });
});

describe("an index of a tuple-typed variable, known from its type", () => {
  const indexed = (index: string) => ({ "main.tf": `variable "t" {\n  type    = tuple([string, number])\n  default = ["a", 1]\n}\n\noutput "o" {\n  value = var.t[${index}]\n}\n` });
  const missing = "main.tf:7: Invalid index: The given key does not identify an element in this collection value";

  it("refuses a negative number, which HCL reads as an index expression", async () => {
    expect(await errors(indexed("-1"))).toEqual([`${missing}: a negative number is not a valid index for a sequence.`]);
  });

  it("refuses a string that is no number, and converts one that is", async () => {
    expect(await errors(indexed(`"x"`))).toEqual([`${missing}: a number is required.`]);
    expect(await errors(indexed(`"-1"`))).toEqual([`${missing}: a negative number is not a valid index for a sequence.`]);
    expect(await errors(indexed(`"1"`))).toEqual([]);
  });

  it("leaves a negative index of a resource alone (Terraform reads no instance key there)", async () => {
    expect(await errors({ "main.tf": `resource "terraform_data" "x" {}\n\noutput "o" {\n  value = terraform_data.x[-1]\n}\n` })).toEqual([]);
  });
});

describe("for_each over what a sensitive variable derives", () => {
  const SENSITIVE_FOR_EACH = "main.tf:8: Invalid for_each argument: Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.";
  const forEach = (value: string) => ({ "main.tf": `variable "l" {\n  type      = list(string)\n  sensitive = true\n  default   = ["a"]\n}\n\nresource "terraform_data" "x" {\n  for_each = ${value}\n}\n` });

  it("refuses a splat of it, and what flatten takes from a tuple holding it", async () => {
    for (const value of ["toset(var.l[*])", "toset(var.l.*)", "toset(flatten([var.l]))", "toset(flatten([[var.l], []]))", "{ for v in var.l[*] : v => v }", "toset(values({ a = var.l[0] }))"]) {
      expect(await errors(forEach(value)), value).toEqual([SENSITIVE_FOR_EACH]);
    }
  });

  it("accepts what validate leaves unmarked: concat, slice, reverse and flatten of the unknown value itself", async () => {
    for (const value of ["toset(concat(var.l, []))", "toset(slice(var.l, 0, 1))", "toset(reverse(var.l))", "toset(flatten(var.l))"]) {
      expect(await errors(forEach(value)), value).toEqual([]);
    }
  });
});

describe("a test run's alternate module source", () => {
  const withRun = (source: string) => ({
    "main.tf": `terraform {\n  required_version = ">= 1.10"\n}\n\nmodule "net" {\n  source = "./modules/net"\n}\n`,
    "modules/net/main.tf": `output "id" {\n  value = "x"\n}\n`,
    "tests/main.tftest.hcl": `run "alternate" {\n  command = plan\n\n  module {\n    source = ${source}\n  }\n}\n`,
  });

  it("is a local directory of the module", async () => {
    expect(await errors(withRun(`"./modules/net"`))).toEqual([]);
    expect(await errors(withRun(`"./modules/missing"`))).toEqual([`tests/main.tftest.hcl:4: Module not installed: This module's local cache directory  could not be read. Run "terraform init" to install all modules required by this configuration.`]);
  });

  it("is a literal address Terraform can parse, from no other remote kind", async () => {
    expect(await errors(withRun(`""`))).toEqual(["tests/main.tftest.hcl:5: Invalid module source address: Failed to parse module source address: invalid source address: ."]);
    expect((await errors(withRun("var.where"))).sort()).toEqual(["tests/main.tftest.hcl:5: Unsuitable value type: Unsuitable value: value must be known", "tests/main.tftest.hcl:5: Variables not allowed: Variables may not be used here."]);
    expect(await errors(withRun(`"git::https://example.com/net.git"`))).toEqual(["tests/main.tftest.hcl:5: Invalid module source address: Only local or registry module sources are currently supported from within test run blocks."]);
    expect(await errors(withRun(`"modules/net"`))).toEqual([expect.stringContaining(`tests/main.tftest.hcl:5: Invalid module source address: Terraform failed to determine your intended installation method for remote module package "modules/net".`)]);
  });
});
