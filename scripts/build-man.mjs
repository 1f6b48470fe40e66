// Generate man/man1/git-ctx.1 from the CLI's own --help texts, so `git ctx --help` (which
// git turns into `man git-ctx`) shows the same thing as `git-ctx <command> --help`.
// Runs in `npm run build`, after tsc.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commandsOf, loadHelp, root } from './cli-help.mjs';

const { program, helpOf, version: VERSION } = await loadHelp();

/** roff-safe verbatim text: backslashes doubled, control characters at line start escaped. */
function verbatim(text) {
  return text
    .replace(/\\/g, '\\e')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

function sections(cmd) {
  const out = [];
  for (const { name, cmd: sub } of commandsOf(cmd)) {
    out.push(`.SS "${name}"`, '.nf', verbatim(helpOf(sub).trimEnd()), '.fi', '');
  }
  return out;
}

const page = [
  `.TH GIT-CTX 1 "" "git-ctx ${VERSION}" "Git Manual"`,
  '.SH NAME',
  'git-ctx \\- Git-native project context for coding agents and reviewers',
  '.SH SYNOPSIS',
  '.B git ctx',
  '.I command',
  '[\\fIoptions\\fR]',
  '.br',
  '.B git ctx',
  '.I TASK-ID',
  '.SH DESCRIPTION',
  'git-ctx keeps decisions, specs, norms and tasks as Markdown files with YAML frontmatter in',
  '.I .contextia/',
  'and gives coding agents and reviewers the ones that govern the code they touch.',
  'Every command also prints its own help with',
  '.BR "git-ctx <command> --help" .',
  '.SH OVERVIEW',
  '.nf',
  verbatim(helpOf(program).trimEnd()),
  '.fi',
  '.SH COMMANDS',
  ...sections(program),
  '.SH EXIT STATUS',
  '0 success, 1 findings (or action needed), 2 usage or environment error.',
  '.SH SEE ALSO',
  '.BR git (1),',
  '.BR githooks (5)',
  '',
].join('\n');

mkdirSync(path.join(root, 'man/man1'), { recursive: true });
writeFileSync(path.join(root, 'man/man1/git-ctx.1'), page);
