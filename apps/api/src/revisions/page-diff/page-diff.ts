import { Injectable } from '@nestjs/common';
import { structuredPatch, formatPatch, type StructuredPatch } from 'diff';
import { unprocessable } from '@quire/domain';
import { LruCache } from '@quire/content/store/lru-cache';
import { ContentQueries } from '@quire/read-models/content/content.queries';

/** A diff that takes longer than this (two very long, very different texts) is refused rather than hogging the process. */
const DIFF_TIMEOUT_MS = 2_000;
/** Patches kept, counted in characters. */
const CACHED_CHARACTERS = 16 << 20;

export interface PageSide {
  revision: string;
  /** The page as this revision has it; absent when the page is not in it. */
  page?: { title: string; path: string; kind: string };
  markdown: string;
}

export interface PageDiff {
  from: PageSide;
  to: PageSide;
  patch: StructuredPatch;
}

/**
 * The textual diff of one page's markdown between two revisions of its space (the `diff`
 * library's unified diff, 3 lines of context). Both revisions are immutable, so a diff is
 * computed once per pair and kept.
 */
@Injectable()
export class PageDiffs {
  private readonly cache = new LruCache<PageDiff>(CACHED_CHARACTERS, (d) => d.from.markdown.length + d.to.markdown.length + 1);

  constructor(private readonly content: ContentQueries) {}

  async between(spaceId: string, pageId: string, from: string, to: string): Promise<PageDiff> {
    const key = `${spaceId}:${pageId}:${from}:${to}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const [before, after] = await Promise.all([this.side(spaceId, pageId, from), this.side(spaceId, pageId, to)]);
    const path = (side: PageSide) => side.page?.path || pageId;
    const patch = structuredPatch(`a/${path(before)}`, `b/${path(after)}`, before.markdown, after.markdown, from, to, { context: 3, timeout: DIFF_TIMEOUT_MS });
    if (!patch) throw unprocessable('These two versions of the page are too far apart to compare');
    const diff = { from: before, to: after, patch };
    this.cache.set(key, diff);
    return diff;
  }

  private async side(spaceId: string, pageId: string, revision: string): Promise<PageSide> {
    const row = await this.content.page(spaceId, revision, { id: pageId }, 'markdown');
    if (!row) return { revision, markdown: '' };
    return { revision, page: { title: row.node.title, path: row.path, kind: row.kind }, markdown: row.markdown ?? '' };
  }
}

/** The unified diff text of a page diff (what `git diff` would print for its file). */
export function unifiedText(diff: PageDiff): string {
  return diff.patch.hunks.length === 0 ? '' : formatPatch(diff.patch);
}
