/**
 * One converter of the `markdown-parse` instruction-count comparison, in a process of its own so
 * that valgrind counts it alone: loads the converter of the checkout at `converterDir`, then
 * converts every page of `pagesFile` (a JSON array of markdown strings) `passes` times, and
 * prints the CPU time of each pass.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

const [converterDir, pagesFile, passes] = process.argv.slice(2);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { markdownToDocument } = require(join(converterDir, 'libs/content/src/markdown')) as { markdownToDocument: (markdown: string) => unknown };
const pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as string[];
const cpuMilliseconds: number[] = [];
for (let pass = 0; pass < Number(passes); pass++) {
  const started = process.cpuUsage();
  for (const page of pages) markdownToDocument(page);
  const used = process.cpuUsage(started);
  cpuMilliseconds.push((used.user + used.system) / 1000);
}
// CPU time of each pass, for comparisons by process rather than by instruction count.
console.log(JSON.stringify({ cpuMilliseconds }));
