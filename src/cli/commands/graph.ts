import type { Command } from '../commander.js';
import { annotationId } from '../../artifacts/lookup.js';
import { buildCodeIndex } from '../../code/code-index.js';
import { codeGraph, type CodeGraph } from '../../code/graph/walk.js';
import { parseTraceTarget } from '../../retrieve/trace.js';
import { CtxError } from '../../errors.js';
import { addRepoOptions, colors, formatOption, io, loadRepo, parsePositiveInt, type RepoOptions } from '../shared.js';

interface GraphCommandOptions extends RepoOptions {
  callers?: boolean;
  callees?: boolean;
  depth: number;
  format: 'human' | 'json';
  json?: boolean;
}

const RENDERERS: Record<'human' | 'json', (g: CodeGraph) => string> = {
  json: (g) => JSON.stringify({ version: 1, ...g }, null, 2) + '\n',
  human: (g) => {
    const p = colors();
    const byId = new Map(g.nodes.map((n) => [n.id, n]));
    const gov = (id: string) => {
      const ids = byId.get(id)?.governedBy ?? [];
      return ids.length ? p.dim(`  [${ids.join(', ')}]`) : '';
    };
    const lines = [`${p.bold(g.root)}${gov(g.root)}`];
    const callers = g.nodes.filter((n) => n.distance < 0);
    const callees = g.nodes.filter((n) => n.distance > 0);
    const section = (title: string, list: typeof g.nodes, edgeOf: (id: string) => string[]) => {
      lines.push(p.bold(title));
      if (!list.length) lines.push(p.dim('  (none found)'));
      for (const n of list) lines.push(`  ${String(Math.abs(n.distance)).padStart(2)}  ${n.id}${gov(n.id)}  ${p.dim(edgeOf(n.id).join(', '))}`);
    };
    if (callers.length || g.edges.some((e) => e.to === g.root)) section('callers', callers, (id) => g.edges.filter((e) => e.from === id).map((e) => `${e.file}:${e.line}`));
    if (callees.length || g.edges.some((e) => e.from === g.root)) section('callees', callees, (id) => g.edges.filter((e) => e.to === id).map((e) => `${e.file}:${e.line}`));
    // a class only subclassed (an abstract base) or a name only imported has no call edges:
    // say so rather than print the symbol alone, which reads like a crash
    if (lines.length === 1) lines.push(p.dim('no callers or callees found (the graph follows calls: a subclass, an import or a type annotation is not one)'));
    if (g.loadedFiles) lines.push(p.dim(`${g.loadedFiles} file(s) loaded into the type checker`));
    return lines.join('\n') + '\n';
  },
};

export function register(program: Command): void {
  const cmd = program
    .command('graph')
    .argument('<symbol>', 'path#Symbol.name (path relative to the current directory)')
    .description('Callers and callees of a symbol (TypeScript/JavaScript, Python, Go, Java, Ruby, Rust), with the artifacts governing each')
    .option('--callers', 'only callers')
    .option('--callees', 'only callees')
    .option('-d, --depth <n>', 'levels to follow', parsePositiveInt('--depth'), 1)
    .addOption(formatOption(['human', 'json'], 'human'))
    .option('--json', 'shorthand for --format json')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        "  git ctx graph 'src/billing/invoice.ts#InvoiceGenerator.generate' --callers --depth 2",
        "  git ctx graph 'app/orders/service.py#OrderService.place' --callees --json",
        "  git ctx graph 'internal/orders/service.go#Service.Place'",
        "  git ctx graph 'app/services/orders/place.rb#Orders::Place#call'",
        "  git ctx graph 'rpc/src/client.rs#HttpClient.perform' --callers",
        '',
        'TypeScript/JavaScript goes through the type checker; Python, Go, Java, Ruby and Rust through the code',
        'graph index (tree-sitter), cached under .git/ctx/cache.',
      ].join('\n'),
    );
  addRepoOptions(cmd).action(async (place: string, o: GraphCommandOptions) => {
    const repo = await loadRepo(o);
    try {
      const target = parseTraceTarget(place, repo.snapshot.root, repo.cwd);
      if (!target.symbol) throw new CtxError('USAGE', `graph needs a symbol: path#Symbol.name (got ${place})`);
      const index = await buildCodeIndex(repo.snapshot, repo.config);
      const both = !o.callers && !o.callees;
      const graph = await codeGraph({ index, path: target.path, symbol: target.symbol, callers: both || !!o.callers, callees: both || !!o.callees, depth: o.depth, idOf: (w) => annotationId(repo.set, w) });
      await index.flush();
      io().out(RENDERERS[o.json ? 'json' : o.format](graph));
    } finally {
      repo.close();
    }
  });
}
