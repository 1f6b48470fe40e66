// @spec SPEC-ARTIFACTS-001

import type { Artifact, Depth } from './types.js';

/** First section of the body: everything up to the second heading (or the first, when text precedes it). */
export function firstSection(body: string): string {
  const lines = body.split('\n');
  let headings = 0;
  let sawText = false;
  const out: string[] = [];
  for (const line of lines) {
    if (/^#{1,6}\s/.test(line)) {
      headings++;
      if (headings > 1 || sawText) break;
    } else if (line.trim()) sawText = true;
    out.push(line);
  }
  return out.join('\n').trim();
}


/** A Decision heading as records write it: `## Decision`, `## 3. Decision`, `## Decision Outcome`, setext ones too. */
const DECISION_HEADING = /^(?:#{1,6}[ \t]+(?:\d+\.\s*)?decision(?:\s+outcome)?[ \t#:]*|(?:\d+\.\s*)?decision(?:\s+outcome)?:?[ \t]*\n(?:=+|-+))[ \t]*$/im;

/**
 * The Decision (or Decision Outcome) section of a body: its heading and its text up to the
 * next heading, so a MADR record's "### Consequences" stays out. Undefined when there is none.
 */
export function decisionSection(body: string): string | undefined {
  const part = decisionPart(body);
  return part?.text ? `${part.heading}\n\n${part.text}` : undefined;
}

/**
 * The Decision section's heading and text (trimmed, '' when the section is empty), ATX,
 * setext or reStructuredText underlined alike (`Decision` over a line of `-`); undefined when
 * the body has no Decision heading.
 */
export function decisionPart(body: string): { heading: string; text: string } | undefined {
  const m = DECISION_HEADING.exec(body);
  if (!m) return undefined;
  const rest = body.slice(m.index + m[0].length);
  const end = rest.search(/^#{1,6}\s|^[^\n]+\n(?:=+|-+)[ \t]*$/m);
  return { heading: m[0].trim(), text: (end < 0 ? rest : rest.slice(0, end)).trim() };
}

/**
 * The body text at a depth: '' for meta, everything for full; for summary the first section
 * and, when the record has a Decision section the first one does not hold, that section: an
 * ADR's first section is its title and date, and a summary must say what was decided.
 */
export function bodyAt(a: Artifact, depth: Depth): string {
  if (depth === 'meta') return '';
  // a record read in place keeps its whole text as the body, MADR frontmatter included: the
  // text starts after it at every depth, since the metadata is shown apart (twice otherwise)
  const body = a.format === 'adr' ? a.body.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '') : a.body;
  if (depth === 'full') return body.trim();
  const first = firstSection(body);
  const decision = decisionSection(body);
  return decision && !first.includes(decision) ? `${first}\n\n${decision}` : first;
}

export function lowerDepth(d: Depth): Depth | undefined {
  return d === 'full' ? 'summary' : d === 'summary' ? 'meta' : undefined;
}
