import { describe, expect, it } from 'vitest';
import { openCodeNeighbours } from '../../src/code/graph/index.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

async function graphOf(files: Record<string, string>, opts: { cache?: boolean } = {}) {
  const repo = makeRepo(files);
  repo.commit('init');
  const snap = await openSnapshot({ cwd: repo.dir });
  try {
    return { repo, g: await openCodeNeighbours(snap, { cache: opts.cache ?? false }) };
  } finally {
    snap.close();
  }
}

const sites = (list: { path: string; symbol: string; line: number }[]) => list.map((s) => `${s.path}#${s.symbol}:${s.line}`);

/** A small TypeScript monorepo: a web app with path aliases, a shared library behind project references, and a workspace package with `exports`. */
const TS_MONOREPO: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'acme', private: true, workspaces: ['apps/*', 'packages/*'] }),
  'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './apps/web' }, { path: './libs/shared' }] }),
  'tsconfig.base.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', strict: true } }),
  'apps/web/tsconfig.json': JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'], '@shared/*': ['../../libs/shared/src/*'] } },
    references: [{ path: '../../libs/shared' }],
  }),
  'apps/web/package.json': JSON.stringify({ name: '@acme/web', type: 'module', dependencies: { '@acme/billing': '*' } }),
  'apps/web/src/main.ts': [
    "import { renderInvoice } from '@/views/invoice';",
    "import * as fmt from '@shared/format';",
    "import Logger from 'lib/logger';",
    "import { chargeCard } from '@acme/billing';",
    "import { slugify } from '../../../libs/shared/dist/slug.js';",
    "import express from 'express';",
    '',
    'export function main(): void {',
    '  const log = new Logger();',
    "  log.info(fmt.money(12));",
    '  renderInvoice(42);',
    "  chargeCard('tok', 10);",
    "  slugify('A b');",
    '  express();',
    '}',
    '',
  ].join('\n'),
  'apps/web/src/views/invoice.ts': [
    "import { money } from '@shared/format';",
    '',
    'export class InvoiceView {',
    '  render(total: number): string {',
    '    return this.header() + money(total);',
    '  }',
    '',
    '  private header(): string {',
    "    return 'Invoice';",
    '  }',
    '}',
    '',
    'export function renderInvoice(total: number): string {',
    '  return new InvoiceView().render(total);',
    '}',
    '',
  ].join('\n'),
  'apps/web/lib/logger.ts': ['export default class Logger {', '  info(msg: string): void {', '    console.log(msg);', '  }', '}', ''].join('\n'),
  'libs/shared/tsconfig.json': JSON.stringify({ compilerOptions: { composite: true, outDir: 'dist', rootDir: 'src' } }),
  'libs/shared/src/format.ts': ['export function money(n: number): string {', '  return n.toFixed(2);', '}', ''].join('\n'),
  'libs/shared/src/slug.ts': ['export const slugify = (s: string): string => s.toLowerCase().replace(/ /g, "-");', ''].join('\n'),
  'packages/billing/package.json': JSON.stringify({
    name: '@acme/billing',
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './internal': null },
  }),
  'packages/billing/tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', outDir: 'dist', rootDir: 'src' } }),
  'packages/billing/src/index.ts': ["export { chargeCard } from './charge.js';", "export * from './refund.js';", ''].join('\n'),
  'packages/billing/src/charge.ts': [
    "import { audit } from './refund.js';",
    '',
    'export function chargeCard(token: string, amount: number): boolean {',
    "  audit('charge', amount);",
    '  return token.length > 0;',
    '}',
    '',
  ].join('\n'),
  'packages/billing/src/refund.ts': [
    'export function audit(kind: string, amount: number): void {',
    '  void kind;',
    '  void amount;',
    '}',
    '',
    'export function refund(amount: number): void {',
    "  audit('refund', amount);",
    '}',
    '',
  ].join('\n'),
};

describe('code graph: TypeScript', () => {
  it('resolves tsconfig paths aliases, baseUrl, project references, workspace exports and leaves externals out', async () => {
    const { g } = await graphOf(TS_MONOREPO);
    expect(await g.imports('apps/web/src/main.ts')).toEqual([
      'apps/web/lib/logger.ts',
      'apps/web/src/views/invoice.ts',
      'libs/shared/src/format.ts',
      'libs/shared/src/slug.ts',
      'packages/billing/src/index.ts',
    ]);
    expect(await g.importers('libs/shared/src/format.ts')).toEqual(['apps/web/src/main.ts', 'apps/web/src/views/invoice.ts']);
    expect(await g.importers('packages/billing/src/refund.ts')).toEqual(['packages/billing/src/charge.ts', 'packages/billing/src/index.ts']);
    expect(g.problems).toEqual([]);
  });

  it('resolves named, default and namespace imports, re-exports and this.method() calls', async () => {
    const { g } = await graphOf(TS_MONOREPO);
    expect(sites(await g.callees('apps/web/src/main.ts', 'main'))).toEqual([
      'apps/web/lib/logger.ts#Logger:9',
      'apps/web/lib/logger.ts#Logger.info:10',
      'apps/web/src/views/invoice.ts#renderInvoice:11',
      'libs/shared/src/format.ts#money:10',
      'libs/shared/src/slug.ts#slugify:13',
      'packages/billing/src/charge.ts#chargeCard:12',
    ]);
    expect(sites(await g.callers('apps/web/src/views/invoice.ts', 'InvoiceView.header'))).toEqual(['apps/web/src/views/invoice.ts#InvoiceView.render:5']);
    expect(sites(await g.callers('packages/billing/src/refund.ts', 'audit'))).toEqual(['packages/billing/src/charge.ts#chargeCard:4', 'packages/billing/src/refund.ts#refund:7']);
    expect(sites(await g.callers('libs/shared/src/format.ts', 'money'))).toEqual(['apps/web/src/main.ts#main:10', 'apps/web/src/views/invoice.ts#InvoiceView.render:5']);
  });

  it('answers symbolAt with the innermost declaration', async () => {
    const { g } = await graphOf(TS_MONOREPO);
    expect(await g.symbolAt('apps/web/src/views/invoice.ts', 9)).toBe('InvoiceView.header');
    expect(await g.symbolAt('apps/web/src/views/invoice.ts', 3)).toBe('InvoiceView');
    expect(await g.symbolAt('apps/web/src/views/invoice.ts', 12)).toBeUndefined();
    expect(await g.symbolAt('no/such/file.ts', 1)).toBeUndefined();
    expect(g.languages).toEqual(expect.arrayContaining(['typescript', 'javascript', 'python', 'go', 'java']));
  });
});
