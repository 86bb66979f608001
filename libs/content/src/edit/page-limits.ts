import { badRequest } from '@quire/domain';
import { parseMarkdownTokens } from '../markdown/parse-markdown';
import { splitPageText } from './page-text';

/** What one page may hold: every anonymous view of a published page pays for its size. */
export interface PageLimits {
  /** Bytes of the page's markdown (UTF-8), front matter included. */
  maxBytes: number;
  /** Blocks at every depth: headings, paragraphs, list items, code blocks, GitBook blocks... */
  maxBlocks: number;
}

/** Fails with 400 when a page a batch writes holds more than the limits allow. */
export function assertWithinPageLimits(text: string, limits: PageLimits, where: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    throw badRequest(`${where}: the page is ${bytes} bytes long; a page may hold at most ${limits.maxBytes} bytes (split it into several pages)`);
  }
  const blocks = countBlocks(splitPageText(text).body);
  if (blocks > limits.maxBlocks) {
    throw badRequest(`${where}: the page has ${blocks} blocks; a page may hold at most ${limits.maxBlocks} blocks (split it into several pages)`);
  }
}

/** Block tokens that open a block or are one (a fence, a rule); closing and inline tokens are not counted. */
function countBlocks(text: string): number {
  let blocks = 0;
  for (const token of parseMarkdownTokens(text)) if (token.block && token.nesting !== -1 && token.type !== 'inline') blocks++;
  return blocks;
}
