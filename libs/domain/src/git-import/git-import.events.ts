import { GitRunRequest } from '../git-run/git-run';
import { DomainEvent } from '../shared/event';

/** The request as recorded: the URL never carries credentials (they travel only with the job). */
export interface GitImportRequest extends GitRunRequest {
  importId: string;
}

export type GitImportRequested = DomainEvent<'GitImportRequested', { spaceId: string; request: GitImportRequest; requestedBy: string; at: string }>;
export type GitImportStarted = DomainEvent<'GitImportStarted', { spaceId: string; importId: string; at: string }>;
export type GitImportCompleted = DomainEvent<
  'GitImportCompleted',
  { spaceId: string; importId: string; revision: string; commit: { oid: string; message: string }; standalone: boolean; warnings: string[]; at: string }
>;
export type GitImportFailed = DomainEvent<'GitImportFailed', { spaceId: string; importId: string; code: string; message: string; at: string }>;
/** An import older (by its `timestamp`) than an import or export already applied to the space. */
export type GitImportSkipped = DomainEvent<'GitImportSkipped', { spaceId: string; importId: string; reason: string; at: string }>;

export type GitImportEvent = GitImportRequested | GitImportStarted | GitImportCompleted | GitImportFailed | GitImportSkipped;
