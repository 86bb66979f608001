import { Inject, Injectable } from '@nestjs/common';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { hashToken, INSTANCE_ADMIN_ID } from '../http/auth';

export type OperatorAccess = 'admin' | 'forbidden' | 'unauthenticated';

/**
 * Who may see the operator pages served outside Nest's router (Bull Board): the instance
 * administrator (QUIRE_ADMIN_TOKEN, or a user flagged instance admin). The token comes as
 * `Authorization: Bearer <token>`, or as the password of HTTP Basic auth, so a browser can open
 * the dashboard through its login prompt.
 */
@Injectable()
export class OperatorAuth {
  private readonly adminHash?: string;

  constructor(
    private readonly identity: IdentityQueries,
    @Inject(QUIRE_CONFIG) config: QuireConfig,
  ) {
    this.adminHash = config.adminToken ? hashToken(config.adminToken) : undefined;
  }

  async check(authorization: string | undefined): Promise<OperatorAccess> {
    const token = tokenOf(authorization);
    if (!token) return 'unauthenticated';
    const hash = hashToken(token);
    if (this.adminHash && hash === this.adminHash) return (await this.identity.user(INSTANCE_ADMIN_ID)) ? 'admin' : 'unauthenticated';
    const user = await this.identity.userByTokenHash(hash);
    if (!user) return 'unauthenticated';
    return user.instance_admin ? 'admin' : 'forbidden';
  }
}

function tokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
}
