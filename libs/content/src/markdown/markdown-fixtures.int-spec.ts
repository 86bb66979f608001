import MarkdownIt from 'markdown-it';
import { isDeepStrictEqual } from 'util';
import { documentToMarkdown } from './document-to-markdown';
import type { ParsedPageMarkdown } from './document.types';
import { useFastParserState } from './fast-parser-state';
import { markdownToDocument } from './markdown-to-document';
import { validateDocument } from './testing/document-schema';
import { htmlLeaks } from './testing/html-leaks';
import { cloneFixtureBundle, type ClonedBundle, type FixtureBundleName } from './testing/fixture-bundles';

/**
 * Every markdown file of three real GitBook repositories (git bundles under
 * /work/shared/fixtures): 1,286 pages of English and Traditional Chinese docs with hints,
 * tabs, figures, tables and code.
 */
describe.each<[FixtureBundleName, number]>([
  ['noislabs', 23],
  ['fluentd', 193],
  ['pgsqlTw', 1070],
])('real GitBook pages: %s', (name, expectedFiles) => {
  let bundle: ClonedBundle;
  const parsed = new Map<string, ParsedPageMarkdown>();

  beforeAll(() => {
    bundle = cloneFixtureBundle(name);
  });

  afterAll(() => bundle?.remove());

  it('converts every page without throwing', () => {
    expect(bundle.markdownFiles).toHaveLength(expectedFiles);
    const failures: string[] = [];
    for (const file of bundle.markdownFiles) {
      try {
        parsed.set(file.path, markdownToDocument(file.text));
      } catch (error) {
        failures.push(`${file.path}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('produces documents that match the JSONDocument schema', () => {
    const invalid = [...parsed].flatMap(([path, page]) => {
      const check = validateDocument(page.document);
      return check.valid ? [] : [`${path}: ${check.errors.join('; ')}`];
    });
    expect(invalid).toEqual([]);
    expect(parsed.size).toBe(expectedFiles);
  });

  it('shows no HTML written as markup as text (bench/html-leaks measures GitBook\'s own docs too)', () => {
    const leaking = bundle.markdownFiles.flatMap((file) => {
      const leaks = htmlLeaks(file.text);
      return leaks.length > 0 ? [`${file.path}: ${leaks.slice(0, 3).join(' ')}`] : [];
    });
    expect(leaking).toEqual([]);
  });

  it('reads its own markdown back as the same document, and writes it again identically', () => {
    const unstable: string[] = [];
    for (const [path, page] of parsed) {
      const markdown = documentToMarkdown(page.document, { frontMatter: page.frontMatter, title: page.title });
      const again = markdownToDocument(markdown);
      // Both documents come from markdownToDocument, so equal documents serialize identically.
      if (JSON.stringify(again.document) !== JSON.stringify(page.document) || again.title !== page.title || !isDeepStrictEqual(again.frontMatter, page.frontMatter)) {
        unstable.push(`${path}: document changed`);
      } else if (documentToMarkdown(again.document, { frontMatter: again.frontMatter, title: again.title }) !== markdown) {
        unstable.push(`${path}: markdown changed`);
      }
    }
    expect(unstable).toEqual([]);
    expect(parsed.size).toBe(expectedFiles);
  });
});

describe('fast parser state on real pages', () => {
  it('gives markdown-it token streams identical to a stock instance (noislabs docs)', () => {
    const bundle = cloneFixtureBundle('noislabs');
    try {
      const stock = new MarkdownIt({ html: true });
      const fast = new MarkdownIt({ html: true });
      useFastParserState(fast);
      const serialize = (md: MarkdownIt.MarkdownIt, text: string) => JSON.stringify(md.parse(text, {}));
      const different = bundle.markdownFiles.filter((file) => serialize(fast, file.text) !== serialize(stock, file.text)).map((file) => file.path);
      expect(different).toEqual([]);
    } finally {
      bundle.remove();
    }
  });
});
