// @spec SPEC-CLI-001

import { Option, type Command } from './commander.js';
import { CtxError } from '../errors.js';
import type { RetrievalCaps, RetrievalFilters, RetrieveOptions } from '../retrieve/types.js';
import { formatOption } from './shared.js';

/** Options shared by `git ctx for` and `git ctx search`: the engine's metadata filters, and how to show the answer. */
export interface RetrievalCliOptions extends RetrievalFilters {
  format: 'human' | 'json' | 'context';
  json?: boolean;
  depth: 'summary' | 'full';
  cap?: string[];
  linkDepth?: number;
}

const list = (v: string, prev: string[] = []) => [...prev, ...v.split(',').map((x) => x.trim()).filter(Boolean)];

export function addRetrievalOptions(cmd: Command): Command {
  return cmd
    .addOption(formatOption(['human', 'json', 'context'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addOption(new Option('-d, --depth <depth>', 'summaries (default) or full text of each record').choices(['summary', 'full']).default('summary'))
    .option('-a, --all', 'include records out of force (superseded, deprecated, done), marked, and list the weak matches under the relevance floor; rejected records answer without it, marked')
    .option('--status <list>', 'only records with these statuses (comma-separated, repeatable)', list)
    .option('--type <list>', 'only these types (decision, spec, norm, …)', list)
    .option('--owner <list>', 'only records owned by these (owner: in frontmatter or the provenance sidecar)', list)
    .option('--since <date>', 'only records created on or after this date (YYYY-MM-DD)')
    .option('--domain <list>', 'only records of these domains', list)
    .option('--scope <list>', 'only records of these scopes (global, domain, project)', list)
    .option('--source <list>', 'only records of these sources: file formats (contextia, adr) or how they were captured (ai_chat, meeting, manual)', list)
    .option('--cap <slot=n>', 'per-slot cap, e.g. --cap fused=10 (slots: declared, fused, links; repeatable)', list)
    .option('--link-depth <n>', 'relation hops followed from the hits (slot 3)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new CtxError('USAGE', `--link-depth must be a non-negative integer (got ${JSON.stringify(v)})`);
      return n;
    });
}

/** Filters, caps and depth from the parsed options. */
export function retrievalSettings(o: RetrievalCliOptions): Pick<RetrieveOptions, 'filters' | 'caps' | 'depth' | 'linkDepth'> {
  if (o.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(o.since)) throw new CtxError('USAGE', `--since must be a date YYYY-MM-DD (got ${JSON.stringify(o.since)})`);
  const caps: Partial<RetrievalCaps> = {};
  for (const c of o.cap ?? []) {
    const m = /^(declared|fused|links)=(\d+)$/.exec(c);
    if (!m) throw new CtxError('USAGE', `--cap takes slot=n with slot declared, fused or links (got ${JSON.stringify(c)})`);
    caps[m[1] as keyof RetrievalCaps] = Number(m[2]);
  }
  const filters: RetrievalFilters = {};
  if (o.all) filters.all = true;
  for (const k of ['status', 'type', 'owner', 'domain', 'scope', 'source'] as const) if (o[k]?.length) filters[k] = o[k];
  if (o.since) filters.since = o.since;
  return { filters, caps, depth: o.depth, ...(o.linkDepth !== undefined ? { linkDepth: o.linkDepth } : {}) };
}
