import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { buildCodeIndex } from '../../src/code/index.js';
import { openCodeNeighbours } from '../../src/code/graph/index.js';
import { codeGraph } from '../../src/code/graph/walk.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

/** A small Rails-shaped application: no `require` between app files (autoloading), a service under a module, a gem-like client in lib/. */
const RAILS_APP: Record<string, string> = {
  'app/services/application_service.rb': ['# frozen_string_literal: true', '', 'class ApplicationService', '  def self.call(...)', '    new(...).call', '  end', 'end', ''].join('\n'),
  'app/services/billing/refund_service.rb': [
    '# frozen_string_literal: true',
    '',
    'module Billing',
    '  class RefundService < ApplicationService',
    '    def initialize(payment)',
    '      @payment = payment',
    '    end',
    '',
    '    def call',
    '      Gateway::Client.refund(@payment.amount, key: idempotency_key)',
    '      AuditLog.record(:refund, @payment)',
    '    end',
    '',
    '  private',
    '',
    '    # a retried refund must not pay twice: the transaction id is the idempotency key',
    '    def idempotency_key',
    '      @payment.transaction_id',
    '    end',
    '  end',
    'end',
    '',
  ].join('\n'),
  'app/models/audit_log.rb': ['class AuditLog < ApplicationRecord', '  def self.record(event, subject)', '    create!(event: event, subject: subject)', '  end', 'end', ''].join('\n'),
  'app/controllers/refunds_controller.rb': [
    'class RefundsController < ApplicationController',
    '  def create',
    '    payment = Payment.find(params[:payment_id])',
    '    Billing::RefundService.new(payment).call',
    '    redirect_to payment_path(payment)',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/gateway/client.rb': [
    'require "net/http"',
    'require_relative "errors"',
    '',
    'module Gateway',
    '  class Client',
    '    def self.refund(amount, key:)',
    '      post("/refunds", amount: amount, idempotency_key: key)',
    '    end',
    '',
    '    class << self',
    '      def post(path, body)',
    '        Net::HTTP.post(URI(path), body.to_json)',
    '      end',
    '    end',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/gateway/errors.rb': ['module Gateway', '  class TimeoutError < StandardError; end', 'end', ''].join('\n'),
  'lib/tasks/refunds.rake': ['require "gateway/client"', '', 'namespace :refunds do', '  task retry: :environment do', '    Gateway::Client.refund(0, key: "probe")', '  end', 'end', ''].join('\n'),
};

const sites = (list: { path: string; symbol: string; line: number }[]) => list.map((s) => `${s.path}#${s.symbol}:${s.line}`);

describe('code graph: Ruby', () => {
  it('declares modules, classes and methods by nesting, and links calls by constant across autoloaded files', async () => {
    const repo = makeRepo(RAILS_APP);
    repo.commit('init');
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      const g = await openCodeNeighbours(snap, { cache: false });
      expect(g.languages).toContain('ruby');
      expect(await g.declarations('app/services/billing/refund_service.rb')).toEqual([
        ['Billing', 3, 21],
        ['Billing.RefundService', 4, 20],
        ['Billing.RefundService.initialize', 5, 7],
        ['Billing.RefundService.call', 9, 12],
        ['Billing.RefundService.idempotency_key', 17, 19],
      ]);
      // `def self.x` and the methods of `class << self` are the class's own
      expect((await g.declarations('lib/gateway/client.rb')).map((d) => d[0])).toEqual(['Gateway', 'Gateway.Client', 'Gateway.Client.refund', 'Gateway.Client.post']);
      // require_relative by path, require by a file ending in the path; constants a file calls are files it uses
      expect(await g.imports('lib/gateway/client.rb')).toEqual(['lib/gateway/errors.rb']);
      expect(await g.imports('lib/tasks/refunds.rake')).toEqual(['lib/gateway/client.rb']);
      expect(await g.imports('app/services/billing/refund_service.rb')).toEqual(['app/models/audit_log.rb', 'lib/gateway/client.rb']);
      expect(sites(await g.callers('lib/gateway/client.rb', 'Gateway.Client.refund'))).toEqual([
        'app/services/billing/refund_service.rb#Billing.RefundService.call:10',
        'lib/tasks/refunds.rake#<module>:5',
      ]);
      // a bare call inside a class is a call on self; `Foo.new` runs Foo#initialize
      expect(sites(await g.callees('app/services/billing/refund_service.rb', 'Billing.RefundService.call'))).toEqual([
        'app/models/audit_log.rb#AuditLog.record:11',
        'app/services/billing/refund_service.rb#Billing.RefundService.idempotency_key:10',
        'lib/gateway/client.rb#Gateway.Client.refund:10',
      ]);
      expect(sites(await g.callers('app/services/billing/refund_service.rb', 'Billing.RefundService.initialize'))).toEqual(['app/controllers/refunds_controller.rb#RefundsController.create:4']);
      expect(await g.symbolAt('app/services/billing/refund_service.rb', 18)).toBe('Billing.RefundService.idempotency_key');
    } finally {
      snap.close();
    }
  });

  it('`git ctx graph` takes a symbol as Ruby writes it: Module::Class#method', async () => {
    const repo = makeRepo(RAILS_APP);
    repo.commit('init');
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      const index = await buildCodeIndex(snap, await loadConfig(snap));
      const graph = await codeGraph({ index, path: 'lib/gateway/client.rb', symbol: 'Gateway::Client.refund', callers: true, callees: false });
      expect(graph.root).toBe('lib/gateway/client.rb#Gateway.Client.refund');
      expect(graph.nodes.map((n) => n.id).sort()).toEqual(['app/services/billing/refund_service.rb#Billing.RefundService.call', 'lib/gateway/client.rb#Gateway.Client.refund', 'lib/tasks/refunds.rake#<module>']);
    } finally {
      snap.close();
    }
  });
});

