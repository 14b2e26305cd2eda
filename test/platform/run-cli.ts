// `schemaform platform …` run in this process (cli/commands/platform.ts), with what it prints.
import { vi } from "vitest";
import { run as platformCommand } from "../../cli/commands/platform.js";

export async function runPlatformCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await platformCommand(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
