// @spec SPEC-SOURCES-001

import type { Artifact, LoadProblem } from '../types.js';
import { extraOf } from './extra.js';

/**
 * The number a record's title is headed with, as adr-tools (`# 41. Title`) or an id
 * (`# ADR-0006 Title`, `# ADR-009: Title`) writes it; undefined for a title that starts with
 * no such number ("# 2FA for admins", "# 2024 roadmap", "# 1.2 release").
 */
export function titleNumber(line: string): number | undefined {
  const m = /^\s*(?:#{1,6}\s+)?(?:\p{Extended_Pictographic}\uFE0F?\s*)?(?:(?:adr|rfc|dec|pdr)[-_ ]?#?\s*(\d{1,6})(?![\p{L}\d])|(\d{1,6})[.:)](?=\s))/iu.exec(line);
  const n = m?.[1] ?? m?.[2];
  return n === undefined ? undefined : Number(n);
}

/**
 * A numbered record whose title is headed with another number: a heading copied from the
 * record it was started from and never renumbered (GSA-TTS/FAC's 0042 headed "# 41. …" with
 * 0041's title, dasch-swiss/dsp-api's 0008 headed "# ADR-0006 …", bosh-bootloader's 0003
 * headed "# 2. …"). Readers take the title without its number, so nothing else shows it. A
 * folder where most numbered titles differ from their files may number its titles its own
 * way: there only a title number two titles share is reported.
 */
export function titleNumberProblems(artifacts: readonly Artifact[]): LoadProblem[] {
  const numbered: { a: Artifact; file: number; title: number; line: number }[] = [];
  for (const a of artifacts) {
    const n = a.format === 'adr' ? extraOf(a)?.n : undefined;
    const line = a.keyLines.title;
    if (n === undefined || line === undefined || a.file.startsWith('~')) continue;
    const text = a.body.split('\n', line)[line - 1];
    const t = text === undefined ? undefined : titleNumber(text);
    if (t !== undefined) numbered.push({ a, file: Number(n), title: t, line });
  }
  // where most titles differ, the folder may number them its own way (from 0, in another
  // sequence): then only a title number another title also has is a copy (get-an-identity's
  // 0002 and 0003 both headed "# 1." like 0001)
  const off = numbered.filter((r) => r.file !== r.title);
  const titles = new Map<number, number>();
  for (const r of numbered) titles.set(r.title, (titles.get(r.title) ?? 0) + 1);
  const copied = off.length * 2 <= numbered.length ? off : off.filter((r) => titles.get(r.title)! > 1);
  const byNumber = new Map(numbered.map((r) => [r.file, r.a]));
  return copied.map(({ a, file, title, line }) => {
    const other = byNumber.get(title);
    const same = other && other.title === a.title ? ` (${other.id} has this title too)` : '';
    return { file: a.file, line, rule: 'title-number-disagrees', message: `the title is numbered ${title} and the file ${file}${same}: a heading copied from another record? Renumber the title, or give the record its own` };
  });
}
