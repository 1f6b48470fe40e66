import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { extractPlaceTerms } from '../../src/retrieve/extract.js';
import { typeNameSignals } from '../../src/retrieve/signals.js';
import { makeRepo } from '../helpers/git-repo.js';

// Shaped like microsoft/semantic-kernel (the seventh dev set, DEC-091): C# files documented with
// XML doc comments, MADR records whose front matter opens with the template's comment, one
// record quoting a documented C# snippet, one whose title names the type a file declares.
const DOC = (what: string) => `/// <summary>\n/// Represents ${what} of a <see cref="KernelFunction"/>.\n/// </summary>\n/// <param name="value">The &lt;T&gt; value.</param>\n/// <returns>The value.</returns>\n`;

function fixture() {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: docs/decisions\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'docs/decisions/0001-result-types.md':
      '---\n# These are optional elements. Feel free to remove any of them.\nstatus: accepted\ndate: 2023-09-01\n---\n\n# Replace the context object with FunctionResult models\n\n## Context and Problem Statement\n\nCallers read the output of an invocation from a shared context bag.\n\n## Decision Outcome\n\nEvery invocation returns its own typed value, read with a generic accessor that casts it.\n',
    'docs/decisions/0002-streaming.md':
      '---\n# These are optional elements. Feel free to remove any of them.\nstatus: proposed\n---\n\n# Streaming of content\n\n## Decision Outcome\n\nStreamed content is exposed as chunks of content with metadata:\n\n```csharp\n/// <summary>\n/// Represents a chunk of streamed content, see <see cref="StreamingContent"/>.\n/// </summary>\n/// <param name="inner">The inner &lt;T&gt; content.</param>\n/// <returns>The chunk.</returns>\npublic abstract class StreamingContent { }\n```\n\nA <see cref="X"/> summary returns param values of every chunk; see the summary.\n',
    'src/Functions/FunctionResult.cs': `namespace Kernel;\n\n${DOC('the result of one invocation')}public sealed class FunctionResult\n{\n${DOC('the typed value')}    public T? GetValue<T>() => (T?)this.Value;\n\n    public object? Value { get; }\n}\n`,
    'src/Other/Helper.cs': `namespace Kernel;\n\n${DOC('a helper')}internal static class Helper { }\n`,
  });
  repo.commit('fixture');
  return repo;
}

describe('C# places (DEC-091)', () => {
  it("reads a doc comment's prose, not its markup: tag and attribute names and entities go, the names referred to stay", () => {
    const t = extractPlaceTerms(`${DOC('the result of one invocation')}class A { }\n`, 'src/A.cs');
    expect(t.comments).toEqual(expect.arrayContaining(['represent', 'result', 'invoc', 'kernel', 'valu']));
    for (const w of ['summari', 'summary', 'see', 'cref', 'param', 'return', 'lt', 'gt', 'name']) expect(t.comments).not.toContain(w);
    // prose that only looks like markup keeps its words: a comparison is no tag
    expect(extractPlaceTerms('// retry while count < limit and limit > zero\nint x;\n', 'src/B.cs').comments).toEqual(expect.arrayContaining(['count', 'limit', 'zero']));
  });

  it("a record whose title names the file's type comes first, before one that shares the doc comments' markup", async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const sig = typeNameSignals(set, 'src/Functions/FunctionResult.cs');
      expect([...sig.keys()]).toEqual(['ADR-0001']);
      expect(sig.get('ADR-0001')!.why.text).toMatch(/title names FunctionResult/);
      // snake case names the same type; one word (`Helper`) is as often prose: no signal
      expect([...typeNameSignals(set, 'python/function_result.py').keys()]).toEqual(['ADR-0001']);
      expect(typeNameSignals(set, 'src/Other/Helper.cs').size).toBe(0);
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'src/Functions/FunctionResult.cs' }, neighbours: false, staleness: false });
      expect(r.results[0]?.id).toBe('ADR-0001');
      expect(r.results[0]?.why.map((w) => w.kind)).toContain('mention');
      // the streaming record meets the file by no markup word
      const streaming = r.results.find((x) => x.id === 'ADR-0002');
      const matched = streaming?.why.flatMap((w) => w.terms ?? []) ?? [];
      for (const w of ['cref', 'summary', 'see', 'param', 'lt', 'gt']) expect(matched).not.toContain(w);
    } finally {
      snapshot.close();
    }
  });
});
