import { describe, expect, it } from 'vitest';
import { declarationsOf } from '../../src/code/declarations.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { decision, judgeOne } from '../staleness/helpers.js';

/* Declarations of Python, Go, Java and Ruby files: what anchors, trace and the staleness judge read. */

const PY = `import math


class Payment:
    """A payment of an order."""

    # refunds go back to the card they came from
    @retry(times=3)
    def refund(self, amount):
        """Refund part of a payment."""
        cents = math.floor(amount * 100)
        return cents / 100

    def _audit(self):
        pass


def settle(batch):
    return [p for p in batch]
`;

const fp = (syms: { name: string; fingerprint: string }[] | undefined, name: string) => syms?.find((s) => s.name === name)?.fingerprint;

describe('declarations of files the TypeScript compiler does not read', () => {
  it('Python: qualified names, spans with attached comments and decorators, exported by convention', async () => {
    const syms = await declarationsOf('app/pay.py', PY);
    expect(syms?.map((s) => [s.name, s.kind, s.exported, s.parent])).toEqual([
      ['Payment', 'class', true, undefined],
      ['Payment.refund', 'method', true, 'Payment'],
      ['Payment._audit', 'method', false, 'Payment'],
      ['settle', 'function', true, undefined],
    ]);
    const refund = syms!.find((s) => s.name === 'Payment.refund')!;
    expect([refund.docLine, refund.line, refund.endLine]).toEqual([7, 8, 12]);
  });

  it('the fingerprint ignores spacing, comments, docstrings and the name; it changes with the code', async () => {
    const base = await declarationsOf('app/pay.py', PY);
    const reformatted = await declarationsOf('app/pay.py', PY.replace('cents = math.floor(amount * 100)', 'cents = math.floor( amount  *  100 )  # to cents').replace('"""Refund part of a payment."""', '"""Give money back."""'));
    expect(fp(reformatted, 'Payment.refund')).toBe(fp(base, 'Payment.refund'));
    const renamed = await declarationsOf('app/pay.py', PY.replace('def refund(', 'def give_back('));
    expect(fp(renamed, 'Payment.give_back')).toBe(fp(base, 'Payment.refund'));
    const changed = await declarationsOf('app/pay.py', PY.replace('math.floor', 'round'));
    expect(fp(changed, 'Payment.refund')).not.toBe(fp(base, 'Payment.refund'));
    // the other declarations are untouched by a change inside one
    expect(fp(changed, 'settle')).toBe(fp(base, 'settle'));
  });

  it('Go, Java and Ruby; other languages have none here', async () => {
    const go = await declarationsOf('pay/pay.go', 'package pay\n\n// Refund gives money back.\nfunc (p *Payment) Refund(a int) int {\n\treturn a\n}\n\nfunc helper() {}\n');
    expect(go?.map((s) => [s.name, s.exported, s.docLine])).toEqual([
      ['Payment.Refund', true, 3],
      ['helper', false, 8],
    ]);
    const java = await declarationsOf('src/Pay.java', 'public class Pay {\n  /** Refund. */\n  public int refund(int a) { return a; }\n  private void log() {}\n}\n');
    expect(java?.map((s) => [s.name, s.exported])).toEqual([
      ['Pay', true],
      ['Pay.refund', true],
      ['Pay.log', false],
    ]);
    const rb = await declarationsOf('app/pay.rb', 'class Payment\n  def refund(amount)\n    amount\n  end\nend\n');
    expect(rb?.map((s) => s.name)).toEqual(['Payment', 'Payment.refund']);
    expect(await declarationsOf('app/Pay.kt', 'class Pay\n')).toBeUndefined();
  });

  it('C# and Rust: types and members, a namespace not in the name, impl blocks under their type', async () => {
    const cs = await declarationsOf(
      'src/Api/ForecastController.cs',
      'namespace Carbon.Api;\n\npublic class ForecastController\n{\n    /// <summary>Batch forecasts.</summary>\n    [HttpPost("batch")]\n    public async Task<IActionResult> BatchAsync(int n)\n    {\n        return Ok(n);\n    }\n\n    private int Count { get; set; }\n}\n',
    );
    expect(cs?.map((s) => [s.name, s.kind, s.exported, s.docLine, s.line])).toEqual([
      ['ForecastController', 'class', true, 3, 3],
      ['ForecastController.BatchAsync', 'method', true, 5, 6],
      ['ForecastController.Count', 'method', false, 12, 12],
    ]);
    const rs = await declarationsOf('src/pay.rs', 'pub struct Payment { cents: u64 }\n\nimpl<T> Refund for Payment {\n    /// Give it back.\n    pub fn refund(&self) -> u64 { self.cents }\n}\n\nfn helper() {}\n');
    expect(rs?.map((s) => [s.name, s.kind, s.exported])).toEqual([
      ['Payment', 'class', true],
      ['Payment.refund', 'method', true],
      ['helper', 'function', false],
    ]);
  });

  it('Rust: constants, statics, type aliases and macros, exported by `pub` or `#[macro_export]`', async () => {
    const rs = await declarationsOf(
      'p2p/src/peer.rs',
      [
        '//! Peers and their limits.',
        '',
        '/// At most this many peers at once.',
        'pub const MAX_PEERS: usize = 50;',
        'static GREETING: &str = "hi";',
        'pub type Result<T> = core::result::Result<T, Error>;',
        '',
        '#[macro_export]',
        'macro_rules! bail {',
        '    ($e:expr) => { return Err($e.into()) };',
        '}',
        '',
        'macro_rules! local_only { () => {}; }',
        '',
        'pub struct Peer;',
        'impl Peer {',
        '    pub const TIMEOUT_SECS: u64 = 30;',
        '}',
        '',
      ].join('\n'),
    );
    expect(rs?.map((s) => [s.name, s.kind, s.exported, s.docLine, s.line])).toEqual([
      ['MAX_PEERS', 'variable', true, 3, 4],
      ['GREETING', 'variable', false, 5, 5],
      ['Result', 'type', true, 6, 6],
      ['bail', 'type', true, 8, 9],
      ['local_only', 'type', false, 13, 13],
      ['Peer', 'class', true, 15, 15],
      ['Peer.TIMEOUT_SECS', 'variable', true, 17, 17],
    ]);
  });
});

