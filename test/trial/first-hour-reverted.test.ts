import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A new user's first hour on home-assistant/architecture's shape: `.adr-dir` naming `adr/`, adr-tools
 * records, two installation methods later "Reverted by [discussion #…](…)." — undone decisions that
 * read as unmapped statuses and so as active, and were reported as near-duplicates of the one that stands.
 */
const method = (n: string, name: string, status: string, runs: string) =>
  `# ${n}. Installation method: Home Assistant ${name}\n\nDate: 2020-06-03\n\n## Status\n\n${status}\n\n## Context\n\nDefine a supported installation method as per [ADR-0012](https://github.com/home-assistant/architecture/blob/master/adr/0012-define-supported-installation-method.md).\n\n## Decision\n\nThis is for running just the Home Assistant Core application ${runs}. It does not provide the Supervisor experience, and thus does not provide the Supervisor panel and add-ons.\n\n### Supported Operating Systems and versions\n\n- Running Home Assistant ${name} is only supported on Linux.\n`;

describe('first hour on an .adr-dir folder with reverted records, without init', () => {
  it('reads "Reverted by discussion #1197." as deprecated: no unmapped status, and no near-duplicate with the record that stands', () => {
    const repo = makeRepo({
      '.adr-dir': 'adr\n',
      'adr/0012-define-supported-installation-method.md': '# 0012. Define supported installation method\n\nDate: 2020-06-03\n\n## Status\n\nAccepted\n\n## Context\n\nUsers install Home Assistant in many ways.\n\n## Decision\n\nEach supported installation method has its own record.\n',
      'adr/0013-home-assistant-container.md': method('0013', 'Container', 'Accepted', 'on native OCI compatible containerization system'),
      'adr/0016-home-assistant-core.md': method('0016', 'Core', 'Reverted by [discussion #1197](https://github.com/home-assistant/architecture/discussions/1197).\n\nHome Assistant Core is no longer an officially supported installation method.', 'directly on Python in a virtual environment'),
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const status = Object.fromEntries((JSON.parse(list.stdout) as { artifacts: { id: string; status: string | null }[] }).artifacts.map((a) => [a.id, a.status]));
    expect(status).toEqual({ 'ADR-0012': 'accepted', 'ADR-0013': 'accepted', 'ADR-0016': 'deprecated' });
    const show = runCli(['show', '16'], { cwd: repo.dir });
    expect(show.stdout).toContain('status: \'deprecated (written "Reverted by discussion #1197.")\'');
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code).toBe(0);
    expect(check.stdout).not.toContain('status-unmapped');
    expect(check.stdout).not.toMatch(/ADR-0016 are active/);
  });
});
