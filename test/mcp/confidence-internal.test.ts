import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { connect, fixtureRepo } from './helpers.js';

// DEC-054: the confidence of a record is for people; nothing an agent reads carries it
const WORDS = /confidence|owner_confirmed|ai_inferred|auto_generated/i;

const AI_RECORD =
  '---\nid: DEC-AI-001\ntype: decision\ntitle: Verify webhook signatures\nstatus: accepted\nsummary: Webhook payloads are verified before processing\npaths: [src/billing/**]\nowner: author@example.com\nsource: ai_chat\nsession_id: sess-1\ncommit: 0123456789abcdef0123456789abcdef01234567\nconfidence: ai_inferred\n---\n\n# Verify webhook signatures\n\nEvery webhook payload is verified before processing.\n';
const CONFIRMED = '---\nid: DEC-OK-001\ntype: decision\ntitle: Retries reuse the transaction id\nstatus: accepted\nconfidence: owner_confirmed\nsource: meeting\n---\n\n# Retries reuse the transaction id\n\nA retried charge keeps its transaction id.\n';

/** Arguments that make each tool answer with the records above in its result. */
const ARGS: Record<string, Record<string, unknown>[]> = {
  get_context: [{}, { ids: ['DEC-AI-001', 'DEC-OK-001', 'TASK-042'] }],
  read_artifact: [{ id: 'DEC-AI-001' }, { id: 'DEC-OK-001', depth: 'meta' }],
  assemble_task: [{ id: 'DEC-AI-001' }, { id: 'TASK-042', format: 'json' }],
  trace: [{ place: 'src/billing/invoice.ts' }],
  context_for_code: [{ place: 'src/billing/invoice.ts' }],
  search_decisions: [{ query: 'verify webhook signatures retries transaction id' }],
  stale: [{ all: true }],
  impact: [{ target: 'DEC-AI-001' }, { target: 'src/billing/invoice.ts' }],
  check: [{}],
  add_decision: [{ decision: 'Deploy the billing service on Kubernetes with one Helm chart.' }],
  propose_decision: [{ decision: 'Refunds are issued as credit notes, never as negative invoices.', session_id: 's-9' }],
};

describe('confidence stays internal', () => {
  it('no MCP tool result or resource carries the confidence field or its values', async () => {
    const repo = fixtureRepo({ '.contextia/system/rationale/DEC-AI-001.md': AI_RECORD, '.contextia/system/rationale/DEC-OK-001.md': CONFIRMED });
    const c = await connect({ cwd: repo.dir });
    const { tools } = await c.client.listTools();
    let episode: string | undefined;
    for (const t of tools) {
      // a tool added later without arguments here is still called, and still scanned
      const calls = t.name === 'feedback' ? [] : (ARGS[t.name] ?? [{}]);
      for (const args of calls) {
        const r = await c.call(t.name, args);
        const seen = JSON.stringify(r);
        expect(seen.length, `${t.name} answered`).toBeGreaterThan(10);
        expect(seen, `${t.name} ${JSON.stringify(args)}`).not.toMatch(WORDS);
        episode ??= (r.data.episode as string | undefined) ?? undefined;
      }
    }
    expect(episode).toBeTruthy();
    const fb = await c.call('feedback', { episode, useful: ['DEC-AI-001'] });
    expect(JSON.stringify(fb)).not.toMatch(WORDS);
    // the records were there to be seen: read_artifact showed the rest of their provenance
    expect((await c.call('read_artifact', { id: 'DEC-AI-001' })).text).toContain('session_id: sess-1');

    const { resources } = await c.client.listResources();
    const uris = [...resources.map((r) => r.uri), 'ctx://artifact/DEC-AI-001', 'ctx://artifact/DEC-OK-001'];
    for (const uri of uris) {
      const r = await c.client.readResource({ uri }).catch((e: Error) => ({ error: e.message }));
      expect(JSON.stringify(r), uri).not.toMatch(WORDS);
    }
  });

  it('the agent-read hook injects the records without their confidence', () => {
    const repo = fixtureRepo({ '.contextia/system/rationale/DEC-AI-001.md': AI_RECORD });
    const payload = JSON.stringify({ session_id: 's1', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: `${repo.dir}/src/billing/invoice.ts` }, cwd: repo.dir });
    const r = runCli(['hook', 'agent-read'], { cwd: repo.dir, input: payload });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('DEC-AI-001');
    expect(r.stdout).not.toMatch(WORDS);
    // people see it
    expect(runCli(['show', 'DEC-AI-001'], { cwd: repo.dir }).stdout).toContain('confidence: ai_inferred');
  });
});
