import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCodeNeighbours, type CodeGraphIndex } from '../../src/code/graph/index.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

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
    expect(sites(await g.callers('apps/web/src/views/invoice.ts', 'InvoiceView.render'))).toEqual(['apps/web/src/views/invoice.ts#renderInvoice:14']);
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

const PYTHON_PROJECT: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "shop"\n',
  'src/shop/__init__.py': 'from .config import load_settings\n\n__all__ = ["load_settings"]\n',
  'src/shop/config.py': [
    'import os',
    '',
    '',
    'def load_settings():',
    '    return {"db": os.environ.get("DB_URL", "sqlite://")}',
    '',
  ].join('\n'),
  'src/shop/orders/__init__.py': '',
  'src/shop/orders/service.py': [
    'from __future__ import annotations',
    '',
    'from shop import load_settings',
    'from ..payments import gateway',
    'from . import repository as repo',
    'from .models import Order',
    '',
    '',
    'class OrderService:',
    '    def __init__(self):',
    '        self.settings = load_settings()',
    '',
    '    def place(self, items):',
    '        order = Order(items)',
    '        self._validate(order)',
    '        gateway.charge(order.total())',
    '        repo.save(order)',
    '        return order',
    '',
    '    @staticmethod',
    '    def _validate(order):',
    '        def check(o):',
    '            return o.total() > 0',
    '        return check(order)',
    '',
  ].join('\n'),
  'src/shop/orders/models.py': [
    'class Order:',
    '    def __init__(self, items):',
    '        self.items = items',
    '',
    '    def total(self):',
    '        return sum(i["price"] for i in self.items)',
    '',
  ].join('\n'),
  'src/shop/orders/repository.py': ['import json', '', '', 'def save(order):', '    return json.dumps(order.items)', ''].join('\n'),
  'src/shop/payments/__init__.py': '',
  'src/shop/payments/gateway.py': ['import shop.config', '', '', 'def charge(amount):', '    shop.config.load_settings()', '    return amount', ''].join('\n'),
};

describe('code graph: Python', () => {
  it('resolves package, relative and submodule imports and calls through them', async () => {
    const { g } = await graphOf(PYTHON_PROJECT);
    expect(await g.imports('src/shop/orders/service.py')).toEqual([
      'src/shop/__init__.py',
      'src/shop/orders/__init__.py',
      'src/shop/orders/models.py',
      'src/shop/orders/repository.py',
      'src/shop/payments/__init__.py',
      'src/shop/payments/gateway.py',
    ]);
    expect(await g.importers('src/shop/config.py')).toEqual(['src/shop/__init__.py', 'src/shop/payments/gateway.py']);
    expect(sites(await g.callees('src/shop/orders/service.py', 'OrderService.place'))).toEqual([
      'src/shop/orders/models.py#Order:14',
      'src/shop/orders/models.py#Order.total:16',
      'src/shop/orders/repository.py#save:17',
      'src/shop/orders/service.py#OrderService._validate:15',
      'src/shop/payments/gateway.py#charge:16',
    ]);
    // a function re-exported by a package's __init__, a dotted module call, a nested function
    expect(sites(await g.callers('src/shop/config.py', 'load_settings'))).toEqual([
      'src/shop/orders/service.py#OrderService.__init__:11',
      'src/shop/payments/gateway.py#charge:5',
    ]);
    expect(sites(await g.callers('src/shop/orders/service.py', 'OrderService._validate.check'))).toEqual(['src/shop/orders/service.py#OrderService._validate:24']);
    expect(await g.symbolAt('src/shop/orders/service.py', 23)).toBe('OrderService._validate.check');
    expect(await g.symbolAt('src/shop/orders/service.py', 20)).toBe('OrderService._validate');
  });
});

