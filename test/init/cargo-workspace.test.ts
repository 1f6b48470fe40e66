import { describe, expect, it } from 'vitest';
import { cargoWorkspaceMembers, detectIdentity } from '../../src/init/detect.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('init: a Cargo workspace is a monorepo', () => {
  it('reads [workspace] members across lines, comments and globs, and nothing from a crate manifest', () => {
    const toml = '[workspace]\nresolver = "2"\n\nmembers = [\n    "abci",   # the ABCI server\n    "light-client",\n    "tools/*",\n]\n\nexclude = ["proto-compiler"]\n\n[profile.release]\nopt-level = "s"\n';
    expect(cargoWorkspaceMembers(toml)).toEqual(['abci', 'light-client', 'tools/*']);
    expect(cargoWorkspaceMembers('[package]\nname = "acme"\nmembers = ["not-a-workspace"]\n')).toEqual([]);
    expect(cargoWorkspaceMembers('')).toEqual([]);
  });

  it('detectIdentity names the workspace members and where it read them', async () => {
    const repo = makeRepo({
      'Cargo.toml': '[workspace]\nmembers = ["core", "rpc"]\n',
      'core/Cargo.toml': '[package]\nname = "acme-core"\n',
      'core/src/lib.rs': 'pub fn now() {}\n',
      'rpc/Cargo.toml': '[package]\nname = "acme-rpc"\n',
      'rpc/src/lib.rs': 'pub fn call() {}\n',
    });
    repo.commit('init');
    const id = await detectIdentity(repo.dir);
    expect(id.workspaces).toEqual(['core', 'rpc']);
    expect(id.sources).toContain('Cargo.toml [workspace]');
    expect(id.languages).toContain('Rust');
  });
});
