// Cases in the spirit of HCL's own JSON test suites (parser, scanner, structure), written for this
// corpus: the kinds of input those suites feed HCL's JSON parser — single tokens, strings with and
// without valid escapes, numbers in and out of JSON's grammar, objects and arrays well and badly
// formed, duplicate keys, mismatched delimiters — placed where Terraform reads them: as a whole
// file, and as a local value on line 3 (so a wrong line shows). Structure cases use our block
// types in the shapes HCL's JSON body decoding accepts or refuses.

const TOKENS = [
  ["true", "true"],
  ["false", "false"],
  ["null", "null"],
  ["undefined", "undefined"],
  ["misspelt-false", "flase"],
  ["capital-true", "True"],
  ["string", '"hello"'],
  ["string-newline-escape", '"hello\\nworld"'],
  ["string-quote-escapes", '"hello \\"world\\""'],
  ["string-trailing-backslash-escape", '"hello \\\\"'],
  ["string-unterminated", '"hello'],
  ["string-unknown-escape", '"he\\llo"'],
  ["string-solidus-escape", '"a\\/b"'],
  ["string-control-escapes", '"\\b\\f\\n\\r\\t"'],
  ["string-unicode-escape", '"caf\\u00e9"'],
  ["string-unicode-escape-upper-hex", '"\\u00C9"'],
  ["string-surrogate-pair", '"\\ud83d\\ude00"'],
  ["string-lone-surrogate", '"\\udead"'],
  ["string-short-unicode-escape", '"\\u41"'],
  ["string-raw-unicode", '"größe ✓"'],
  ["string-raw-tab", '"a\tb"'],
  ["string-raw-newline", '"a\nb"'],
  ["string-escaped-nul", '"a\\u0000b"'],
  ["string-empty", '""'],
  ["number-one", "1"],
  ["number-fraction", "1.2"],
  ["number-negative", "-1"],
  ["number-exponent", "1.2e5"],
  ["number-exponent-plus", "1.2e+5"],
  ["number-exponent-minus", "1.2e-5"],
  ["number-exponent-capital", "1E5"],
  ["number-leading-dot", ".1"],
  ["number-leading-plus", "+2"],
  ["number-two-tokens", "1 2"],
  ["number-leading-zero", "01"],
  ["number-negative-zero", "-0.0"],
  ["number-trailing-dot", "1."],
  ["number-bare-minus", "-"],
  ["number-exponent-no-digits", "1e"],
  ["number-huge", "123456789012345678901234567890"],
  ["number-overflow-exponent", "1e400"],
  ["number-hex", "0x1F"],
  ["object-one", '{"hello": true}'],
  ["object-two", '{"hello": true, "bye": false}'],
  ["object-empty", "{}"],
  ["object-unclosed", '{"hello":true'],
  ["object-closed-with-bracket", '{"hello":true]'],
  ["object-trailing-comma", '{"hello":true,}'],
  ["object-keyword-key", "{true:false}"],
  ["object-duplicate-key", '{"hello": true, "hello": true}'],
  ["object-comma-for-colon", '{"hello": true, "hello": true, "hello", true}'],
  ["object-string-pair", '{"hello", "world"}'],
  ["object-equals", '{"wrong"=true}'],
  ["object-equals-spaced", '{"wrong" = true}'],
  ["object-missing-colon", '{"wrong" true}'],
  ["object-empty-key", '{"": 1}'],
  ["object-number-key", "{1: 2}"],
  ["object-nested", '{"a": {"b": {"c": [1, {"d": null}]}}}'],
  ["array-empty", "[]"],
  ["array-one", "[true]"],
  ["array-two", "[true, false]"],
  ["array-nested-empty", "[[]]"],
  ["array-unclosed", "["],
  ["array-unclosed-value", "[true"],
  ["array-close-only", "]"],
  ["array-trailing-comma", "[true,]"],
  ["array-nested-trailing-comma", "[[],]"],
  ["array-with-colon", '["hello":true]'],
  ["array-closed-with-brace", "[true}"],
  ["array-closed-with-brace-number", "[1}"],
  ["object-number-closed-with-bracket", '{"a": 1]'],
  ["array-mixed", '[1, "two", true, null, {"five": 5}, [6]]'],
  ["array-leading-comma", "[,1]"],
  ["array-double-comma", "[1,,2]"],
];

function tokenFile(token) {
  return `{\n  "locals": {\n    "v": ${token}\n  },\n  "output": {\n    "v": { "value": "\${local.v}" }\n  }\n}\n`;
}

const REQUIRED = `"terraform": { "required_providers": { "tsdb": { "source": "schemaform/tsdb" }, "containerbackup": { "source": "schemaform/containerbackup" } } }`;

