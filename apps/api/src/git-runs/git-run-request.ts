import { z } from 'zod';
import type { GitRunRequest } from '@quire/domain';
import { parseRemoteUrl, redactUrl } from '@quire/content/import';
import type { GitRunSecret } from '@quire/jobs/git-run-secret';
import { httpUrl } from '../http/validation';

/** GitBook's ImportGitRepository body; the export's body adds to it (git-export's DTO). */
export const gitRunBody = z.object({
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

/**
 * A validated body as it is recorded, and the credentials it carried. Credentials
 * (user:password@, ?private_token=...) leave every URL before anything is recorded; those of the
 * remote's URL travel with the job (gitRunSecretKey), the others are dropped.
 */
export function recordedGitRunRequest(input: z.infer<typeof gitRunBody>): { request: GitRunRequest; credentials: GitRunSecret | undefined } {
  const { url, auth, secretQuery } = parseRemoteUrl(input.url);
  const credentials = auth || secretQuery ? { ...(auth ? { auth } : {}), ...(secretQuery ? { query: secretQuery } : {}) } : undefined;
  const gitInfo = input.gitInfo && { ...input.gitInfo, ...(input.gitInfo.url !== undefined ? { url: redactUrl(input.gitInfo.url) } : {}) };
  const request: GitRunRequest = {
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
  };
  return { request, credentials };
}
