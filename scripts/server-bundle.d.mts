// Types of scripts/server-bundle.mjs, which the Playwright config imports.
export declare const SERVER_OUT: string;
export declare const SERVER_ENTRY: string;
export declare function serverBundleCurrent(root: string): boolean;
export declare function bundleServer(root: string): Promise<void>;
