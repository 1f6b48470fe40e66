// `--help` / `-h` for every bench script: prints the script's leading comment (its usage, what
// it measures, how to read it) and exits 0 before the script does any work. Imported for its
// effect as the first import of a bench script; ES modules evaluate imports first, so no clone
// or build starts.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const script = process.argv[1];
if (script && (args.includes('--help') || args.includes('-h'))) {
  const lines = readFileSync(script, 'utf8').split('\n');
  const out = [];
  for (const line of lines.slice(lines[0]?.startsWith('#!') ? 1 : 0)) {
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/ ?/, ''));
  }
  process.stdout.write((out.length ? out.join('\n') : `${script}: no description`) + '\n');
  process.exit(0);
}
