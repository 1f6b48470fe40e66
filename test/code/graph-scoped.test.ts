import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCodeNeighbours, openFileNeighbours } from '../../src/code/graph/index.js';
import { collectCode } from '../../src/code/graph/build.js';
import { answerForFile, declaredPackage } from '../../src/code/graph/scoped.js';
import type { GraphLanguage } from '../../src/code/graph/types.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

/**
 * A question about one file on a tree whose code graph was never built answers from the files
 * that can matter to it (DEC-089): the answers must be the whole graph's, file by file.
 */
async function compareAll(files: Record<string, string>, lang: GraphLanguage, wholeFor: readonly string[] = []) {
  const repo = makeRepo(files);
  repo.commit('init');
  const snap = await openSnapshot({ cwd: repo.dir });
  try {
    const whole = await openCodeNeighbours(snap, { cache: false });
    const c = await collectCode(snap, 1_000_000);
    const mine = c.code.filter((x) => x.lang === lang);
    const parsed: Record<string, number> = {};
    for (const f of mine) {
      const stats = { files: 0, parsed: 0, cached: 0, linked: 0, indexCached: false };
      const a = await answerForFile(snap, c, f.path, 1_000_000, false, stats);
      // a file an import can reach without spelling its name is answered by the whole graph
      if (wholeFor.includes(f.path)) {
        expect(a, f.path).toBeUndefined();
        continue;
      }
      expect(a, f.path).toBeDefined();
      expect({ path: f.path, ...a }).toEqual({ path: f.path, imports: await whole.imports(f.path), importers: await whole.importers(f.path), decls: await whole.declarations(f.path) });
      parsed[f.path] = stats.parsed;
    }
    return { parsed, whole, count: mine.length };
  } finally {
    snap.close();
  }
}

const JAVA: Record<string, string> = {
  'core/src/main/java/org/acme/model/Entry.java': 'package org.acme.model;\n\nimport java.util.List;\n\npublic class Entry {\n  public static class Field {}\n  public List<String> names() { return List.of(); }\n}\n',
  'core/src/main/java/org/acme/model/Database.java': 'package org.acme.model;\n\npublic class Database {\n  Entry first() { return new Entry(); }\n}\n',
  // the same class in two source sets: where an import of it leads depends on both
  'core/src/test/java/org/acme/model/Database.java': 'package org.acme.model;\n\npublic class Database {}\n',
  'core/src/main/java/org/acme/model/package-info.java': '/** The model. */\n@Deprecated\npackage org.acme.model;\n',
  'core/src/main/java/org/acme/logic/Writer.java': [
    '/* Licence header */',
    'package org.acme.logic;',
    '',
    'import org.acme.model.Entry;',
    'import org.acme.model.Entry.Field;',
    'import static org.acme.util.Strings.trim;',
    'import org.acme.util.*;',
    '',
    'public class Writer {',
    '  void write(Entry e) { trim(e.toString()); }',
    '}',
    '',
  ].join('\n'),
  'core/src/main/java/org/acme/logic/Reader.java': 'package /* the logic */ org.acme.logic;\n\nimport org.acme.model.*;\n\nclass Reader { Database db; }\n',
  // a file named apart from its class: found by its file name too
  'core/src/main/java/org/acme/util/Helpers.java': 'package org.acme.util;\n\npublic final class Strings {\n  public static String trim(String s) { return s.trim(); }\n}\n',
  'core/src/main/java/org/acme/util/Other.java': 'package org.acme.util;\n\nimport org.acme.util.Helpers;\n\nclass Other {}\n',
  // a package line the scan does not trust (a second package later): parsed whatever it names
  'core/src/main/java/org/acme/gui/View.java': 'package org.acme.gui;\n\n// this package draws; see the package org.acme.model;\nimport org.acme.model.Entry;\nclass View {}\n',
  'scripts/Tool.java': 'import org.acme.logic.Writer;\nimport org.acme.model.Database;\n\nclass Tool {}\n',
};

