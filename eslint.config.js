import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The web app's layers (docs/web.md): app → features → shared. Each import must point down:
// app may use features and shared, a feature only shared (never another feature), and shared
// code neither. Written as bulletproof-react writes them: import/no-restricted-paths zones.
const WEB = './web/src';
const SHARED = ['api', 'components', 'lib'].map((folder) => `${WEB}/${folder}`);
const FEATURES = readdirSync(new URL(`${WEB}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const webBoundaries = {
  files: ['web/src/**/*.{ts,tsx}'],
  plugins: { import: importPlugin },
  settings: {
    'import/extensions': ['.ts', '.tsx', '.js'],
    'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
  },
  rules: {
    'import/no-restricted-paths': [
      'error',
      {
        basePath: import.meta.dirname,
        zones: [
          ...FEATURES.map((feature) => ({
            target: `${WEB}/features/${feature}`,
            from: `${WEB}/features`,
            except: [`./${feature}`],
            message: 'A feature never imports another feature: move the shared part to api/, components/ or lib/, or compose the two in app/.',
          })),
          {
            target: `${WEB}/features`,
            from: `${WEB}/app`,
            message: 'Features never import app/: app composes the features, not the other way round.',
          },
          {
            target: SHARED,
            from: [`${WEB}/features`, `${WEB}/app`],
            message: 'Shared code (api/, components/, lib/) never imports features or app/.',
          },
        ],
      },
    ],
    // Type-only imports are left out (they vanish at build time). disableScc: the rule's
    // shortcut through strongly connected components crashes on text that is not a file on
    // disk (ESLint's lintText, which web/boundaries.test.ts uses); the web app is small enough
    // to walk its imports without it.
    'import/no-cycle': ['error', { ignoreExternal: true, disableScc: true }],
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['web/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  webBoundaries,
  {
    // The engine is not HTTP: services, repositories and the resource engine run for jobs as
    // well as requests, so only the HTTP layer (routes, plugins, the multipart receiver
    // storage/upload.ts, app wiring, and the http/ modules named here) sees Fastify. The rest of
    // http/ is what module services take from it — field checks, list parameters, safe fetches —
    // and stays free of Fastify, even of its types.
    files: ['server/src/**/*.ts'],
    ignores: [
      'server/src/**/*routes.ts', 'server/src/**/*.plugin.ts', 'server/src/storage/upload.ts',
      'server/src/http/{engine-context,error-handler,nul-guard,pages,validation}.ts',
      'server/src/app.ts', 'server/src/main.ts', 'server/src/test/**', 'server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['fastify', 'fastify-*', '@fastify/*'], message: 'Below the routes, take an EngineContext (resources/context.ts), not a request.' },
          { group: ['**/http/engine-context.ts', '**/http/pages.ts'], message: 'Routes build the context and page links; services take an EngineContext.' },
        ],
      }],
    },
  },
  {
    // The resource engine sits below the HTTP layer and the modules: http/ (the engine's routes
    // among them) and the modules import the engine, never the other way round, so no value
    // import cycle runs between them (docs/engine.md "Composition"). Types may cross.
    files: ['server/src/resources/**/*.ts'],
    ignores: ['server/src/resources/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/http/*'], allowTypeImports: true, message: 'The engine is not HTTP: its errors live in resources/errors.ts; HTTP adapters live in http/ and import the engine.' },
          { group: ['**/modules/*', '**/modules/**'], allowTypeImports: true, message: 'Modules build on the engine; the engine reaches them through the catalog and its extensions, which createEngine (engine.ts) wires.' },
        ],
      }],
    },
  },
);
