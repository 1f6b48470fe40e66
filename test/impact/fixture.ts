// Fixture repository of the impact tests (library, CLI, MCP).

export const rec = (id: string, type: string, fm: string, body = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\n${fm}---\n\n# ${id}\n\n${body}\n`;

/** Invoices round through a money helper; an API handler calls the invoice code. */
export const IMPACT_FILES: Record<string, string> = {
  'src/util/money.ts': 'export function round(n: number) {\n  return Math.round(n);\n}\n',
  'src/billing/invoice.ts': [
    "import { round } from '../util/money';",
    '',
    '// @decision DEC-ROUND',
    'export function total(lines: number[]) {',
    '  return round(lines.reduce((a, b) => a + b, 0));',
    '}',
    '',
  ].join('\n'),
  'src/api/handler.ts': "import { total } from '../billing/invoice';\n\nexport function handle() {\n  return total([1, 2]);\n}\n",
  'src/api/generated/client.ts': 'export const client = 1;\n',
  '.contextia/system/rationale/DEC-MONEY.md': rec('DEC-MONEY', 'decision', 'status: accepted\nanchors: ["src/util/money.ts#round"]\n', 'Money is rounded in one place.'),
  '.contextia/system/rationale/DEC-ROUND.md': rec('DEC-ROUND', 'decision', 'status: accepted\nrequires: [DEC-MONEY]\n', 'Invoice totals round once.'),
  '.contextia/system/rationale/DEC-CONFLICT.md': rec('DEC-CONFLICT', 'decision', 'status: proposed\nrelations:\n  conflicts_with: [DEC-MONEY]\n', 'Round each line instead.'),
  '.contextia/system/rationale/DEC-OLD.md': rec('DEC-OLD', 'decision', 'status: superseded\n', 'Totals were floats.'),
  '.contextia/system/rationale/DEC-NEW.md': rec('DEC-NEW', 'decision', 'status: accepted\nrelations:\n  supersedes: [DEC-OLD]\n', 'Totals are cents.'),
  '.contextia/system/specs/SPEC-API.md': rec('SPEC-API', 'spec', 'status: active\npaths: [src/api/**, "!src/api/generated/**"]\n', 'The HTTP API.'),
  '.contextia/config.yaml': 'sources: [docs/adr/]\n',
  'docs/adr/0001-use-cents.md': '# 1. Use cents\n\n## Status\n\nAccepted\n\n## Context\n\nThe helper in `src/util/money.ts` does the rounding.\n',
};
