/** A git import job: ids only; the request itself is the GitImportRequested event (its
 * credentials wait under gitRunSecretKey). */
export interface GitImportJob {
  spaceId: string;
  importId: string;
}
