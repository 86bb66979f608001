/**
 * Layer rules (see the design's "Parts"): apps -> libs -> domain. `npm run lint:deps` checks them
 * in CI (.ci/run) before the tests.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-app-imports-another-app',
      comment:
        'An app (api, worker, cli) does not import another app: what two apps share lives in libs. ' +
        'The all-in-one process is the one composition root that mounts the worker beside the API.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/', pathNot: '^apps/api/src/all-in-one\\.ts$' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'no-lib-imports-an-app',
      comment: 'Dependencies point inward: libs never reach into apps.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'domain-imports-only-itself',
      comment: 'libs/domain is pure TypeScript: no framework, database, Redis, other lib or node module.',
      severity: 'error',
      from: { path: '^libs/domain/' },
      to: { pathNot: '^libs/domain/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
