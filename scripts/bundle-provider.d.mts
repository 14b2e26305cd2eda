// Types of scripts/bundle-provider.mjs, for the tests that bundle their fixture provider.
export declare const ROOT: string;
export declare const PROVIDER_BUNDLE: string;
/** dist/provider/lock.json: the version and each provider package's h1: hash. */
export declare const PROVIDER_LOCK_DATA: string;
/** The executable's first two lines (sh launcher and JavaScript at once). */
export declare const LAUNCHER: string;
export declare const PROTO_DIR: string;
export declare const PROTO_FILES: string[];
export declare function protocolDescriptor(): Record<string, unknown>;
export declare function bundleProvider(options: { entryPoint: string; outfile: string; minify?: boolean }): Promise<string>;
export declare function writeLockData(bundle?: string, outfile?: string): Promise<string>;
