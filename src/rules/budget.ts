// @spec SPEC-RULES-001

/*
 * What a rule file may hold: a token budget (`rule_files.budget`, `rules export --budget`) and,
 * for the files an agent reads on every request, the room its documented limit leaves beside
 * the file's own text. Records go in full while they fit, then as summaries, then are left out.
 */

import type { TokenCounter } from '../assemble/tokens.js';
import { CtxError } from '../errors.js';
import { spliceSection, type RuleFormat } from './formats.js';
import { limitFor, type Tool } from './limits.js';

/** An entry to fit: the record, its full text and its summary. */
export interface FitEntry {
  a: { id: string };
  full: string;
  short: string;
}

export interface Fitted {
  parts: string[];
  ids: string[];
  lowered: string[];
  dropped: string[];
  /** the room in bytes, not the token budget, is what left records out */
  byRoom?: boolean;
}

/**
 * Token counts for one plan, remembered by text: the same entry goes into AGENTS.md,
 * CLAUDE.md and GEMINI.md, and is counted once. Misses are counted in one call per batch
 * (each call may load the encoder).
 */
export class Counts {
  private readonly known = new Map<string, number>();
  constructor(private readonly counter: TokenCounter | undefined) {}
  async ensure(texts: string[]): Promise<void> {
    const miss = [...new Set(texts.filter((t) => !this.known.has(t)))];
    if (!miss.length) return;
    if (!this.counter) throw new CtxError('USAGE', 'a rule file exceeds its token budget and no token counter was given');
    const n = await this.counter.count(miss);
    miss.forEach((t, i) => this.known.set(t, n[i]!));
  }
  get(text: string): number {
    return this.known.get(text)!;
  }
}

export const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Fit entries into a token budget, in priority order: each entry in full while the full
 * text fits, then (once one does not) every later entry as its summary while that fits,
 * then the rest left out. A token is at least one byte, so while the bytes fit nothing is
 * counted; past that, entries are counted in batches of about four budgets' worth of
 * bytes, so a 2,000-record repository counts the few hundred entries that can matter.
 */
export async function fit(fixed: string[], entries: readonly FitEntry[], budget: number, counts: Counts, room = Infinity): Promise<Fitted> {
  const out: Fitted = { parts: [], ids: [], lowered: [], dropped: [] };
  const fixedBytes = fixed.reduce((n, s) => n + bytes(s), 0);
  const totalBytes = fixedBytes + entries.reduce((n, e) => n + bytes(e.full), 0);
  if (totalBytes <= budget && totalBytes <= room) {
    out.parts = entries.map((e) => e.full);
    out.ids = entries.map((e) => e.a.id);
    return out;
  }
  await counts.ensure(fixed);
  let used = fixed.reduce((n, s) => n + counts.get(s), 0);
  // bytes, where the file's agent reads only so many (roomFor): each entry fits both
  let usedBytes = fixedBytes;
  const fits = (text: string) => used + counts.get(text) <= budget && usedBytes + bytes(text) <= room;
  let level: 'full' | 'short' = 'full';
  let counted = 0;
  for (let i = 0; i < entries.length; i++) {
    if (i >= counted) {
      // the next batch: entries up to ~4 budgets of bytes (at least one)
      let j = i;
      let b = 0;
      while (j < entries.length && (j === i || b < 4 * budget)) b += bytes(entries[j]!.full) + bytes(entries[j++]!.short);
      await counts.ensure(entries.slice(i, j).flatMap((e) => [e.full, e.short]));
      counted = j;
    }
    const e = entries[i]!;
    if (level === 'full' && fits(e.full)) {
      used += counts.get(e.full);
      usedBytes += bytes(e.full);
      out.parts.push(e.full);
      out.ids.push(e.a.id);
      continue;
    }
    level = 'short';
    if (fits(e.short)) {
      used += counts.get(e.short);
      usedBytes += bytes(e.short);
      out.parts.push(e.short);
      out.ids.push(e.a.id);
      out.lowered.push(e.a.id);
      continue;
    }
    out.dropped = entries.slice(i).map((x) => x.a.id);
    if (used + counts.get(e.short) <= budget) out.byRoom = true;
    break;
  }
  return out;
}

/** How much of a section file its agent reads, less the file's own text: what the managed section may take. */
export interface Room {
  bytes: number;
  file: string;
  tool: string;
  limit: number;
}

/** The agent whose always-read file a format's managed section is in (limits.ts has what each reads). */
const SECTION_TOOL: Partial<Record<RuleFormat, Tool>> = { agents: 'agents', claude: 'claude', 'claude-rules': 'claude', gemini: 'gemini', copilot: 'copilot' };
/** The least a section takes when the file's own text already fills what its agent reads: summaries of a few records and the line naming the rest. */
const MIN_ROOM = 3_000;
const TOOL_NAMES: Record<Tool, string> = { agents: 'Codex', claude: 'Claude Code', gemini: 'Gemini CLI', cursor: 'Cursor', copilot: 'GitHub Copilot', kiro: 'Kiro', windsurf: 'Windsurf' };

/**
 * The room a managed section has in `file`: what its agent reads on every request (the
 * tool's documented limit, or `rule_files.limits`), less the rest of the file as it is now. A
 * section that fitted only the token budget grew JabRef's AGENTS.md from 22 to 54 KB, past
 * the 32 KiB Codex reads, so the records at its end were never read. Undefined where the
 * tool documents no limit.
 */
export function roomFor(f: RuleFormat, file: string, current: string | undefined, limits: Record<string, number>): Room | undefined {
  const tool = SECTION_TOOL[f];
  const limit = tool ? limitFor(tool, limits) : undefined;
  if (!tool || !limit || limit.of !== 'always') return undefined;
  // the file's own text as export leaves it around the section (a first export adds a separator)
  const rest = bytes(spliceSection(current, ''));
  return { bytes: Math.max(MIN_ROOM, limit.chars - rest), file, tool: TOOL_NAMES[tool], limit: limit.chars };
}
