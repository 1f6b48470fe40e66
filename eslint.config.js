import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './lint/layers.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'action/dist/**', 'coverage/**', '.bench-work/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // the folders of src/ in one layer order: a lower layer never imports a higher one (DEC-047)
    files: ['src/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/layer-order': 'error' },
  },
  {
    files: ['bench/**', 'bin/**', 'test/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // CommonJS (bin/package.json): no ES module loader at start-up (DEC-038)
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
