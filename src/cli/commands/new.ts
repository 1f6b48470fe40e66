import { guidanceNote } from '../../artifacts/sources/record-template.js';
import type { Command } from '../commander.js';
import { createArtifact } from '../../init/new-artifact.js';
import { confirmEntries } from '../../check/confirm/author.js';
import { createRecord, decisionTarget } from '../../artifacts/sources/new-record.js';
import { manualProvenance } from '../../authoring/propose.js';
import { updateSidecarProvenance } from '../../artifacts/sources/provenance.js';
import { CtxError } from '../../errors.js';
import { toRepoPath } from '../../util/paths.js';
import { colors, io, loadRepo } from '../shared.js';

interface NewCliOptions {
  root?: string;
  id?: string;
  title?: string;
  status?: string;
  domain?: string;
  links?: string[];
  json?: boolean;
  dryRun?: boolean;
  in?: string;
  date?: string;
  forbidCall?: string[];
  forbidImport?: string[];
  forbid?: string[];
  require?: string[];
}

export function register(program: Command): void {
  program
    .command('new')
    .argument('<type>', 'artifact type (decision, spec, norm, task, principle, concept, policy, procedure, design, or one from config.yaml)')
    .argument('[title...]', 'its title, as --title gives it (git ctx new decision Use Postgres)')
    .description("Create an artifact file in its type's folder with the next free id, and print its path")
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .option('--id <id>', 'use this id instead of the next free one')
    .option('-t, --title <title>', 'title')
    .option('-s, --status <status>', "status (default: the type's initial status, e.g. proposed, draft, todo)")
    .option('-d, --domain <domain>', 'domain; also part of the id (--domain billing → DEC-BILLING-004)')
    .option('-l, --links <id...>', 'ids to link (grouped under links.specs, links.decisions, … by their type)')
    .option('--in <folder>', "where to write a decision: a records folder (a sources: entry of format adr, in its own style with its next number) or .contextia (a frontmatter record). Default: the team's ADR folder when its decisions are only there, else .contextia")
    .option('--date <YYYY-MM-DD>', 'date of the record (default: today, UTC)')
    .option('--forbid-call <callee...>', 'confirmation: code must not call this (Math.round, console.*); see docs/confirmations.md')
    .option('--forbid-import <module...>', 'confirmation: code must not import a module matching this glob (moment*)')
    .option('--forbid <regex...>', 'confirmation: no line of code may match this regular expression')
    .option('--require <regex...>', 'confirmation: every file it covers must match this regular expression')
    .option('--dry-run', 'print the file it would write and its text; write nothing')
    .option('--json', 'print {id, type, file} as JSON (with --dry-run also {dryRun: true, text})')
    .addHelpText('after', '\nExamples:\n  git ctx new decision --title "Use ECB rates" --domain billing --links SPEC-CURRENCY-001\n  git ctx new decision "Use ECB rates"   (the same title, without --title)\n  git ctx new task --title "Support refunds"\n  git ctx new decision --in docs/adr --title "Use Postgres" --date 2026-01-31\n  git ctx new decision --in .contextia --title "Use Postgres"   (a frontmatter record beside an ADR folder)\n  git ctx new decision --title "Use Postgres" --dry-run   (where it would go, and its text)\nExit codes: 0 created, 2 unknown type, invalid or existing id, or not a git repository.')
    .action(async (type: string, words: string[], o: NewCliOptions) => {
      // `git ctx new decision "Use Postgres"` is how people first type it: the words are the title
      if (words.length) {
        const typed = words.join(' ').trim();
        if (o.title !== undefined && o.title.trim() !== typed) throw new CtxError('USAGE', `two titles: ${JSON.stringify(typed)} and --title ${JSON.stringify(o.title)}`, { hint: 'give the title once' });
        o.title = typed;
      }
      if (o.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(o.date)) throw new CtxError('USAGE', `--date must be YYYY-MM-DD (got ${JSON.stringify(o.date)})`);
      const now = o.date ? new Date(`${o.date}T00:00:00Z`) : new Date();
      if (Number.isNaN(now.getTime())) throw new CtxError('USAGE', `--date ${o.date} is not a calendar date`);
      const confirm = confirmEntries({ forbidCall: o.forbidCall, forbidImport: o.forbidImport, forbid: o.forbid, require: o.require });
      const repo = await loadRepo({ root: o.root });
      try {
        // who created it and at which commit (DEC-054)
        const provenance = await manualProvenance(repo.snapshot.root);
        if (o.in !== undefined && type !== 'decision') throw new CtxError('USAGE', `--in writes decision records; got type ${type}`);
        const target = type === 'decision' ? decisionTarget(repo.set, o.in === undefined ? undefined : toRepoPath(repo.snapshot.root, o.in, repo.cwd)) : ({ kind: 'contextia' } as const);
        if (target.kind === 'adr') {
          // an ADR file's id is its number and it has no links slot: those ask for a frontmatter record
          const asked = o.in === undefined ? [o.id !== undefined && '--id', o.domain !== undefined && '--domain', o.links?.length && '--links'].filter(Boolean) : [];
          if (asked.length) throw new CtxError('USAGE', `this repository's decisions are records in ${target.dir}/, which take no ${asked.join(', ')}`, { hint: `write a ${repo.config.dir}/ record instead: --in ${repo.config.dir}` });
          const rec = await createRecord(repo.set, { dir: target.dir, title: o.title ?? '', status: o.status, date: now.toISOString().slice(0, 10), dryRun: o.dryRun, ...(confirm.length ? { content: { confirm } } : {}) });
          if (o.dryRun) return dryRun({ id: rec.id, type, file: rec.file, text: rec.text, style: rec.style, template: rec.template, guidance: rec.guidance }, o.json);
          // without a configuration file the team has not taken git-ctx up: no .contextia/ sidecar appears unasked
          if (!repo.config.noFile) await updateSidecarProvenance(repo.snapshot.root, repo.config.dir, new Map([[rec.id, { ...provenance, date: now.toISOString().slice(0, 10) }]]));
          if (o.json) io().out(JSON.stringify({ version: 1, id: rec.id, type, file: rec.file, style: rec.style, ...(rec.log ? { log: rec.log } : {}), ...(rec.guidance ? { guidance: rec.guidance } : {}) }, null, 2) + '\n');
          else {
            io().out(`${rec.file}\n`);
            io().err(`${colors().green('created')} ${rec.id} (${rec.style}${rec.template ? `, from ${rec.template}` : ''})${rec.log ? `; listed in ${rec.log}` : ''}\n`);
            if (rec.guidance) io().err(`${guidanceNote(rec.guidance)}\n`);
            io().err(`next: write its context and decision, then git ctx check and commit it; git ctx for <file> finds it by its words\n`);
          }
          return;
        }
        const r = await createArtifact(repo.set, { type, id: o.id, title: o.title, status: o.status, domain: o.domain, links: o.links, now, dryRun: o.dryRun, content: { provenance: { ...provenance }, ...(confirm.length ? { confirm: confirm as Record<string, string>[] } : {}) } });
        if (o.dryRun) return dryRun({ id: r.id, type: r.type, file: r.file, text: r.text }, o.json);
        if (o.json) io().out(JSON.stringify({ version: 1, id: r.id, type: r.type, file: r.file }, null, 2) + '\n');
        else {
          io().out(`${r.file}\n`);
          io().err(`${colors().green('created')} ${r.id}\n`);
          if (r.type === 'decision' || r.type === 'spec' || r.type === 'norm') io().err(`next: set status and summary, name the code it governs (paths: in its frontmatter, or @${r.type} ${r.id} in the code), then git ctx check\n`);
        }
      } finally {
        repo.close();
      }
    });
}

/** A dry run: the file that would be written and its text; nothing is written. */
function dryRun(r: { id: string; type: string; file: string; text: string; style?: string; template?: string; guidance?: string[] }, json: boolean | undefined): void {
  if (json) io().out(JSON.stringify({ version: 1, id: r.id, type: r.type, file: r.file, ...(r.style ? { style: r.style } : {}), ...(r.template ? { template: r.template } : {}), ...(r.guidance ? { guidance: r.guidance } : {}), dryRun: true, text: r.text }, null, 2) + '\n');
  else {
    io().err(`dry run: would create ${r.id} as ${r.file}${r.style ? ` (${r.style}${r.template ? `, from ${r.template}` : ''})` : ''}; nothing written\n`);
    io().out(r.text);
    if (r.guidance) io().err(`${guidanceNote(r.guidance)}\n`);
  }
}
