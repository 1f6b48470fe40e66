import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openCodeNeighbours } from '../../src/code/graph/index.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A small Cargo workspace shaped like a Rust client library: a core crate whose lib.rs
 * re-exports its time type, an rpc crate naming it by package name (dashes as underscores),
 * a module folder with mod.rs, `use … ::{self, X}`, `use super::…`, an inline test module
 * with `use super::*`, and an integration test outside src/.
 */
const WORKSPACE: Record<string, string> = {
  'Cargo.toml': '[workspace]\nresolver = "2"\nmembers = ["core", "rpc"]\n',
  'core/Cargo.toml': '[package]\nname = "acme-core"\nversion = "0.1.0"\n',
  'core/src/lib.rs': '//! Core types of the client.\npub mod limits;\npub mod time;\n\npub use time::Time;\n',
  'core/src/time.rs': [
    '/// A point in time, nanoseconds since the epoch.',
    'pub struct Time(i128);',
    '',
    'impl Time {',
    '    pub fn checked_add(self, nanos: i128) -> Option<Self> { Some(Time(self.0 + nanos)) }',
    '    pub fn now() -> Self { Self::from_nanos(0) }',
    '    fn from_nanos(n: i128) -> Self { Time(n) }',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '    fn adds() { assert!(Time::now().checked_add(1).is_some()); }',
    '}',
    '',
  ].join('\n'),
  'core/src/limits.rs': '/// Connections kept open at once, at most.\npub const MAX_PEERS: usize = 50;\n',
  'rpc/Cargo.toml': '[package]\nname = "acme-rpc"\nversion = "0.1.0"\n\n[dependencies]\nacme-core = { path = "../core" }\n',
  'rpc/src/lib.rs': 'mod client;\npub mod transport;\n\npub use client::Client;\n',
  'rpc/src/client.rs': [
    'use std::collections::HashMap;',
    '',
    'use acme_core::limits::MAX_PEERS;',
    'use acme_core::Time;',
    'use crate::transport::{self, Http};',
    '',
    'pub struct Client {',
    '    http: Http,',
    '    peers: HashMap<String, usize>,',
    '}',
    '',
    'impl Client {',
    '    pub fn deadline(&self) -> Option<Time> {',
    '        transport::ping();',
    '        Time::now().checked_add(MAX_PEERS as i128)',
    '    }',
    '}',
    '',
  ].join('\n'),
  'rpc/src/transport/mod.rs': '// @spec DEC-WIRE\nmod http;\n\npub use http::Http;\n\npub fn ping() {}\n',
  'rpc/src/transport/http.rs': 'use super::ping;\n\npub struct Http;\n\nimpl Http {\n    pub fn send(&self) {\n        ping();\n    }\n}\n',
  'rpc/tests/client.rs': 'use acme_rpc::Client;\n\nfn builds() {}\n',
};

const sites = (list: { path: string; symbol: string; line: number }[]) => list.map((s) => `${s.path}#${s.symbol}:${s.line}`);

