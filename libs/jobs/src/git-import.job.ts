/** A git import job: ids only; the request itself is the GitImportRequested event. */
export interface GitImportJob {
  spaceId: string;
  importId: string;
}

/** Where an import's credentials wait for the job (a short-lived key, deleted when done). */
export function gitImportSecretKey(prefix: string, importId: string): string {
  return `${prefix}:secret:git-import:${importId}`;
}
