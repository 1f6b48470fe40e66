import type { Command } from '../commander.js';
import { createArtifact } from '../../init/new-artifact.js';
import { colors, io, loadRepo } from '../shared.js';

interface NewCliOptions {
  root?: string;
  id?: string;
  title?: string;
  status?: string;
  domain?: string;
  links?: string[];
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('new')
    .argument('<type>', 'artifact type (decision, spec, norm, task, principle, concept, policy, procedure, design, or one from config.yaml)')
    .description("Create an artifact file in its type's folder with the next free id, and print its path")
    .option('-C, --root <dir>', 'repository to work on (default: the current directory)')
    .option('--id <id>', 'use this id instead of the next free one')
    .option('-t, --title <title>', 'title')
    .option('-s, --status <status>', "status (default: the type's initial status, e.g. proposed, draft, todo)")
    .option('-d, --domain <domain>', 'domain; also part of the id (--domain billing → DEC-BILLING-004)')
    .option('-l, --links <id...>', 'ids to link (grouped under links.specs, links.decisions, … by their type)')
    .option('--json', 'print {id, type, file} as JSON')
    .addHelpText('after', '\nExamples:\n  git ctx new decision --title "Use ECB rates" --domain billing --links SPEC-CURRENCY-001\n  git ctx new task --title "Support refunds"\nExit codes: 0 created, 2 unknown type, invalid or existing id, or not a git repository.')
    .action(async (type: string, o: NewCliOptions) => {
      const repo = await loadRepo({ root: o.root });
      try {
        const r = await createArtifact(repo.set, { type, id: o.id, title: o.title, status: o.status, domain: o.domain, links: o.links });
        if (o.json) io().out(JSON.stringify({ version: 1, id: r.id, type: r.type, file: r.file }, null, 2) + '\n');
        else {
          io().out(`${r.file}\n`);
          io().err(`${colors().green('created')} ${r.id}\n`);
        }
      } finally {
        repo.close();
      }
    });
}
