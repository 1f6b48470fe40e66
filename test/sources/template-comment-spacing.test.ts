import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const TEMPLATE = `---
status: "{proposed | accepted | rejected}"
---

# {short title of the problem and its solution}

## Context and Problem Statement

{Two or three sentences.}

## Decision Outcome

Chosen option: "{option 1}", because {why}.

<!-- An optional part. Remove it if you like. -->

### Consequences

- Good, because {something}

## Pros and Cons of the Options

### {title of option 1}

- Good, because {argument a}

### {title of another option}

- Bad, because {argument b}
`;

/**
 * trials27, IGassmann/viaferrata.app: \`git ctx add\` filling the Decision Outcome of a MADR
 * template kept the comment that closes it but glued it to the next heading
 * ("<!-- … -->" then "### Consequences" on the next line); \`new decision\` kept the blank line.
 */
describe('add from a MADR template whose outcome closes with a comment', () => {
  it('keeps the blank line between the comment and the next heading', () => {
    const repo = makeRepo({
      'docs/decisions/template.md': TEMPLATE,
      'docs/decisions/0001-use-markdown-records.md': '# Use Markdown records\n\n## Context and Problem Statement\n\nWhich format?\n\n## Decision Outcome\n\nChosen option: "MADR".\n',
    });
    repo.commit('records');
    const r = runCli(['add', '--format', 'json', 'Run unit tests with one runner'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, (JSON.parse(r.stdout) as { file: string }).file), 'utf8');
    expect(text).toContain('## Decision Outcome\n\nRun unit tests with one runner\n\n<!-- An optional part. Remove it if you like. -->\n\n### Consequences\n');
  });
});

/**
 * trials27, viaferrata.app: the sections still to write were listed by their headings, MADR's
 * placeholder headings too ("to write: …, {title of option 1}, {title of another option}").
 * Such a heading is named by the section it sits in.
 */
describe('the guidance of a template with placeholder headings', () => {
  it('names the section they sit in, once', () => {
    const repo = makeRepo({
      'docs/decisions/template.md': TEMPLATE,
      'docs/decisions/0001-use-markdown-records.md': '# Use Markdown records\n\n## Context and Problem Statement\n\nWhich format?\n\n## Decision Outcome\n\nChosen option: "MADR".\n',
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', '--dry-run', '--json', '--title', 'Pick a test runner'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const guidance = (JSON.parse(r.stdout) as { guidance: string[] }).guidance;
    expect(guidance).toContain('Pros and Cons of the Options');
    expect(guidance.filter((g) => g.startsWith('{'))).toEqual([]);
  });
});
