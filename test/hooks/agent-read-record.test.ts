import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const payload = (session: string, file: string) => JSON.stringify({ session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: file }, cwd: '' });
const context = (stdout: string): string => (stdout ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '');

// agents33: an agent reading an ADR where it lives (docs/adr/0006-….md) was told of the records
// sharing its words, the record itself first ("related" to its own file), and nothing of the one
// thing it needed: that 0006 is superseded by 0007. Records under .contextia/ were already skipped.
describe('the file-read hook on a decision record itself', () => {
  it('a record in force adds nothing; a superseded one names its successor; one with no known successor says not to follow it', () => {
    const r = makeRepo({
      'docs/adr/0006-ask-nothing-on-pull.md': '# 0006: Ask nothing on pull\nDate: 2026-01-06\nStatus: Superseded\n\nSuperseded by [0007](0007-prompt-on-pull.md).\n\n## Decision\n\nPull never prompts for a missing secret.\n',
      'docs/adr/0007-prompt-on-pull.md': '# 0007: Prompt on pull\nDate: 2026-01-07\nStatus: Accepted\n\n## Decision\n\nPull prompts for a missing secret when run in a terminal.\n',
      'docs/adr/0009-cache-secrets.md': '# 0009: Cache secrets\nDate: 2026-01-09\nStatus: Deprecated\n\n## Decision\n\nSecrets pulled are cached for an hour.\n',
      'src/pull.rs': 'pub fn pull_secret(prompt: bool) -> bool { prompt }\n',
    });
    r.commit('records');
    const read = (f: string) => runCli(['hook', 'agent-read'], { cwd: r.dir, input: payload('s1', path.join(r.dir, f)) });
    const active = read('docs/adr/0007-prompt-on-pull.md');
    expect(active).toMatchObject({ code: 0, stdout: '' });
    const old = read('docs/adr/0006-ask-nothing-on-pull.md');
    expect(old.code).toBe(0);
    expect(context(old.stdout)).toBe('docs/adr/0006-ask-nothing-on-pull.md is ADR-0006 "Ask nothing on pull", superseded and no longer in force; superseded by ADR-0007 "Prompt on pull" (docs/adr/0007-prompt-on-pull.md): follow that one, not this text.\n');
    const gone = context(read('docs/adr/0009-cache-secrets.md').stdout);
    expect(gone).toContain('ADR-0009 "Cache secrets", deprecated and no longer in force');
    expect(gone).toContain('do not follow it as a rule');
    expect(gone).not.toContain('## ');
  });
});
