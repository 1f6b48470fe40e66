// Types for bench/pr-devset/lib.mjs, so the TypeScript tests can import it.

export interface PrCase {
  id: string;
  kind: 'positive' | 'negative';
  base: string;
  head: string;
  title: string;
  relevant: string[];
  note: string;
}

export interface PrDevSet {
  name: string;
  repository?: string;
  about?: string;
  config: { sources: { dir: string; format?: string; prefix?: string; type?: string }[]; [key: string]: unknown };
  cases: PrCase[];
}

export interface NoiseFile {
  file: string;
  kind: 'lockfile' | 'ci' | 'generated';
  records: string[];
}

export interface PrAnswer {
  shown: string[];
  noise?: NoiseFile[];
}

export interface PrSummary {
  positives: number;
  hits: number;
  mrr: number;
  negatives: number;
  negativeShown: number[];
  negativesAtMostOne: number;
  noiseFiles: number;
  noiseFilesWithRecord: number;
}

export const HIT_AT: number;
export const RR_DEPTH: number;
export const BASELINE_SHOWN: number;
export function validatePrDevset(data: unknown, minimums?: Record<string, number>): string[];
export function shownRecords(result: unknown, fileOf?: Map<string, string>): string[];
export function noiseKind(file: string, head?: string): 'lockfile' | 'ci' | 'generated' | null;
export function recordsForFile(f: { path?: string; governedBy?: string[]; alsoRelevant?: { id: string }[] }, result?: unknown): string[];
export function noiseOf(paths: string[], result: unknown, headOf?: (path: string) => string): NoiseFile[];
export function diffQueryTokens(diff: string, messages: string): string[];
export function scoreShown(relevant: string[], shown: string[]): { hit: boolean; rr: number };
export function summarisePr(cases: PrCase[], answers: Record<string, PrAnswer>): PrSummary;
