/** A dependency the process cannot start without (the database, Redis) is missing: one clear line, no stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
