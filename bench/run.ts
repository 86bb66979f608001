/**
 * `npm run bench -- <name...>`: runs benchmarks that print their figures. With no name, lists
 * them. Each module exports `run(): Promise<void>`.
 */
const BENCHES: Record<string, () => Promise<{ run(): Promise<unknown> }>> = {
  'event-store': () => import('./event-store'),
  'content-store': () => import('./content-store'),
  'markdown-parse': () => import('./markdown-parse'),
  'html-leaks': () => import('./html-leaks'),
  'get-space': () => import('./get-space'),
  'import-pipeline': () => import('./import-pipeline'),
  'git-import': () => import('./git-import'),
  'import-growth': () => import('./import-growth'),
  'git-export': () => import('./git-export'),
  'large-repository': () => import('./large-repository'),
  merge: () => import('./merge'),
  'read-path': () => import('./read-path'),
  'revision-changes': () => import('./revision-changes'),
  'site-reads': () => import('./site-reads'),
  search: () => import('./search'),
  'search-quality': () => import('./search-quality'),
  growth: () => import('./growth'),
};

async function main(names: string[]): Promise<void> {
  if (names.length === 0) {
    process.stdout.write(`Usage: npm run bench -- <${Object.keys(BENCHES).join('|')}>...\n`);
    return;
  }
  for (const name of names) {
    const load = BENCHES[name];
    if (!load) throw new Error(`Unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    process.stdout.write(`# ${name}\n`);
    await (await load()).run();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
