// Runs a `schemaform` command's `run(argv)` in this process and collects what it prints on
// stdout and stderr, as a user would see it.
import { vi } from "vitest";

export interface CommandOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCommand(run: (argv: string[]) => Promise<number>, argv: string[]): Promise<CommandOutput> {
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
    return { code: await run(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
