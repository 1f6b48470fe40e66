import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// Two links check got wrong on unseen repositories (DEC-086): semantic-kernel's 0002 links the
// repository's top-level `[FEATURE_MATRIX](../../FEATURE_MATRIX.md)`, which exists, and check
// called it broken (a document path needed a folder); thunderbird-android moved its record
// folder from docs/architecture/adr to docs/engineering/adr, and `../design-system.md` now points
// beside the new folder, while the document stayed in docs/architecture/.
describe('check of a record linking a document', () => {
  it('finds a top-level document, and names the one file of that name when a moved folder broke the link', () => {
    const repo = makeRepo({
      'FEATURE_MATRIX.md': '# Feature matrix\n',
      'docs/decisions/0002-java-folder-structure.md': '# Java folder structure\n\n## Status\n\nAccepted\n\n## Decision\n\nFeature status is tracked in the [FEATURE_MATRIX](../../FEATURE_MATRIX.md).\n',
      'docs/architecture/design-system.md': '# Design system\n',
    });
    repo.commit('first layout');
    repo.write({
      'docs/engineering/adr/0001-wrap-material-components.md': '# UI - Wrap Material Components\n\n## Status\n\n- **Accepted**\n\n## Decision\n\nWe adopt an [Atomic Design System](../design-system.md) for the UI.\n',
    });
    repo.commit('records of the UI team');
    const check = runCli(['check'], { cwd: repo.dir });
    const out = check.stdout + check.stderr;
    expect(out).not.toContain('FEATURE_MATRIX.md, which does not exist');
    expect(out).toContain('relations.relates_to names docs/engineering/design-system.md, which does not exist (the one design-system.md in the tree is docs/architecture/design-system.md: link it as ../../architecture/design-system.md)');
  });
});
