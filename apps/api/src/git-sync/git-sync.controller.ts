import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { DomainError, spacePermissions } from '@quire/domain';
import { parseRemoteUrl, redactUrl } from '@quire/content/import';
import { GitImportQueries } from '@quire/read-models/git-imports/git-imports.queries';
import { paginationQuery } from '@quire/platform/http/pagination';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { ImportGitRepositoryCommand } from './import-git-repository/import-git-repository.command';

const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** GitBook's ImportGitRepository body. */
const importBody = z.object({
  url: httpUrl,
  ref: z.string().regex(/^refs\/(heads|tags)\/[^\s~^:?*[\\]+$/, 'must be refs/heads/<branch> or refs/tags/<tag>'),
  repoCacheID: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be a plain name (letters, digits, . _ -)').optional(),
  repoTreeURL: httpUrl.optional(),
  repoCommitURL: httpUrl.optional(),
  repoProjectDirectory: z
    .string()
    .max(512)
    .refine((p) => !p.split('/').includes('..') && !p.startsWith('/'), 'must be a relative path inside the repository')
    .optional(),
  timestamp: z.string().datetime({ offset: true }).optional(),
  force: z.boolean().optional(),
  standalone: z.boolean().optional(),
  gitInfo: z.object({ provider: z.enum(['github', 'gitlab']).optional(), url: z.string().max(2048).optional() }).optional(),
});

const listQuery = z.object(paginationQuery);

@Controller('v1/spaces/:spaceId/git')
export class GitSyncController {
  constructor(
    private readonly access: AccessService,
    private readonly commands: CommandBus,
    private readonly imports: GitImportQueries,
  ) {}

  /** GitBook's importGitRepository: validated, recorded, queued; 204 at once. */
  @Post('import')
  @HttpCode(204)
  async import(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { space, role } = await this.access.spaceAccess(caller, spaceId, 'read');
    if (!spacePermissions(role, space.edit_mode).triggerGitSync) throw new DomainError('forbidden', 'You need the edit role (and an unlocked space) to trigger a git sync');
    const input = parseInput(importBody, body);
    // Credentials (user:password@, ?private_token=...) leave every URL before anything is
    // recorded; those of the clone URL travel with the job for the fetch, the others are dropped.
    const { url, auth, secretQuery } = parseRemoteUrl(input.url);
    const credentials = auth || secretQuery ? { ...(auth ? { auth } : {}), ...(secretQuery ? { query: secretQuery } : {}) } : undefined;
    const gitInfo = input.gitInfo && { ...input.gitInfo, ...(input.gitInfo.url !== undefined ? { url: redactUrl(input.gitInfo.url) } : {}) };
    await this.commands.execute(
      new ImportGitRepositoryCommand(
        spaceId,
        {
          url,
          ref: input.ref,
          repoCacheID: input.repoCacheID,
          repoTreeURL: input.repoTreeURL && redactUrl(input.repoTreeURL),
          repoCommitURL: input.repoCommitURL && redactUrl(input.repoCommitURL),
          repoProjectDirectory: input.repoProjectDirectory?.replace(/^\.\/|\/+$/g, '') || undefined,
          timestamp: input.timestamp,
          force: input.force,
          standalone: input.standalone,
          gitInfo,
          hasCredentials: !!credentials,
        },
        credentials,
        caller.user.id,
      ),
    );
  }

  /** Quire's own: the space's import runs, newest first. */
  @Get('imports')
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    const q = parseInput(listQuery, query, 'query');
    return this.imports.list(spaceId, q);
  }
}
