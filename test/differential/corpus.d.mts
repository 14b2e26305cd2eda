// Types of corpus.mjs (plain JavaScript so that scripts/differential.mjs runs it without a build).
export interface DifferentialCase {
  /** CATEGORY/MUTATION/BASE, e.g. "addresses/import-to-instance-key/017" */
  id: string;
  category: string;
  /** path inside the case directory → file text */
  files: Record<string, string>;
}
export declare const DEFAULT_SEED: number;
export declare function generateCorpus(seed?: number): DifferentialCase[];
export declare function caseHash(c: DifferentialCase): string;
