import { describe, expect, it } from 'vitest';
import { assembleBundle, renderBundle } from '../../src/assemble/index.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, type: string, fm: string, body: string) => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;

describe('bundles --related', () => {
  it('adds records retrieved for the task paths after the linked ones, marked, and never repeats a linked one', async () => {
    const repo = makeRepo({
      'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender;\n}\n',
      '.contextia/work/tasks/TASK-1.md': rec('TASK-1', 'task', 'status: active\npaths: [src/webhooks/limiter.ts]\nlinks:\n  specs: [SPEC-HOOKS]\n', 'Tune the limiter.'),
      '.contextia/system/specs/SPEC-HOOKS.md': rec('SPEC-HOOKS', 'spec', 'status: active\nkeywords: [webhook, throttle]\n', 'Webhook throttle settings.'),
      '.contextia/system/rationale/DEC-RATE.md': rec('DEC-RATE', 'decision', 'status: accepted\nkeywords: [rate limit, throttle, webhook, token bucket]\n', 'Webhook deliveries are throttled per sender.'),
      '.contextia/system/rationale/DEC-DIR.md': rec('DEC-DIR', 'decision', 'status: accepted\npaths: [src/webhooks/**]\n', 'Webhooks live here.'),
    });
    repo.commit('fixture');
    const plain = await assembleBundle({ id: 'TASK-1', cwd: repo.dir, tokenCache: false });
    expect(plain.entries.map((e) => e.id)).toEqual(['TASK-1', 'SPEC-HOOKS']);
    expect(plain.header.options).not.toHaveProperty('related');
    const b = await assembleBundle({ id: 'TASK-1', cwd: repo.dir, related: 2, tokenCache: false });
    expect(b.entries.map((e) => [e.id, e.role])).toEqual([
      ['TASK-1', 'root'],
      ['SPEC-HOOKS', 'linked'],
      ['DEC-DIR', 'related'],
      ['DEC-RATE', 'related'],
    ]);
    expect(b.entries[2]!.why).toBe('related, not linked: retrieved for src/webhooks/limiter.ts (paths: src/webhooks/** (.contextia/system/rationale/DEC-DIR.md))');
    expect(b.entries[3]!.why).toContain('related, not linked: retrieved for src/webhooks/limiter.ts (matches');
    expect(b.header.options.related).toBe(2);
    expect(renderBundle(b, 'context')).toContain('related, not linked');
    const cli = runCli(['context', 'TASK-1', '--related', '1', '--json'], { cwd: repo.dir });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout).entries.map((e: { id: string }) => e.id)).toEqual(['TASK-1', 'SPEC-HOOKS', 'DEC-DIR']);
  });
});
