// House rules the type checker cannot see: one-way imports between the source roots and layers
// (DESIGN §2) and the rules of hooks. TypeScript 7 has no JavaScript API, so typescript-eslint
// cannot parse here; Babel's parser reads the TypeScript syntax instead (no type information is
// needed for these rules). Type errors are tsc's job.
import babelParser from '@babel/eslint-parser';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';

const CLIENT_SHARED_LAYERS = ['client-lib', 'client-components', 'client-commands', 'shared'];
const to = (type) => ({ to: { element: { type } } });
const allow = (from, types) => ({ from: { element: { type: from } }, allow: types.map(to) });

export default [
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'src/server/db/migrations/**'] },
  // `.ts` without JSX, so `<T>(x) => …` reads as a generic, not a tag.
  ...[
    ['**/*.ts', ['typescript']],
    ['**/*.tsx', ['typescript', 'jsx']],
  ].map(([files, plugins]) => ({
    files: [files],
    languageOptions: {
      parser: babelParser,
      parserOptions: { requireConfigFile: false, babelOptions: { babelrc: false, configFile: false, parserOpts: { plugins } } },
    },
  })),
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries, 'react-hooks': reactHooks },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': [
        { type: 'shared', pattern: 'src/shared' },
        { type: 'server', pattern: 'src/server' },
        { type: 'client-feature', pattern: 'src/client/features/*', capture: ['feature'] },
        { type: 'client-app', pattern: 'src/client/app' },
        { type: 'client-lib', pattern: 'src/client/lib' },
        { type: 'client-components', pattern: 'src/client/components' },
        { type: 'client-commands', pattern: 'src/client/commands' },
        // Last: what is directly in src/client (main.tsx), after every folder above claimed its own.
        { type: 'client-entry', pattern: 'src/client' },
      ],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message: '{{from.type}} may not import {{to.type}}: imports flow one way (DESIGN §2)',
          policies: [
            allow('shared', ['shared']),
            allow('server', ['server', 'shared']),
            allow('client-entry', ['client-app', ...CLIENT_SHARED_LAYERS]),
            allow('client-app', ['client-app', 'client-feature', ...CLIENT_SHARED_LAYERS]),
            // A feature uses its own folder and the shared layers, never another feature.
            {
              from: { element: { type: 'client-feature' } },
              allow: [{ to: { element: { type: 'client-feature', captured: { feature: '{{from.captured.feature}}' } } } }, ...CLIENT_SHARED_LAYERS.map(to)],
            },
            allow('client-commands', CLIENT_SHARED_LAYERS),
            allow('client-components', ['client-components', 'client-lib', 'shared']),
            allow('client-lib', ['client-lib', 'client-components', 'client-commands', 'shared']),
          ],
        },
      ],
      'boundaries/no-unknown-files': 'error',
    },
  },
];
