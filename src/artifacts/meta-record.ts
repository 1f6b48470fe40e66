// @spec SPEC-ARTIFACTS-001

import { recordParts } from './sources/parts.js';
import type { Artifact } from './types.js';

/** A title or heading without markup, numbering and a trailing colon, lower case. */
export function norm(title: string): string {
  return title
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '')
    .replace(/^\s*(?:\d+(?:\.\d+)*[.)]?|[ivx]+\.)\s+/i, '')
    .replace(/[\s:.]+$/, '')
    .trim()
    .toLowerCase();
}

/** A text's words without link targets, emphasis, quotes and runs of space, lower case. */
export const plainWords = (s: string): string =>
  s
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`>#"\u201c\u201d]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The adr-tools / MADR record about keeping decision records ("Record architecture
 * decisions", "Use Markdown Architectural Decision Records"): true of the process, empty for
 * an agent changing code. `text` is what the record decides (its decision part).
 */
export function isMetaRecord(a: Pick<Artifact, 'title'>, text: string): boolean {
  const t = norm(a.title ?? '');
  if (/^(?:record|recording|use|using|adopt|adopting|document|documenting|keep|keeping|write|writing|introduce|introducing)\s+(?:of\s+)?(?:the\s+)?(?:markdown\s+|lightweight\s+|any\s+)*(?:architecture|architectural|design|technical)?\s*decisions?(?:\s+records?)?(?:\s*\((?:adrs?|madr)\))?(?:\s+(?:in|for)\s+this\s+(?:project|repository|repo))?$/.test(t)) return true;
  if (/^(?:use|using|adopt)\s+(?:adrs?|madr)(?:\s+\d+(?:\.\d+)*)?$/.test(t)) return true;
  // a tool chosen to keep them: "Use Log4brains to manage the ADRs", "Use adr-tools for architecture decisions"
  if (/^(?:use|using|adopt|adopting|introduce)\s+\S+(?:\s+\S+)?\s+(?:to|for)\s+(?:(?:manage|managing|write|writing|record|recording|keep|keeping|publish|publishing|document|documenting)\s+)?(?:the\s+|our\s+)?(?:adrs?|(?:(?:architecture|architectural|design)\s+)?decision\s+records?|(?:architecture|architectural)\s+decisions)$/.test(t)) return true;
  const body = plainWords(text);
  return /^we will (?:use|keep|record)\b.{0,60}\b(?:architecture|architectural) decision records?\b/.test(body) || /^chosen option: "?(?:madr|markdown (?:any |architectural )?decision records?)/.test(body);
}

const decided = new WeakMap<Artifact, boolean>();

/**
 * Whether a loaded record is the meta-record, judged by its title and what its decision part
 * says (its whole body when it has none); remembered per loaded artifact. Such a record
 * governs the records folder, not the code: a place in the code never has it as an answer,
 * a question about how decisions are recorded does (DEC-084).
 */
export function isMetaArtifact(a: Artifact): boolean {
  let v = decided.get(a);
  if (v === undefined) {
    const parts = recordParts(a.body, /\.rst$/i.test(a.file));
    const decision = parts.filter((p) => p.kind === 'decision').map((p) => p.text).join('\n');
    // the decision part starts with its heading: what it says comes after
    const said = decision.replace(/^\s*(?:#{1,6}[^\n]*|[^\n]*\n[=\-~^]{3,})\n/, '');
    decided.set(a, (v = a.type === 'decision' && isMetaRecord(a, said || a.body)));
  }
  return v;
}
