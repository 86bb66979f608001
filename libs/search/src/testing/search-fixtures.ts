import { execFileSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import type { EventStore } from '@quire/event-store/event-store.port';
import type { Position } from '@quire/event-store/position';
import { newId } from '@quire/platform/ids/ids';
import { ContentStore } from '@quire/content/store';
import { deriveRevision } from '@quire/content/revision';
import type { RevisionPageNode } from '@quire/domain';

/** Test and bench helpers: content written to a real ContentStore, events appended directly. */

export const FIXTURES_DIR = process.env.QUIRE_FIXTURES_DIR ?? '/work/shared/fixtures';
export const SEARCH_FIXTURES = {
  noislabs: { file: 'noislabs-gitbook-docs.bundle', branch: 'main' },
  fluentd: { file: 'fluent-fluentd-docs-gitbook.bundle', branch: '1.0' },
  pgsqlTw: { file: 'pgsql-tw-gitbook-docs.bundle', branch: 'master' },
} as const;
export type SearchFixture = keyof typeof SEARCH_FIXTURES;

const encoder = new TextEncoder();

/** The text files of a fixture repository (markdown and layout files; assets left out). */
export function fixtureFiles(name: SearchFixture): Record<string, Uint8Array> {
  const bundle = SEARCH_FIXTURES[name];
  const dir = mkdtempSync(join(tmpdir(), `quire-search-${name}-`));
  try {
    execFileSync('git', ['clone', '--quiet', '--branch', bundle.branch, join(FIXTURES_DIR, bundle.file), dir], { stdio: 'pipe' });
    const files: Record<string, Uint8Array> = {};
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.name === '.git') continue;
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(md|ya?ml|json)$/i.test(e.name)) files[relative(dir, p)] = readFileSync(p);
      }
    };
    walk(dir);
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A generated space of `pages` pages with `sectionsPerPage` sections each, in git-sync layout.
 * Words come from a small set of common words and a 5,000-word made-up vocabulary with a
 * Zipf-like spread, so queries meet terms of every frequency, as in real documentation.
 */
export function generatedFiles(opts: { pages: number; sectionsPerPage: number; seed?: number }): Record<string, Uint8Array> {
  let seed = opts.seed ?? 1;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const rare = () => RARE_WORDS[Math.floor(RARE_WORDS.length * rand() ** 3)];
  const word = () => (rand() < 0.7 ? pick(WORDS) : rare());
  const sentence = (count: number) => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const words = Array.from({ length: 8 + Math.floor(rand() * 10) }, word);
      out.push(`${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase()));
    }
    return out.join(' ');
  };
  const files: Record<string, Uint8Array> = {};
  const summary = ['# Table of contents', '', '* [Introduction](README.md)'];
  files['README.md'] = encoder.encode('# Introduction\n\nGenerated documentation for benchmarks.\n');
  for (let i = 0; i < opts.pages; i++) {
    const title = `${pick(VERBS)} the ${pick(NOUNS)} ${rare()} ${i}`;
    const lines = [`# ${title}`, '', sentence(3)];
    for (let s = 0; s < opts.sectionsPerPage - 1; s++) lines.push('', `## ${pick(VERBS)} ${pick(NOUNS)} ${rare()}`, '', sentence(4), '', sentence(3));
    const file = `section-${Math.floor(i / 50)}/page-${i}.md`;
    files[file] = encoder.encode(lines.join('\n') + '\n');
    summary.push(`* [${title}](${file})`);
  }
  files['SUMMARY.md'] = encoder.encode(summary.join('\n') + '\n');
  return files;
}

/** Writes a revision of a space into the content store and reads its page tree back. */
export async function writeRevision(
  store: ContentStore,
  spaceId: string,
  files: Record<string, Uint8Array>,
  previous?: { revision: string; pages: RevisionPageNode[] },
): Promise<{ revision: string; pages: RevisionPageNode[] }> {
  const revision = await store.writeRevision({
    spaceId,
    parents: previous ? [previous.revision] : [],
    files,
    message: 'test revision',
    author: { name: 'Test', email: 'test@example.com' },
    timestamp: new Date(),
  });
  const derived = await deriveRevision({ store, spaceId, revision, previous: previous ? { pages: previous.pages, files: [] } : undefined, newId: () => newId() });
  return { revision, pages: derived.pages };
}

