import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { declarationInText } from '../../src/retrieve/text-declaration.js';
import { makeRepo } from '../helpers/git-repo.js';

const GO = 'package goboottypes\n\n// DirPerm is used for creating directories.\nconst DirPerm = 0755\n\n// FilePerm is used for writing files.\nconst FilePerm = 0644\n\nconst (\n\t// TemplateSuffix marks a scaffold source; it is stripped after rendering.\n\tTemplateSuffix = ".tmpl"\n)\n';

describe('a symbol neither the code index nor the code graph lists (DEC-078)', () => {
  it('is found by the line that declares it: a constant in a block, an assignment, a typed field; never a comparison', () => {
    expect(declarationInText(GO, 'TemplateSuffix')).toEqual({ name: 'TemplateSuffix', line: 11, endLine: 11, docLine: 11 });
    expect(declarationInText(GO, 'DirPerm')?.line).toBe(4);
    expect(declarationInText('if MAX_RETRIES == 3:\n    pass\nMAX_RETRIES = 3\n', 'MAX_RETRIES')?.line).toBe(3);
    expect(declarationInText('class A {\n  private static final int TIMEOUT = 5;\n}\n', 'TIMEOUT')?.line).toBe(2);
    expect(declarationInText('export const limit: number = 4;\n', 'limit')?.line).toBe(1);
    expect(declarationInText('\tDirPerm os.FileMode = 0o755\n', 'DirPerm')?.line).toBe(1);
    expect(declarationInText(GO, 'Missing')).toBeUndefined();
    expect(declarationInText(GO, 'not a name')).toBeUndefined();
  });

  it('`for file#Constant` answers from the constant and its comment instead of failing with "no symbol"', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'doc/adr/adr-001-scaffold-suffix.md':
        '# ADR-001: A suffix for scaffold sources\n\n## Status\n\nAccepted\n\n## Context\n\nLinters ran on the scaffold sources and failed on their placeholders.\n\n## Decision\n\nEvery scaffold source ends in `.tmpl` (`TemplateSuffix`), stripped after rendering.\n',
      'doc/adr/adr-002-permissions.md': '# ADR-002: File permissions\n\n## Status\n\nAccepted\n\n## Decision\n\nDirectories are created 0755 and files written 0644.\n',
      'pkg/goboottypes/os.go': GO,
    });
    repo.commit('fixture');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'pkg/goboottypes/os.go', symbol: 'TemplateSuffix' }, neighbours: false, staleness: false });
      expect(r.query).toMatchObject({ kind: 'place', symbol: 'TemplateSuffix' });
      expect(r.results[0]?.id).toBe('ADR-001');
      await expect(retrieveForPlace({ snapshot, set, target: { path: 'pkg/goboottypes/os.go', symbol: 'Missing' }, neighbours: false, staleness: false })).rejects.toThrow(/no symbol Missing/);
    } finally {
      snapshot.close();
    }
  });
});

// A PSR-12 PHP class: the code graph reads no PHP, so `path#method` was "no symbol" (DEC-085).
const PHP = [
  '<?php',
  '',
  'namespace App\\StateProcessor\\Admin\\AdminUser;',
  '',
  'use App\\Exception\\CannotRemoveCurrentlyLoggedInUser;',
  '',
  'final readonly class RemoveProcessor implements ProcessorInterface',
  '{',
  '    public function __construct(',
  '        private ProcessorInterface $removeProcessor,',
  '        private TokenStorageInterface $tokenStorage,',
  '    ) {',
  '    }',
  '',
  '    /** Refuses to remove the administrator who is signed in. */',
  '    public function process($data, Operation $operation, array $context = []): void',
  '    {',
  "        if ($this->isTryingToRemoveLoggedInUser($data)) { // '}' in a comment",
  '            throw new CannotRemoveCurrentlyLoggedInUser("no {self} removal");',
  '        }',
  '',
  '        $this->removeProcessor->process($data, $operation, [], $context);',
  '    }',
  '',
  '    abstract protected function describe(): string;',
  '',
  '    private function isTryingToRemoveLoggedInUser(UserInterface $user): bool',
  '    {',
  '        return $this->tokenStorage->getToken()?->getUser() === $user;',
  '    }',
  '}',
  '',
].join('\n');

