import { describe, expect, it } from 'vitest';
import { renderTimings } from '../../src/util/timing.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const DEC = '---\nid: DEC-001\ntype: decision\ntitle: One\nstatus: accepted\n---\nBody.\n';

describe('GIT_CTX_TIMINGS', () => {
  it('labels every phase of a check, in order, on stderr, and only when asked', () => {
    const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': DEC, 'src/a.ts': '// @decision DEC-001\nexport const a = 1;\n' });
    repo.commit('init');
    const r = runCli(['check'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(r.code).toBe(0);
    const phases = r.stderr
      .split('\n')
      .map((l) => /^git-ctx timing: (\S+)\s/.exec(l)?.[1])
      .filter((p): p is string => !!p && p !== '·');
    expect(phases).toEqual(['start-up', 'snapshot', 'config', 'listing', 'parse', 'analyses', 'render', 'exit', 'total']);
    // cache reads are measured steps (the second run reads what the first wrote)
    const again = runCli(['check'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(again.stderr).toMatch(/cache read artifacts\.bin: \d+ KB in [\d.]+ ms/);
    expect(again.stdout).toBe(r.stdout);
    const quiet = runCli(['check'], { cwd: repo.dir });
    expect(quiet.stderr).not.toContain('git-ctx timing');
  });

  it('renders each phase with its start and length, and steps with the time since the line before', () => {
    const lines = renderTimings(
      [
        { label: 'start-up', kind: 'phase', at: 0 },
        { label: 'main', kind: 'step', at: 40 },
        { label: 'snapshot', kind: 'phase', at: 50 },
        { label: 'exit', kind: 'phase', at: 80 },
      ],
      90,
    );
    expect(lines).toEqual([
      'git-ctx timing: start-up      0.0 ms +50.0 ms',
      'git-ctx timing:   · main (+40.0 ms)',
      'git-ctx timing: snapshot     50.0 ms +30.0 ms',
      'git-ctx timing: exit         80.0 ms +10.0 ms',
      'git-ctx timing: total        90.0 ms',
    ]);
  });
});
