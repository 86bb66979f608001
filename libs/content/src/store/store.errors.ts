export type ContentStoreErrorCode =
  /** The commit does not exist in the space's repository (or is not a commit). */
  | 'revision_not_found'
  /** A blob or tree named by oid does not exist in the space's repository. */
  | 'object_not_found'
  /** A file path cannot be stored: empty or `.`/`..` segments, `.git`, NUL, or a path that
   * is both a file and a folder. */
  | 'invalid_path'
  /** Space ids become directory names, so only GitBook-style ids are accepted. */
  | 'invalid_space_id';

export class ContentStoreError extends Error {
  constructor(
    readonly code: ContentStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class RevisionNotFoundError extends ContentStoreError {
  constructor(
    readonly spaceId: string,
    readonly revision: string,
  ) {
    super('revision_not_found', `Revision ${revision} does not exist in space ${spaceId}`);
  }
}

export class ObjectNotFoundError extends ContentStoreError {
  constructor(
    readonly spaceId: string,
    readonly oid: string,
    readonly path?: string,
  ) {
    super('object_not_found', `Object ${oid}${path ? ` (${path})` : ''} does not exist in space ${spaceId}`);
  }
}

export class InvalidPathError extends ContentStoreError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super('invalid_path', `Cannot store ${JSON.stringify(path)}: ${reason}`);
  }
}

export class InvalidSpaceIdError extends ContentStoreError {
  constructor(readonly spaceId: string) {
    super('invalid_space_id', `${JSON.stringify(spaceId)} is not a valid space id`);
  }
}
