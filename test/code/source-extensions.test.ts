import { describe, expect, it } from 'vitest';
import { CODE_WORDS_EXCLUDED, languageOf, SOURCE_EXTENSIONS } from '../../src/code/languages.js';
import { languagesOf } from '../../src/init/detect.js';
import { isCodePath } from '../../src/retrieve/code-words.js';

const EXTS = Object.keys(SOURCE_EXTENSIONS);

describe('which files are code: one list (src/code/languages.ts)', () => {
  it('init, code words and the tag reader agree on every source extension, but where one says it differs', () => {
    for (const ext of EXTS) {
      const s = SOURCE_EXTENSIONS[ext]!;
      // init reports the language of every source file
      expect(languagesOf([`src/a.${ext}`]), ext).toEqual([s.language]);
      // code words count every one but the excluded (SQL), in any case of the extension
      expect(isCodePath(`src/a.${ext}`), ext).toBe(!CODE_WORDS_EXCLUDED.has(ext));
      expect(isCodePath(`src/a.${ext.toUpperCase()}`), ext).toBe(!CODE_WORDS_EXCLUDED.has(ext));
      // tags are read in every one with a comment family
      expect(languageOf(`src/a.${ext}`), ext).toBe(s.family);
    }
    expect([...CODE_WORDS_EXCLUDED].every((e) => EXTS.includes(e))).toBe(true);
  });

  it('data and markup carry a comment family but are no source code', () => {
    for (const ext of ['yml', 'yaml', 'toml', 'css', 'html', 'xml']) {
      expect(languageOf(`a.${ext}`), ext).toBeDefined();
      expect(languagesOf([`a.${ext}`]), ext).toEqual([]);
      expect(isCodePath(`a.${ext}`), ext).toBe(false);
    }
    expect(isCodePath('README.md')).toBe(false);
    expect(languagesOf(['notes.txt', 'data.json'])).toEqual([]);
  });

  it('the lists as they were still hold: what each counted before it counts now', () => {
    const before = {
      codeWords: 'ts tsx mts cts js jsx mjs cjs py go java kt kts scala rb php cs rs swift c cc cpp h hpp m mm ex exs erl clj dart lua sh vue svelte tf tfvars hcl',
      init: 'ts tsx mts cts js jsx mjs cjs py pyi go rs java kt kts scala rb php cs fs c h cc cpp cxx hpp hh swift m dart ex exs erl hs clj lua r jl sh bash zsh sql vue svelte tf tfvars hcl',
    };
    for (const ext of before.codeWords.split(' ')) expect(isCodePath(`a.${ext}`), ext).toBe(true);
    for (const ext of before.init.split(' ')) expect(languagesOf([`a.${ext}`]).length, ext).toBe(1);
  });
});
