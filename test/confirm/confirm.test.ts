import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/run.js';
import { renderCheck } from '../../src/check/render.js';
import { CONFIRM_BOUND_KEY } from '../../src/check/confirm/rules.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

const NOW = new Date('2026-11-22T00:00:00Z');

async function check(repo: TestRepo, cache = new Map<string, unknown>()) {
  const snapshot = await openSnapshot({ cwd: repo.dir });
  try {
    return await runCheck({ snapshot, now: NOW, cache });
  } finally {
    snapshot.close();
  }
}

const confirmations = (r: Awaited<ReturnType<typeof check>>) => r.findings.filter((f) => f.rule.startsWith('confirmation-'));
const at = (r: Awaited<ReturnType<typeof check>>) => confirmations(r).map((f) => `${f.rule} ${f.file}:${f.line}:${f.column ?? ''} ${f.id}`);

const decision = (id: string, confirm: string, extra = '') =>
  `---\nid: ${id}\ntype: decision\nstatus: accepted\n${extra}confirm:\n${confirm}---\n# ${id}\n\nWhy.\n`;

const INVOICE_TS = `// Never call Math.round here: see DEC-001 (a comment, not a call)
import { Decimal } from 'decimal.js';
import type { Money } from './money';

export function total(lines: Money[]): number {
  const label = "Math.round(x) is forbidden"; // a string, not a call
  const sum = lines.reduce((a, l) => a + l.amount, 0);
  return Math.round(sum * 100) / 100;
}

export const half = (x: number) => globalThis.Math.round(x) + Math?.round(x);
`;

const REPORT_JS = `'use strict';
const moment = require('moment');
const tz = require("moment-timezone");
// require('moment') in a comment
const s = "import x from 'moment'";

module.exports = async function load() {
  const lazy = await import('moment/locale/de');
  console.log(moment().format(), tz, lazy, s);
};
`;

const LEGACY_PY = `"""Billing helpers. Do not import requests here (a docstring)."""
import os
from requests import Session  # the legacy client
import requests.adapters as ad

def fetch(url):
    # round(1.5) in a comment
    s = "round(2.5)"
    return round(float(os.environ.get(url, "0")))
`;

const DEFAULT_TS = `export default function handler() {
  return 1;
}
`;

