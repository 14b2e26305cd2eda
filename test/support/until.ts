// Waiting in a test for something another process or a socket does, without a fixed sleep.

/** Polls `probe` every 50 ms until it gives a truthy value, which it returns. */
export async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
