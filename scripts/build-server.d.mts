export declare const root: string;
export declare const serverBundle: string;
export declare function buildServer(outfile?: string): Promise<string>;
export declare const SERVER_NODE_FLAGS: string[];
export declare const SERVER_ENV: Record<string, string>;
export declare function bundleIsCurrent(outfile?: string): boolean;