const GO_PROJECT: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n',
  'cmd/server/main.go': [
    'package main',
    '',
    'import (',
    '\t"fmt"',
    '',
    '\t"example.com/shop/internal/orders"',
    '\tstore "example.com/shop/internal/storage"',
    ')',
    '',
    'func main() {',
    '\tdb := store.Open("shop.db")',
    '\tsvc := orders.NewService(db)',
    '\tfmt.Println(svc.Place("book"))',
    '}',
    '',
  ].join('\n'),
  'internal/orders/service.go': [
    'package orders',
    '',
    'import (',
    '\t"github.com/google/uuid"',
    '',
    '\t"example.com/shop/internal/storage"',
    ')',
    '',
    'type Service struct {',
    '\tdb *storage.DB',
    '}',
    '',
    'func NewService(db *storage.DB) *Service {',
    '\treturn &Service{db: db}',
    '}',
    '',
    'func (s *Service) Place(item string) string {',
    '\tid := uuid.NewString()',
    '\ts.validate(item)',
    '\ts.db.Put(id, item)',
    '\treturn format(id)',
    '}',
    '',
    'func (s *Service) validate(item string) {',
    '\tif item == "" {',
    '\t\tpanic("empty")',
    '\t}',
    '}',
    '',
  ].join('\n'),
  'internal/orders/format.go': ['package orders', '', 'func format(id string) string {', '\treturn "order " + id', '}', ''].join('\n'),
  'internal/storage/db.go': [
    'package storage',
    '',
    'type DB struct {',
    '\tpath string',
    '\trows map[string]string',
    '}',
    '',
    'func Open(path string) *DB {',
    '\treturn &DB{path: path, rows: map[string]string{}}',
    '}',
    '',
    'func (d *DB) Put(k, v string) {',
    '\td.rows[k] = v',
    '}',
    '',
  ].join('\n'),
};

describe('code graph: Go', () => {
  it('resolves module imports to package directories, aliases, same-package and method calls', async () => {
    const { g } = await graphOf(GO_PROJECT);
    expect(await g.imports('cmd/server/main.go')).toEqual(['internal/orders/format.go', 'internal/orders/service.go', 'internal/storage/db.go']);
    expect(await g.importers('internal/storage/db.go')).toEqual(['cmd/server/main.go', 'internal/orders/service.go']);
    expect(sites(await g.callees('cmd/server/main.go', 'main'))).toEqual([
      'internal/orders/service.go#NewService:12',
      'internal/orders/service.go#Service.Place:13',
      'internal/storage/db.go#Open:11',
    ]);
    expect(sites(await g.callees('internal/orders/service.go', 'Service.Place'))).toEqual([
      'internal/orders/format.go#format:21',
      'internal/orders/service.go#Service.validate:19',
      'internal/storage/db.go#DB.Put:20',
    ]);
    expect(sites(await g.callers('internal/orders/format.go', 'format'))).toEqual(['internal/orders/service.go#Service.Place:21']);
    expect(await g.symbolAt('internal/orders/service.go', 26)).toBe('Service.validate');
  });
});

