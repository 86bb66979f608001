import type { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import type { SemanticChange } from '@quire/content/revision';
import { ContentPresenterContext, presentCover, presentFile, presentLayout } from '../../content/content.presenter';

/**
 * GitBook's RevisionSemanticChanges: the first `limit` changes, how many more there are, and the
 * merged change request. A file's downloadURL gives its bytes in the revision that has them (the
 * earlier one for a deleted file).
 */
export function presentSemanticChanges(ctx: ContentPresenterContext, changes: readonly SemanticChange[], limit: number, revisions: { before?: string; after: string }, mergedFrom?: unknown) {
  const after = { ...ctx, filesRevision: revisions.after };
  const before = { ...ctx, filesRevision: revisions.before };
  return {
    changes: changes.slice(0, limit).map((c) => presentChange(c.type === 'file_deleted' ? before : after, c)),
    ...(changes.length > limit ? { more: changes.length - limit } : {}),
    ...(mergedFrom ? { mergedFrom } : {}),
  };
}

function presentChange(ctx: ContentPresenterContext, change: SemanticChange): any {
  switch (change.type) {
    case 'page_created':
    case 'page_deleted':
      return { type: change.type, page: changedPage(change.page) };
    case 'page_moved': {
      const parent: any = {};
      if (change.parent.before) parent.before = changedPage(change.parent.before);
      if (change.parent.after) parent.after = changedPage(change.parent.after);
      return { type: change.type, page: changedPage(change.page), parent };
    }
    case 'page_edited': {
      const a = change.attributes;
      const attributes: any = {};
      for (const key of ['title', 'description', 'slug', 'document', 'emoji'] as const) if (a[key]) attributes[key] = a[key];
      if (a.cover) attributes.cover = sides(a.cover, presentCover);
      if (a.layout) attributes.layout = sides(a.layout, presentLayout);
      if (a.target) attributes.target = sides(a.target, (url) => ({ kind: 'url', url }));
      return { type: change.type, page: changedPage(change.page), attributes };
    }
    case 'file_created':
    case 'file_deleted':
      return { type: change.type, file: changedFile(ctx, change.file) };
    case 'file_edited':
      return { type: change.type, file: changedFile(ctx, change.file), attributes: change.attributes };
  }
}

function sides<T>(change: { before?: T; after?: T }, present: (value: T) => unknown) {
  return { ...(change.before !== undefined ? { before: present(change.before) } : {}), ...(change.after !== undefined ? { after: present(change.after) } : {}) };
}

/** GitBook's ChangedRevisionPage. */
function changedPage(page: RevisionPageNode) {
  const type = page.kind === 'sheet' ? 'document' : page.kind;
  return { id: page.id, type, title: page.title, ...(page.kind !== 'link' ? { path: page.path } : {}) };
}

/** GitBook's ChangedRevisionFile. */
function changedFile(ctx: ContentPresenterContext, file: RevisionFileNode) {
  const { id, name, contentType, downloadURL } = presentFile(ctx, file);
  return { id, name, contentType, downloadURL };
}
