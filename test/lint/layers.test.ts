import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS, PENDING } from '../../lint/layers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');

async function lintAt(file: string, text: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'layers/layer-order').map((m) => m.message);
}

describe('the layer order of src/ (lint/layers.js, DEC-047)', () => {
  it('fails when a lower folder imports a higher one, in every form of import', async () => {
    const text = [
      "import { retrieveForPlace } from '../retrieve/engine.js';",
      "export type { Finding } from '../check/types.js';",
      "export const lazy = () => import('../cli/main.js');",
      "export type Run = typeof import('../check/run.js');",
      'export const r = retrieveForPlace;',
    ].join('\n');
    const messages = await lintAt('src/util/layer-probe.ts', text);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain('util may not import retrieve, a higher layer');
    expect(messages[2]).toContain('util may not import cli');
  });

  it('fails on a sibling in the same layer, and passes imports of the own folder and lower layers', async () => {
    expect(await lintAt('src/impact/layer-probe.ts', "export { mapData } from '../map/data.js';")).toEqual([expect.stringContaining('impact may not import map, a sibling')]);
    expect(await lintAt('src/retrieve/layer-probe.ts', "import { CtxError } from '../errors.js';\nimport { x } from './engine.js';\nimport { y } from '../code/anchors.js';\nexport const z = [CtxError, x, y];")).toEqual([]);
    // the files directly in src/ are units too: the public index sits on top
    expect(await lintAt('src/config.ts', "export { assembleBundle } from './assemble/index.js';")).toEqual([expect.stringContaining('config may not import assemble')]);
  });

  it('places every folder and top-level file of src/ in the order, once', () => {
    const units = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory() || /\.ts$/.test(e.name))
      .map((e) => (e.isDirectory() ? e.name : e.name.replace(/\.ts$/, '')));
    const placed = LAYERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    for (const u of units) expect(placed, `src/${u}`).toContain(u);
  });

  it('names, for every pending exception, a file of src/, a folder of the order and who removes it', () => {
    // an entry whose import is gone allows nothing: delete it when its owner's work has landed
    for (const p of PENDING) {
      expect(p.file, p.file).toMatch(/^src\//);
      expect(LAYERS.flat(), p.file).toContain(p.to);
      expect(p.by, p.file).toMatch(/^[a-z]+$/);
    }
  });
});
