import { Queryable } from '@quire/platform/db/db';
import { Projection, TableNamer } from '@quire/projections/projection';
import { encodeLevel, SpaceChanges } from '@quire/domain';
import { OPEN_COMMENT_EVENTS, openCommentsDelta } from '../comments/open-comments';

/**
 * One row per space with everything GitBook's Space shows. The change-request counters and
 * `comments` start at zero and are kept here for the change-request events to update; `revision`
 * follows SpaceRevisionChanged; `git_sync` stays null until an import ran.
 */
export const spacesProjection: Projection = {
  name: 'spaces',
  // 2: the visibility column. 3: git_sync shows the last import that ran (requested imports
  // wait in git_sync_pending until they start; a skipped one never shows). 4: share_generation.
  // 5: git_sync shows exports too (the last import or export that ran). 6: `comments` counts
  // the space's open comments.
  version: 6,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_spaces'],
  handles: ['SpaceCreated', 'SpaceUpdated', 'SpaceDeleted', 'SpaceRestored', 'SpaceRevisionChanged', 'GitImportRequested', 'GitImportStarted', 'GitImportCompleted', 'GitImportFailed', 'GitImportSkipped',
    'GitExportRequested', 'GitExportStarted', 'GitExportCompleted', 'GitExportFailed', 'GitExportSkipped',
    'ChangeRequestCreated', 'ChangeRequestStatusChanged', 'ChangeRequestMerged', ...OPEN_COMMENT_EVENTS],
  schema: (t) => `
    CREATE TABLE ${t('rm_spaces')} (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      parent text,
      title text NOT NULL,
      emoji text,
      icon text,
      language text,
      edit_mode text NOT NULL,
      default_level text NOT NULL,
      merge_rules jsonb NOT NULL,
      visibility text,
      -- How many times the space became share-link: part of its share key, so going back to
      -- share-link after another visibility revokes the links handed out before.
      share_generation int NOT NULL DEFAULT 0,
      revision text NOT NULL,
      initial_revision text NOT NULL,
      empty boolean NOT NULL DEFAULT false,
      duplicated_from text,
      duplicated_from_revision text,
      git_sync jsonb,
      git_sync_pending jsonb,
      change_requests int NOT NULL DEFAULT 0,
      change_requests_open int NOT NULL DEFAULT 0,
      change_requests_draft int NOT NULL DEFAULT 0,
      comments int NOT NULL DEFAULT 0,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz);
    CREATE INDEX rm_spaces_org_created ON ${t('rm_spaces')} (organization_id, created_at, id);
    CREATE INDEX rm_spaces_parent_created ON ${t('rm_spaces')} (parent, created_at, id) WHERE parent IS NOT NULL;
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    switch (event.type) {
      case 'SpaceCreated':
        // The change-request counters named (zero) rather than left to their default: a rebuild
        // folds the space's later updates, counters included, into this INSERT.
        await tx.query(
          `INSERT INTO ${t('rm_spaces')} (id, organization_id, parent, title, emoji, icon, language, edit_mode, default_level, merge_rules,
             revision, initial_revision, empty, duplicated_from, duplicated_from_revision, created_by, created_at, updated_at,
             change_requests, change_requests_open, change_requests_draft)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$11,$12,$13,$14,$15,$16,$16,$17,$17,$17) ON CONFLICT (id) DO NOTHING`,
          [
            d.spaceId,
            d.organizationId,
            d.parent ?? null,
            d.title,
            d.emoji ?? null,
            d.icon ?? null,
            d.language ?? null,
            d.editMode,
            encodeLevel(d.defaultLevel),
            JSON.stringify(d.mergeRules),
            d.initialRevision,
            d.empty ?? false,
            d.duplicatedFrom ?? null,
            d.duplicatedFromRevision ?? null,
            d.createdBy,
            d.createdAt,
            0,
          ],
        );
        break;
      case 'SpaceUpdated': {
        const c = d.changes as SpaceChanges;
        const sets: string[] = [];
        const params: unknown[] = [d.spaceId, d.at];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (c.title !== undefined) set('title', c.title);
        if (c.emoji !== undefined) set('emoji', c.emoji);
        if (c.icon !== undefined) set('icon', c.icon);
        if (c.editMode !== undefined) set('edit_mode', c.editMode);
        if (c.language !== undefined) set('language', c.language);
        if (c.defaultLevel !== undefined) set('default_level', encodeLevel(c.defaultLevel));
        if (c.mergeRules !== undefined) set('merge_rules', JSON.stringify(c.mergeRules));
        if (c.visibility !== undefined) set('visibility', c.visibility);
        // SpaceUpdated carries only what changed, so each one setting share-link is a new link.
        if (c.visibility === 'share-link') sets.push('share_generation = share_generation + 1');
        await tx.query(`UPDATE ${t('rm_spaces')} SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`, params);
        break;
      }
      case 'SpaceDeleted':
        await tx.query(`UPDATE ${t('rm_spaces')} SET deleted_at = $2, updated_at = $2 WHERE id = $1`, [d.spaceId, d.at]);
        break;
      case 'SpaceRestored':
        await tx.query(`UPDATE ${t('rm_spaces')} SET deleted_at = NULL, updated_at = $2 WHERE id = $1`, [d.spaceId, d.at]);
        break;
      case 'GitImportRequested':
      case 'GitImportStarted':
      case 'GitImportCompleted':
      case 'GitImportFailed':
      case 'GitImportSkipped':
      case 'GitExportRequested':
      case 'GitExportStarted':
      case 'GitExportCompleted':
      case 'GitExportFailed':
      case 'GitExportSkipped':
        await applyGitSync(event.type, d, tx, t);
        break;
      // Change-request counters: each status change carries the status it leaves.
      case 'ChangeRequestCreated':
      case 'ChangeRequestStatusChanged':
      case 'ChangeRequestMerged': {
        const from: string | null = event.type === 'ChangeRequestCreated' ? null : d.from;
        const to: string = event.type === 'ChangeRequestCreated' ? 'draft' : event.type === 'ChangeRequestMerged' ? 'merged' : d.to;
        await tx.query(
          `UPDATE ${t('rm_spaces')} SET change_requests = change_requests + $2,
             change_requests_open = change_requests_open + $3, change_requests_draft = change_requests_draft + $4 WHERE id = $1`,
          [d.spaceId, from === null ? 1 : 0, (to === 'open' ? 1 : 0) - (from === 'open' ? 1 : 0), (to === 'draft' ? 1 : 0) - (from === 'draft' ? 1 : 0)],
        );
        break;
      }
      case 'CommentPosted':
      case 'CommentResolved':
      case 'CommentReopened':
      case 'CommentDeleted': {
        const moved = openCommentsDelta(event);
        if (moved && !moved.changeRequestId) await tx.query(`UPDATE ${t('rm_spaces')} SET comments = comments + $2 WHERE id = $1`, [moved.spaceId, moved.delta]);
        break;
      }
      case 'SpaceRevisionChanged':
        await tx.query(`UPDATE ${t('rm_spaces')} SET revision = $2, updated_at = greatest(updated_at, $3) WHERE id = $1`, [
          d.spaceId,
          d.revision,
          event.recordedAt,
        ]);
        break;
    }
  },
};

/**
 * GitBook's GitSyncState on the space: the repository and operation of the last import or
 * export that ran (started), the current one's state included. A requested run waits in
 * `git_sync_pending` (by import or export id) until it starts, so one that is skipped, or
 * still queued, never replaces what the space shows; standalone runs never show. Quire syncs
 * with any git host over HTTP; the provider is the one named by the request (gitInfo) or
 * recognised from the URL, GitHub's otherwise (the schema allows no other).
 */
async function applyGitSync(type: string, d: any, tx: Queryable, t: TableNamer): Promise<void> {
  const r = await tx.query<{ git_sync: any; git_sync_pending: any }>(`SELECT git_sync, git_sync_pending FROM ${t('rm_spaces')} WHERE id = $1`, [d.spaceId]);
  if (!r.rows[0]) return;
  let state = r.rows[0].git_sync;
  const pending: Record<string, any> = r.rows[0].git_sync_pending ?? {};
  const direction = type.startsWith('GitExport') ? 'export' : 'import';
  const step = type.replace(/^Git(Import|Export)/, '');
  const runId: string = direction === 'export' ? (d.exportId ?? d.request?.exportId) : (d.importId ?? d.request?.importId);

  if (step === 'Requested') {
    const req = d.request;
    if (req.standalone) return;
    const provider = req.gitInfo?.provider ?? (/gitlab/i.test(req.url) ? 'gitlab' : 'github');
    pending[runId] = {
      installationId: `git-${d.spaceId}`,
      installationProvider: provider,
      installationStatus: 'active',
      repoName: req.url.replace(/^https?:\/\/[^/]+\//, '').replace(/\.git$/, ''),
      ...(req.repoTreeURL || req.gitInfo?.url ? { url: req.repoTreeURL ?? req.gitInfo.url } : {}),
    };
  } else if (step === 'Skipped') {
    delete pending[runId];
  } else if (pending[runId]) {
    // The run starts (or failed before it could start): from now on the space shows it.
    state = { ...pending[runId], operation: { state: 'running', direction, startedAt: d.at }, [direction === 'export' ? 'exportId' : 'importId']: runId };
    if (direction === 'export') delete state.importId;
    else delete state.exportId;
    delete pending[runId];
  }
  // Later events only touch the operation of the run the state describes.
  const described = direction === 'export' ? state?.exportId : state?.importId;
  if (step !== 'Requested' && step !== 'Skipped' && described === runId) {
    if (step === 'Started') state.operation = { ...state.operation, state: 'running', startedAt: d.at };
    if (step === 'Completed') state.operation = { ...state.operation, state: 'success', endedAt: d.at };
    if (step === 'Failed') state.operation = { ...state.operation, state: 'failure', endedAt: d.at, error: d.message };
    state.updatedAt = d.at;
  }
  await tx.query(`UPDATE ${t('rm_spaces')} SET git_sync = $2, git_sync_pending = $3 WHERE id = $1`, [
    d.spaceId,
    state ? JSON.stringify(state) : null,
    Object.keys(pending).length ? JSON.stringify(pending) : null,
  ]);
}
