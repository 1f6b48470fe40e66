import { readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { buildKeywordIndex, KeywordCacheDamaged, queryOf, scoreLists, searchKeywords } from '../../src/retrieve/bm25.js';
import { keywordIndexFor, keywordIndexKey, keywordKeyOf, searchRecords } from '../../src/retrieve/keyword-cache.js';
import { decodeKeywordIndex, encodeKeywordIndex, openKeywordIndex } from '../../src/retrieve/keyword-file.js';
import { retrieveForText } from '../../src/retrieve/engine.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const rec = (id: string, title: string, body: string, extra = '') => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n${extra}---\n\n# ${title}\n\n${body}\n`;

const RECORDS = {
  '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'Throttle webhook deliveries', 'A token bucket per sender limits webhook deliveries.', 'keywords: [rate limit, webhook]\n'),
  '.contextia/system/rationale/DEC-RETRY.md': rec('DEC-RETRY', 'Retry failed deliveries with backoff', 'Webhook retries back off exponentially; a constructor takes the policy.'),
  '.contextia/system/rationale/DEC-ROUND.md': rec('DEC-ROUND', 'Round invoice totals', "Banker's rounding on invoice totals, in cents."),
  '.contextia/system/rationale/DEC-LEDGER.md': rec('DEC-LEDGER', 'Ledger entries are append-only', 'Corrections are new entries; the ledger is never rewritten.'),
};

async function load(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { snapshot, set };
}

const cacheOf = (dir: string, slot = 'latest') => path.join(dir, `${CACHE_REL}/retrieve-keywords-${slot}.bin`);
const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

describe('keyword index cache', () => {
  it('answers from the binary cache exactly as from the index built in memory', async () => {
    const repo = makeRepo(RECORDS);
    repo.commit('records');
    const { snapshot, set } = await load(repo.dir);
    try {
      const first = keywordIndexFor(repo.dir, set.artifacts);
      expect(first.cached).toBe(false);
      expect(statSync(cacheOf(repo.dir)).size).toBeGreaterThan(0);
      const second = keywordIndexFor(repo.dir, set.artifacts);
      expect(second.cached).toBe(true);
      const built = buildKeywordIndex(set.artifacts);
      // 'constructor' is a term of one record; 'toString' and '__proto__' are of none (no inherited lookups)
      for (const q of ['webhook retry', 'invoice rounding cents', 'ledger', 'constructor', 'toString __proto__ valueOf', 'nothing matches this']) {
        const mem = searchKeywords(built, queryOf(q), 50);
        expect(searchKeywords(second.index, queryOf(q), 50)).toEqual(mem);
        expect(searchKeywords(second.index, queryOf(q), 1)).toEqual(mem.slice(0, 1));
      }
      expect(ids(searchKeywords(second.index, queryOf('webhook retry'), 50))).toEqual(['DEC-RETRY', 'DEC-RATE']);
      expect(searchKeywords(second.index, queryOf('constructor'), 50).map((h) => [h.id, h.matched])).toEqual([['DEC-RETRY', ['constructor']]]);
      expect(searchKeywords(second.index, queryOf('toString __proto__ valueOf'), 50)).toEqual([]);
    } finally {
      snapshot.close();
    }
  });

  it('keeps the indexes of the last two sets asked, as a pull request asks of its base and its head (DEC-141)', async () => {
    const repo = makeRepo(RECORDS);
    repo.commit('records');
    const { snapshot, set } = await load(repo.dir);
    try {
      const head = set.artifacts;
      const base = set.artifacts.filter((a) => a.id !== 'DEC-LEDGER');
      const third = set.artifacts.filter((a) => a.id !== 'DEC-ROUND');
      expect(keywordIndexFor(repo.dir, head).cached).toBe(false);
      writeFileSync(path.join(repo.dir, `${CACHE_REL}/retrieve-keywords.bin`), 'an index of an earlier version');
      expect(keywordIndexFor(repo.dir, base).cached).toBe(false);
      // the file of the earlier version is gone once a container is written
      expect(() => statSync(path.join(repo.dir, `${CACHE_REL}/retrieve-keywords.bin`))).toThrow();
      for (let run = 0; run < 3; run++) {
        expect(keywordIndexFor(repo.dir, head).cached).toBe(true);
        expect(keywordIndexFor(repo.dir, base).cached).toBe(true);
      }
      expect(ids(searchRecords(repo.dir, base, queryOf('ledger')))).toEqual([]);
      expect(ids(searchRecords(repo.dir, head, queryOf('ledger')))).toEqual(['DEC-LEDGER']);
      // a third set: the oldest of the two is dropped, the latest kept
      expect(keywordIndexFor(repo.dir, third).cached).toBe(false);
      expect(keywordIndexFor(repo.dir, base).cached).toBe(true);
      expect(keywordIndexFor(repo.dir, head).cached).toBe(false);
    } finally {
      snapshot.close();
    }
  });

  it('ranks the top documents as a sort of all of them would, ties by id', () => {
    // 60 documents, many with equal scores: only the best `limit` are sorted
    const artifacts = Array.from({ length: 60 }, (_, i) => ({ id: `DEC-${String(59 - i).padStart(2, '0')}`, title: i % 3 ? 'alpha beta' : 'alpha', keywords: [], summary: undefined, body: i % 7 ? 'gamma' : 'gamma gamma alpha', blob: String(i), origin: 'repo' }));
    const index = buildKeywordIndex(artifacts as never);
    const src = decodeKeywordIndex(encodeKeywordIndex(index, 'k'), 'k')!;
    const all = searchKeywords(index, queryOf('alpha gamma'), 1000);
    expect(all).toHaveLength(60);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score > all[i]!.score || (all[i - 1]!.score === all[i]!.score && all[i - 1]!.id < all[i]!.id)).toBe(true);
    for (const limit of [1, 5, 10, 14, 15, 16]) expect(searchKeywords(src, queryOf('alpha gamma'), limit)).toEqual(all.slice(0, limit));
  });

  it('a posting naming no document is a damaged index', () => {
    const lists = [{ w: 1, p: new Uint32Array([0, 1, 5, 1]) }];
    expect(() => scoreLists(lists, [1, 1, 1], 3, 2.2)).toThrow(KeywordCacheDamaged);
  });

  it('rebuilds a truncated, overwritten or foreign cache instead of failing', async () => {
    const repo = makeRepo(RECORDS);
    repo.commit('records');
    const { snapshot, set } = await load(repo.dir);
    try {
      const want = ids(searchRecords(repo.dir, set.artifacts, queryOf('webhook deliveries')));
      expect(want).toEqual(['DEC-RATE', 'DEC-RETRY']);
      const good = readFileSync(cacheOf(repo.dir));

      truncateSync(cacheOf(repo.dir), Math.floor(good.length / 2));
      expect(keywordIndexFor(repo.dir, set.artifacts).cached).toBe(false);
      expect(readFileSync(cacheOf(repo.dir))).toEqual(good);

      writeFileSync(cacheOf(repo.dir), 'not an index at all');
      expect(ids(searchRecords(repo.dir, set.artifacts, queryOf('webhook deliveries')))).toEqual(want);
      expect(readFileSync(cacheOf(repo.dir))).toEqual(good);

      // right length and key, postings naming documents that do not exist: found while searching
      const bad = Buffer.from(good);
      // (the container's header: its meta holds the counts, see src/cache/keyword-index.ts)
      const header = (JSON.parse(bad.toString('utf8', 16, 16 + bad.readUInt32LE(8))) as { meta: { docs: number; pairs: number } }).meta;
      expect(header.docs).toBe(4);
      // overwrite the whole postings section (it ends where the ids begin, 8-aligned) with large numbers
      const postingsEnd = bad.indexOf(Buffer.from('["DEC-'));
      for (let i = postingsEnd - header.pairs * 8; i < postingsEnd; i += 4) bad.writeUInt32LE(0xfffffff0, i);
      writeFileSync(cacheOf(repo.dir), bad);
      expect(keywordIndexFor(repo.dir, set.artifacts).cached).toBe(true);
      expect(ids(searchRecords(repo.dir, set.artifacts, queryOf('webhook deliveries')))).toEqual(want);
      expect(readFileSync(cacheOf(repo.dir))).toEqual(good);
    } finally {
      snapshot.close();
    }
  });

  it('follows records added, edited and removed (the key is the records’ ids and blobs)', async () => {
    const repo = makeRepo(RECORDS);
    repo.commit('records');
    const search = async (text: string) => {
      const { snapshot, set } = await load(repo.dir);
      try {
        const r = await retrieveForText({ snapshot, set, text, staleness: false });
        return { ids: r.results.map((x) => x.id), key: keywordIndexKey(set.artifacts) };
      } finally {
        snapshot.close();
      }
    };
    const before = await search('refunds');
    expect(before.ids).toEqual([]);

    // added (untracked: the working tree counts)
    repo.write({ '.contextia/system/rationale/DEC-0100.md': rec('DEC-0100', 'Refund policy', 'Refunds go back to the original payment method.') });
    const added = await search('refunds');
    expect(added.ids).toEqual(['DEC-0100']);
    expect(added.key).not.toBe(before.key);

    // edited: its old words no longer find it, its new ones do
    repo.write({ '.contextia/system/rationale/DEC-0100.md': rec('DEC-0100', 'Chargebacks are disputed', 'Disputes are answered within seven days.') });
    expect((await search('refunds')).ids).toEqual([]);
    expect((await search('chargebacks disputed')).ids).toEqual(['DEC-0100']);

    // removed
    rmSync(path.join(repo.dir, '.contextia/system/rationale/DEC-0100.md'));
    expect((await search('chargebacks disputed')).ids).toEqual([]);
    expect((await search('ledger')).ids).toEqual(['DEC-LEDGER']);
  });

  it('read by section (postings of the asked terms only) answers as the whole file does', async () => {
    const repo = makeRepo(RECORDS);
    repo.commit('records');
    const { snapshot, set } = await load(repo.dir);
    try {
      const built = buildKeywordIndex(set.artifacts);
      const bytes = encodeKeywordIndex(built, 'k');
      const file = path.join(repo.dir, 'index.bin');
      writeFileSync(file, bytes);
      const whole = decodeKeywordIndex(bytes, 'k')!;
      const open = openKeywordIndex(file, 'k')!;
      expect(open).toBeDefined();
      expect(open.source.ids).toEqual(whole.ids);
      expect(Array.from(open.source.dens!)).toEqual(Array.from(whole.dens!));
      expect(Array.from(open.source.lens)).toEqual(Array.from(whole.lens));
      for (const t of [...Object.keys(built.postings), 'constructor', 'zzz', '']) expect(open.source.postingsOf(t) && Array.from(open.source.postingsOf(t)!)).toEqual(whole.postingsOf(t) && Array.from(whole.postingsOf(t)!));
      for (const q of ['webhook deliveries', 'ledger rounding invoice', 'constructor']) expect(searchKeywords(open.source, queryOf(q))).toEqual(searchKeywords(built, queryOf(q)));
      open.close();
      expect(openKeywordIndex(file, 'other key')).toBeUndefined();
      truncateSync(file, bytes.length - 1);
      expect(openKeywordIndex(file, 'k')).toBeUndefined();
      expect(openKeywordIndex(path.join(repo.dir, 'missing.bin'), 'k')).toBeUndefined();
    } finally {
      snapshot.close();
    }
  });

  it('keyed by the set key when the set has one: the same answers, a new key when the records change', async () => {
    const repo = makeRepo(RECORDS);
    repo.commit('records');
    const run = async (text: string) => {
      const { snapshot, set } = await load(repo.dir);
      try {
        expect(set.key).toBeDefined();
        const first = searchRecords(repo.dir, set.artifacts, queryOf(text), 50, set.key);
        expect(keywordIndexFor(repo.dir, set.artifacts, set.key).cached).toBe(true);
        expect(searchRecords(repo.dir, set.artifacts, queryOf(text), 50, set.key)).toEqual(first);
        expect(first).toEqual(searchKeywords(buildKeywordIndex(set.artifacts), queryOf(text)));
        expect(keywordKeyOf(set.artifacts, set.key)).not.toBe(keywordIndexKey(set.artifacts));
        return { ids: ids(first), key: keywordKeyOf(set.artifacts, set.key) };
      } finally {
        snapshot.close();
      }
    };
    const before = await run('refunds ledger');
    expect(before.ids).toEqual(['DEC-LEDGER']);
    repo.write({ '.contextia/system/rationale/DEC-0100.md': rec('DEC-0100', 'Refund policy', 'Refunds go back to the original payment method.') });
    const added = await run('refunds ledger');
    expect([...added.ids].sort()).toEqual(['DEC-0100', 'DEC-LEDGER']);
    expect(added.key).not.toBe(before.key);
    repo.write({ '.contextia/system/rationale/DEC-0100.md': rec('DEC-0100', 'Chargebacks are disputed', 'Disputes are answered within seven days.') });
    expect((await run('refunds ledger')).ids).toEqual(['DEC-LEDGER']);
    rmSync(path.join(repo.dir, '.contextia/system/rationale/DEC-0100.md'));
    expect(await run('refunds ledger')).toEqual(before);
    // the config is part of the set key
    repo.write({ '.contextia/config.yaml': 'retrieval:\n  link_depth: 2\n' });
    expect((await run('refunds ledger')).key).not.toBe(before.key);
  });
});
