// @spec SPEC-AUTHORING-001

import { guidanceNote } from '../../artifacts/sources/record-template.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from '../commander.js';
import { addDecision, checkDecisionConflicts, unwrittenNote, type AddDecisionInput, type AddDecisionResult, type ConflictCheck } from '../../authoring/add.js';
import { requireArtifact } from '../../artifacts/lookup.js';
import { supersedeArtifact } from '../../staleness/lifecycle.js';
import { confirmEntries } from '../../check/confirm/author.js';
import { manualProvenance, proposalInput } from '../../authoring/propose.js';
import { CtxError } from '../../errors.js';
import { plural } from '../../util/plural.js';
import { toRepoPath } from '../../util/paths.js';
import { colors, ExitCode, formatOption, io, loadRepo } from '../shared.js';

interface AddCliOptions {
  root?: string;
  global?: boolean;
  decision?: string;
  title?: string;
  rationale?: string;
  constraints?: string;
  scope?: string;
  paths?: string[];
  keywords?: string[];
  in?: string;
  status?: string;
  force?: boolean;
  dryRun?: boolean;
  forbidCall?: string[];
  forbidImport?: string[];
  forbid?: string[];
  require?: string[];
  propose?: boolean;
  session?: string;
  supersedes?: string[];
  format: 'human' | 'json';
  json?: boolean;
}

const list = (v: string[] | undefined) => (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);

export const EDITOR_TEMPLATE = `# git ctx add: write the decision below, save and close the editor.
# Lines starting with "#" are ignored; an empty Decision section adds nothing.
Title: 
Scope: 
Paths: 
Keywords: 

## Decision


## Rationale


## Constraints

`;

/** Fields of a filled-in editor template (the Title/Scope/Paths/Keywords lines and the ## sections). */
export function parseTemplate(text: string): Partial<AddDecisionInput> {
  const out: Partial<AddDecisionInput> = {};
  const sections: Record<string, string[]> = {};
  let cur: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#') && !line.startsWith('##')) continue;
    const h = /^##\s+(\w+)/.exec(line);
    if (h) {
      cur = sections[h[1]!.toLowerCase()] = [];
      continue;
    }
    if (cur) {
      cur.push(line);
      continue;
    }
    const m = /^(Title|Scope|Paths|Keywords):\s*(.*)$/i.exec(line);
    if (!m || !m[2]!.trim()) continue;
    const k = m[1]!.toLowerCase();
    if (k === 'title') out.title = m[2]!.trim();
    else if (k === 'scope') out.scope = m[2]!.trim();
    else if (k === 'paths') out.paths = list([m[2]!]);
    else out.keywords = list([m[2]!]);
  }
  const sec = (k: string) => sections[k]?.join('\n').trim() || undefined;
  const d = sec('decision');
  if (d) out.decision = d;
  const r = sec('rationale');
  if (r) out.rationale = r;
  const c = sec('constraints');
  if (c) out.constraints = c;
  return out;
}