describe('code graph: Rust in a Cargo workspace', () => {
  it('declares items by impl and module, resolves use and mod through crate, self, super and the workspace crates, and links calls', async () => {
    const repo = makeRepo(WORKSPACE);
    repo.commit('init');
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      const g = await openCodeNeighbours(snap, { cache: false });
      expect(g.languages).toContain('rust');
      expect(await g.declarations('core/src/time.rs')).toEqual([
        ['Time', 2, 2],
        ['Time.checked_add', 5, 5],
        ['Time.now', 6, 6],
        ['Time.from_nanos', 7, 7],
        ['tests', 11, 14],
        ['tests.adds', 13, 13],
      ]);
      // `mod x;` is a file beside the module (x.rs or x/mod.rs); a crate names another by its package name
      expect(await g.imports('rpc/src/lib.rs')).toEqual(['rpc/src/client.rs', 'rpc/src/transport/mod.rs']);
      expect(await g.imports('rpc/src/client.rs')).toEqual(['core/src/lib.rs', 'core/src/limits.rs', 'rpc/src/transport/mod.rs']);
      expect(await g.imports('rpc/src/transport/mod.rs')).toEqual(['rpc/src/transport/http.rs']);
      expect(await g.imports('rpc/src/transport/http.rs')).toEqual(['rpc/src/transport/mod.rs']);
      expect(await g.imports('rpc/tests/client.rs')).toEqual(['rpc/src/lib.rs']);
      // an inline test module's `use super::*` is its own file
      expect(await g.imports('core/src/time.rs')).toEqual([]);
      expect(await g.importers('core/src/limits.rs')).toEqual(['core/src/lib.rs', 'rpc/src/client.rs']);
      // a call through a module binding, and through the crate root's `pub use` to the defining file
      expect(sites(await g.callees('rpc/src/client.rs', 'Client.deadline'))).toEqual(['core/src/time.rs#Time.now:15', 'rpc/src/transport/mod.rs#ping:14']);
      expect(sites(await g.callers('core/src/time.rs', 'Time.from_nanos'))).toEqual(['core/src/time.rs#Time.now:6']);
      expect(sites(await g.callers('rpc/src/transport/mod.rs', 'ping'))).toEqual(['rpc/src/client.rs#Client.deadline:14', 'rpc/src/transport/http.rs#Http.send:7']);
      expect(await g.symbolAt('rpc/src/client.rs', 15)).toBe('Client.deadline');
    } finally {
      snap.close();
    }
  });

  it('a record declared on a module reaches the files it imports; a constant is a symbol for trace and for', async () => {
    const rec = (id: string, title: string, extra: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n${extra}---\n\n# ${title}\n\n${body}\n`;
    const repo = makeRepo({
      ...WORKSPACE,
      '.contextia/system/rationale/DEC-WIRE.md': rec('DEC-WIRE', 'One transport module per wire protocol', '', '## Decision\n\nEach wire protocol gets its own module under transport, behind the Http type.'),
      '.contextia/system/rationale/DEC-PEERS.md': rec('DEC-PEERS', 'Cap open connections', 'anchors:\n  - core/src/limits.rs#MAX_PEERS\n', '## Decision\n\nAt most fifty connections stay open at once.'),
      '.contextia/system/rationale/DEC-RPC.md': rec('DEC-RPC', 'The RPC crate owns the wire', 'paths:\n  - rpc/**\n', '## Decision\n\nEverything that talks to a node lives in the rpc crate.'),
    });
    repo.commit('init');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const http = await retrieveForPlace({ snapshot, set, target: { path: 'rpc/src/transport/http.rs' } });
      const wire = http.results.find((r) => r.id === 'DEC-WIRE');
      expect(wire?.why.some((w) => w.kind === 'graph' && /rpc\/src\/transport\/mod\.rs/.test(w.text))).toBe(true);
    } finally {
      snapshot.close();
    }
    // a workspace member is a package: a record on the whole crate is package level, as on an npm workspace's
    const crate = runCli(['trace', 'rpc/src/transport/http.rs', '--json'], { cwd: repo.dir });
    expect(crate.code, crate.stderr).toBe(0);
    const crateJson = JSON.parse(crate.stdout) as { package?: string; entries: { id: string; match: { level: string } }[] };
    expect(crateJson.package).toBe('rpc');
    expect(crateJson.entries.find((e) => e.id === 'DEC-RPC')?.match.level).toBe('package');
    const trace = runCli(['trace', 'core/src/limits.rs#MAX_PEERS', '--json'], { cwd: repo.dir });
    expect(trace.code, trace.stderr).toBe(0);
    expect((JSON.parse(trace.stdout) as { entries: { id: string }[] }).entries.map((e) => e.id)).toContain('DEC-PEERS');
    const forJson = JSON.parse(runCli(['for', 'core/src/limits.rs#MAX_PEERS', '--json'], { cwd: repo.dir }).stdout) as { query: { symbol?: string }; results: { id: string }[] };
    expect(forJson.query.symbol).toBe('MAX_PEERS');
    expect(forJson.results[0]?.id).toBe('DEC-PEERS');
  });
});
