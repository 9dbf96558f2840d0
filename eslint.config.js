import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist*/', '**/dist/', 'node_modules/', 'var/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // The picker is plain JavaScript for browsers.
    files: ['packages/picker/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(['HTMLElement', 'URL', 'fetch', 'Option', 'CustomEvent', 'Event', 'FormData', 'setTimeout', 'clearTimeout',
        'document', 'customElements', 'CSSStyleSheet'].map((name) => [name, 'readonly'])),
    },
  },
);
