// @spec SPEC-ACTION-001
import { CtxError } from '../errors.js';
import { runGit } from '../git/exec.js';

async function tryGit(args: string[], cwd: string): Promise<string | undefined> {
  try {
    const out = (await runGit(args, { cwd })).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

/** The base `git ctx pr` compares with when --base is not given, and where it came from. */
export interface DefaultBase {
  rev: string;
  source: 'upstream' | 'origin/HEAD';
}

/**
 * The branch a pull request from here would merge into: the current branch's upstream when it
 * is another branch (a branch tracking `main`), else the remote's default branch
 * (`origin/HEAD`). An upstream that is the same branch on the remote (where `git push` goes)
 * is not a merge target and is skipped. The report then compares the merge base with HEAD.
 */
export async function defaultBase(cwd: string): Promise<DefaultBase> {
  const upstream = await tryGit(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'], cwd);
  const branch = await tryGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], cwd);
  if (upstream && !(branch && upstream.endsWith(`/${branch}`))) return { rev: upstream, source: 'upstream' };
  const originHead = await tryGit(['rev-parse', '--abbrev-ref', 'origin/HEAD'], cwd);
  if (originHead && originHead !== 'origin/HEAD') return { rev: originHead, source: 'origin/HEAD' };
  throw new CtxError('USAGE', 'no --base given, and neither an upstream branch nor origin/HEAD names the branch to compare with', {
    hint: 'pass --base <branch> (e.g. --base origin/main), or run: git remote set-head origin --auto',
  });
}
