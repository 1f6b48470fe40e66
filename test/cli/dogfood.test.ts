import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

interface Finding {
  rule: string;
  file?: string;
  severity: string;
  message: string;
}

describe("git-ctx's own .contextia", () => {
  it('has no findings on its artifacts, and every subsystem spec is there', () => {
    const r = runCli(['check', '--json'], { cwd: ROOT });
    expect([0, 1]).toContain(r.code);
    const out = JSON.parse(r.stdout) as { findings: Finding[] };
    // findings about the artifacts themselves (code annotations are judged with the code)
    expect(out.findings.filter((f) => f.file?.startsWith('.contextia/'))).toEqual([]);
    // the file-header annotations name specs that exist
    expect(out.findings.filter((f) => f.rule === 'annotation-unknown-id' && /SPEC-(SNAPSHOT|ARTIFACTS|CHECK|CLI)-001/.test(f.message))).toEqual([]);
    const list = runCli(['list', '--json', '--type', 'spec'], { cwd: ROOT });
    const ids = (JSON.parse(list.stdout) as { artifacts: { id: string }[] }).artifacts.map((a) => a.id);
    for (const s of ['SNAPSHOT', 'ARTIFACTS', 'CHECK', 'CLI', 'ASSEMBLE', 'ANCHORS', 'STALENESS', 'HOOK', 'ACTION', 'MCP']) expect(ids).toContain(`SPEC-${s}-001`);
  });

  it('annotates the main files of the core subsystems on their first line', () => {
    for (const [file, id] of [
      ['src/snapshot/open.ts', 'SPEC-SNAPSHOT-001'],
      ['src/artifacts/parse.ts', 'SPEC-ARTIFACTS-001'],
      ['src/check/run.ts', 'SPEC-CHECK-001'],
      ['src/cli/main.ts', 'SPEC-CLI-001'],
    ] as const) {
      expect(readFileSync(path.join(ROOT, file), 'utf8').startsWith(`// @spec ${id}\n\n`), file).toBe(true);
    }
  });
});
