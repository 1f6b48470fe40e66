export declare const RECORD_EXT: RegExp;
export declare const gitEnv: NodeJS.ProcessEnv;
export declare class BenchError extends Error {}
export declare function fail(msg: string): never;
export declare function mirrorOf(repository: unknown): string | null;
export declare function cloneOnce(repo: string, dir: string, what: string): string;
export declare function checkoutPinned(dir: string, commit: string): string[];