/** Open $VISUAL / $EDITOR on the template (a temporary file outside the repository) and read it back. */
function editDraft(): Partial<AddDecisionInput> {
  const env = io().env;
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-add-'));
  const file = path.join(dir, 'DECISION.md');
  try {
    writeFileSync(file, EDITOR_TEMPLATE);
    // through the shell: EDITOR often carries arguments ("code --wait")
    const r = spawnSync(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env });
    if (r.status !== 0) throw new CtxError('USAGE', `the editor (${editor}) exited with ${r.status ?? r.signal}; nothing added`, { hint: 'set EDITOR, or pass --decision "…"' });
    return parseTemplate(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function similarLines(c: ConflictCheck): string {
  const p = colors();
  // a record well under the first is said to be weaker (DEC-130): the first is the one to read
  return c.similar
    .map((s) => `  ${p.bold(s.id.padEnd(12))} ${s.similarity.toFixed(2)}  ${s.title}${s.origin === 'global' ? ' (global)' : ''}  ${p.dim(s.file || '')}${s.weaker ? p.dim('  (weaker)') : ''}\n`)
    .join('');
}

/**
 * The records the draft looks like it replaces, with the words that matched and how to record
 * it: `--supersedes` before it is written, `git ctx supersede` after (DEC-130). Never written unasked.
 */
function replacesLines(c: ConflictCheck, added?: string): string {
  const p = colors();
  return (c.replaces ?? [])
    .map((h) => `looks like it replaces ${p.bold(h.id)} "${h.title}": ${h.reason}\n  ${p.dim(added ? `to record it: git ctx supersede ${h.id} --by ${added}` : `to record it: add --supersedes ${h.id}`)}\n`)
    .join('');
}

/** The nearest record under the threshold, said so a restatement in other words is not passed over unseen. */
function closestNote(c: ConflictCheck): string {
  return c.closest ? ` at \u2265 ${c.threshold} (${closest(c.closest)}; read it before adding)` : '';
}

/** The closest record and its score, as both notes name it. */
function closest(x: NonNullable<ConflictCheck['closest']>): string {
  return `closest: ${x.id} ${x.title}, ${x.similarity.toFixed(2)}`;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function printResult(r: AddDecisionResult & { supersedes?: string[] }, o: AddCliOptions): void {
  if (o.format === 'json') {
    io().out(JSON.stringify({ version: 1, ...r }, null, 2) + '\n');
    return;
  }
  const p = colors();
  if (r.outcome === 'written') {
    io().out(`${r.file}\n`);
    io().err(`${p.green('created')} ${r.id}${r.similar.length ? ` (added despite ${plural(r.similar.length, 'similar decision')})` : r.closest ? ` (${closest(r.closest)}, under ${r.threshold})` : ''}\n`);
    if (r.guidance) io().err(`${guidanceNote(r.guidance)}\n`);
    if (r.unwritten) io().err(`${unwrittenNote(r.unwritten.map((f) => `--${f}`), true)}\n`);
    if (r.provenance_unkept && o.propose) io().err('not kept: who proposed it (the session, the commit); without .contextia/config.yaml there is no provenance sidecar (git ctx init makes one)\n');
    if (r.supersedes) io().err(`${r.id} supersedes ${r.supersedes.join(', ')} (status superseded)\n`);
    else io().err(replacesLines(r, r.id));
  } else if (r.outcome === 'dry-run') {
    io().err(`dry run: would add "${r.title}"${r.file ? ` as ${r.file}` : ''}${r.similar.length ? `; ${plural(r.similar.length, 'similar active decision')} at ≥ ${r.threshold}:\n${similarLines(r)}` : `, nothing similar${closestNote(r)}`}\n`);
    if (r.text) io().out(r.text);
    if (r.guidance) io().err(`${guidanceNote(r.guidance)}\n`);
    if (r.unwritten) io().err(`${unwrittenNote(r.unwritten.map((f) => `--${f}`), false)}\n`);
    if (r.supersedes) io().err(`would record: supersedes ${r.supersedes.join(', ')} (${r.supersedes.length > 1 ? 'their' : 'its'} status becomes superseded)\n`);
    else io().err(replacesLines(r));
  }
}

/** Write `<new> supersedes <old>` as git ctx supersede does, on the records as they are now written. */
async function recordSupersedes(o: AddCliOptions, added: string, olds: readonly string[]): Promise<void> {
  const repo = await loadRepo({ root: o.root, global: o.global });
  try {
    const newer = requireArtifact(repo.set, added);
    for (const id of olds) await supersedeArtifact(repo.snapshot.root, repo.config, repo.set, requireArtifact(repo.set, id), newer);
  } finally {
    repo.close();
  }
}

export function register(program: Command): void {
  program
    .command('add')
    .description('Add a decision in one command, after checking it against the active decisions (similar ones are listed with their scores)')
    .argument('[decision...]', 'what was decided, as --decision (git ctx add "Use ECB rates for currency conversion")')
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .option('--global', 'also compare with global decisions (the user-level store)')
    .option('-d, --decision <text>', 'what was decided (required unless given as the argument or an editor opens)')
    .option('-t, --title <title>', 'title (default: the first clause of the decision, at most 72 characters)')
    .option('-r, --rationale <text>', 'why')
    .option('--constraints <text>', 'rules that follow from it')
    .option('--scope <area>', 'global, domain or project (scope:), or an area such as billing (domain:)')
    .option('--paths <glob...>', 'code it governs (paths:), comma or space separated')
    .option('--keywords <word...>', 'keywords, comma or space separated')
    .option('--in <folder>', "write it into this records folder (a sources: entry of format adr, in its style and numbering) or .contextia (a frontmatter record). Default: the team's ADR folder when its decisions are only there, else .contextia")
    .option('--status <status>', 'status (default: accepted)')
    .option('--forbid-call <callee...>', 'confirmation: code must not call this (Math.round, console.*); see docs/confirmations.md')
    .option('--forbid-import <module...>', 'confirmation: code must not import a module matching this glob (moment*)')
    .option('--forbid <regex...>', 'confirmation: no line of code may match this regular expression')
    .option('--require <regex...>', 'confirmation: every file it covers must match this regular expression')
    .option('--propose', "write it as a proposal for a person to confirm (status proposed, source ai_chat, the session and commit), into the team's decision folder")
    .option('--session <id>', 'with --propose: the agent session that proposes it')
    .option('--supersedes <id...>', 'the new decision replaces this one: written as git ctx supersede writes it (its status becomes superseded); it is left out of the similarity check')
    .option('--force', 'add it even when similar active decisions exist')
    .option('--dry-run', 'check and show what would be added; write nothing')
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText(
      'after',
      '\nRun bare on a terminal to write the decision in $EDITOR. Similar active decisions (score ≥ semantic.conflict_threshold, default 0.75) are listed, those well under the first marked (weaker); on a terminal you are asked to confirm, otherwise nothing is written unless --force. With none, the closest record is named when it scores 0.5 or more (JSON: closest); it does not block.\nA decision that looks like it replaces a record (same subject; "move from", "stop using", "instead of"… or another choice for it) names that record and the words that matched (JSON: replaces). It is a suggestion: nothing is linked unless you pass --supersedes <id>.\nExit codes: 0 added (or dry run with nothing similar), 1 not added because of similar decisions (or answered no), 2 usage or environment error.',
    )
    .action(async (words: string[], o: AddCliOptions) => {
      if (o.json) o.format = 'json';
      // the decision typed as the argument, as `new decision` takes its title
      if (words.length) {
        if (o.decision !== undefined) throw new CtxError('USAGE', 'the decision is given twice: as the argument and as --decision', { hint: 'keep one of them' });
        o.decision = words.join(' ');
      }
      const interactive = !!process.stdin.isTTY && !!process.stderr.isTTY && o.format !== 'json';
      let input: AddDecisionInput;
      const confirmations = confirmEntries({ forbidCall: o.forbidCall, forbidImport: o.forbidImport, forbid: o.forbid, require: o.require });
      const given = { title: o.title, rationale: o.rationale, constraints: o.constraints, scope: o.scope, status: o.status, paths: list(o.paths), keywords: list(o.keywords), ...(confirmations.length ? { confirm: confirmations } : {}) };
      if (o.decision === undefined) {
        if (!interactive) throw new CtxError('USAGE', '--decision is required when not on a terminal', { hint: 'git ctx add "Use ECB rates for currency conversion" --rationale "…" (the decision as the argument or as --decision)' });
        const edited = editDraft();
        if (!edited.decision) throw new CtxError('USAGE', 'the Decision section was left empty; nothing added');
        input = { ...given, ...Object.fromEntries(Object.entries(edited).filter(([, v]) => v !== undefined)), decision: edited.decision };
      } else input = { ...given, decision: o.decision };
      const repo = await loadRepo({ root: o.root, global: o.global });
      try {
        if (o.in !== undefined) input.in = toRepoPath(repo.snapshot.root, o.in, repo.cwd);
        const root = repo.snapshot.root;
        if (o.session !== undefined && !o.propose) throw new CtxError('USAGE', '--session goes with --propose');
        // the record(s) it replaces: decisions of this repository, named before anything is written
        const replaced = list(o.supersedes).map((id) => requireArtifact(repo.set, id));
        if (replaced.length && o.propose) throw new CtxError('USAGE', '--supersedes writes the old record superseded now; a proposal is not decided yet', { hint: 'propose it, and once confirmed run git ctx supersede <old> --by <new>' });
        for (const a of replaced) {
          if (a.type !== 'decision') throw new CtxError('USAGE', `--supersedes ${a.id}: it is a ${a.type}, not a decision`);
          if (a.origin !== 'repo') throw new CtxError('USAGE', `--supersedes ${a.id}: it is not a record of this repository (${a.origin})`);
        }
        const supersedes = (o.supersedes = replaced.map((a) => a.id));
        if (o.propose) {
          if (o.status !== undefined) throw new CtxError('USAGE', '--propose writes the proposed status; drop --status');
          const { status: _status, ...draft } = input;
          input = await proposalInput(root, repo.set, { ...draft, session: o.session });
        } else input.provenance = await manualProvenance(root);
        const check = await checkDecisionConflicts(root, repo.set, input, { exclude: supersedes });
        let force = !!o.force;
        if (check.similar.length && !force && !o.dryRun) {
          io().err(`${plural(check.similar.length, 'active decision')} similar to "${check.title}" (score ≥ ${check.threshold}):\n${similarLines(check)}${replacesLines(check)}`);
          if (interactive) force = await confirm('Add it anyway? [y/N] ');
          if (!force) {
            if (o.format === 'json') io().out(JSON.stringify({ version: 1, outcome: 'conflict', ...check }, null, 2) + '\n');
            else io().err(interactive ? 'not added\n' : 'not added: update or supersede one of them, or run again with --force\n');
            throw new ExitCode(1);
          }
        }
        const r = await addDecision(root, repo.set, input, { force, dryRun: o.dryRun }, check);
        const result = supersedes.length ? { ...r, supersedes } : r;
        if (r.outcome === 'written' && supersedes.length) await recordSupersedes(o, r.id!, supersedes);
        printResult(result, o);
        if (r.outcome === 'dry-run' && r.similar.length && !force) throw new ExitCode(1);
      } finally {
        repo.close();
      }
    });
}