describe('confirmations in check', () => {
  it('finds forbid-call, forbid-import, forbid-export-default in TS, JS and Python, never in comments or strings', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': decision('DEC-001', '  - forbid-call: Math.round\n    message: round half to even (roundHalfEven)\n  - forbid-call: round\n', 'paths: [src/billing/**]\n'),
      '.contextia/system/rationale/DEC-002.md': decision('DEC-002', '  - forbid-import: "moment*"\n    message: use luxon\n  - forbid-import: requests*\n'),
      '.contextia/system/rationale/DEC-003.md': decision('DEC-003', '  - forbid-export-default: true\n    in: [src/**/*.ts]\n'),
      'src/billing/invoice.ts': INVOICE_TS,
      'src/billing/legacy.py': LEGACY_PY,
      'src/report/report.js': REPORT_JS,
      'src/api/handler.ts': DEFAULT_TS,
      'src/other/rounding.ts': 'export const r = Math.round(1.5);\n',
    });
    repo.commit('all');
    const r = await check(repo);
    expect(at(r)).toEqual([
      'confirmation-violated src/api/handler.ts:1:1 DEC-003',
      'confirmation-violated src/billing/invoice.ts:8:10 DEC-001',
      // `globalThis.Math.round` is another name than `Math.round`; `Math?.round` is the same
      'confirmation-violated src/billing/invoice.ts:11:63 DEC-001',
      'confirmation-violated src/billing/legacy.py:3:6 DEC-002',
      'confirmation-violated src/billing/legacy.py:4:8 DEC-002',
      'confirmation-violated src/billing/legacy.py:9:12 DEC-001',
      'confirmation-violated src/report/report.js:2:16 DEC-002',
      'confirmation-violated src/report/report.js:3:12 DEC-002',
      'confirmation-violated src/report/report.js:8:22 DEC-002',
    ]);
    const msg = confirmations(r).find((f) => f.file === 'src/billing/invoice.ts')!;
    expect(msg.message).toBe('call of Math.round(…): forbidden by DEC-001 — round half to even (roundHalfEven)');
    expect(msg.severity).toBe('error');
    // outside DEC-001's paths, Math.round is allowed
    expect(at(r).some((x) => x.includes('src/other'))).toBe(false);
  });

  it('reads Ruby through its syntax tree: require, Float#round calls, puts, self.x; never comments or strings', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': decision('DEC-001', '  - forbid-call: "*.round"\n  - forbid-call: puts\n  - forbid-call: this.charge!\n  - forbid-import: "httparty*"\n', 'paths: [app/**]\n'),
      'app/models/invoice.rb': [
        "require 'json'",
        "require 'httparty' # the legacy client", // 2
        '# amount.round(2) in a comment',
        'module Billing',
        '  class Invoice', // 5
        '    def total(lines)',
        '      sum = lines.sum(&:amount)',
        '      label = "sum.round(2) in a string"',
        '      puts label', // 9
        '      sum.round(2)', // 10
        '    end',
        '',
        '    def settle',
        '      self.charge!', // 14
        '    end',
        '  end',
        'end',
        '',
      ].join('\n'),
      'lib/tasks/report.rake': "puts 'outside the decision paths'\n",
    });
    repo.commit('ruby');
    expect(at(await check(repo))).toEqual([
      'confirmation-violated app/models/invoice.rb:2:10 DEC-001',
      'confirmation-violated app/models/invoice.rb:9:7 DEC-001',
      'confirmation-violated app/models/invoice.rb:10:7 DEC-001',
      'confirmation-violated app/models/invoice.rb:14:7 DEC-001',
    ]);
  });

  it('a call or an import through an alias is caught; a parameter that shares an alias name is not', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': decision('DEC-001', '  - forbid-call: Math.round\n  - forbid-call: round\n', 'paths: [src/billing/**]\n'),
      '.contextia/system/rationale/DEC-002.md': decision('DEC-002', '  - forbid-import: "moment*"\n'),
      'src/billing/aliases.ts': [
        "import { round as r } from 'lodash';", // 1
        "import { floor } from 'lodash';",
        'const { round: mr } = Math;',
        'const M = Math;',
        'const half = M.round;', // 5
        'import Rounding = Math;',
        '',
        'export function total(x: number): number {',
        '  return r(x) + mr(x) + half(x) + Rounding.round(x) + floor(x);', // 9
        '}',
        '// r(x) in a comment, "mr(x)" in a string',
        'const note = "r(1)";',
        'export const shadow = (mr2: (n: number) => number) => mr2(1) + note.length;',
        '',
      ].join('\n'),
      'src/billing/shadowed.ts': [
        'const r = Math.round;',
        'export function f(r: (x: number) => number): number {',
        '  return r(1);', // a parameter named like the alias: not the alias
        '}',
        '',
      ].join('\n'),
      'src/report/load.cjs': [
        "const req = require;",
        "const { createRequire } = require('node:module');",
        'const load = createRequire(__filename);',
        "const a = req('moment');", // 4
        "const b = load('moment-timezone');", // 5
        "const c = module.require('moment/locale/de');", // 6
        "module.exports = { a, b, c };",
        '',
      ].join('\n'),
      'src/report/legacy.ts': "import moment = require('moment');\nexport const now = () => moment();\n",
    });
    repo.commit('all');
    const r = await check(repo);
    expect(at(r).sort()).toEqual([
      'confirmation-violated src/billing/aliases.ts:9:10 DEC-001',
      'confirmation-violated src/billing/aliases.ts:9:17 DEC-001',
      'confirmation-violated src/billing/aliases.ts:9:25 DEC-001',
      'confirmation-violated src/billing/aliases.ts:9:35 DEC-001',
      'confirmation-violated src/report/legacy.ts:1:1 DEC-002',
      'confirmation-violated src/report/load.cjs:4:11 DEC-002',
      'confirmation-violated src/report/load.cjs:5:11 DEC-002',
      'confirmation-violated src/report/load.cjs:6:11 DEC-002',
    ]);
    const messages = confirmations(r).filter((f) => f.file === 'src/billing/aliases.ts').sort((a, b) => (a.column ?? 0) - (b.column ?? 0)).map((f) => f.message);
    expect(messages).toEqual([
      'call of round(…) through r(…): forbidden by DEC-001',
      'call of Math.round(…) through mr(…): forbidden by DEC-001',
      'call of Math.round(…) through half(…): forbidden by DEC-001',
      'call of Math.round(…) through Rounding.round(…): forbidden by DEC-001',
    ]);
  });

  it('forbid and require are regular expressions, line by line / per file; require-import needs an import', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-010.md': decision(
        'DEC-010',
        '  - forbid: "parseFloat\\\\("\n    severity: warning\n  - require: "@spec SPEC-BILLING-001"\n    in: [src/billing/**]\n  - require-import: "decimal.js"\n    in: [src/billing/*.ts]\n',
      ),
      '.contextia/system/specs/SPEC-BILLING-001.md': '---\nid: SPEC-BILLING-001\ntype: spec\nstatus: active\n---\n# S\n',
      'src/billing/a.ts': '// @spec SPEC-BILLING-001\nimport { Decimal } from "decimal.js";\nexport const x = parseFloat("1");\n',
      'src/billing/b.ts': 'export const y = 1;\n',
      'README.txt': 'parseFloat( is mentioned here\n',
    });
    repo.commit('all');
    const r = await check(repo);
    expect(at(r)).toEqual([
      'confirmation-violated README.txt:1:1 DEC-010',
      'confirmation-violated src/billing/a.ts:3:18 DEC-010',
      'confirmation-violated src/billing/b.ts:1:1 DEC-010',
      'confirmation-violated src/billing/b.ts:1:1 DEC-010',
    ]);
    const sev = confirmations(r).map((f) => `${f.file} ${f.severity} ${f.message}`);
    expect(sev).toContain('README.txt warning text matching /parseFloat\\(/: forbidden by DEC-010');
    expect(sev).toContain('src/billing/b.ts error no text matching /@spec SPEC-BILLING-001/: required by DEC-010');
    expect(sev).toContain('src/billing/b.ts error no import of "decimal.js": required by DEC-010');
  });

  it('reads an ADR fenced git-ctx block under its Confirmation heading', async () => {
    const adr = [
      '# 1. Use luxon for dates',
      '',
      'Status: Accepted',
      '',
      '## Decision',
      '',
      'Use luxon, not moment.',
      '',
      '## Confirmation',
      '',
      '```git-ctx',
      'confirm:',
      '  - forbid-import: moment',
      '    in: [app/**]',
      '  - forbid-call: moment',
      '    in: [app/**]',
      '```',
      '',
    ].join('\n');
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n',
      'docs/adr/0001-use-luxon.md': adr,
      'app/dates.mjs': "import moment from 'moment';\nexport const now = () => moment();\n",
      'lib/dates.mjs': "import moment from 'moment';\n",
    });
    repo.commit('all');
    const r = await check(repo);
    expect(at(r)).toEqual(['confirmation-violated app/dates.mjs:1:1 ADR-0001', 'confirmation-violated app/dates.mjs:2:26 ADR-0001']);
  });

  it('malformed entries are findings at the record file and line, never a crash', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-020.md': decision(
        'DEC-020',
        '  - forbid-calls: x\n  - forbid: "([a-z"\n  - forbid-import: [a, b]\n  - forbid-call: ok\n    severity: fatal\n  - forbid-call: fine\n    in: {a: 1}\n  - forbid-call: f\n    forbid: g\n',
      ),
      '.contextia/system/rationale/DEC-021.md': '---\nid: DEC-021\ntype: decision\nstatus: accepted\nconfirm: forbid-call\n---\n# x\n',
      'src/a.ts': 'export const a = 1;\n',
    });
    repo.commit('all');
    const r = await check(repo);
    const bad = confirmations(r).map((f) => `${f.file}:${f.line} ${f.message}`);
    expect(bad).toEqual([
      expect.stringMatching(/^\.contextia\/system\/rationale\/DEC-020\.md:6 DEC-020: unknown confirmation key forbid-calls/),
      expect.stringMatching(/^\.contextia\/system\/rationale\/DEC-020\.md:7 DEC-020: forbid: invalid regular expression "\(\[a-z": /),
      '.contextia/system/rationale/DEC-020.md:8 DEC-020: forbid-import needs a string, got ["a","b"]',
      '.contextia/system/rationale/DEC-020.md:9 DEC-020: severity: must be error, warning or info, got "fatal"',
      '.contextia/system/rationale/DEC-020.md:11 DEC-020: in: must be a glob or a list of globs, got {"a":"1"}',
      '.contextia/system/rationale/DEC-020.md:13 DEC-020: a confirmation has one kind, this one has forbid-call and forbid',
      '.contextia/system/rationale/DEC-021.md:5 confirm: must be a list of confirmations, got "forbid-call"',
    ]);
    expect(confirmations(r).every((f) => f.rule === 'confirmation-malformed')).toBe(true);
    expect(r.ruleErrors).toEqual([]);
  });

  it('a catastrophic pattern on a long line is stopped at its bound and says so', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-030.md': decision('DEC-030', '  - forbid: "(a+)+$"\n  - forbid: TODO\n'),
      'data/long.txt': 'a'.repeat(5000) + '!\nTODO here\n',
    });
    repo.commit('all');
    const t0 = Date.now();
    const r = await check(repo, new Map<string, unknown>([[CONFIRM_BOUND_KEY, 300]]));
    expect(Date.now() - t0).toBeLessThan(10_000);
    const bounded = confirmations(r).filter((f) => f.rule === 'confirmation-bounded');
    expect(bounded).toHaveLength(1);
    expect(bounded[0]).toMatchObject({ file: 'data/long.txt', id: 'DEC-030', severity: 'warning' });
    expect(bounded[0]!.message).toMatch(/forbid \/\(a\+\)\+\$\/ of DEC-030 was stopped after \d+ ms on this file \(bounded/);
    // the other pattern of the same file still ran
    expect(at(r)).toContain('confirmation-violated data/long.txt:2:1 DEC-030');
  }, 30_000);

  it('skips inactive records, binary and huge files; SARIF carries the region with its column', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'limits:\n  max_file_bytes: 1000\n',
      '.contextia/system/rationale/DEC-040.md': decision('DEC-040', '  - forbid: secret\n'),
      '.contextia/system/rationale/DEC-041.md': decision('DEC-041', '  - forbid: anything\n').replace('accepted', 'superseded'),
      'a.txt': 'x secret\nanything\n',
      'big.txt': 'secret\n'.repeat(500),
      'bin.dat': Buffer.from([0, 1, 2, ...Buffer.from('secret')]),
    });
    repo.commit('all');
    const r = await check(repo);
    expect(at(r)).toEqual(['confirmation-violated a.txt:1:3 DEC-040']);
    const sarif = JSON.parse(renderCheck(r, 'sarif'));
    const res = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'confirmation-violated');
    expect(res.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'a.txt' }, region: { startLine: 1, startColumn: 3 } });
    expect(sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining(['confirmation-violated', 'confirmation-malformed', 'confirmation-bounded']));
  });
});
