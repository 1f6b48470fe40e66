import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAgentRuleFiles, detectRecordFolders } from '../../src/artifacts/sources/detect.js';
import { firstParagraph } from '../../src/init/detect.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const nygard = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\nWe will ${title}.\n`;
const madr = (title: string, status: string) => `---\nstatus: ${status}\ndate: 2024-02-01\n---\n# ${title}\n\n## Context and Problem Statement\n\nWhich?\n\n## Decision Outcome\n\nChosen option: ${title}.\n`;

describe('git ctx init finds decision records', () => {
  it('configures an adr-tools folder and a MADR folder (nested historic/, a package docs/), skips node_modules, and check exits 0', () => {
    const repo = makeRepo({
      'package.json': JSON.stringify({ name: 'shop', workspaces: ['packages/*'] }),
      'README.md': '# Shop\n\n[![build](https://x/badge.svg)](https://x)\n\nShop is the **checkout service** for [Acme](https://acme.example).\nIt takes payments.\n\n## Install\n\nnpm i\n',
      'AGENTS.md': '# Agents\n',
      '.cursor/rules/style.mdc': 'x\n',
      'doc/architecture/decisions/0001-record-architecture-decisions.md': nygard(1, 'Record architecture decisions', 'Accepted'),
      'doc/architecture/decisions/0002-use-postgres.md': nygard(2, 'Use Postgres', 'Superseded by [3. Use CockroachDB](0003-use-cockroachdb.md)'),
      'doc/architecture/decisions/0003-use-cockroachdb.md': nygard(3, 'Use CockroachDB', 'Accepted\n\nSupersedes [2. Use Postgres](0002-use-postgres.md)'),
      'doc/architecture/decisions/historic/0004-use-soap.md': nygard(4, 'Use SOAP', 'Obsolete'),
      'packages/api/docs/decisions/0001-use-fastify.md': madr('Use Fastify', 'accepted'),
      'packages/api/docs/decisions/0002-use-zod.md': madr('Use zod', 'Frobnicated'),
      'packages/api/src/server.ts': 'export const x = 1;\n',
      'node_modules/lib/docs/adr/0001-vendored.md': nygard(1, 'Vendored', 'Accepted'),
      'docs/architecture/overview.md': '# Overview\n',
    });
    repo.commit('records');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('doc/architecture/decisions/  4 records, ids ADR-<number>');
    expect(init.stdout).toContain('packages/api/docs/decisions/  2 records, ids API-<number>');
    expect(init.stdout).toMatch(/unmapped status packages\/api\/docs\/decisions\/0002-use-zod\.md:2: status "Frobnicated"/);
    expect(init.stdout).toContain('Agent rule files found (kept as they are): .cursor/rules/style.mdc, AGENTS.md');
    expect(init.stdout).not.toContain('node_modules');
    const config = readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8');
    expect(config).toContain('sources:\n  - dir: doc/architecture/decisions\n    format: adr\n    prefix: ADR-\n    type: decision\n  - dir: packages/api/docs/decisions\n    format: adr\n    prefix: API-\n');
    const identity = readFileSync(path.join(repo.dir, '.contextia/identity.md'), 'utf8');
    expect(identity).toContain('Shop is the checkout service for Acme. It takes payments.');
    expect(identity).toContain('workspaces: [packages/*]');
    const check = runCli(['check', '--json'], { cwd: repo.dir });
    expect(check.code, check.stdout).toBe(0);
    const findings = (JSON.parse(check.stdout) as { findings: { rule: string; file: string }[] }).findings;
    expect(findings.map((f) => [f.rule, f.file])).toEqual([['status-unmapped', 'packages/api/docs/decisions/0002-use-zod.md']]);
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    const ids = (JSON.parse(list.stdout) as { artifacts?: { id: string }[] } | { id: string }[]);
    const idList = (Array.isArray(ids) ? ids : ids.artifacts ?? []).map((a) => a.id);
    expect(idList).toEqual(expect.arrayContaining(['ADR-0001', 'ADR-0004', 'API-0001', 'API-0002']));
  });

  it('detects nested state folders, src/ folders and a package-local numbered folder inside a source', () => {
    const files = [
      'dotcom/docs/architecture/000-adrs.md',
      'dotcom/docs/architecture/001-react.md',
      'dotcom/docs/architecture/historic-adrs/002-old.md',
      'dotcom/docs/architecture/historic-adrs/notes.md',
      'dotcom/docs/architecture/proposed-adrs/rendering.md',
      'dotcom/docs/architecture/third-party-review/001-a.md',
      'dotcom/docs/architecture/third-party-review/002-b.md',
      'src/payments/adr/0001-idempotency.md',
      'docs/architecture/readme.md',
      'vendor/x/adr/0001-no.md',
      'build/decisions/0001-no.md',
      'docs/payment-decision-records/ADR-001-tokens.md',
      'dotcom/docs/architecture/3rd-party-technical-reviews/001-a.md',
      'dotcom/docs/architecture/3rd-party-technical-reviews/002-b.md',
    ];
    expect(detectRecordFolders(files).map((s) => [s.dir, s.prefix, s.records])).toEqual([
      // the shallowest folder keeps ADR-; the others are named after their nearest distinctive folder
      ['docs/payment-decision-records', 'ADR-', 1],
      ['dotcom/docs/architecture', 'DOTCOM-', 5],
      // a long folder name is cut between words, never inside one ("…-TECHNICAL-REVI-")
      ['dotcom/docs/architecture/3rd-party-technical-reviews', '3RD-PARTY-TECHNICAL-', 2],
      ['dotcom/docs/architecture/third-party-review', 'THIRD-PARTY-REVIEW-', 2],
      ['src/payments/adr', 'PAYMENTS-', 1],
    ]);
    expect(detectAgentRuleFiles(['CLAUDE.md', 'src/AGENTS.md', '.github/copilot-instructions.md', 'x.md'])).toEqual(['.github/copilot-instructions.md', 'CLAUDE.md']);
  });

  it('finds a folder of any name whose numbered files call themselves ADRs (docs/arch/adr-001-….md), and says so', () => {
    const files = ['docs/arch/adr-001-dont-do-inquiry.md', 'docs/arch/adr-002-google-pay.md', 'docs/guides/01-setup.md', 'docs/guides/02-run.md', 'docs/guides/adr-003-one.md', 'docs/mixed/adr-001-a.md', 'docs/mixed/adr-002-b.md', 'docs/mixed/03-c.md', 'docs/mixed/04-d.md', 'docs/mixed/05-e.md'];
    // a folder of ADR-named records is one (2 of 2); one ADR-named file among guides is not, nor two among five numbered pages
    expect(detectRecordFolders(files).map((s) => [s.dir, s.prefix, s.records, s.byFileNames])).toEqual([['docs/arch', 'ADR-', 2, true]]);
    // a folder named for its decisions (`design-decisions`, `tech_decisions`) is found by its name
    expect(detectRecordFolders(['docs/design-decisions/0001-use-kafka.md', 'eng/tech_decisions/0001-a.md', 'docs/decisions-old/0001-x.md']).map((s) => [s.dir, s.byFileNames])).toEqual([
      ['docs/design-decisions', undefined],
      ['eng/tech_decisions', undefined],
    ]);
    const repo = makeRepo({
      'docs/arch/adr-001-dont-do-inquiry-after-notifications.md': '# ADR 001 - Do not do inquiry after notifications\n\n## Context\n\nThe provider sends notifications.\n\n## Decision\n\nWe will not call the provider after a notification.\n',
      'docs/arch/adr-002-google-pay.md': '# ADR 002 - Do not decrypt Google Pay payloads\n\n## Decision\n\nWe pass the payload to the gateway encrypted.\n',
      'src/notify.js': 'export const x = 1;\n',
    });
    repo.commit('records');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('ADR-001');
    expect(list.stdout).toContain('ADR-002');
    expect(list.stderr).toContain('read decision records from docs/arch/ (found by file names); `git ctx init` pins them');
  });

  it('offers no source for ADR-named records at the top of the repository: init writes no `dir: .` that config.yaml refuses', () => {
    // arachne-framework/architecture keeps its adr-001-….md records at the top level
    expect(detectRecordFolders(['LICENSE.txt', 'adr-001-use-adrs.md', 'adr-002-configuration.md', 'adr-003-config-implementation.md'])).toEqual([]);
    const repo = makeRepo({
      'adr-001-use-adrs.md': '# Architecture Decision Record: Use ADRs\n\n## Context\n\nWe want to think deeply.\n\n## Decision\n\nWe will document every architecture-level decision.\n',
      'adr-002-configuration.md': '# Architecture Decision Record: Configuration\n\n## Decision\n\nConfiguration is data.\n',
    });
    repo.commit('records');
    const search = runCli(['search', 'how is configuration read'], { cwd: repo.dir });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stderr).not.toContain('read decision records from ./');
    expect(search.stdout).toContain('no decision records are read here');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8')).not.toMatch(/dir: "?\."?\n/);
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code, check.stderr).toBe(0);
  });

  it("reads a README's first prose paragraph", () => {
    expect(firstParagraph('<p align="center"><img src="x"></p>\n\n# Title\n\n> quote\n\nFirst *real* paragraph\nwith [a link](x).\n\nSecond.\n')).toBe('First real paragraph with a link.');
    expect(firstParagraph('# Only a title\n')).toBeUndefined();
  });
});
