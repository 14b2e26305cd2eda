// Types of scripts/bundle-provider.mjs, for the tests that bundle their fixture provider.
export declare const ROOT: string;
export declare const PROVIDER_BUNDLE: string;
/** The executable's first two lines (sh launcher and JavaScript at once). */
export declare const LAUNCHER: string;
export declare const PROTO_DIR: string;
export declare const PROTO_FILES: string[];
export declare function protocolDescriptor(): Record<string, unknown>;
export declare function bundleProvider(options: { entryPoint: string; outfile: string; minify?: boolean }): Promise<string>;
