import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { titleCodeNames } from '../../src/artifacts/sources/adr-title.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { makeRepo } from '../helpers/git-repo.js';

// DEC-116: a title that writes a name as code (in backticks, or with type parameters) names the
// record's subject; the file declaring that name, or named after it, is what the record governs.
// Shaped like a functional TypeScript monorepo (one package per type, the type's name in every
// file that uses it) and a Go repository whose record names an interface.
const adr = (n: number, title: string, decision: string) => `# ${n}. ${title}\n\nDate: 2024-02-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\nValues, packages and exports across the code base.\n\n## Decision\n\n${decision}\n`;

function fixture() {
  const repo = makeRepo({
    'doc/adr/0001-maybe.md': adr(1, 'Use `Maybe<T>` to model missing values', 'A computation that may have no value returns a Maybe, never null; map and flatMap chain on it.'),
    'doc/adr/0002-namespaces.md': adr(2, 'Export every package as one namespace', 'Each package exports one namespace; functions are grouped in it and exported with it. A namespace holds the functions of a package: of, map, flatMap, isSome, isNone, get, getOr, equals, toJSON.'),
    'doc/adr/0003-registrar.md': adr(3, 'Decoupled script coordination via `Registrar` interface', 'Services hand their scripts to one registrar instead of calling each other.'),
    'packages/maybe/src/maybe.ts':
      "export interface Maybe<T> {\n  map<U>(f: (t: T) => U): Maybe<U>;\n  flatMap<U>(f: (t: T) => Maybe<U>): Maybe<U>;\n  isSome(): boolean;\n  isNone(): boolean;\n  getOr(d: T): T;\n}\n\nexport namespace Maybe {\n  export function of<T>(t: T): Maybe<T> {\n    return some(t);\n  }\n  export function equals(a: Maybe<unknown>, b: Maybe<unknown>): boolean {\n    return a.isSome() === b.isSome();\n  }\n  export function toJSON(m: Maybe<unknown>): unknown {\n    return m.getOr(null);\n  }\n}\n\ndeclare function some<T>(t: T): Maybe<T>;\n",
    'packages/rules/src/contrast.ts':
      "import { Maybe } from '@acme/maybe';\n\n// the contrast of a text against its background, when both colours are known\nexport function contrast(fg: Maybe<number>, bg: Maybe<number>): Maybe<number> {\n  return fg.flatMap((f) => bg.map((b) => (f + 0.05) / (b + 0.05)));\n}\n",
    'pkg/types/interfaces.go': 'package types\n\n// Registrar collects what each service contributes.\ntype Registrar interface {\n\tRegister(name string, lines []string)\n}\n\ntype Service interface {\n\tID() string\n}\n',
    'pkg/local/local.go': 'package local\n\n// Scripts renders the local scripts of a project.\nfunc Scripts(names []string) []string {\n\treturn names\n}\n',
  });
  repo.commit('fixture');
  return repo;
}

describe('a title that writes a name as code (DEC-116)', () => {
  it('reads the names a title writes in backticks or with type parameters, not paths, file names or prose', () => {
    expect(titleCodeNames('# ADR 8: Use `Option<T>` to model optional values')).toEqual(['Option']);
    expect(titleCodeNames('Use Result<T, E> to model errors')).toEqual(['Result']);
    expect(titleCodeNames('Scoped Filesystem Output via `os.Root`')).toEqual(['Root']);
    expect(titleCodeNames('Centralized Config Dispatch via `createServiceConfig()`')).toEqual(['createServiceConfig']);
    expect(titleCodeNames('`baseLocal` — Service Purpose and Script Boundaries')).toEqual(['baseLocal']);
    expect(titleCodeNames('Service Name Registry in `types/names.go`')).toBeUndefined();
    expect(titleCodeNames('Template Suffix `.tmpl` to Isolate Pipelines')).toBeUndefined();
    expect(titleCodeNames('Keep settings in `config.yaml`')).toBeUndefined();
    expect(titleCodeNames('Use the `go vet` checker')).toBeUndefined();
    expect(titleCodeNames('Use Postgres for <most> data')).toBeUndefined();
    expect(titleCodeNames('Option types for optional values')).toBeUndefined();
  });

  it('the record naming the type comes first for the file declaring it or named after it; a file that only uses the type gets no such signal', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const forPath = (path: string) => retrieveForPlace({ snapshot, set, target: { path }, neighbours: false, staleness: false });
      const why = (r: Awaited<ReturnType<typeof forPath>>, id: string) => [...r.results, ...(r.weak ?? [])].find((x) => x.id === id)?.why.map((w) => w.text).join(' | ') ?? '';

      const maybe = await forPath('packages/maybe/src/maybe.ts');
      expect(maybe.results[0]?.id).toBe('ADR-0001');
      expect(why(maybe, 'ADR-0001')).toMatch(/its title names Maybe, the name of maybe\.ts/);

      // uses Maybe throughout, declares nothing of that name: no title signal
      const contrast = await forPath('packages/rules/src/contrast.ts');
      expect(why(contrast, 'ADR-0001')).not.toMatch(/its title names/);

      const go = await forPath('pkg/types/interfaces.go');
      expect(go.results[0]?.id).toBe('ADR-0003');
      expect(why(go, 'ADR-0003')).toMatch(/its title names Registrar, which interfaces\.go declares/);
      const local = await forPath('pkg/local/local.go');
      expect(why(local, 'ADR-0003')).not.toMatch(/its title names/);
    } finally {
      snapshot.close();
    }
  });
});
