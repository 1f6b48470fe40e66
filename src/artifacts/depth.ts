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


/** The body text at a depth: '' for meta, first section for summary, everything for full. */
export function bodyAt(a: Artifact, depth: Depth): string {
  if (depth === 'meta') return '';
  if (depth === 'summary') return firstSection(a.body);
  return a.body.trim();
}

export function lowerDepth(d: Depth): Depth | undefined {
  return d === 'full' ? 'summary' : d === 'summary' ? 'meta' : undefined;
}
