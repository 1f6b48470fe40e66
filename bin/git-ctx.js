#!/usr/bin/env node
// Piping into a reader that stops early (`git ctx list | head`) closes stdout: end quietly,
// as other Unix tools do, instead of printing a stack for EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e && e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

// `git ctx --version` alone needs no command table: answer before loading the CLI (DEC-025)
const only = process.argv.length === 3 ? process.argv[2] : undefined;
if (only === '--version' || only === '-V') {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/cli/main.js');
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
