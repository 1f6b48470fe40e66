import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const payload = (session: string, file: string) => JSON.stringify({ session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: file }, cwd: '' });

describe('agent-read hook: confirmations', () => {
  it('tells the agent which lines of the file it opens violate which decision, every time', () => {
    const r = makeRepo({
      '.contextia/system/rationale/DEC-ROUND.md': '---\nid: DEC-ROUND\ntype: decision\ntitle: Banker rounding\nstatus: accepted\npaths: [src/billing/**]\nconfirm:\n  - forbid-call: Math.round\n    message: use roundHalfEven\n---\n# Banker rounding\n\nRound half to even.\n',
      '.contextia/system/rationale/DEC-NODEF.md': '---\nid: DEC-NODEF\ntype: decision\ntitle: Named exports\nstatus: accepted\nconfirm:\n  - forbid-export-default: true\n    in: [lib/**]\n---\n# Named exports\n',
      'src/billing/invoice.ts': '// Math.round is not used here\nexport function total(x: number) {\n  return Math.round(x);\n}\n',
      'lib/a.ts': 'export default 1;\n',
    });
    r.commit('fixture');
    const first = JSON.parse(runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', path.join(r.dir, 'src/billing/invoice.ts')) }).stdout);
    const ctx: string = first.hookSpecificOutput.additionalContext;
    expect(ctx).toContain('## Decisions src/billing/invoice.ts violates (git-ctx confirmations)');
    expect(ctx).toContain('- line 3: call of Math.round(…): forbidden by DEC-ROUND — use roundHalfEven');
    expect(ctx).not.toContain('line 1:');
    // still said on the second read of the session (the record itself is then one line)
    const again = JSON.parse(runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', 'src/billing/invoice.ts') }).stdout);
    expect(again.hookSpecificOutput.additionalContext).toContain('- line 3: call of Math.round(…): forbidden by DEC-ROUND');
    // a file no record governs (by paths) still hears about the decision it breaks
    const lib = JSON.parse(runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', 'lib/a.ts') }).stdout);
    expect(lib.hookSpecificOutput.additionalContext).toContain('- line 1: default export: forbidden by DEC-NODEF');
  });
});
