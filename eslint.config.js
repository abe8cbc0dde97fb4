import tseslint from 'typescript-eslint';
import robocell from './tools/eslint/robocell.js';

// The engine's floors, bottom first (src-main/engine/README.md says what each holds and why it sits
// where it does). A file imports its own room and lower floors only; rooms on one floor do not
// import each other. A top-level file is a room by its name without the extension.
const ENGINE_FLOORS = [
  ['base'], // paths.ts (where files are), rpc.ts (the handler contract; the protocol is src-shared), prng.ts
  ['sim'],
  ['primitives'], // the primitive contract every environment offers: specs, registry, ledger
  ['render', 'episodes'],
  ['cells'],
  ['environments'], // the Environment contract, then the robot and the inventory (ENVIRONMENT_FLOORS)
  ['agent'],
  ['studio', 'experiments', 'modelServer'], // modelServer/: the rehearsal endpoint (an agent served over HTTP)
  ['engine', 'testing'], // engine.ts and server/: the process that hosts the services; testing/: test doubles
  ['cli', 'bench'],
];
const ENGINE_ROOMS = { paths: 'base', rpc: 'base', prng: 'base', phases: 'base', server: 'engine' };

// Inside environments/: each environment stands on the shared contract alone, and only the list
// of environments (index.ts) sees them all.
const ENVIRONMENT_FLOORS = [['contract'], ['robot', 'inventory'], ['index']];

// Test doubles (a scripted endpoint, a toy environment, a throwaway redis-server) are for tests and
// the bench; the product never imports them.
const testDoublesApart = {
  group: ['**/testing', '**/testing/*'],
  message: 'testing/ holds test doubles: only tests and the bench import them.',
};

// Layer boundaries (as in VS Code / Foxglove): each layer reaches across only through src-shared.
const noElectronOrRenderer = {
  patterns: [
    { group: ['electron', 'electron/*'], message: 'The engine is a plain Node process: never import electron.' },
    { group: ['**/src-renderer/**', '**/src-renderer'], message: 'Only src-shared crosses the engine/renderer boundary.' },
    { group: ['**/electron/**'], message: 'The engine does not import the Electron shell.' },
  ],
};
// A regex on the import name: a group pattern would also match relative paths such as
// './openai/openaiModel', which is how the rest of the agent reaches the adapter.
const openaiOnlyAtEdge = {
  regex: '^openai(/.*)?$',
  message: 'Only src-main/engine/agent/openai/ imports the openai SDK.',
};

// The job queue (BullMQ on Redis, the bull-board dashboard) is reached only through its adapter
// folder; the rest of the engine sees the EpisodeRunner seam.
const queueOnlyAtEdge = {
  regex: '^(bullmq|ioredis|express|@bull-board/.*)(/.*)?$',
  message: 'Only src-main/engine/experiments/queue/ imports the queue libraries (bullmq, ioredis, bull-board, express).',
};

export default tseslint.config(
  // tests/fixtures holds cell sources (their last expression is the cell's value) and models.
  { ignores: ['out/**', 'node_modules/**', 'test-artifacts/**', 'dist/**', '.robocell/**', 'tests/fixtures/**', '**/*.scratch.test.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Every module, type-only and dynamic imports included: a circle is a circle.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { robocell },
    rules: { 'robocell/no-cycle': 'error' },
  },
  {
    // Tests compose the floors (a store test replays with the agent's toy environment), and
    // nothing imports a test, so they stand outside the building.
    files: ['src-main/engine/**/*.ts'],
    ignores: ['src-main/engine/**/*.test.ts'],
    plugins: { robocell },
    rules: {
      'robocell/floors': ['error', { root: 'src-main/engine', floors: ENGINE_FLOORS, rooms: ENGINE_ROOMS, docs: 'the floors: src-main/engine/README.md' }],
    },
  },
  {
    files: ['src-main/engine/environments/**/*.ts'],
    ignores: ['src-main/engine/environments/**/*.test.ts'],
    // The same rule under a second name: a rule configured again in a later block replaces the
    // engine-wide floors instead of adding to them.
    plugins: { environments: robocell },
    rules: {
      'environments/floors': ['error', { root: 'src-main/engine/environments', floors: ENVIRONMENT_FLOORS, docs: 'src-main/engine/environments/README.md' }],
    },
  },
  {
    files: ['src-main/engine/**/*.ts'],
    ignores: ['src-main/engine/agent/openai/**', 'src-main/engine/experiments/queue/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...noElectronOrRenderer.patterns, openaiOnlyAtEdge, queueOnlyAtEdge, testDoublesApart] }],
    },
  },
  {
    files: ['src-main/engine/experiments/queue/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...noElectronOrRenderer.patterns, openaiOnlyAtEdge, testDoublesApart] }],
    },
  },
  {
    // Tests, the bench and the doubles themselves may use the doubles.
    files: ['src-main/engine/**/*.test.ts', 'src-main/engine/bench/**/*.ts', 'src-main/engine/testing/**/*.ts'],
    ignores: ['src-main/engine/experiments/queue/**', 'src-main/engine/agent/openai/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...noElectronOrRenderer.patterns, openaiOnlyAtEdge, queueOnlyAtEdge] }],
    },
  },
  {
    files: ['src-main/engine/experiments/queue/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...noElectronOrRenderer.patterns, openaiOnlyAtEdge] }],
    },
  },
  {
    // The offline heuristic agent decides from the conversation alone: nothing of the benchmark
    // (tasks, their scenes and reference solutions, the robots, the primitives, the environments)
    // may reach it by an import. Its tests may import tasks/ to check it.
    files: ['src-main/engine/agent/heuristic/**/*.ts'],
    ignores: ['src-main/engine/agent/heuristic/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noElectronOrRenderer.patterns,
            openaiOnlyAtEdge,
            queueOnlyAtEdge,
            testDoublesApart,
            {
              // Out of its folder it reaches only the Model interface and src-shared.
              regex: '^\\.\\./(?!model$|(\\.\\./)*src-shared/)',
              message:
                'The heuristic agent sees only the conversation: it imports nothing outside its folder but ../model and src-shared (no tasks/, solutions, robots/, primitives or environments).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/engine/agent/openai/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noElectronOrRenderer.patterns, testDoublesApart] }] },
  },
  {
    files: ['src-main/engine/agent/openai/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', noElectronOrRenderer] },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src-renderer/**', '**/src-renderer'], message: 'The shell talks to the UI only through src-shared and the preload.' },
            { group: ['**/engine/**'], message: 'The shell spawns the engine as a process; it does not import it.' },
            openaiOnlyAtEdge,
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src-main/**', '**/src-main'], message: 'The renderer reaches the engine only through src-shared and the transport.' },
            { group: ['electron', 'electron/*'], message: 'The renderer runs in a browser too: no electron imports.' },
            openaiOnlyAtEdge,
          ],
        },
      ],
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-main/**', '**/src-renderer/**', 'electron', 'node:*', 'fs', 'path', 'ws'],
              message: 'src-shared runs on both sides: no imports from either side or from Node.',
            },
            openaiOnlyAtEdge,
          ],
        },
      ],
    },
  },
);
