/** The author written into commits made for a user. */
export function commitAuthor(actorId: string): { name: string; email: string } {
  return { name: actorId, email: `${actorId}@users.quire.invalid` };
}
