// ESLint (flat config), run by `npm test` (test/run-tests.mjs) and `npm run lint`:
// typescript-eslint's strict type-checked rules, and eslint-plugin-regexp because our regexes
// run on untrusted input (ReDoS, and regexes that do not mean what they say).
// Every rule turned off or loosened here says why beside it.
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // What git ignores (.gitignore): build output, local scratch scripts, bench output, data directories.
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.scratch/', 'var/', 'bench/out/', 'tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  regexp.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Numbers print as their decimal text, which is what every message here means;
      // undefined, null and objects stay errors.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => void send()` and `(x) => list.push(x)`-style callbacks read clearly.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // A class that lists combining marks as \u escapes (fold.ts strips them by range) means
      // them one by one; a base letter and a mark written literally together still errors.
      'no-misleading-character-class': ['error', { allowEscape: true }],
      // As tsc's noUnusedParameters: a parameter a signature needs but the body ignores is named
      // `_x`; and `{ drop: _, ...rest }` is how an object loses a property.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Off: async methods implement Promise-returning interfaces (the SQLite store and the
      // in-memory rate limiter answer synchronously); `async` keeps a thrown error a rejected
      // promise, which callers of those interfaces rely on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      // Off in tests and benchmarks: they read parsed JSON answers and fixtures (typed any,
      // or annotated so) and index fixtures they built themselves; a wrong shape fails the
      // assertion or the run.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Test files of a vitest worker share one module cache (vitest.config.ts, isolate: false):
    // a test that mocked a module, stubbed a global or wrote process.env would change what the
    // files after it in that worker see. Pass what a child process needs in its env argument.
    files: ['test/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'stubEnv', 'stubGlobal'].map((property) => ({
          object: 'vi',
          property,
          message: 'Test files share modules and globals (vitest.config.ts, isolate: false); pass what the code needs as arguments instead.',
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message: 'Test files share one process (vitest.config.ts, isolate: false): give a child process its environment in spawn()’s env option.',
        },
        {
          selector: "UnaryExpression[operator='delete'] > MemberExpression[object.object.name='process'][object.property.name='env']",
          message: 'Test files share one process (vitest.config.ts, isolate: false): give a child process its environment in spawn()’s env option.',
        },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
