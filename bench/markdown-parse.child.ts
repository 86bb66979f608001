/**
 * One converter of the `markdown-parse` instruction-count comparison, in a process of its own so
 * that valgrind counts it alone: loads the converter of the checkout at `converterDir`, then
 * converts every page of `pagesFile` (a JSON array of markdown strings) `passes` times.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

const [converterDir, pagesFile, passes] = process.argv.slice(2);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { markdownToDocument } = require(join(converterDir, 'libs/content/src/markdown')) as { markdownToDocument: (markdown: string) => unknown };
const pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as string[];
for (let pass = 0; pass < Number(passes); pass++) {
  for (const page of pages) markdownToDocument(page);
}
