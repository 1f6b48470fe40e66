import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeContainer, encodeContainer, OpenContainer, readContainer, textMemo } from '../../src/cache/container.js';
import { CACHE_KINDS, cacheKind, kindOfFile } from '../../src/cache/kinds.js';
import { cacheStatus } from '../../src/cache/inventory.js';
import { kindFile, memo } from '../../src/cache/memo.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { withEnv } from '../helpers/env.js';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every .ts file under a folder, relative to src/. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const abs = path.join(dir, n);
    if (statSync(abs).isDirectory()) out.push(...sources(abs));
    else if (n.endsWith('.ts')) out.push(path.relative(SRC, abs));
  }
  return out;
}

/** The code of a file without its comments (a rough cut: enough for string literals naming files). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the cache registry', () => {
  it('no module outside src/cache names a cache file or the cache folder', () => {
    // each kind's file name as a string literal would hold it (`*`: any variant); a kind's own
    // name is how domain code asks for it, not a file name
    // (and the files earlier versions kept a kind in)
    const files = CACHE_KINDS.filter((k) => !k.home)
      .flatMap((k) => [k.file, ...(k.formerly ?? [])])
      .map((f) => new RegExp(`^${f.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`));
    const kindNames = new Set(CACHE_KINDS.map((k) => k.name));
    // a file of the same name that is no cache: an ONNX model's own config.json
    const elsewhere = new Set(['semantic/providers/onnx.ts: config.json']);
    const folder = [/'ctx',\s*'cache'/, /'cache',\s*'vectors'/, /'agent-sessions'/, /ctx\/cache\/[\w.-]+\.(json|bin|txt|log|clean)/];
    const offenders: string[] = [];
    for (const f of sources(SRC).filter((f) => !f.startsWith(`cache${path.sep}`))) {
      const text = code(readFileSync(path.join(SRC, f), 'utf8'));
      for (const m of text.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
        const lit = m[1] ?? m[2] ?? m[3] ?? '';
        if (kindNames.has(lit) || elsewhere.has(`${f}: ${lit}`)) continue;
        if (files.some((re) => re.test(lit))) offenders.push(`${f}: ${lit}`);
      }
      for (const re of folder) if (re.test(text)) offenders.push(`${f}: ${re.source}`);
    }
    expect(offenders).toEqual([]);
  });

  it('registers each kind once, and every file pattern belongs to exactly the kind that declares it', () => {
    const names = CACHE_KINDS.map((k) => k.name);
    expect(new Set(names).size).toBe(names.length);
    for (const k of CACHE_KINDS.filter((x) => !x.home)) expect(kindOfFile(k.file.replace('*', 'v1'))?.name, k.file).toBe(k.name);
    expect(kindOfFile('old-format.json')).toBeUndefined();
  });

  it('a memo answers only its own key at its kind and version; anything else is a miss, never an error', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commit('init');
    const m = memo<{ n: number }>(repo.dir, 'config');
    expect(m.on).toBe(true);
    expect(m.get('k1')).toBeUndefined();
    expect(m.set('k1', { n: 1 })).toBe(true);
    expect(m.get('k1')).toEqual({ n: 1 });
    expect(m.get('k2')).toBeUndefined();
    expect(m.latest()).toEqual({ key: 'k1', value: { n: 1 } });
    const file = kindFile(repo.dir, 'config')!;
    expect(path.basename(file)).toBe('config.json');
    // another version, another kind, the envelope of earlier versions, damaged bytes
    for (const bad of [{ kind: 'config', version: 999, key: 'k1', value: { n: 1 } }, { kind: 'head-listing', version: 1, key: 'k1', value: { n: 1 } }, { key: 'k1', value: { n: 1 } }]) {
      writeFileSync(file, JSON.stringify(bad));
      expect(m.get('k1')).toBeUndefined();
    }
    writeFileSync(file, '{"kind":"config","vers');
    expect(m.get('k1')).toBeUndefined();
    // no temporary file is left beside it
    m.set('k1', { n: 2 });
    expect(readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // a kind that keeps several keys answers the last few, most recent first
    const t = memo<string>(repo.dir, 'artifacts-tokens');
    for (const k of ['a', 'b', 'c', 'd', 'e']) t.set(k, `set-${k}`);
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => t.get(k))).toEqual([undefined, 'set-b', 'set-c', 'set-d', 'set-e']);
    t.set('c', 'set-c2');
    expect(t.get('c')).toBe('set-c2');
    expect(t.get('b')).toBe('set-b');
    // caches off, or no repository: every get misses and nothing is written
    await withEnv({ GIT_CTX_NO_CACHE: '1' }, async () => {
      const off = memo<number>(repo.dir, 'head-listing');
      expect(off.on).toBe(false);
      expect(off.set('k', 1)).toBe(false);
    });
    expect(memo(tempDir('git-ctx-norepo-'), 'config').on).toBe(false);
  });

  it('one container format: kind, version and key in its header, aligned sections, read whole or by section; damage is a miss', () => {
    const dir = tempDir('git-ctx-container-');
    const kind = cacheKind('retrieve-keywords');
    const f64 = new Float64Array([1.5, 2.5, 3.5]);
    const bytes = encodeContainer(kind, 'the-key', [Buffer.from('abc'), new Uint8Array(f64.buffer), Buffer.alloc(0)], { n: 3 }, 3);
    const whole = decodeContainer(bytes, kind)!;
    expect(whole.head).toMatchObject({ kind: 'retrieve-keywords', version: kind.version, key: 'the-key', sections: [3, 24, 0], meta: { n: 3 }, entries: 3 });
    expect(whole.sections[0]!.toString()).toBe('abc');
    expect(whole.sections[1]!.byteOffset % 8).toBe(0);
    expect(Array.from(new Float64Array(whole.sections[1]!.buffer, whole.sections[1]!.byteOffset, 3))).toEqual([1.5, 2.5, 3.5]);
    // another kind, a cut-off file, garbage: misses
    expect(decodeContainer(bytes, cacheKind('vectors'))).toBeUndefined();
    expect(decodeContainer(bytes.subarray(0, bytes.length - 1), kind)).toBeUndefined();
    expect(decodeContainer(Buffer.from('not a container at all'), kind)).toBeUndefined();
    // by section, from a file kept open
    const file = path.join(dir, 'c.bin');
    writeFileSync(file, bytes);
    const open = OpenContainer.open(file, kind)!;
    expect(open.read(0).toString()).toBe('abc');
    expect(open.read(0, 1, 1).toString()).toBe('b');
    const into = new Float64Array(2);
    open.readInto(1, into, 8);
    expect(Array.from(into)).toEqual([2.5, 3.5]);
    expect(() => open.read(0, 2, 5)).toThrow();
    open.close();
    expect(open.open).toBe(false);
    writeFileSync(file, bytes.subarray(0, 20));
    expect(OpenContainer.open(file, kind)).toBeUndefined();
    expect(readContainer(path.join(dir, 'absent.bin'), kind)).toBeUndefined();
    // a text memo over the container
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commit('init');
    const t = textMemo(repo.dir, 'place-listing');
    expect(t.set('stamp-1', 'one\ntwo')).toBe(true);
    expect(t.get('stamp-1')).toBe('one\ntwo');
    expect(t.get('stamp-2')).toBeUndefined();
  });

  it('cache status lists every registered kind, with the files, bytes and entries a run wrote', () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Retry policy\nstatus: accepted\npaths: [src/**]\n---\nRetries back off.\n',
      '.contextia/config.yaml': 'fail_on: error\n',
      'src/a.ts': '// @decision DEC-001\nexport const a = 1;\n',
    });
    repo.commit('init');
    const env = { XDG_CACHE_HOME: tempDir('git-ctx-xdg-') };
    for (const args of [['check'], ['search', 'retry']]) expect(runCli(args, { cwd: repo.dir, env }).code).toBeLessThan(2);
    const s = cacheStatus(repo.dir);
    expect(s.caches.map((c) => c.name)).toEqual(CACHE_KINDS.map((k) => k.name));
    const byName = new Map(s.caches.map((c) => [c.name, c]));
    expect(byName.get('artifacts')).toMatchObject({ files: 1, entries: 1 });
    expect(byName.get('config')).toMatchObject({ files: 1, entries: 1 });
    expect(byName.get('retrieve-keywords')).toMatchObject({ files: 1, entries: 1 });
    for (const c of s.caches) expect(c.bytes).toBe(s.files.filter((f) => f.cache === c.name).reduce((a, f) => a + f.bytes, 0));
    // a file of an older version is counted as a file, not as an entry
    const cfg = kindFile(repo.dir, 'config')!;
    writeFileSync(cfg, JSON.stringify({ key: 'k', value: 1 }));
    expect(cacheStatus(repo.dir).caches.find((c) => c.name === 'config')).toMatchObject({ files: 1, entries: 0 });
    const human = runCli(['cache', 'status'], { cwd: repo.dir, env });
    for (const k of CACHE_KINDS) expect(human.stdout).toContain(`    ${k.name} `);
  });
});
