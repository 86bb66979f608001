import { z } from 'zod';
import { httpUrl } from '../../http/validation';

/** GitBook's ImportGitRepository body. */
export const importBody = z.object({
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
