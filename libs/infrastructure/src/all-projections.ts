import { Projection } from '@quire/projections/projection';
import { identityProjection } from '@quire/read-models/identity/identity.projection';

/** Every read model of the product; the projector runs them, `replay` rebuilds them. */
export const ALL_PROJECTIONS: Projection[] = [identityProjection];
