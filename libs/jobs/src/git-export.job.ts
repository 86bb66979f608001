/** A git export job: ids only; the request itself is the GitExportRequested event (its
 * credentials wait under gitRunSecretKey). */
export interface GitExportJob {
  spaceId: string;
  exportId: string;
}
