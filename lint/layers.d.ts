import type { ESLint } from 'eslint';

export declare const LAYERS: string[][];
export declare const PENDING: { file: string; to: string; by: string }[];
export declare function unitOf(file: string): string | undefined;
export declare function crossing(from: string, to: string): string | undefined;
declare const plugin: ESLint.Plugin;
export default plugin;
