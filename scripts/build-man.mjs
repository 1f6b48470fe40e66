// Generate man/man1/git-ctx.1 from the CLI's own --help texts, so `git ctx --help` (which
// git turns into `man git-ctx`) shows the same thing as `git-ctx <command> --help`.
// Runs after tsc in `npm run build` (and so in `prepare`, hence in every packed tarball).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { buildProgram } = await import(path.join(root, 'dist/cli/main.js'));
const { setIo } = await import(path.join(root, 'dist/cli/shared.js'));
const { VERSION } = await import(path.join(root, 'dist/version.js'));

let captured = '';
setIo({ out: (s) => (captured += s), err: () => {}, color: false });
const program = await buildProgram();
program.configureHelp({ helpWidth: 90 });

/** The full --help text of a command, the after-help examples included. */
function helpOf(cmd) {
  captured = '';
  cmd.configureHelp({ helpWidth: 90 });
  cmd.outputHelp();
  return captured;
}

/** roff-safe verbatim text: backslashes doubled, control characters at line start escaped. */
function verbatim(text) {
  return text
    .replace(/\\/g, '\\e')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

function sections(cmd, prefix) {
  const out = [];
  for (const sub of cmd.commands) {
    const name = `${prefix} ${sub.name()}`;
    out.push(`.SS "${name}"`, '.nf', verbatim(helpOf(sub).trimEnd()), '.fi', '');
    out.push(...sections(sub, name));
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
  ...sections(program, 'git ctx'),
  '.SH EXIT STATUS',
  '0 success, 1 findings (or action needed), 2 usage or environment error.',
  '.SH SEE ALSO',
  '.BR git (1),',
  '.BR githooks (5)',
  '',
].join('\n');

mkdirSync(path.join(root, 'man/man1'), { recursive: true });
writeFileSync(path.join(root, 'man/man1/git-ctx.1'), page);
