import { describe, expect, it } from 'vitest';
import { namesOf } from '../../src/authoring/draft-similar.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// An Android app's records, shaped as thunderbird-android's docs/engineering/adr (adr-tools
// style, `- **Accepted**` under Status): one area's words (modules, dependencies) run through
// several of them. A draft choosing Koin for dependency injection shares "dependency" and
// "module" with the build's dependency management record and was reported as its restatement
// at 0.86 (DEC-096); a restatement of that record in other words must still be caught.
const DIR = 'docs/engineering/adr';
const rec = (title: string, context: string, decision: string, outcomes: string) =>
  `# ${title}\n\n## Status\n\n- **Accepted**\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Outcomes\n\n${outcomes}\n`;
const FILES = {
  [`${DIR}/0001-switch-from-java-to-kotlin.md`]: rec('Switch From Java to Kotlin', 'Most of the app is written in Java, which is verbose and lacks null safety.', 'We write new code in Kotlin and convert Java classes to Kotlin when we change them.', 'Safer code; two languages side by side for a while.'),
  [`${DIR}/0002-atomic-design-system.md`]: rec('Wrap Material Components in an Atomic Design System', 'Screens use Material components directly, each styled its own way.', 'Screens use our design system, whose atoms, molecules and organisms wrap the Material components.', 'One look across the app; a wrapper to keep up to date with Material.'),
  [`${DIR}/0003-test-assertions-assertk.md`]: rec('Switch Test Assertions From Truth to AssertK', 'Truth is written for Java; its assertions read poorly from Kotlin tests.', 'Tests use AssertK for assertions; Truth is removed module by module.', 'Kotlin-first assertions; a migration of existing tests.'),
  [`${DIR}/0004-naming-interfaces.md`]: rec('Naming Conventions for Interfaces and Their Implementations', 'Interfaces and classes were named inconsistently (IFoo, FooImpl, DefaultFoo).', 'An interface takes the plain name; an implementation is named by what makes it different, never Impl.', 'Names say what a class does.'),
  [`${DIR}/0005-central-project-configuration.md`]: rec(
    'Central Management of Android Project Dependencies and Gradle Configurations via Build-Plugin Module',
    "Managing dependencies and configurations directly within each module's build.gradle.kts file led to inconsistencies, duplication and difficult updates.",
    'We establish a build-plugin module holding all common Gradle configuration, dependency management and custom plugins. Dependency Management: the Gradle Version Catalog manages every dependency and plugin version centrally, so every module uses the same versions. Custom Plugins configure Android application, Android library, Compose and Java modules.',
    'Consistency across modules and easy updates; the whole build depends on the build-plugin module.',
  ),
  [`${DIR}/0007-project-structure.md`]: rec('Project Structure', 'Code of every feature sat in the app module, and modules depended on each other freely.', 'The project is split into app, feature, core and library modules; a feature module depends on core modules, never on another feature.', 'Clear boundaries; more modules to configure.'),
  [`${DIR}/0009-api-internal-split.md`]: rec('Feature/Core API/Internal Split and Dependency Rules', 'Modules exposed their implementation to every module depending on them.', 'Each feature and core module is split into an api module and an internal module; other modules depend on the api module only, and internal code uses the internal visibility modifier except what dependency injection needs.', 'Implementation details stay hidden; twice the modules.'),
};

function similarTo(dir: string, decision: string) {
  const r = runCli(['add', '--dry-run', '--format', 'json', '--decision', decision], { cwd: dir });
  expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
  return (JSON.parse(r.stdout) as { similar: { id: string; similarity: number }[] }).similar.map((s) => s.id);
}

describe('add: a different decision in the same area is not a restatement (DEC-096)', () => {
  it('a draft choosing a thing no record names is not flagged; a restatement in other words is', () => {
    const repo = makeRepo(FILES);
    repo.commit('records');
    expect(similarTo(repo.dir, 'Use Koin for dependency injection in every module')).toEqual([]);
    expect(similarTo(repo.dir, 'Use Koin for dependency injection; declare the bindings of each feature module in its own Koin module')).toEqual([]);
    expect(similarTo(repo.dir, 'Keep the shared Gradle setup and the library versions in one place: a build-plugin module with convention plugins and a version catalog that every module applies')).toEqual(['ADR-0005']);
    expect(similarTo(repo.dir, 'Split every feature into an api module and an internal module; other modules depend only on the api')[0]).toBe('ADR-0009');
  });

  it('reads the things a draft names: capitalised words inside a sentence, not acronyms nor a first word', () => {
    expect(namesOf('Use Koin for dependency injection.\nShip Preact instead of React, with UI tests and JWTs.')).toEqual([['koin'], ['preact'], ['react']]);
  });
});
