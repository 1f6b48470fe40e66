import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import type { Artifact } from '../../src/artifacts/types.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const files = {
  '.contextia/config.yaml': 'types:\n  decision:\n    prefix: DEC\n',
  '.contextia/identity.md': '---\nid: IDENTITY\ntype: identity\ntitle: Acme\n---\n# Acme\n\nWe bill people.\n',
  '.contextia/decisions/DEC-001.md':
    '---\nid: DEC-001\ntype: decision\nstatus: accepted\nkeywords: [billing, "rounding"]\nlinks:\n  specs: [SPEC-001]\nx-custom: { nested: [1, "2"] }\n---\n# Round half even\n\nBody with **markdown**, ünïcode and "quotes".\n',
  '.contextia/specs/SPEC-001.md': '---\nid: SPEC-001\ntype: spec\nsummary: The spec.\npaths: [src/**]\n---\nNo heading here.\n',
  '.contextia/decisions/DEC-BAD.md': '---\nid: [unclosed\n---\nbody\n',
};

/** A plain copy with every field, whatever the object's class (cached ones decode lazily). */
const plain = (a: Artifact) => ('toJSON' in a && typeof a.toJSON === 'function' ? (a.toJSON() as Artifact) : { ...a });

async function load(dir: string) {
  const snap = await openSnapshot({ cwd: dir });
  try {
    const set = await loadArtifactSet(snap, await loadConfig(snap));
    return { artifacts: set.artifacts.map(plain), problems: set.problems, raw: set.artifacts };
  } finally {
    snap.close();
  }
}

describe('artifact parse cache', () => {
  it('a warm load gives exactly what a cold parse gives, problems included', async () => {
    const repo = makeRepo(files);
    repo.commit('artifacts');
    const cold = await load(repo.dir);
    const cache = path.join(repo.dir, `${CACHE_REL}/artifacts.bin`);
    expect(existsSync(cache)).toBe(true);
    const warm = await load(repo.dir);
    expect(warm.artifacts).toStrictEqual(cold.artifacts);
    expect(warm.problems).toStrictEqual(cold.problems);
    expect(cold.problems.map((p) => p.file)).toContain('.contextia/decisions/DEC-BAD.md');
    // the cached objects still serialise with their frontmatter and body
    const dec = warm.raw.find((a) => a.id === 'DEC-001')!;
    const json = JSON.parse(JSON.stringify(dec)) as Artifact;
    expect(json.body).toContain('ünïcode');
    expect(json.data['x-custom']).toEqual({ nested: ['1', '2'] });
    // every field reads like a field, and takes assignments like one
    for (const k of Object.keys(cold.artifacts[0]!) as (keyof Artifact)[]) expect(dec[k], k).toStrictEqual(cold.artifacts.find((a) => a.id === 'DEC-001')![k]);
    dec.body = 'replaced';
    dec.title = 'Renamed';
    dec.status = undefined;
    expect([dec.body, dec.title, dec.status]).toEqual(['replaced', 'Renamed', undefined]);
    // an assignment stays on that object: the cache (and another load) keep the parsed values
    const again = await load(repo.dir);
    expect(again.artifacts.find((a) => a.id === 'DEC-001')!.title).toBe('Round half even');
  });

  it('re-parses a changed file and keeps the rest', async () => {
    const repo = makeRepo(files);
    repo.commit('artifacts');
    await load(repo.dir);
    repo.write({ '.contextia/specs/SPEC-001.md': '---\nid: SPEC-001\ntype: spec\nsummary: Changed.\n---\nNew body.\n' });
    const warm = await load(repo.dir);
    const spec = warm.artifacts.find((a) => a.id === 'SPEC-001')!;
    expect(spec.summary).toBe('Changed.');
    expect(spec.body).toBe('New body.\n');
    expect(warm.artifacts.find((a) => a.id === 'DEC-001')!.title).toBe('Round half even');
  });

  it('ignores a truncated, foreign or garbage cache file and rewrites it', async () => {
    const repo = makeRepo(files);
    repo.commit('artifacts');
    const cold = await load(repo.dir);
    const cache = path.join(repo.dir, `${CACHE_REL}/artifacts.bin`);
    const whole = readFileSync(cache);
    for (const damaged of [whole.subarray(0, whole.length - 40), whole.subarray(0, whole.indexOf(10) + 1), Buffer.from('not json\n\0\0'), Buffer.alloc(0)]) {
      writeFileSync(cache, damaged);
      const again = await load(repo.dir);
      expect(again.artifacts).toStrictEqual(cold.artifacts);
      expect(readFileSync(cache).equals(whole)).toBe(true);
    }
  });

  it('removes the JSON cache of earlier versions when it writes', async () => {
    const repo = makeRepo(files);
    repo.commit('artifacts');
    const old = path.join(repo.dir, `${CACHE_REL}/artifacts.json`);
    mkdirSync(path.dirname(old), { recursive: true });
    writeFileSync(old, '{"tool":"git-ctx/artifacts","version":3,"entries":{}}');
    await load(repo.dir);
    expect(existsSync(old)).toBe(false);
  });
});
