import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { createServer, type CreateServerOptions } from '../../src/mcp/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

const fm = (fields: Record<string, unknown>, body: string) =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`)
    .join('\n')}\n---\n\n${body}\n`;

/** A small repository that exercises ordering, requires (with a cycle), baselines and code anchors. */
export const FILES: Record<string, string> = {
  '.contextia/identity.md': fm({ id: 'ACME', type: 'identity', title: 'Acme billing', summary: 'Invoices for Acme' }, '# Acme billing\n\nTypeScript service that issues invoices.'),
  '.contextia/system/norms/NORM-ERROR-001.md': fm(
    { id: 'NORM-ERROR-001', type: 'norm', title: 'Errors carry codes', status: 'active', scope: 'global', requires: ['NORM-LOG-001'] },
    '# Errors carry codes\n\nEvery error has a stable code.\n\n## Details\n\nCodes are strings.',
  ),
  '.contextia/system/norms/NORM-LOG-001.md': fm({ id: 'NORM-LOG-001', type: 'norm', title: 'Structured logs', status: 'active', scope: 'domain', domain: 'billing' }, '# Structured logs\n\nLog JSON lines.'),
  '.contextia/system/rationale/DEC-BILLING-001.md': fm(
    { id: 'DEC-BILLING-001', type: 'decision', title: "Banker's rounding", status: 'accepted', summary: 'Round invoice totals half to even', requires: ['NORM-ERROR-001', 'SPEC-BILLING-001'] },
    "# Banker's rounding\n\nWe round half to even.\n\n## Consequences\n\nTotals may differ by a cent.",
  ),
  '.contextia/system/rationale/DEC-OLD-001.md': fm({ id: 'DEC-OLD-001', type: 'decision', title: 'Round half up', status: 'superseded' }, '# Round half up\n\nOld.'),
  '.contextia/system/specs/SPEC-BILLING-001.md': fm(
    { id: 'SPEC-BILLING-001', type: 'spec', title: 'Invoice generation', status: 'active', requires: ['DEC-BILLING-001', 'NORM-ERROR-001'], paths: ['src/billing/**'] },
    '# Invoice generation\n\nInvoices are generated monthly.',
  ),
  '.contextia/work/tasks/TASK-042.md':
    '---\nid: TASK-042\ntype: task\ntitle: Add credit notes\nstatus: active\nlinks:\n  specs: [SPEC-BILLING-001]\n  decisions: [DEC-BILLING-001]\n---\n\n# Add credit notes\n\nIssue credit notes against invoices.\n',
  '.contextia/docs/design/selection.md': fm({ id: 'project/design/context-selection', type: 'design', title: 'Context selection' }, '# Context selection\n\nTwo phases.'),
  '.contextia/baseline.md': '# Baseline\n\nLoad at session start:\n\n- `NORM-ERROR-001` — every change touches errors\n- [ACME](identity.md)\n\n```\n- NOT-AN-ID\n```\n',
  'src/billing/invoice.ts': '// @spec SPEC-BILLING-001\nexport class InvoiceGenerator {\n  /** @decision DEC-BILLING-001 */\n  generate(): number {\n    return 1;\n  }\n}\n',
};

/** A temp repository with FILES committed. */
export function fixtureRepo(extra: Record<string, string> = {}): TestRepo {
  const repo = makeRepo({ ...FILES, ...extra });
  repo.commit('fixture');
  return repo;
}

const tempDirs: string[] = [];
afterEach(() => {
  while (tempDirs.length) rmSync(tempDirs.pop()!, { recursive: true, force: true });
});

/** An empty directory removed after the test (a global store, a sessions dir). */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-mcp-')));
  tempDirs.push(dir);
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), c);
  }
  return dir;
}

export interface Connected {
  client: Client;
  /** call a tool; returns the result with its text */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { text: string; data: Record<string, unknown> }>;
  close(): Promise<void>;
}

const open: Connected[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** A real SDK Client connected to a fresh server over InMemoryTransport. */
export async function connect(options: CreateServerOptions): Promise<Connected> {
  const logs: string[] = [];
  const server = createServer({ log: (m) => logs.push(m), ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'git-ctx-test', version: '1.0.0' });
  await client.connect(clientSide);
  const c: Connected = {
    client,
    async call(name, args = {}) {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = r.content.map((x) => (x.type === 'text' ? x.text : '')).join('');
      return { ...r, text, data: (r.structuredContent ?? {}) as Record<string, unknown> };
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
  open.push(c);
  return c;
}

/** Ids of the artifact sections of a phase-2 answer, in order. */
export function sectionIds(text: string): string[] {
  return [...text.matchAll(/^=== (\S+) \[/gm)].map((m) => m[1]!);
}

/** Ids of the entries of a phase-1 index, in order. */
export function indexIds(text: string): string[] {
  return [...text.matchAll(/^- (\S+) \[/gm)].map((m) => m[1]!);
}
