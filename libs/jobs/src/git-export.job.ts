/** A git export job: ids only; the request itself is the GitExportRequested event. */
export interface GitExportJob {
  spaceId: string;
  exportId: string;
}

/** Where an export's credentials wait for the job (a short-lived key, deleted when it settles).
 * What waits there has the import's shape (GitImportSecret): credentials taken out of a URL. */
export function gitExportSecretKey(prefix: string, exportId: string): string {
  return `${prefix}:secret:git-export:${exportId}`;
}
