import { describe, expect, it } from 'vitest';
import { buildCodeIndex, parseIds, tagRegex, type Annotation } from '../../src/code/index.js';
import { findTags } from '../../src/code/tags.js';
import { defaultConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo } from '../helpers/git-repo.js';
import { fixtureFiles } from './helpers.js';

async function indexOf(files: Record<string, string | Buffer>) {
  const repo = makeRepo(files);
  repo.commit('fixture');
  const snapshot = await openSnapshot({ cwd: repo.dir });
  const index = await buildCodeIndex(snapshot, defaultConfig(), { cache: false });
  return { repo, snapshot, index };
}

/** `file#symbol:ids` lines, easy to read in a failing assertion. */
const brief = (as: Annotation[]) => as.map((a) => `${a.file}${a.symbol ? `#${a.symbol}` : ''} @${a.tag} ${a.ids.join(',')}`);

describe('annotations in TypeScript', () => {
  it('resolves every declaration kind, JSDoc and line comments, several ids and tags', async () => {
    const { index, snapshot } = await indexOf(fixtureFiles('code-annotations'));
    try {
      const ann = brief(index.annotationsIn('src/billing/invoice.ts'));
      expect(ann).toEqual([
        'src/billing/invoice.ts @spec SPEC-BILLING-FILE',
        'src/billing/invoice.ts#Currency @decision DEC-CURRENCY-001',
        'src/billing/invoice.ts#LineItem @spec SPEC-LINE-ITEM',
        'src/billing/invoice.ts#Totals @spec SPEC-TOTALS,SPEC-ROUNDING',
        'src/billing/invoice.ts#VAT_RATE @norm NORM-CONST-001,NORM-CONST-002',
        'src/billing/invoice.ts#roundBankers @decision DEC-BILLING-001',
        'src/billing/invoice.ts#formatAmount @spec SPEC-FORMAT',
        'src/billing/invoice.ts#formatAmount @decision DEC-FORMAT-001',
        'src/billing/invoice.ts#billingApi @spec SPEC-API',
        'src/billing/invoice.ts#billingApi.total @spec SPEC-API-TOTAL',
        'src/billing/invoice.ts#InvoiceGenerator @spec SPEC-BILLING-001',
        'src/billing/invoice.ts#InvoiceGenerator.generate @spec SPEC-GENERATE',
        'src/billing/invoice.ts#InvoiceGenerator.generate @task TASK-042',
        'src/billing/invoice.ts#InvoiceGenerator.preview @decision DEC-AFTER-DECORATOR',
      ]);
      // the file header is a file anchor: it spans the whole file
      const header = index.annotationsIn('src/billing/invoice.ts')[0]!;
      expect(header).toMatchObject({ line: 3, startLine: 1 });
      expect(header.symbol).toBeUndefined();
      // overloads are one symbol, from the first signature to the implementation
      const symbols = await index.symbolsOf('src/billing/invoice.ts');
      const fmt = symbols.find((s) => s.name === 'formatAmount')!;
      expect(fmt).toMatchObject({ kind: "function", line: 36, endLine: 40, docLine: 32, exported: true });
      expect(symbols.filter((s) => s.name === 'formatAmount')).toHaveLength(1);
      // kinds
      const kinds = Object.fromEntries(symbols.map((s) => [s.name, s.kind]));
      expect(kinds).toMatchObject({
        Currency: 'enum',
        LineItem: 'interface',
        Totals: 'type',
        VAT_RATE: 'variable',
        roundBankers: 'function',
        billingApi: 'variable',
        'billingApi.total': 'method',
        'billingApi.count': 'method',
        InvoiceGenerator: 'class',
        'InvoiceGenerator.rate': 'property',
        'InvoiceGenerator.generate': 'method',
        'InvoiceGenerator.preview': 'method',
      });
      // a decorated class starts at its decorator
      expect(symbols.find((s) => s.name === 'InvoiceGenerator')).toMatchObject({ line: 52, docLine: 51 });
      // nothing inside strings, emails or @special(true) decorators
      expect(index.annotations.flatMap((a) => a.ids).filter((id) => id.startsWith('NOT'))).toEqual([]);
      expect(index.annotations.flatMap((a) => a.ids)).not.toContain('special');
    } finally {
      snapshot.close();
    }
  });

  it('handles default exports, decorated routes, and files without tags', async () => {
    const { index, snapshot } = await indexOf(fixtureFiles('code-annotations'));
    try {
      expect(brief(index.annotationsIn('src/billing/default-fn.ts'))).toEqual(['src/billing/default-fn.ts#default @spec SPEC-DEFAULT-FN']);
      expect(brief(index.annotationsIn('src/billing/default-class.ts'))).toEqual(['src/billing/default-class.ts#Ledger @spec SPEC-DEFAULT-CLASS']);
      expect((await index.symbolsOf('src/billing/default-class.ts'))[0]).toMatchObject({ name: 'Ledger', isDefault: true });
      // never parsed by the build (pre-filter), parsed on demand
      expect(index.file('src/billing/no-tags.ts')).toMatchObject({ candidate: false });
      expect((await index.symbolsOf('src/billing/no-tags.ts')).map((s) => s.name)).toEqual(['helper']);
      const routes = (await index.recordOf('src/billing/invoice.ts'))!.routes;
      expect(routes).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/invoices', symbol: 'InvoiceGenerator.generate' })]);
      // the innermost annotated symbol of a changed line, for PR comments
      const line = 64; // inside InvoiceGenerator.generate
      expect(index.annotatedSymbolsIn('src/billing/invoice.ts', line).map((a) => a.ids[0])).toEqual(['SPEC-GENERATE', 'TASK-042']);
      expect((await index.symbolAt('src/billing/invoice.ts', line))?.name).toBe('InvoiceGenerator.generate');
    } finally {
      snapshot.close();
    }
  });

  it('reports a syntax error as data and still indexes what the parser recovered', async () => {
    const broken = ['/** @spec SPEC-OK */', 'export function ok(): number {', '  return 1;', '}', '', 'export function broken( {', '  // @spec SPEC-BROKEN', ''].join('\n');
    const { index, snapshot } = await indexOf({ 'src/broken.ts': broken, 'src/fine.ts': '// @spec SPEC-FINE\nexport const x = 1;\n' });
    try {
      expect(index.problems).toEqual([expect.objectContaining({ file: 'src/broken.ts', kind: 'syntax-error' })]);
      expect(index.problems[0]!.line).toBeGreaterThan(0);
      expect(brief(index.annotationsIn('src/broken.ts'))[0]).toBe('src/broken.ts#ok @spec SPEC-OK');
      expect(index.annotationsOf('SPEC-BROKEN')).toHaveLength(1);
      expect(brief(index.annotationsIn('src/fine.ts'))).toEqual(['src/fine.ts#x @spec SPEC-FINE']);
    } finally {
      snapshot.close();
    }
  });

  it('skips binary and huge files and reports them', async () => {
    const big = '// @spec SPEC-BIG\n' + 'x'.repeat(2 * 1024 * 1024 + 10) + '\n';
    const bin = Buffer.concat([Buffer.from('// @spec SPEC-BIN\n'), Buffer.from([0, 1, 2, 0])]);
    const { index, snapshot } = await indexOf({ 'src/big.js': big, 'src/bin.ts': bin });
    try {
      expect(index.problems.map((p) => `${p.file}:${p.kind}`)).toEqual(['src/big.js:too-large', 'src/bin.ts:binary']);
      expect(index.annotations).toEqual([]);
    } finally {
      snapshot.close();
    }
  });
});

describe('annotations in other languages', () => {
  it('finds tags in comments only: Python, Go, SQL, shell, YAML', async () => {
    const { index, snapshot } = await indexOf(fixtureFiles('code-annotations'));
    try {
      const other = index.annotations.filter((a) => !/\.ts$/.test(a.file)).map((a) => `${a.file}:${a.line} ${a.ids.join(',')}`);
      expect(other).toEqual([
        'cmd/main.go:3 SPEC-GO-MAIN',
        'cmd/main.go:6 DEC-GO-BLOCK',
        'config/app.yaml:1 SPEC-YAML-CONFIG',
        'config/app.yaml:2 DEC-YAML-TRAILING',
        'db/schema.sql:1 SPEC-SQL-SCHEMA',
        'db/schema.sql:2 DEC-SQL-BLOCK',
        'deploy/run.sh:2 NORM-SHELL-001',
        'scripts/job.py:1 SPEC-PY-JOB',
        'scripts/job.py:4 DEC-PY-DOC',
        'scripts/job.py:9 NORM-PY-TRAILING',
      ]);
      // file + line anchors: the whole file is governed
      expect(index.annotationsIn('cmd/main.go')[0]).toMatchObject({ startLine: 1, endLine: 8 });
      expect(index.annotationsIn('cmd/main.go')[0]!.symbol).toBeUndefined();
    } finally {
      snapshot.close();
    }
  });
});

describe('annotations in Terraform and HCL', () => {
  it('finds tags in #, // and /* */ comments of .tf, .tfvars and .hcl files, never in a string', async () => {
    const { index, snapshot } = await indexOf({
      'infra/main.tf': '# @decision DEC-TF-HASH\nresource "aws_s3_bucket" "logs" {\n  bucket = "logs # @decision DEC-TF-STRING"\n  // @spec SPEC-TF-SLASH\n  /* @norm NORM-TF-BLOCK */\n}\n',
      'infra/prod.tfvars': 'region = "eu-west-1" # @decision DEC-TFVARS\n',
      'infra/terragrunt.hcl': '// @spec SPEC-HCL\ninputs = {}\n',
      // a heredoc is text (here a shell script): its `#` lines are no comments of the file; an unclosed one is code
      'infra/bastion.tf':
        'resource "aws_instance" "b" {\n  user_data = <<-EOT\n    #!/bin/bash\n    # @decision DEC-TF-HEREDOC\n    yum install -y agent\n    EOT\n  # @decision DEC-TF-AFTER\n  policy = <<EOF\n{"a": "# @decision DEC-TF-JSON"}\nEOF\n}\n# @spec SPEC-TF-END\n',
    });
    try {
      expect(index.annotations.map((a) => `${a.file}:${a.line} ${a.ids.join(',')}`)).toEqual([
        'infra/bastion.tf:7 DEC-TF-AFTER',
        'infra/bastion.tf:12 SPEC-TF-END',
        'infra/main.tf:1 DEC-TF-HASH',
        'infra/main.tf:4 SPEC-TF-SLASH',
        'infra/main.tf:5 NORM-TF-BLOCK',
        'infra/prod.tfvars:1 DEC-TFVARS',
        'infra/terragrunt.hcl:1 SPEC-HCL',
      ]);
    } finally {
      snapshot.close();
    }
  });
});

describe('tag and id parsing', () => {
  it('takes comma lists and id-shaped words, stops at prose', () => {
    expect(parseIds(' SPEC-A, SPEC-B')).toEqual(['SPEC-A', 'SPEC-B']);
    expect(parseIds(' SPEC-A SPEC-B keeps totals exact')).toEqual(['SPEC-A', 'SPEC-B']);
    expect(parseIds(' project/design/context-selection and more')).toEqual(['project/design/context-selection']);
    expect(parseIds(': DEC-BILLING-001.')).toEqual(['DEC-BILLING-001']);
    expect(parseIds(' DEC-1 */')).toEqual(['DEC-1']);
    // prose after a tag is not an id: ids carry a prefix, a path or a number
    expect(parseIds(' in the docs')).toEqual([]);
  });

  it('ignores tags quoted in inline code spans (examples in prose), keeps real ones on the same line', () => {
    const re = tagRegex(['spec']);
    expect(findTags('/** Matches `@spec SPEC-A` and `@spec: SPEC-B`. */', re)).toEqual([]);
    expect(findTags('// `code` then @spec SPEC-REAL', re).map((t) => t.ids)).toEqual([['SPEC-REAL']]);
    expect(findTags('// see `foo @spec SPEC-X\n// @spec SPEC-Y', re).map((t) => t.ids)).toEqual([['SPEC-Y']]);
  });

  it('honours config.tags', async () => {
    const repo = makeRepo({ 'a.ts': '// @adr ADR-7\nexport const a = 1;\n// @spec SPEC-X\nexport const b = 2;\n' });
    repo.commit('x');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const config = { ...defaultConfig(), tags: ['adr'] };
      const index = await buildCodeIndex(snapshot, config, { cache: false });
      expect(brief(index.annotations)).toEqual(['a.ts#a @adr ADR-7']);
    } finally {
      snapshot.close();
    }
  });
});
