// The language checker's files import one another without cycles (a cycle makes a room's order of
// evaluation depend on who imports it first, and hides which part rests on which). Type-only
// imports count too: they tie the files' designs together just the same.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOM = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "language");

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** file → the files of the room it imports (static, dynamic, type-only and re-exports). */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")));
    graph.set(file, targets.filter((t) => t.startsWith(ROOM + "/")));
  }
  return graph;
}

/** One cycle per strongly connected component of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.map((f) => relative(ROOM, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("language/ imports", () => {
  it("form no cycle", () => {
    expect(cycles(importGraph(sourceFiles(ROOM)))).toEqual([]);
  });

  it("a cycle is found when there is one", () => {
    const a = join(ROOM, "a.ts");
    const b = join(ROOM, "b.ts");
    const c = join(ROOM, "c.ts");
    expect(cycles(new Map([[a, [b]], [b, [a]], [c, [a]]]))).toEqual([["a.ts", "b.ts"]]);
  });

  it("keeps every file under about 600 lines", () => {
    const long = sourceFiles(ROOM)
      .map((f) => ({ file: relative(ROOM, f), lines: readFileSync(f, "utf8").split("\n").length }))
      .filter((f) => f.lines > 620);
    expect(long).toEqual([]);
  });
});
