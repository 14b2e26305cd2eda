// Types of scripts/bundle-provider.mjs, for the tests that bundle their fixture provider.
export declare const ROOT: string;
export declare const PROVIDER_BUNDLE: string;
export declare const NATIVE_ADDON: string;
export declare function protocolDescriptor(): Record<string, unknown>;
export declare function bundleProvider(options: { entryPoint: string; outfile: string; minify?: boolean }): Promise<string>;
export declare function copyNativeAddon(directory: string): void;
