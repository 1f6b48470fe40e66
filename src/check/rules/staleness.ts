import { recordStateLabel } from '../../staleness/vocabulary.js';
import { fingerprintAnchor } from '../../code/anchors.js';
import type { StaleReport } from '../../staleness/types.js';
import type { CheckContext, Finding, Rule } from '../types.js';
import { codeIndexFor } from './anchors.js';

type Out = Omit<Finding, 'severity'>;

/**
 * One staleness judgement per check run. Only stamped artifacts are judged here: an
 * artifact without a stamp has nothing it claims to have verified, and judging it by
 * history would flag all code written after its decision; `git ctx stale` reports those.
 */
function reportFor(ctx: CheckContext): Promise<StaleReport> {
  let p = ctx.cache.get('staleness-report') as Promise<StaleReport> | undefined;
  if (!p) {
    p = (async () => {
      const ids = ctx.set.artifacts.filter((a) => a.origin === 'repo' && a.stamp?.commit).map((a) => a.id);
      // the staleness engine loads only when a staleness rule runs (never in the default hook)
      const { judgeArtifacts } = await import('../../staleness/judge.js');
      const report = await judgeArtifacts({ snapshot: ctx.snapshot, config: ctx.config, set: ctx.set, index: await codeIndexFor(ctx), ids });
      // remembered for impact and episodes through the journal (no SQLite here); staged content is no commit to show later
      if (ctx.snapshot.kind !== 'index') {
        const { appendMarkers, markersOf } = await import('../../staleness/markers.js');
        appendMarkers(ctx.snapshot.root, markersOf(report, 'check', ctx.now), ctx.config);
      }
      return report;
    })();
    ctx.cache.set('staleness-report', p);
  }
  return p;
}

const line = (ctx: CheckContext, id: string) => {
  const a = ctx.set.byId.get(id);
  return a ? (a.keyLines.stamp ?? a.keyLines.id) : undefined;
};

/** Staleness rules: drift against stamps, moved anchors, proposed decisions that shipped. */
export const STALENESS_RULES: Rule[] = [
  {
    id: 'stale-artifact',
    severity: 'warning',
    description: 'anchored code changed since the artifact was stamped (git ctx stale explains; git ctx ack records the review)',
    run: async (ctx) => {
      const r = await reportFor(ctx);
      const out: Out[] = [];
      for (const j of r.artifacts) {
        if (j.status !== 'stale') continue;
        const bad = j.anchors.filter((v) => v.state !== 'ok' && v.state !== 'moved' && v.state !== 'unresolved');
        const parts = bad.slice(0, 3).map((v) => `${v.anchor} ${v.state}${v.commits?.length ? ` (${v.commits.length} commit${v.commits.length > 1 ? 's' : ''}, last ${v.commits[v.commits.length - 1]!.id.slice(0, 8)})` : ''}`);
        const more = bad.length > 3 ? `, and ${bad.length - 3} more` : '';
        out.push({ rule: 'stale-artifact', id: j.id, file: j.file, line: line(ctx, j.id), message: `${j.id} is ${recordStateLabel('stale', j.mentioned)}: ${parts.join('; ')}${more}` });
      }
      return out;
    },
  },
  {
    id: 'moved-anchor',
    severity: 'info',
    description: 'anchored code moved (renamed file, moved symbol) with its text unchanged; git ctx stamp --fix re-stamps it',
    run: async (ctx) => {
      const r = await reportFor(ctx);
      return r.artifacts
        .filter((j) => j.status === 'moved')
        .map((j) => ({
          rule: 'moved-anchor',
          id: j.id,
          file: j.file,
          line: line(ctx, j.id),
          message: `${j.id}: ${j.mentioned ? 'mentioned ' : ''}${j.anchors.filter((v) => v.state === 'moved').map((v) => `${v.anchor} → ${v.movedTo}`).join('; ')} (run git ctx stamp --fix${j.mentioned ? `; the record's text is not rewritten, its stamp follows the move` : ''})`,
        }));
    },
  },
  {
    id: 'proposed-shipped',
    severity: 'warning',
    description: 'a proposed decision whose anchored code has existed unchanged for longer than staleness.proposed_shipped_days',
    run: async (ctx) => {
      const days = ctx.config.staleness.proposed_shipped_days;
      const head = ctx.snapshot.commit;
      const proposed = ctx.set.artifacts.filter((a) => a.origin === 'repo' && a.type === 'decision' && a.status === 'proposed');
      if (!proposed.length || !head) return [];
      const index = await codeIndexFor(ctx);
      const [{ anchorsOf }, { lastChanged }] = await Promise.all([import('../../staleness/anchors.js'), import('../../staleness/history.js')]);
      // the files each proposed decision anchors, as they are now
      const filesOf = new Map<string, string[]>();
      for (const a of proposed) {
        const files = new Set<string>();
        for (const an of anchorsOf(a, index)) {
          const fp = await fingerprintAnchor(an.spec, ctx.snapshot, index);
          if (fp.status === 'ok') for (const p of fp.paths ?? []) files.add(p);
        }
        if (files.size) filesOf.set(a.id, [...files]);
      }
      const all = [...new Set([...filesOf.values()].flat())];
      if (!all.length) return [];
      const last = await lastChanged(ctx.snapshot.root, head, all);
      const out: Out[] = [];
      for (const [id, files] of filesOf) {
        // code being edited right now has not "existed unchanged"
        let changing = false;
        if (ctx.snapshot.kind !== 'commit') {
          for (const f of files) if ((await ctx.snapshot.blobOf(f)) !== last.get(f)?.blob) changing = true;
        }
        if (changing) continue;
        const dates = files.map((f) => last.get(f)?.date).filter((d): d is string => !!d);
        if (dates.length !== files.length) continue;
        const newest = dates.reduce((x, y) => (Date.parse(x) > Date.parse(y) ? x : y));
        const age = Math.floor((ctx.now.getTime() - Date.parse(newest)) / 86_400_000);
        if (age > days) {
          out.push({ rule: 'proposed-shipped', id, file: ctx.set.byId.get(id)!.file, line: line(ctx, id), message: `${id} is still proposed, but the code it anchors has existed unchanged for ${age} days (since ${newest.slice(0, 10)}); accept it, or say why not` });
        }
      }
      return out;
    },
  },
];
