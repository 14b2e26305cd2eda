// The "Testing with `terraform test`" section of a provider's index page: the shipped example
// (examples/terraform-test/), its test files shown as they are, read at generate time so the page
// and the example (which the test suite runs with real `terraform test`) cannot drift apart.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface TerraformTestFile {
  name: string;
  text: string;
}

const EXAMPLE = ["examples", "terraform-test"];

/** The example's test files, from the repository root; none when the example is absent. */
export function readTerraformTests(root: string): TerraformTestFile[] {
  const dir = join(root, ...EXAMPLE, "tests");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".tftest.hcl"))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), "utf8").trimEnd() }));
}

export function terraformTestSection(provider: string, files: TerraformTestFile[]): string[] {
  if (provider !== "tsdb" || files.length === 0) return [];
  return [
    "## Testing with `terraform test`",
    "",
    "`terraform test` (Terraform 1.6+, `mock_provider` 1.7+) runs `*.tftest.hcl` files against a configuration. The package ships an example, `examples/terraform-test/`: a service with database parameters and a connection URI output, and two test files. One applies against the embedded platform (set `SCHEMAFORM_DATA_DIR` to keep its data apart) and destroys what it created at the end; the other uses `mock_provider \"tsdb\"`, so nothing is created, while the provider still validates the configuration (an unknown database parameter or a value out of range fails the run as it would for real). Provider functions are still called on the real provider.",
    "",
    "```sh",
    "cd examples/terraform-test",
    "terraform init",
    "terraform test",
    "```",
    "",
    ...files.flatMap((f) => [`\`tests/${f.name}\`:`, "", "```hcl", f.text, "```", ""]),
  ];
}
