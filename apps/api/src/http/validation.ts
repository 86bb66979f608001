import { z, ZodError, ZodType } from 'zod';
import { badRequest } from '@quire/domain';

export function zodMessage(err: ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** Validates one input at the edge; a failure is a 400 that names the field. */
export function parseInput<T extends ZodType>(schema: T, value: unknown, where = 'body'): z.infer<T> {
  const r = schema.safeParse(value ?? (where === 'body' ? {} : value));
  if (!r.success) throw badRequest(`Invalid ${where}: ${zodMessage(r.error)}`);
  return r.data;
}

export const entityId = z.string().regex(/^[a-zA-Z0-9_-]+$/).max(100);
/** Query booleans arrive as strings. */
export const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** An absolute http(s) URL (at most 2048 characters). */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');