const JAVA_PROJECT: Record<string, string> = {
  'pom.xml': '<project><modelVersion>4.0.0</modelVersion></project>\n',
  'src/main/java/com/acme/shop/App.java': [
    'package com.acme.shop;',
    '',
    'import com.acme.shop.billing.Invoice;',
    'import com.acme.shop.billing.*;',
    'import static com.acme.shop.util.Strings.slug;',
    'import java.util.List;',
    '',
    'public class App {',
    '    public static void main(String[] args) {',
    '        Invoice inv = new Invoice(List.of(10, 20));',
    '        TaxTable.rateFor("FR");',
    '        new App().run(inv);',
    '        slug("Hello World");',
    '    }',
    '',
    '    void run(Invoice inv) {',
    '        System.out.println(inv.total());',
    '        this.log("done");',
    '        Helpers.shout("ok");',
    '    }',
    '',
    '    private void log(String s) {',
    '        System.out.println(s);',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/main/java/com/acme/shop/Helpers.java': ['package com.acme.shop;', '', 'class Helpers {', '    static String shout(String s) {', '        return s.toUpperCase();', '    }', '}', ''].join('\n'),
  'src/main/java/com/acme/shop/billing/Invoice.java': [
    'package com.acme.shop.billing;',
    '',
    'import java.util.List;',
    '',
    'public class Invoice {',
    '    private final List<Integer> lines;',
    '',
    '    public Invoice(List<Integer> lines) {',
    '        this.lines = lines;',
    '    }',
    '',
    '    public int total() {',
    '        return lines.stream().mapToInt(Integer::intValue).sum() + tax();',
    '    }',
    '',
    '    private int tax() {',
    '        return (int) (TaxTable.rateFor("FR") * 100);',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/main/java/com/acme/shop/billing/TaxTable.java': [
    'package com.acme.shop.billing;',
    '',
    'public final class TaxTable {',
    '    public static double rateFor(String country) {',
    '        return "FR".equals(country) ? 0.2 : 0.0;',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/main/java/com/acme/shop/util/Strings.java': [
    'package com.acme.shop.util;',
    '',
    'public final class Strings {',
    '    public static String slug(String s) {',
    '        return s.toLowerCase().replace(" ", "-");',
    '    }',
    '}',
    '',
  ].join('\n'),
};

describe('code graph: Java', () => {
  it('resolves class, wildcard and static imports, the same package, and method calls', async () => {
    const { g } = await graphOf(JAVA_PROJECT);
    expect(await g.imports('src/main/java/com/acme/shop/App.java')).toEqual([
      'src/main/java/com/acme/shop/billing/Invoice.java',
      'src/main/java/com/acme/shop/billing/TaxTable.java',
      'src/main/java/com/acme/shop/util/Strings.java',
    ]);
    expect(sites(await g.callees('src/main/java/com/acme/shop/App.java', 'App.main'))).toEqual([
      'src/main/java/com/acme/shop/App.java#App:12',
      'src/main/java/com/acme/shop/App.java#App.run:12',
      'src/main/java/com/acme/shop/billing/Invoice.java#Invoice:10',
      'src/main/java/com/acme/shop/billing/TaxTable.java#TaxTable.rateFor:11',
      'src/main/java/com/acme/shop/util/Strings.java#Strings.slug:13',
    ]);
    expect(sites(await g.callees('src/main/java/com/acme/shop/App.java', 'App.run'))).toEqual([
      'src/main/java/com/acme/shop/App.java#App.log:18',
      'src/main/java/com/acme/shop/Helpers.java#Helpers.shout:19',
      'src/main/java/com/acme/shop/billing/Invoice.java#Invoice.total:17',
    ]);
    expect(sites(await g.callers('src/main/java/com/acme/shop/billing/TaxTable.java', 'TaxTable.rateFor'))).toEqual([
      'src/main/java/com/acme/shop/App.java#App.main:11',
      'src/main/java/com/acme/shop/billing/Invoice.java#Invoice.tax:17',
    ]);
    expect(await g.symbolAt('src/main/java/com/acme/shop/billing/Invoice.java', 13)).toBe('Invoice.total');
  });
});

describe('code graph: robustness and caching', () => {
  it('reports a file that fails to parse and a huge or binary file, and indexes the rest', async () => {
    const { g } = await graphOf({
      'src/ok.ts': "import { broken } from './broken';\nexport function ok() {\n  return broken();\n}\n",
      'src/broken.ts': 'export function broken() {\n  return 1;\n}\nexport function (oops {\n',
      'src/bad.py': 'def fine():\n    return 1\n\ndef broken(:\n    pass\n',
      'src/huge.js': '// generated\n' + 'export const x = 1;\n'.repeat(60_000),
      'src/blob.java': 'class A {}\u0000\u0001',
    });
    const reasons = Object.fromEntries(g.problems.map((p) => [p.path, p.reason]));
    expect(reasons['src/broken.ts']).toMatch(/^parse error at line 4: /);
    expect(reasons['src/bad.py']).toMatch(/^parse error at line 4: syntax error/);
    expect(reasons['src/huge.js']).toMatch(/^skipped: \d+ bytes, over the 1000000-byte limit$/);
    expect(reasons['src/blob.java']).toBe('skipped: binary content');
    expect(Object.keys(reasons).sort()).toEqual(['src/bad.py', 'src/blob.java', 'src/broken.ts', 'src/huge.js']);
    // partial facts of the broken file still serve
    expect(sites(await g.callers('src/broken.ts', 'broken'))).toEqual(['src/ok.ts#ok:3']);
    expect(await g.symbolAt('src/bad.py', 2)).toBe('fine');
  });

  it('parses nothing on an unchanged tree and only the edited file after an edit', async () => {
    const repo = makeRepo(PYTHON_PROJECT);
    repo.commit('init');
    const open = async () => {
      const snap = await openSnapshot({ cwd: repo.dir });
      try {
        return await openCodeNeighbours(snap);
      } finally {
        snap.close();
      }
    };
    const first = await open();
    expect(first.stats).toEqual({ files: 8, parsed: 8, cached: 0, linked: 8, indexCached: false });
    const second = await open();
    expect(second.stats).toEqual({ files: 8, parsed: 0, cached: 8, linked: 0, indexCached: true });
    expect(sites(await second.callers('src/shop/orders/repository.py', 'save'))).toEqual(sites(await first.callers('src/shop/orders/repository.py', 'save')));

    // an uncommitted edit in the work tree: one file parsed, the rest from the cache
    writeFileSync(
      path.join(repo.dir, 'src/shop/orders/repository.py'),
      ['import json', 'from .models import Order', '', '', 'def save(order):', '    Order([]).total()', '    return json.dumps(order.items)', ''].join('\n'),
    );
    const third = await open();
    expect(third.stats).toEqual({ files: 8, parsed: 1, cached: 7, linked: 2, indexCached: false });
    expect(await third.imports('src/shop/orders/repository.py')).toEqual(['src/shop/orders/models.py']);
    expect(await third.importers('src/shop/orders/models.py')).toEqual(['src/shop/orders/repository.py', 'src/shop/orders/service.py']);
  });

  it('reads JavaScript requires, default exports and export assignments', async () => {
    const { g } = await graphOf({
      'lib/index.js': "const util = require('./util');\nconst { helper } = require('./helper.cjs');\nmodule.exports = function run() {\n  util.go();\n  helper();\n};\n",
      'lib/util.js': 'function go() {}\nmodule.exports = { go };\n',
      'lib/helper.cjs': 'exports.helper = function helper() {};\n',
      'web/app.mjs': "import start from './start.mjs';\nstart();\nexport const later = () => import('./lazy.mjs');\n",
      'web/lazy.mjs': 'export default 1;\n',
      'web/start.mjs': 'export default function start() {\n  return 1;\n}\n',
    });
    expect(await g.imports('lib/index.js')).toEqual(['lib/helper.cjs', 'lib/util.js']);
    expect(await g.imports('web/app.mjs')).toEqual(['web/lazy.mjs', 'web/start.mjs']);
    expect(sites(await g.callers('lib/util.js', 'go'))).toEqual(['lib/index.js#<module>:4']);
    expect(sites(await g.callers('web/start.mjs', 'start'))).toEqual(['web/app.mjs#<module>:2']);
  });
});

/** Everything a graph answers, for comparing two graphs of the same tree. */
async function dump(g: CodeGraphIndex) {
  const out: Record<string, unknown> = {};
  for (const p of await g.files()) {
    const decls = await g.declarations(p);
    const syms: Record<string, unknown> = {};
    for (const [name] of [...decls, ['<module>', 0, 0] as [string, number, number]]) {
      const callers = await g.callers(p, name);
      const callees = await g.callees(p, name);
      if (callers.length || callees.length) syms[name] = { callers, callees };
    }
    out[p] = { imports: await g.imports(p), importers: await g.importers(p), decls, syms };
  }
  return { files: out, problems: [...g.problems].sort((a, b) => (a.path < b.path ? -1 : 1)) };
}

describe('code graph: updating the cached index after edits', () => {
  it('relinks only what an edit can change and answers exactly as a fresh build', async () => {
    const repo = makeRepo({ ...TS_MONOREPO, ...PYTHON_PROJECT, ...GO_PROJECT, ...JAVA_PROJECT });
    repo.commit('init');
    const open = async (cache: boolean) => {
      const snap = await openSnapshot({ cwd: repo.dir });
      try {
        return await openCodeNeighbours(snap, { cache });
      } finally {
        snap.close();
      }
    };
    const total = (await open(true)).stats.files;
    const edits: [Record<string, string>, number][] = [
      // a re-exported function renamed behind a barrel: the barrel's importers see it change
      [{
        'packages/billing/src/charge.ts': "import { audit } from './refund.js';\n\nexport function chargeCard(token: string): boolean {\n  audit('x', 1);\n  return !!token;\n}\nexport function chargeLater() {\n  return chargeCard('later');\n}\n",
        'packages/billing/src/index.ts': "export { chargeLater as chargeCard } from './charge.js';\nexport * from './refund.js';\n",
      }, 3], // charge.ts and index.ts; index.ts re-exports, so its importer main.ts too
      // a Python function removed from a package's __init__ chain, a Go call added, a Java method renamed
      [{
        'src/shop/config.py': 'import os\n\n\ndef load_config():\n    return os.environ\n',
        'internal/orders/format.go': 'package orders\n\nimport "example.com/shop/internal/storage"\n\nfunc format(id string) string {\n\tstorage.Open(id)\n\treturn id\n}\n',
        'src/main/java/com/acme/shop/billing/TaxTable.java': 'package com.acme.shop.billing;\n\npublic final class TaxTable {\n    public static double rate(String c) {\n        return 0.1;\n    }\n}\n',
      }, 10], // config.py, its importers __init__ and gateway, __init__'s importer service.py; format.go, its package (service.go), main.go; TaxTable, Invoice, App
      // a Java class added to an existing file (what imports resolve to changes)
      [{ 'src/main/java/com/acme/shop/Helpers.java': 'package com.acme.shop;\n\nclass Helpers {\n    static String shout(String s) {\n        return s;\n    }\n}\n\nclass Extra {}\n' }, total],
    ];
    for (const [edit, linked] of edits) {
      repo.write(edit);
      const updated = await open(true);
      expect(updated.stats.linked).toBe(linked);
      expect(updated.stats.parsed).toBe(Object.keys(edit).length);
      expect(updated.stats.cached).toBe(total - Object.keys(edit).length);
      expect(await dump(updated)).toEqual(await dump(await open(false)));
      // and the next question on the same tree reads the updated cache
      const again = await open(true);
      expect(again.stats.indexCached).toBe(true);
      expect(await dump(again)).toEqual(await dump(updated));
    }
  });

  it('rebuilds when a cached shard is missing', async () => {
    const repo = makeRepo(GO_PROJECT);
    repo.commit('init');
    const open = async () => {
      const snap = await openSnapshot({ cwd: repo.dir });
      try {
        return await openCodeNeighbours(snap);
      } finally {
        snap.close();
      }
    };
    const first = await open();
    const want = await dump(first);
    rmSync(path.join(repo.dir, `${CACHE_REL}/code-graph-index-0.json`));
    const second = await open();
    expect(second.stats.indexCached).toBe(true);
    expect(await dump(second)).toEqual(want);
  });
});
