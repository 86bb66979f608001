import { execFileSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';

/** Git bundles of real GitBook documentation repositories (see the README next to them). */
export const FIXTURE_BUNDLES_DIR = '/work/shared/fixtures';

export const FIXTURE_BUNDLES = {
  noislabs: { file: 'noislabs-gitbook-docs.bundle', branch: 'main' },
  fluentd: { file: 'fluent-fluentd-docs-gitbook.bundle', branch: '1.0' },
  pgsqlTw: { file: 'pgsql-tw-gitbook-docs.bundle', branch: 'master' },
} as const;

export type FixtureBundleName = keyof typeof FIXTURE_BUNDLES;

export interface MarkdownFile {
  /** Path relative to the repository root. */
  path: string;
  text: string;
}

export interface ClonedBundle {
  dir: string;
  markdownFiles: MarkdownFile[];
  remove(): void;
}

/** Clones a fixture bundle into a fresh temporary directory and reads all its `.md` files. */
export function cloneFixtureBundle(name: FixtureBundleName, bundlesDir = FIXTURE_BUNDLES_DIR): ClonedBundle {
  const bundle = FIXTURE_BUNDLES[name];
  const dir = mkdtempSync(join(tmpdir(), `quire-${name}-`));
  execFileSync('git', ['clone', '--quiet', '--branch', bundle.branch, join(bundlesDir, bundle.file), dir], { stdio: 'pipe' });
  return {
    dir,
    markdownFiles: listMarkdownFiles(dir).map((path) => ({ path: relative(dir, path), text: readFileSync(path, 'utf8') })),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function listMarkdownFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listMarkdownFiles(path));
    else if (entry.name.endsWith('.md')) files.push(path);
  }
  return files.sort();
}
