import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

/**
 * The bundled example as a repository whose history makes some records stale: everything
 * stamped, then the invoice totals changed in a later commit by another author.
 */
export function exampleWithDrift(): TestRepo {
  const repo = makeRepo();
  cpSync(path.join(ROOT, '.contextia-example'), repo.dir, { recursive: true });
  repo.commit('Acme billing example');
  const stamp = runCli(['stamp', '--all'], { cwd: repo.dir });
  if (stamp.code !== 0) throw new Error(stamp.stderr);
  repo.commit('Stamp the records');
  repo.write({ 'src/billing/invoice/totals.ts': readFileSync(path.join(repo.dir, 'src/billing/invoice/totals.ts'), 'utf8') + '\n// totals are now rounded per invoice\nexport const ROUND_PER_INVOICE = true;\n' });
  repo.commit('Round totals per invoice, not per line');
  return repo;
}
