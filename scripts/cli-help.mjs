// The CLI's own --help texts, as the man page (scripts/build-man.mjs) and the CLI reference
// (scripts/build-cli-docs.mjs) print them: one source of truth for what each command says
// about itself. Reads the built CLI in dist/ (`npm run build` first).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Help lines are wrapped at this width wherever they are printed from a build script. */
const HELP_WIDTH = 90;

/**
 * The command table and a function giving a command's full --help text (the after-help
 * examples included), without colour and at a fixed width, so the output is the same on
 * every machine.
 */
export async function loadHelp() {
  const { buildProgram } = await import(path.join(root, 'dist/cli/main.js'));
  const { setIo } = await import(path.join(root, 'dist/cli/shared.js'));
  const { VERSION } = await import(path.join(root, 'dist/version.js'));
  let captured = '';
  setIo({ out: (s) => (captured += s), err: () => {}, color: false });
  const program = await buildProgram();
  program.configureHelp({ helpWidth: HELP_WIDTH });
  /** @param {import('commander').Command} cmd */
  const helpOf = (cmd) => {
    captured = '';
    cmd.configureHelp({ helpWidth: HELP_WIDTH });
    cmd.outputHelp();
    return captured;
  };
  return { program, helpOf, version: VERSION };
}

/**
 * Every command below `cmd`, depth first, each with its full name (`git ctx hooks install`).
 * @returns {{ name: string, cmd: import('commander').Command }[]}
 */
export function commandsOf(cmd, prefix = 'git ctx') {
  const out = [];
  for (const sub of cmd.commands) {
    // a hidden command (a typo's pointer, like `hook install`) is in no reference
    if (sub._hidden) continue;
    const name = `${prefix} ${sub.name()}`;
    out.push({ name, cmd: sub }, ...commandsOf(sub, name));
  }
  return out;
}
