import type { AnnotationProperties } from '@actions/core';
import { annotationText } from '../pr/escape.js';
import type { PrResult } from '../pr/types.js';

/** GitHub shows at most 10 annotations of each level per step; more are dropped silently. */
export const ANNOTATIONS_PER_LEVEL = 10;

export interface PlannedAnnotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  properties: AnnotationProperties;
}

/**
 * The annotations for a result, bounded per level: warnings on changed code whose
 * artifacts are stale or not re-stamped, notices on other governed code, errors on the
 * coherence errors the PR introduces. What does not fit is counted, for the log.
 */
export function planAnnotations(r: PrResult, perLevel = ANNOTATIONS_PER_LEVEL): { annotations: PlannedAnnotation[]; dropped: number } {
  const out: PlannedAnnotation[] = [];
  let dropped = 0;
  const count = { error: 0, warning: 0, notice: 0 };
  const push = (a: PlannedAnnotation) => {
    if (count[a.level] >= perLevel) {
      dropped++;
      return;
    }
    count[a.level]++;
    out.push(a);
  };
  for (const f of r.coherence.introduced) {
    // a decision's confirmation broken on a line the PR adds, at its severity (DEC-052)
    if (f.rule === 'confirmation-violated' && f.file && f.line && f.severity !== 'info') {
      push({ level: f.severity, message: annotationText(f.message), properties: { title: annotationText(`git-ctx: ${f.id ?? 'a decision'} violated`, 120), file: f.file, startLine: f.line, endLine: f.line, ...(f.column ? { startColumn: f.column } : {}) } });
      continue;
    }
    if (f.severity !== 'error' || !f.file || f.file.startsWith('~global/')) continue;
    push({ level: 'error', message: annotationText(`${f.message} (${f.rule})`), properties: { title: 'git-ctx: coherence error introduced', file: f.file, ...(f.line ? { startLine: f.line } : {}) } });
  }
  for (const l of r.locations) {
    push({
      level: l.level,
      message: annotationText(l.message),
      properties: { title: annotationText(`git-ctx: ${l.ids.join(', ')}`, 120), file: l.file, startLine: l.line, endLine: l.endLine },
    });
  }
  return { annotations: out, dropped };
}