describe('answers for one file without the whole graph (DEC-089)', () => {
  it('Java: imports, importers and declarations are the whole graph’s, for every file, reading fewer files', async () => {
    const { parsed, whole, count } = await compareAll(JAVA, 'java');
    expect(await whole.importers('core/src/main/java/org/acme/model/Entry.java')).toEqual([
      'core/src/main/java/org/acme/gui/View.java',
      'core/src/main/java/org/acme/logic/Reader.java',
      'core/src/main/java/org/acme/logic/Writer.java',
    ]);
    expect(await whole.imports('core/src/main/java/org/acme/logic/Writer.java')).toContain('core/src/main/java/org/acme/util/Helpers.java');
    // a file nothing names is answered from itself and the files that decide where its imports lead
    expect(parsed['core/src/main/java/org/acme/util/Other.java']!).toBeLessThan(count);
  });

  it('Go: imports through go.mod module paths, a nested module, test files, the module’s own folder', async () => {
    await compareAll(
      {
        'go.mod': 'module example.com/shop\n\ngo 1.22\n',
        'main.go': 'package main\n\nimport (\n  "example.com/shop/cart"\n  "fmt"\n)\n\nfunc main() { fmt.Println(cart.Total()) }\n',
        'shop.go': 'package main\n\nfunc helper() {}\n',
        'cart/cart.go': 'package cart\n\nimport "example.com/shop/money"\n\nfunc Total() int { return money.Round(1) }\n',
        'cart/cart_test.go': 'package cart\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) { Total() }\n',
        'money/money.go': 'package money\n\nfunc Round(n int) int { return n }\n',
        'tools/go.mod': 'module example.com/tools\n',
        'tools/gen/gen.go': 'package gen\n\nimport m "example.com/shop/money"\n\nfunc Gen() { m.Round(2) }\n',
        'tools/tools.go': 'package tools\n\nimport "example.com/tools/gen"\n\nfunc Run() { gen.Gen() }\n',
      },
      'go',
    );
  });

  it('Python: absolute and relative imports, packages’ __init__, submodules bound by from-imports', async () => {
    await compareAll(
      {
        'app/__init__.py': 'from .config import load\n',
        'app/config.py': 'def load():\n    return {}\n',
        'app/models/__init__.py': '',
        'app/models/user.py': 'from .. import config\nfrom . import base\n\nclass User(base.Base):\n    pass\n',
        'app/models/base.py': 'class Base:\n    pass\n',
        'app/cli.py': 'import app.models.user\nfrom app import load\nfrom app.models import user as u\n',
        'tests/test_user.py': 'from app.models.user import User\n',
      },
      'python',
    );
  });

  it('Ruby: require and require_relative, constants by their last name (nested modules, Foo::Bar, the same class in two files), superclasses, .new', async () => {
    const { parsed, whole, count } = await compareAll(
      {
        'app/services/application_service.rb': 'class ApplicationService\n  def self.call(*args)\n    new(*args).call\n  end\nend\n',
        'app/services/billing/refund_service.rb': 'module Billing\n  class RefundService < ApplicationService\n    def initialize(payment)\n      @payment = payment\n    end\n\n    def call\n      Gateway::Client.refund(@payment.amount)\n      AuditLog.record(:refund, @payment)\n      Ledger.new.post(@payment)\n    end\n  end\nend\n',
        'app/models/audit_log.rb': 'class AuditLog < ApplicationRecord\n  def self.record(event, subject)\n    create!(event: event, subject: subject)\n  end\nend\n',
        // the same constant declared twice: the graph's first declaration wins, here as there
        'app/models/ledger.rb': 'class Ledger\n  def initialize; end\n  def post(p); end\nend\n',
        'lib/legacy/ledger.rb': 'class Ledger\n  def post(p); end\nend\n',
        'app/models/billing/ledger.rb': 'module Billing\n  class Ledger\n    def post(p); end\n  end\nend\n',
        'lib/gateway/client.rb': "require 'gateway/http'\n\nmodule Gateway\n  class Client\n    def self.refund(amount)\n      Http.post('/refunds', amount)\n    end\n  end\nend\n",
        'lib/gateway/http.rb': 'class Gateway::Http\n  def self.post(path, body); end\nend\n',
        'app/controllers/refunds_controller.rb': "require_relative '../services/billing/refund_service'\n\nclass RefundsController < ApplicationController\n  def create\n    Billing::RefundService.call(payment)\n  end\nend\n",
        'app/controllers/application_controller.rb': 'class ApplicationController\nend\n',
        'script/report.rb': "require 'gateway/client'\n\nputs Gateway::Client.refund(1)\n",
      },
      'ruby',
    );
    expect(await whole.importers('lib/gateway/client.rb')).toEqual(['app/services/billing/refund_service.rb', 'script/report.rb']);
    expect(await whole.imports('app/services/billing/refund_service.rb')).toContain('app/models/billing/ledger.rb');
    // a file only its neighbours name is answered from a part of the tree
    expect(parsed['app/models/audit_log.rb']!).toBeLessThan(count);
  });

  it('TypeScript/JavaScript: relative, .js-suffixed, paths-mapped, baseUrl, workspace-package and dynamic imports, require, re-exports', async () => {
    const ts = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['web/src/*'] }, module: 'nodenext', moduleResolution: 'nodenext', allowJs: true, jsx: 'react-jsx' } }),
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['libs/*', 'web'] }),
      'libs/money/package.json': JSON.stringify({ name: '@acme/money', exports: { '.': './src/entry.ts', './*': './src/*.ts' } }),
      'libs/money/src/entry.ts': "export { round } from './round.js';\n",
      'libs/money/src/round.ts': 'export function round(n: number): number {\n  return Math.round(n);\n}\n',
      'libs/money/src/format.ts': "import { round } from './round.js';\nexport const format = (n: number) => `${round(n)}`;\n",
      'web/src/components/Price.tsx': "import { format } from '@acme/money/format';\nimport { round } from '@acme/money';\nexport function Price(p: { n: number }) {\n  return <b>{format(round(p.n))}</b>;\n}\n",
      'web/src/components/index.ts': "export * from './Price';\n",
      'web/src/pages/Home.tsx': "import { Price } from '@/components/Price';\nimport * as all from '../components';\nexport const Home = () => <Price n={all ? 1 : 2} />;\n",
      'web/src/pages/lazy.ts': "export const load = () => import('./Home');\n",
      'web/src/legacy/cart.js': "const money = require('../../../libs/money/src/round');\nmodule.exports = { total: (n) => money.round(n) };\n",
      'web/src/legacy/cart.test.js': "const cart = require('./cart');\ncart.total(1);\n",
      'web/src/types/shapes.d.ts': 'export interface Shape { n: number }\n',
      'web/src/shapes-user.ts': "import type { Shape } from './types/shapes';\nexport const s: Shape = { n: 1 };\n",
      // a name spelt in a file that does not import it: read, then left out by the resolution
      'web/src/notes.ts': "export const note = 'Price and round and format are words here';\n",
    };
    const { whole } = await compareAll(ts, 'typescript', [
      // reached through its folder
      'web/src/components/index.ts',
      // the package's entry point: a package.json spells its name
      'libs/money/src/entry.ts',
    ]);
    expect(await whole.importers('libs/money/src/round.ts')).toEqual(['libs/money/src/entry.ts', 'libs/money/src/format.ts', 'web/src/legacy/cart.js']);
    expect(await whole.importers('web/src/components/Price.tsx')).toEqual(['web/src/components/index.ts', 'web/src/pages/Home.tsx']);
    expect(await whole.importers('web/src/pages/Home.tsx')).toEqual(['web/src/pages/lazy.ts']);
    expect(await whole.importers('web/src/types/shapes.d.ts')).toEqual(['web/src/shapes-user.ts']);
    expect(await whole.imports('web/src/components/Price.tsx')).toEqual(['libs/money/src/entry.ts', 'libs/money/src/format.ts']);
  });

  it('the first question on a tree keeps no whole graph; the next one builds it, and both answer alike', async () => {
    const repo = makeRepo(JAVA);
    repo.commit('init');
    const cache = path.join(repo.dir, CACHE_REL);
    const kept = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('code-graph-index')) : []);
    const ask = async (file: string) => {
      const snap = await openSnapshot({ cwd: repo.dir });
      try {
        const g = await openFileNeighbours(snap, file);
        return [await g.imports(file), await g.importers(file), await g.declarations?.(file), await g.symbolAt(file, 6)];
      } finally {
        snap.close();
      }
    };
    const entry = 'core/src/main/java/org/acme/model/Entry.java';
    const first = await ask(entry);
    expect(kept()).toEqual([]);
    expect(first[1]).toHaveLength(3);
    expect(first[3]).toBe('Entry.Field');
    const second = await ask(entry);
    expect(kept().length).toBeGreaterThan(0);
    expect(second).toEqual(first);
  });

  it('reads the package a Java file declares without parsing it, or says it cannot', () => {
    expect(declaredPackage('package a.b.c;\nclass X {}')).toBe('a.b.c');
    expect(declaredPackage('// header\n/* more */\npackage   a.b ;\n')).toBe('a.b');
    expect(declaredPackage('package/*c*/a;')).toBe('a');
    expect(declaredPackage('class X {}')).toBe('');
    expect(declaredPackage('@Deprecated\npackage a;')).toBeUndefined();
    expect(declaredPackage('package a . b;')).toBeUndefined();
    expect(declaredPackage('import a.B;\nclass X { String package_; }')).toBeUndefined();
    expect(declaredPackage('package a;\n// see package b;\n')).toBeUndefined();
    expect(declaredPackage('package a;\nclass Subpackage {}')).toBe('a');
    expect(declaredPackage('\uFEFFpackage a;')).toBeUndefined();
    expect(declaredPackage('/* unclosed package a;')).toBeUndefined();
  });
});
