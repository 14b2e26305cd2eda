// Types of compare.mjs (plain JavaScript, shared with scripts/differential.mjs).
import type { DifferentialCase } from "./corpus.mjs";

export interface RecordedError {
  summary: string;
  file: string | null;
  line: number | null;
}
export interface RecordedVerdict {
  hash: string;
  category: string;
  valid: boolean;
  stage: "init" | "validate";
  first: { file: string; line: number } | null;
  errors: RecordedError[];
}
export interface OurError {
  file: string;
  line: number | null;
  message: string;
  /** whose verdict it is (see language/syntax/diagnostics.ts): only "terraform" errors count as Terraform's */
  source?: "terraform" | "schemaform";
  crash?: boolean;
}
export interface Outcome {
  verdict: boolean;
  /** null unless both reject and Terraform's first error has a position */
  line: boolean | null;
  /** schemaform threw instead of giving a verdict */
  crash?: boolean;
}
export interface Rates {
  cases: number;
  verdictAgree: number;
  bothReject: number;
  lineAgree: number;
  verdictRate: number | null;
  lineRate: number | null;
}
export interface Summary {
  overall: Rates;
  categories: Record<string, Rates>;
}
export declare function writeCase(dir: string, c: Pick<DifferentialCase, "files">): void;
export declare function caseDirName(id: string): string;
export declare function ourErrors(
  validateFiles: (paths: string[]) => Promise<{ diagnostics: { severity: string; file: string; line: number; message: string; source?: "terraform" | "schemaform" }[] }>,
  dir: string,
): Promise<OurError[]>;
export declare function compare(recorded: RecordedVerdict, ours: OurError[]): Outcome;
export declare function summarize(results: ({ category: string } & Outcome)[]): Summary;
export declare function formatSummary(summary: Summary): string;
export declare function disagreementKind(recorded: RecordedVerdict, outcome: Outcome): "missed" | "false-positive" | "line" | "crash" | null;
