// Types for bench/retrieval/lib.mjs, so the TypeScript tests can import it.

export type QueryKind = 'file' | 'symbol' | 'question' | 'paraphrase' | 'keyword' | 'offtopic' | 'ungoverned';

export interface DevQuery {
  id: string;
  kind: QueryKind;
  input: string;
  relevant: string[];
  note: string;
  /** file queries only: true when no record names the file */
  unnamed?: boolean;
}

export interface DevSet {
  name: string;
  about?: string;
  repository?: string;
  commit?: string;
  config?: Record<string, unknown> | null;
  queries: DevQuery[];
}

export interface QueryScore {
  recall: number;
  rr: number;
}

export interface SummaryRow {
  kind: string;
  n: number;
  [system: string]: { recall5: number; mrr: number } | null | string | number;
}

export interface AnswerRow {
  kind: string;
  n: number;
  [system: string]: { empty: number; dominant: { id: string; count: number } | null } | null | string | number;
}

export const KINDS: QueryKind[];
export const ON_TOPIC: QueryKind[];
export const NO_ANSWER: QueryKind[];
export function isPlaceKind(kind: QueryKind): boolean;
export const TOP_SHOWN: number;
export const BM25_FLOOR: number;
export function bm25Answer(hits: { id: string; score: number }[], floor?: number): string[];
export function summariseAnswers(queries: DevQuery[], systems: Record<string, Record<string, string[]> | null>, top?: number): AnswerRow[];
export function formatAnswerTable(rows: AnswerRow[], systems: string[], short?: (id: string) => string): string;
export const RECALL_AT: number;
export const MRR_DEPTH: number;
export function tokenize(text: string): string[];
export function pathWords(input: string): string[];
export function queryTokens(query: Pick<DevQuery, 'kind' | 'input'>): string[];
export class Bm25 {
  constructor(docs: { id: string; text: string }[], options?: { k1?: number; b?: number });
  idf(term: string): number;
  search(tokens: string[]): { id: string; score: number }[];
}
export function recallAt(ranked: string[], relevant: string[], k?: number): number;
export function reciprocalRank(ranked: string[], relevant: string[], depth?: number): number;
export function scoreRanking(query: DevQuery, ranked: string[]): QueryScore;
export function summarise(queries: DevQuery[], systems: Record<string, Record<string, QueryScore> | null>): SummaryRow[];
export function formatTable(rows: SummaryRow[], systems: string[]): string;
export function validateDataset(data: unknown, minimums?: Record<string, number>): string[];
export function countKinds(queries: DevQuery[]): Record<string, number>;
export function namesFile(text: string, filePath: string): boolean;
export function preparedDevSet(root: string, name: string, script: string): Promise<{ data: DevSet; cwd: string }>;
export function flagValue(argv: readonly string[], name: string, fallback: string | undefined): string | undefined;
