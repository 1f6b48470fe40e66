import { describe, expect, it } from 'vitest';
import { code, escapeText, truncate } from '../../src/pr/escape.js';

describe('escaping quoted repository text', () => {
  it('defuses mentions, references, HTML, table pipes and newlines', () => {
    const t = escapeText('Ping @org/team and #12 or GH-7 <img src=x onerror=alert(1)> a|b\nnext **bold** [x](http://evil)');
    expect(t).not.toMatch(/@[A-Za-z]/);
    expect(t).toContain('@\u200dorg');
    expect(t).toContain('#\u200d12');
    expect(t).not.toContain('<');
    expect(t).toContain('&lt;img');
    expect(t).toContain('a\\|b');
    expect(t).not.toContain('\n');
    expect(t).toContain('\\*\\*bold\\*\\*');
    expect(t).toContain('\\[x\\]\\(http');
  });

  it('wraps values in code spans that survive backticks and table cells', () => {
    expect(code('src/a.ts')).toBe('`src/a.ts`');
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`x')).toBe('`` `x ``');
    expect(code('a|b\nc')).toBe('`a\\|b c`');
  });

  it('truncates without splitting a surrogate pair', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('ab😀cd', 4)).toBe('ab…');
    expect(truncate('short', 10)).toBe('short');
  });
});