/** Appends what the content side appends for a new space revision: RevisionCreated, then SpaceRevisionChanged. */
export async function appendLiveRevision(
  events: EventStore,
  spaceId: string,
  revision: { revision: string; pages: RevisionPageNode[] },
  opts: { parents?: string[]; changeRequestId?: string; makeLive?: boolean } = {},
): Promise<Position> {
  const created = {
    type: 'RevisionCreated',
    data: {
      spaceId,
      ...(opts.changeRequestId ? { changeRequestId: opts.changeRequestId } : {}),
      revision: revision.revision,
      parents: opts.parents ?? [],
      kind: 'import',
      pages: revision.pages,
      files: [],
      createdAt: new Date().toISOString(),
    },
  };
  const stream = opts.changeRequestId ? `change-request-${opts.changeRequestId}` : `space-${spaceId}`;
  const r = await events.append(stream, [created], 'any');
  if (opts.makeLive === false) return r.position;
  const live = await events.append(`space-${spaceId}`, [{ type: 'SpaceRevisionChanged', data: { spaceId, revision: revision.revision } }], 'any');
  return live.position;
}

/** A SpaceCreated event as the spaces side records it (enough for the search projection). */
export async function appendSpaceCreated(events: EventStore, opts: { spaceId: string; organizationId: string; language?: string; title?: string }): Promise<Position> {
  const r = await events.append(
    `space-${opts.spaceId}`,
    [
      {
        type: 'SpaceCreated',
        data: {
          spaceId: opts.spaceId,
          organizationId: opts.organizationId,
          title: opts.title ?? 'Space',
          ...(opts.language ? { language: opts.language } : {}),
          editMode: 'live',
          defaultLevel: 'inherit',
          mergeRules: { type: 'inherit' },
          initialRevision: newId(),
          createdBy: 'test',
          createdAt: new Date().toISOString(),
        },
      },
    ],
    'any',
  );
  return r.position;
}

const NOUNS = [
  'buffer', 'plugin', 'server', 'client', 'index', 'query', 'cluster', 'token', 'session', 'cache', 'queue', 'worker', 'schema',
  'table', 'column', 'backup', 'replica', 'network', 'socket', 'parser', 'record', 'stream', 'filter', 'output', 'input', 'route',
  'tenant', 'policy', 'secret', 'certificate', 'container', 'volume', 'metric', 'alert', 'dashboard', 'webhook', 'permission',
];
const VERBS = ['Configure', 'Install', 'Monitor', 'Deploy', 'Upgrade', 'Migrate', 'Secure', 'Scale', 'Debug', 'Tune', 'Back up', 'Restore'];
const SYLLABLES = ['ka', 'lo', 'mi', 'ran', 'tes', 'vor', 'qui', 'zel', 'dun', 'pha', 'gri', 'sol', 'ne', 'bar', 'tis', 'ux', 'mor', 'fen', 'lia', 'cto'];
/** Made-up words, the same on every run: `RARE_WORDS[0]` is the most frequent. */
export const RARE_WORDS: readonly string[] = Array.from({ length: 5000 }, (_, i) => {
  let n = i + 7;
  let w = '';
  for (let k = 0; k < 3; k++) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length) + k * 3;
  }
  return w;
});

const WORDS = [
  ...NOUNS, 'the', 'a', 'with', 'when', 'each', 'every', 'must', 'should', 'can', 'will', 'configure', 'configuring', 'configured',
  'installs', 'running', 'restart', 'enable', 'disable', 'default', 'value', 'option', 'parameter', 'timeout', 'retry', 'limit',
  'memory', 'disk', 'latency', 'throughput', 'error', 'warning', 'message', 'event', 'log', 'file', 'directory', 'path', 'user',
  'role', 'access', 'read', 'write', 'delete', 'create', 'update', 'version', 'release', 'feature', 'support', 'request', 'response',
];
