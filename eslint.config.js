// House rules the type checker cannot see: one-way imports between the source roots and layers
// (DESIGN §2) and the rules of hooks. typescript-eslint's parser reads the TypeScript syntax (no
// type information is needed for these rules; type errors are tsc's job). TypeScript 7 has no
// JavaScript API to parse with, so the parser comes with its own TypeScript 6.0 from
// tests/support/eslint-ts-parser (Babel 8, the parser before, needs Node 22; the project runs on 20.19).
import tsParser from '@local/eslint-ts-parser';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';

const CLIENT_SHARED_LAYERS = ['client-lib', 'client-components', 'client-commands', 'shared'];
const to = (type) => ({ to: { element: { type } } });
const allow = (from, types) => ({ from: { element: { type: from } }, allow: types.map(to) });

const AS_HTML = 'parses a string as HTML, where markup in a name typed by a user would be fetched or framed for every viewer (issue 19)';
/** The calls and options that take a string as HTML, each with what to do instead. */
const HTML_SINKS = [
  ['JSXAttribute[name.name=/^(dangerouslySetInnerHTML|srcDoc)$/]', `This ${AS_HTML}: let React write text.`],
  ['MemberExpression[property.name=/^(innerHTML|outerHTML)$/]', `innerHTML/outerHTML ${AS_HTML}: use textContent or DOM nodes.`],
  ['CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment|parseFromString)$/]', `This ${AS_HTML}: build DOM nodes.`],
  ["CallExpression[callee.object.name='document'][callee.property.name=/^(write|writeln)$/]", `document.write ${AS_HTML}.`],
  // Leaflet: a string tooltip, popup or divIcon html is innerHTML.
  [
    "CallExpression[callee.property.name=/^(bindTooltip|bindPopup|setTooltipContent|setPopupContent|setContent)$/]:not([arguments.0.callee.name='textBlock'])",
    `Leaflet ${AS_HTML}: pass textBlock(…) from lib/text-node.ts.`,
  ],
  ["CallExpression[callee.property.name='divIcon'] Property[key.name='html']:not([value.callee.name='textBlock'])", `Leaflet's divIcon html ${AS_HTML}: pass textBlock(…).`],
  // Leaflet writes attributions, the zoom buttons' text and a layer control's names as HTML: constants only.
  [
    "Property[key.name=/^(attribution|zoomInText|zoomOutText)$/]:not([value.type='Literal']), CallExpression[callee.property.name=/^(addAttribution|setPrefix|addBaseLayer|addOverlay)$/]:not([arguments.0.type='Literal'])",
    `Leaflet ${AS_HTML}: only fixed text here.`,
  ],
  // ECharts: a tooltip formatter's string (a template, or what a function returns) is innerHTML.
  ["Property[key.name='tooltip'] > ObjectExpression > Property[key.name='formatter']:not([value.callee.name='textTooltip'])", `ECharts' tooltip ${AS_HTML}: use textTooltip(…) from lib/text-node.ts.`],
];

export default [
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'src/server/db/migrations/**'] },
  // The parser reads JSX in `.tsx` only, so `<T>(x) => …` in a `.ts` file reads as a generic.
  { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tsParser } },
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
        // Feature code several features share (the desk's dialogs and card link): above the shared layers.
        { type: 'client-business', pattern: 'src/client/business' },
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
            allow('client-app', ['client-app', 'client-feature', 'client-business', ...CLIENT_SHARED_LAYERS]),
            // A feature uses its own folder, the business layer and the shared layers, never another feature.
            {
              from: { element: { type: 'client-feature' } },
              allow: [{ to: { element: { type: 'client-feature', captured: { feature: '{{from.captured.feature}}' } } } }, to('client-business'), ...CLIENT_SHARED_LAYERS.map(to)],
            },
            allow('client-business', ['client-business', ...CLIENT_SHARED_LAYERS]),
            allow('client-commands', CLIENT_SHARED_LAYERS),
            allow('client-components', ['client-components', 'client-lib', 'shared']),
            // The bottom of the client: state (toasts, form errors, the session) that every layer above uses.
            allow('client-lib', ['client-lib', 'shared']),
          ],
        },
      ],
      'boundaries/no-unknown-files': 'error',
    },
  },
  // The server's layers below the modules (db, lib, plugins) never reach up into them: the seed
  // runner and the app compose the modules from above (issue 20: the db/seed ⇄ modules loop).
  {
    files: ['src/server/{db,lib,plugins}/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/modules', '**/modules/**'], message: 'db/, lib/ and plugins/ sit below the modules: compose them from above (app.ts, seed-runner.ts).' }] }],
    },
  },
  // Text typed by users (station, line, staff names…) reaches the page as text only: React writes
  // it so, but these APIs parse a string as HTML, where `<img src=…>` in a name is fetched by every
  // viewer. Leaflet's tooltips and popups and ECharts' tooltips take text through lib/text-node.ts.
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...HTML_SINKS.map(([selector, message]) => ({ selector, message }))],
    },
  },
];