const rec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n\n# ${title}\n\n${body}\n`;

const symbolOf = (r: Awaited<ReturnType<typeof retrieveForPlace>>) => (r.query.kind === 'place' ? r.query.symbol : undefined);

describe('retrieval at a Ruby, Python, Go or Java symbol', () => {
  const records = {
    '.contextia/system/rationale/DEC-IDEM.md': rec('DEC-IDEM', 'Refunds are idempotent', '## Decision\n\nA refund sends the payment transaction id as its idempotency key, so a retried refund never pays twice.'),
    '.contextia/system/rationale/DEC-AUDIT.md': rec('DEC-AUDIT', 'Every money movement is audited', '## Decision\n\nEach refund and charge writes an audit log record with the event and its subject.'),
    '.contextia/system/rationale/DEC-THIN.md': rec('DEC-THIN', 'Thin controllers', '## Decision\n\nControllers only find a record, hand the change on and redirect; business logic lives outside controllers.'),
  };
  const others = {
    'src/limits/bucket.py': 'import time\n\n\ndef throttle(sender):\n    """Token bucket per webhook sender."""\n    return time.monotonic()\n\n\nclass Refunds:\n    def idempotency_key(self, payment):\n        return payment.transaction_id\n',
    'internal/refunds/service.go': 'package refunds\n\ntype Service struct{}\n\n// IdempotencyKey reuses the transaction id so a retried refund never pays twice\nfunc (s *Service) IdempotencyKey(transactionID string) string {\n\treturn transactionID\n}\n',
    'src/main/java/shop/Audit.java': 'package shop;\n\npublic class Audit {\n  public void record(String event, Object subject) {\n    // audit log record of each refund\n  }\n}\n',
  };

  async function open() {
    const repo = makeRepo({ ...RAILS_APP, ...others, ...records });
    repo.commit('init');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
    return { snapshot, set };
  }

  it('`for path#Module::Class#method` focuses on that method: its record first', async () => {
    const { snapshot, set } = await open();
    try {
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'app/services/billing/refund_service.rb', symbol: 'Billing::RefundService#idempotency_key' } });
      expect(symbolOf(r)).toBe('Billing.RefundService.idempotency_key');
      expect(r.results[0]?.id).toBe('DEC-IDEM');
      // the same method by its short name, and the class by its own name
      const short = await retrieveForPlace({ snapshot, set, target: { path: 'app/services/billing/refund_service.rb', symbol: 'idempotency_key' } });
      expect(symbolOf(short)).toBe('Billing.RefundService.idempotency_key');
      const cls = await retrieveForPlace({ snapshot, set, target: { path: 'app/services/billing/refund_service.rb', symbol: 'RefundService' } });
      expect(symbolOf(cls)).toBe('Billing.RefundService');
      const classMethod = await retrieveForPlace({ snapshot, set, target: { path: 'app/models/audit_log.rb', symbol: 'AuditLog.record' } });
      expect(classMethod.results[0]?.id).toBe('DEC-AUDIT');
    } finally {
      snapshot.close();
    }
  });

  it('`for path:line` inside a Ruby or Python method reads that method, not the whole file', async () => {
    const { snapshot, set } = await open();
    try {
      const atLine = await retrieveForPlace({ snapshot, set, target: { path: 'app/services/billing/refund_service.rb', line: 18 } });
      expect(symbolOf(atLine)).toBe('Billing.RefundService.idempotency_key');
      expect(atLine.results[0]?.id).toBe('DEC-IDEM');
      // the whole file also calls the audit log: the method alone does not say "audit"
      const words = (r: typeof atLine) => r.results.flatMap((x) => x.why.flatMap((w) => w.terms ?? []));
      expect(words(atLine)).not.toContain('audit');
      const whole = await retrieveForPlace({ snapshot, set, target: { path: 'app/services/billing/refund_service.rb' } });
      expect(words(whole)).toContain('audit');
      const py = await retrieveForPlace({ snapshot, set, target: { path: 'src/limits/bucket.py', line: 11 } });
      expect(symbolOf(py)).toBe('Refunds.idempotency_key');
      expect(py.results[0]?.id).toBe('DEC-IDEM');
    } finally {
      snapshot.close();
    }
  });

  it('symbols of the other tree-sitter languages: Python, Go and Java', async () => {
    const { snapshot, set } = await open();
    try {
      const go = await retrieveForPlace({ snapshot, set, target: { path: 'internal/refunds/service.go', symbol: 'Service.IdempotencyKey' } });
      expect(symbolOf(go)).toBe('Service.IdempotencyKey');
      expect(go.results[0]?.id).toBe('DEC-IDEM');
      const java = await retrieveForPlace({ snapshot, set, target: { path: 'src/main/java/shop/Audit.java', symbol: 'Audit#record' } });
      expect(symbolOf(java)).toBe('Audit.record');
      expect(java.results[0]?.id).toBe('DEC-AUDIT');
      const py = await retrieveForPlace({ snapshot, set, target: { path: 'src/limits/bucket.py', symbol: 'throttle' } });
      expect(symbolOf(py)).toBe('throttle');
    } finally {
      snapshot.close();
    }
  });

  it('an unknown symbol names the file and lists the symbols the graph knows', async () => {
    const { snapshot, set } = await open();
    try {
      await expect(retrieveForPlace({ snapshot, set, target: { path: 'lib/gateway/client.rb', symbol: 'Gateway::Client#charge' } })).rejects.toMatchObject({
        message: 'no symbol Gateway::Client#charge in lib/gateway/client.rb',
        hint: 'symbols: Gateway, Gateway.Client, Gateway.Client.refund, Gateway.Client.post',
      });
    } finally {
      snapshot.close();
    }
  });
});
