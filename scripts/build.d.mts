// Types of scripts/build.mjs, for its tests.
export declare function cacheDirectory(root?: string): string;
export declare function inputFingerprint(root?: string): { fingerprint: string; files: number };
export declare function outputSignatures(root?: string): Record<string, string>;
export declare function readRecord(root?: string): { fingerprint: string; outputs: Record<string, string> } | undefined;
export declare function writeRecord(root: string, fingerprint: string, extra?: Record<string, unknown>): void;
export declare function buildNeeded(root?: string): { reason: string | undefined; outputsIntact: boolean; fingerprint: string; files: number };
