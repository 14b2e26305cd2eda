import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end suites drive real Terraform; each terraform command costs about a second.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    env: { CHECKPOINT_DISABLE: "1", SCHEMAFORM_TRANSITION_SECONDS: "0" },
  },
});