describe('anchors on Python symbols', () => {
  const DEC = '.contextia/system/rationale/DEC-REFUND-001.md';
  const repoWith = (anchor: string) => {
    const repo = makeRepo();
    repo.commit('code', { 'app/pay.py': PY, [DEC]: decision('DEC-REFUND-001', `anchors:\n  - ${anchor}\n`) });
    return repo;
  };

  it('trace and for take a symbol as a person shortens it (a C# method without its class)', () => {
    const repo = makeRepo();
    repo.commit('code', {
      'src/Api/ForecastController.cs': 'namespace Carbon.Api;\n\npublic class ForecastController\n{\n    // batches are capped at 100 locations\n    public int BatchAsync(int n)\n    {\n        return Math.Min(n, 100);\n    }\n}\n',
      [DEC]: decision('DEC-REFUND-001', 'anchors:\n  - src/Api/ForecastController.cs#ForecastController.BatchAsync\n'),
    });
    const trace = runCli(['trace', 'src/Api/ForecastController.cs#BatchAsync', '--json'], { cwd: repo.dir });
    expect(trace.code, trace.stderr).toBe(0);
    expect((JSON.parse(trace.stdout) as { entries: { id: string }[] }).entries.map((e) => e.id)).toContain('DEC-REFUND-001');
    const forJson = JSON.parse(runCli(['for', 'src/Api/ForecastController.cs#BatchAsync', '--json'], { cwd: repo.dir }).stdout) as { results: { id: string }[] };
    expect(forJson.results.map((r) => r.id)).toContain('DEC-REFUND-001');
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('check knows them; trace and for find the record on the symbol', () => {
    const repo = repoWith('app/pay.py#Payment.refund');
    const check = runCli(['check', '--json'], { cwd: repo.dir });
    expect(check.code, check.stdout).toBe(0);
    expect((JSON.parse(check.stdout) as { findings: { rule: string }[] }).findings.filter((f) => f.rule === 'dead-anchor')).toEqual([]);
    const trace = JSON.parse(runCli(['trace', 'app/pay.py#Payment.refund', '--json'], { cwd: repo.dir }).stdout) as { entries: { id: string }[] };
    expect(trace.entries.map((e) => e.id)).toContain('DEC-REFUND-001');
    const forSettle = JSON.parse(runCli(['trace', 'app/pay.py#settle', '--json'], { cwd: repo.dir }).stdout) as { entries: { id: string; matches?: { level: string }[] }[] };
    expect(forSettle.entries.filter((e) => e.id === 'DEC-REFUND-001' && e.matches?.some((m) => m.level === 'symbol'))).toEqual([]);
    const dead = repoWith('app/pay.py#Payment.nope');
    const bad = JSON.parse(runCli(['check', '--json'], { cwd: dead.dir }).stdout) as { findings: { rule: string; message: string }[] };
    expect(bad.findings.filter((f) => f.rule === 'dead-anchor').map((f) => f.message).join('\n')).toContain('Payment.nope');
  });

  it('a stamped anchor drifts when the method changes, not when it is reformatted or re-documented', async () => {
    const repo = repoWith('app/pay.py#Payment.refund');
    expect(runCli(['stamp', 'DEC-REFUND-001'], { cwd: repo.dir }).code).toBe(0);
    repo.commit('stamp');
    repo.commit('reformat', { 'app/pay.py': PY.replace('cents = math.floor(amount * 100)', 'cents = math.floor(amount*100)  # cents').replace('"""Refund part of a payment."""', '"""Refund some of it."""') });
    expect((await judgeOne(repo.dir, 'DEC-REFUND-001')).status).toBe('fresh');
    repo.commit('change', { 'app/pay.py': PY.replace('math.floor', 'round') });
    expect((await judgeOne(repo.dir, 'DEC-REFUND-001')).status).toBe('stale');
    const stale = runCli(['stale'], { cwd: repo.dir });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('DEC-REFUND-001');
  });
});
