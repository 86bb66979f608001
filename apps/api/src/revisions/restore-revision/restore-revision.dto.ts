import { z } from 'zod';
import { entityId } from '../../http/validation';

/** Without `page`, the whole revision is restored. */
export const restoreRevisionBody = z.object({ page: entityId.optional() }).strict();
