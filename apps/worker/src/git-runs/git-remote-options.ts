import { join } from 'path';
import type { GitRunRequest } from '@quire/domain';
import type { GitRunSecret } from '@quire/jobs/git-run-secret';
import type { QuireConfig } from '@quire/platform/config/config';

/** How a git run reaches its remote, the same for imports and exports: the recorded request's
 * URL, branch, cache and project directory, its credentials, and the operator's allowed hosts. */
export function gitRemoteOptions(request: GitRunRequest, secret: GitRunSecret, config: Pick<QuireConfig, 'dataDir' | 'gitAllowedHosts'>) {
  return {
    url: request.url,
    ref: request.ref,
    auth: secret.auth,
    secretQuery: secret.query,
    cacheDir: join(config.dataDir, 'git-cache'),
    repoCacheId: request.repoCacheID,
    projectDirectory: request.repoProjectDirectory,
    allowedHosts: config.gitAllowedHosts,
  };
}
