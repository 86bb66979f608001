import { execFileSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { basename, join, relative } from 'path';
import { htmlLeaks } from '@quire/content/markdown/testing/html-leaks';
import { cloneFixtureBundle, FIXTURE_BUNDLES, type FixtureBundleName, type MarkdownFile } from '@quire/content/markdown/testing/fixture-bundles';

/** Markdown files that are not pages: the table of contents, GitBook's agent instructions. */
const NOT_PAGES = new Set(['SUMMARY.md', 'AGENTS.md']);

interface Source {
  name: string;
  files: MarkdownFile[];
  remove(): void;
}

/**
 * `html-leaks`: how many pages, once converted to a GitBook document, still show HTML they
 * wrote as markup as text (see testing/html-leaks). The target is 0.
 *
 * Sources: the fixture bundles, and GitBook's own documentation (`GitbookIO/public-docs`) when
 * `QUIRE_PUBLIC_DOCS_DIR` names a checkout of it (it is not vendored here). Prints a count per
 * source and the first leaking tags, so a regression names its construct.
 */
export async function run(): Promise<void> {
  const sources = [...fixtureSources(), ...publicDocsSource()];
  let pages = 0;
  let leaking = 0;
  const byTag = new Map<string, number>();
  try {
    for (const source of sources) {
      const leaks = source.files.flatMap((file) => {
        const found = htmlLeaks(file.text);
        return found.length > 0 ? [{ path: file.path, found }] : [];
      });
      pages += source.files.length;
      leaking += leaks.length;
      const percent = source.files.length ? ((100 * leaks.length) / source.files.length).toFixed(1) : '0.0';
      console.log(`${source.name}: ${leaks.length} of ${source.files.length} pages show HTML tags as text (${percent}%)`);
      for (const leak of leaks) {
        for (const tag of new Set(leak.found.map(tagName))) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
        if (process.env.QUIRE_HTML_LEAKS_VERBOSE) console.log(`  ${leak.path}: ${leak.found.slice(0, 3).join(' ')}`);
      }
    }
  } finally {
    for (const source of sources) source.remove();
  }
  console.log(`html-leaks: ${leaking} of ${pages} pages show HTML tags as text`);
  const top = [...byTag].sort((a, b) => b[1] - a[1]).slice(0, 20);
  if (top.length > 0) console.log(`pages per leaking tag: ${top.map(([tag, count]) => `<${tag}> ${count}`).join(', ')}`);
}

function tagName(tag: string): string {
  return /^<\/?([a-zA-Z][a-zA-Z0-9-]*)/.exec(tag)?.[1].toLowerCase() ?? tag;
}

function fixtureSources(): Source[] {
  return (Object.keys(FIXTURE_BUNDLES) as FixtureBundleName[]).map((name) => {
    const bundle = cloneFixtureBundle(name);
    return { name, files: bundle.markdownFiles.filter(isPage), remove: bundle.remove };
  });
}

function publicDocsSource(): Source[] {
  const dir = process.env.QUIRE_PUBLIC_DOCS_DIR;
  if (!dir || !existsSync(dir)) {
    console.log('public-docs: skipped (set QUIRE_PUBLIC_DOCS_DIR to a checkout of GitbookIO/public-docs)');
    return [];
  }
  const revision = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const files = markdownFiles(dir).map((path) => ({ path: relative(dir, path), text: readFileSync(path, 'utf8') }));
  return [{ name: `public-docs@${revision}`, files: files.filter(isPage), remove: () => undefined }];
}

function isPage(file: MarkdownFile): boolean {
  return !NOT_PAGES.has(basename(file.path)) && !file.path.split('/').includes('.gitbook');
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === '.git' || entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
