// Cases written for a found problem, each named by what it pins down, appended after every
// generated and hand-written round so that no earlier case's base or id moves. A validate fast
// path that reads a reference straight from the text must give the general path's verdict.
const REQUIRED = '"terraform": {"required_providers": {"tsdb": {"source": "schemaform/tsdb"}}}';

const CHECK_PROBE = '"check": {"probe": {"data": {"tsdb_service": {"probe": {"id": "svc-probe"}}}, "assert": {"condition": "${data.tsdb_service.probe.id != \\"\\"}", "error_message": "no probe"}}}';

/** @param {string} members the members of the root object after the terraform block */
const file = (members) => ({ "main.tf.json": `{\n  ${REQUIRED},\n  ${members}\n}\n` });

const CASES = [
  // a check block's data source is not visible outside it, whatever the shape of the reference
  ["scoped-data-whole-reference", `${CHECK_PROBE},\n  "resource": {"tsdb_service": {"db": {"name": "db", "vpc_id": "\${data.tsdb_service.probe.vpc_id}"}}}`],
  ["scoped-data-in-template-text", `${CHECK_PROBE},\n  "resource": {"tsdb_service": {"db": {"name": "db-\${data.tsdb_service.probe.name}"}}}`],
  ["scoped-data-from-output", `${CHECK_PROBE},\n  "output": {"probe": {"value": "\${data.tsdb_service.probe.vpc_id}"}}`],
];

export function regressionCases() {
  return CASES.map(([name, members]) => ({ id: `regressions/${name}`, category: "references", files: file(members) }));
}
