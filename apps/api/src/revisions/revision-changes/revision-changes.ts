import { Injectable } from '@nestjs/common';
import { notFound } from '@quire/domain';
import { semanticChanges, SemanticChange } from '@quire/content/revision';
import { LruCache } from '@quire/content/store/lru-cache';
import { ContentQueries } from '@quire/read-models/content/content.queries';

/** Changes kept in memory, counted by change (a 1,000-page import is about a thousand). */
const CACHED_CHANGES = 200_000;

/**
 * Semantic changes between two revisions of a space. Revisions are immutable, so the changes
 * between two of them are computed once and kept (by revision ids) while they are used.
 */
@Injectable()
export class RevisionChanges {
  private readonly cache = new LruCache<SemanticChange[]>(CACHED_CHANGES, (changes) => changes.length + 1);

  constructor(private readonly content: ContentQueries) {}

  /** From `before` (none: from an empty space) to `after`; both must be revisions of the space. */
  async between(spaceId: string, before: string | undefined, after: string): Promise<SemanticChange[]> {
    const key = `${spaceId}:${before ?? ''}:${after}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const [from, to] = await Promise.all([before ? this.content.revision(spaceId, before) : { pages: [], files: [] }, this.content.revision(spaceId, after)]);
    if (!from || !to) throw notFound('Revision not found in this space');
    const changes = semanticChanges(from, to);
    this.cache.set(key, changes);
    return changes;
  }
}