describe('a method or class of a language the code graph cannot parse (PHP, Kotlin)', () => {
  it('runs from its declaration to the brace closing its block: on the header line or alone on the next; a bodiless one is its line', () => {
    expect(declarationInText(PHP, 'process')).toEqual({ name: 'process', line: 16, endLine: 23, docLine: 16 });
    expect(declarationInText(PHP, '__construct')).toMatchObject({ line: 9, endLine: 13 });
    expect(declarationInText(PHP, 'RemoveProcessor')).toMatchObject({ line: 7, endLine: 31 });
    expect(declarationInText(PHP, 'describe')).toMatchObject({ line: 25, endLine: 25 });
    expect(declarationInText(PHP, 'isTryingToRemoveLoggedInUser')).toMatchObject({ line: 27, endLine: 30 });
    const kotlin = 'class Cart {\n    fun total(): Int {\n        return items.sumOf { it.price }\n    }\n}\n';
    expect(declarationInText(kotlin, 'total')).toMatchObject({ line: 2, endLine: 4 });
    // a Python function has no braces: its line, as before (a dict literal in its body is no block)
    expect(declarationInText('def build(x):\n    return {"a": x}\n', 'build')).toMatchObject({ line: 1, endLine: 1 });
  });

  it('`for file.php#method` answers from the method instead of failing with "no symbol"', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: adr\n    format: adr\n    type: decision\n',
      'adr/2024_07_16_state_processors_directory_structure.md':
        '# API - State Processors Directory Structure\n\n* Status: Accepted\n* Date: 2024-07-15\n\n## Context and Problem Statement\n\nData persisters lived in one folder.\n\n## Decision Outcome\n\nState processors are grouped by section, resource and operation: Persist and Remove processors apart.\n',
      'adr/2022_02_21_using_cart_by_guest.md':
        '# Using cart by guest and logged in customer\n\n* Status: accepted\n\n## Decision Outcome\n\nA flag on the order marks a cart created by a guest.\n',
      'src/StateProcessor/Admin/AdminUser/RemoveProcessor.php': PHP,
    });
    repo.commit('fixture');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'src/StateProcessor/Admin/AdminUser/RemoveProcessor.php', symbol: 'process' }, neighbours: false, staleness: false });
      expect(r.query).toMatchObject({ kind: 'place', symbol: 'process' });
      // dated file names: each record's id is the prefix and its file name (DEC-083)
      expect(r.results[0]?.id).toBe('ADR-2024-07-16-state-processors-directory-structure');
    } finally {
      snapshot.close();
    }
  });
});

describe("a PHP method's query carries the file's `use` and `namespace` lines, as a Java method's carries its imports (DEC-085)", () => {
  it('the record the imports point to matches on their words', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: adr\n    format: adr\n    type: decision\n',
      'adr/2021_04_15_using_iri_in_requests.md':
        '# Using IRI as API resource identifier in requests\n\n* Status: accepted\n* Date: 2021-04-15\n\n## Context and Problem Statement\n\nRequests name related resources by their IRI, while commands and their handlers need the code or id.\n\n## Decision Outcome\n\nAn IRI in a request is turned into the identifier the command needs by the IRI-to-identifier converter; commands that need it implement the conversion-aware interface.\n',
      'adr/2022_03_18_raw_data_in_commands.md':
        '# Use raw data in commands and events\n\n* Status: accepted\n* Date: 2022-03-18\n\n## Context and Problem Statement\n\nCommands may be dispatched to external systems or processed asynchronously, so the data they carry must survive the serializer and a denormalizer.\n\n## Decision Outcome\n\nCommands carry raw data only, built from the request, and the handler fetches the objects.\n',
      'src/Serializer/CommandArgumentsDenormalizer.php': [
        '<?php',
        '',
        'namespace App\\Serializer\\Denormalizer;',
        '',
        'use App\\Command\\IriToIdentifierConversionAwareInterface;',
        'use App\\Converter\\IriToIdentifierConverterInterface;',
        '',
        'final class CommandArgumentsDenormalizer',
        '{',
        '    public function denormalize(mixed $payload, string $class, ?string $format = null, array $context = []): mixed',
        '    {',
        '        $payload = $this->convert($payload);',
        '',
        '        return $this->inner->denormalize($payload, $class, $format, $context);',
        '    }',
        '}',
        '',
      ].join('\n'),
    });
    repo.commit('fixture');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'src/Serializer/CommandArgumentsDenormalizer.php', symbol: 'denormalize' }, neighbours: false, staleness: false });
      const iri = r.results.find((x) => x.id === 'ADR-2021-04-15-using-iri-in-requests');
      expect(iri?.why[0]?.terms).toEqual(expect.arrayContaining(['iri', 'converter']));
    } finally {
      snapshot.close();
    }
  });
});
