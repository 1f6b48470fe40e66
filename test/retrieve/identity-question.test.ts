import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * The identity record describes the whole project, so the default embedder finds it near any
 * question about the project (trials32: a generated identity answered "how do we send push
 * notifications to users" by meaning alone, at 0.65). It answers a question only by its words
 * (DEC-140). The wording is ours.
 */
const decision = (id: string, title: string, text: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\nsummary: ${text}\n---\n# ${title}\n\n${text}\n`;

function fixture() {
  const repo = makeRepo({
    '.contextia/identity.md': '---\nid: IDENTITY\ntype: identity\ntitle: jobhelp-api\nsummary: The back end of a mobile app that helps job seekers and their advisers keep in touch.\n---\n# jobhelp-api\n\nThe back end of a mobile app that helps job seekers and their advisers keep in touch. It is written in TypeScript with NestJS and PostgreSQL.\n',
    '.contextia/system/rationale/DEC-001.md': decision('DEC-001', 'Dates are handled with luxon', 'Every date is a luxon DateTime that keeps its time zone; the native Date is not used.'),
    '.contextia/system/rationale/DEC-002.md': decision('DEC-002', 'Repositories, services and factories in the domain', 'The domain layer holds repository interfaces, services for shared rules and factories that build aggregates.'),
  });
  repo.commit('fixture');
  return repo;
}

const ask = (dir: string, q: string) => {
  const out = runCli(['search', q, '--json', '--all'], { cwd: dir });
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as { results: { id: string }[]; weak: { id: string; why: { kind: string }[] }[] };
};

describe('the identity record and questions (DEC-140)', () => {
  it('is no answer by meaning alone: a question about something no record decides gets nothing', () => {
    const repo = fixture();
    const j = ask(repo.dir, 'how do we send push notifications to users');
    expect(j.results).toEqual([]);
    const identity = j.weak.find((w) => w.id === 'IDENTITY');
    expect(identity?.why.map((w) => w.kind)).toEqual(['semantic']);
  });

  it('answers a question through its words', () => {
    const repo = fixture();
    expect(ask(repo.dir, 'how do job seekers talk to their advisers').results.map((r) => r.id)).toEqual(['IDENTITY']);
  });
});
