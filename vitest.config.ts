import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end suites drive real Terraform; each terraform command costs about a second.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Plugins start directly (Node per launch, the macOS path) unless SCHEMAFORM_RESIDENT is set
    // when the tests run: the resident server, the default on Linux, would leave a server idling
    // for a minute per workspace and provider (27 at once, 2 GB, in one run of test/e2e).
    // test/e2e/resident.test.ts runs on the default path whatever this says.
    env: { CHECKPOINT_DISABLE: "1", SCHEMAFORM_TRANSITION_SECONDS: "0", SCHEMAFORM_DATA_PLANE: "off", SCHEMAFORM_RESIDENT: process.env.SCHEMAFORM_RESIDENT ?? "0" },
  },
});