/** Structure cases: bodies, labels and blocks in the shapes HCL's JSON decoding meets. */
const STRUCTURE = [
  ["body-object", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } } }`],
  ["body-array-one", `{ "resource": { "tsdb_vpcs": { "a": [{ "cidr": "10.0.0.0/16", "region_code": "us-east-1" }] } } }`],
  ["body-array-two", `{ "resource": { "tsdb_vpcs": { "a": [{ "cidr": "10.0.0.0/16", "region_code": "us-east-1" }, { "cidr": "10.1.0.0/16", "region_code": "us-east-1" }] } } }`],
  ["body-array-empty", `{ "resource": { "tsdb_vpcs": { "a": [] } } }`],
  ["body-null", `{ "resource": { "tsdb_vpcs": { "a": null } } }`],
  ["body-string", `{ "resource": { "tsdb_vpcs": { "a": "nope" } } }`],
  ["body-number", `{ "resource": { "tsdb_vpcs": { "a": 1 } } }`],
  ["body-array-of-string", `{ "resource": { "tsdb_vpcs": { "a": ["x"] } } }`],
  ["labels-missing", `{ "resource": { "tsdb_vpcs": { "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } }`],
  ["labels-level-array", `{ "resource": [{ "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } }, { "tsdb_vpcs": { "b": { "cidr": "10.1.0.0/16", "region_code": "us-east-1" } } }] }`],
  ["labels-level-array-duplicate", `{ "resource": [{ "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } }, { "tsdb_vpcs": { "a": { "cidr": "10.1.0.0/16", "region_code": "us-east-1" } } }] }`],
  ["labels-level-null", `{ "resource": { "tsdb_vpcs": null } }`],
  ["labels-level-empty", `{ "resource": { "tsdb_vpcs": {} } }`],
  ["labels-level-string", `{ "resource": { "tsdb_vpcs": "a" } }`],
  ["top-null", `{ "resource": null }`],
  ["top-empty-array", `{ "resource": [] }`],
  ["top-string", `{ "resource": "tsdb_vpcs" }`],
  ["top-unknown-key", `{ "resources": { "tsdb_vpcs": { "a": {} } } }`],
  ["top-comment", `{ "//": "a comment", "locals": { "a": 1 } }`],
  ["top-comment-object", `{ "//": { "anything": [1, 2] }, "locals": { "a": 1 } }`],
  ["top-comment-twice", `{ "//": "one", "//": "two", "locals": { "a": 1 } }`],
  ["body-comment", `{ "resource": { "tsdb_vpcs": { "a": { "//": "note", "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } } }`],
  ["body-duplicate-attribute", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } } }`],
  ["body-extraneous-property", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1", "color": "blue" } } } }`],
  ["block-as-string", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1", "timeouts": "5m" } } } }`],
  ["block-array-two-single", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1", "timeouts": [{ "create": "5m" }, { "create": "6m" }] } } } }`],
  ["block-null", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1", "timeouts": null } } } }`],
  ["block-empty-array", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": "10.0.0.0/16", "region_code": "us-east-1", "timeouts": [] } } } }`],
  ["nested-attribute-as-array", `{ "resource": { "tsdb_log_exporter": { "a": { "region": "us-east-1", "cloudmon": [{ "region": "us-east-1", "log_group_name": "g", "log_stream_name": "s" }] } } } }`],
  ["attribute-as-object", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": { "value": "10.0.0.0/16" }, "region_code": "us-east-1" } } } }`],
  ["attribute-as-array", `{ "resource": { "tsdb_vpcs": { "a": { "cidr": ["10.0.0.0/16"], "region_code": "us-east-1" } } } }`],
  ["map-attribute-nested-object", `{ "resource": { "containerbackup_restore_channel": { "a": { "destination_project": "projects/restore-target", "location": "us-central1", "project": "my-project", "labels": { "a": { "b": "c" } } } } } }`],
  ["map-attribute-templates", `{ "locals": { "k": "team" }, "resource": { "containerbackup_restore_channel": { "a": { "destination_project": "projects/restore-target", "location": "us-central1", "project": "my-project", "labels": { "\${local.k}": "data" } } } } }`],
  ["variable-body-array", `{ "variable": { "v": [{ "type": "string" }] } }`],
  ["variable-body-array-two", `{ "variable": { "v": [{ "type": "string" }, { "type": "number" }] } }`],
  ["locals-array-of-objects", `{ "locals": [{ "a": 1 }, { "b": 2 }] }`],
  ["locals-null", `{ "locals": null }`],
  ["locals-string", `{ "locals": "a" }`],
  ["output-body-null", `{ "output": { "o": null } }`],
  ["output-body-array", `{ "output": { "o": [{ "value": 1 }] } }`],
  ["provider-array-with-null", `{ "provider": { "tsdb": [null, { "project_id": "p" }] } }`],
  ["provider-body-empty-array", `{ "provider": { "tsdb": [] } }`],
  ["terraform-array", `{ "terraform": [{ "required_version": ">= 1.0" }] }`],
  ["terraform-null", `{ "terraform": null }`],
  ["module-body-null", `{ "module": { "m": null } }`],
  ["deep-array-labels", `{ "resource": [[{ "tsdb_vpcs": [[{ "a": [[{ "cidr": "10.0.0.0/16", "region_code": "us-east-1" }]] }]] }]] }`],
  ["keys-with-unicode-escapes", `{ "resource": { "tsdb_\\u0076pcs": { "\\u0061": { "cidr": "10.0.0.0/16", "region_code": "us-east-1" } } } }`],
  ["whitespace-tabs-crlf", `{\r\n\t"locals":\t{\r\n\t\t"a": 1\r\n\t}\r\n}`],
];

export function hclJsonCases() {
  const cases = [];
  for (const [name, token] of TOKENS) {
    cases.push({ id: `hcl-json/file/${name}`, category: "hcl-json", files: { "main.tf.json": `${token}\n` } });
    cases.push({ id: `hcl-json/local/${name}`, category: "hcl-json", files: { "main.tf.json": tokenFile(token) } });
  }
  for (const [name, text] of STRUCTURE) {
    const withProviders = text.replace(/^\{/, `{ ${REQUIRED},`);
    // one line and pretty-printed-ish (one member per line), so positions are tested on both
    cases.push({ id: `hcl-json/structure/${name}`, category: "hcl-json", files: { "main.tf.json": `${withProviders}\n` } });
    cases.push({ id: `hcl-json/structure-lines/${name}`, category: "hcl-json", files: { "main.tf.json": `${withProviders.replace(/, "/g, ',\n  "')}\n` } });
  }
  return cases;
}
