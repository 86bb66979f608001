import { DomainError, spacePermissions } from '@quire/domain';
import { Caller } from '../http/auth';
import { AccessService } from '../permissions/access.service';

/** Who may start an import or an export of a space: GitBook's triggerGitSync (edit role, unlocked space). */
export async function checkCanTriggerGitSync(access: AccessService, caller: Caller, spaceId: string): Promise<void> {
  const { space, role } = await access.spaceAccess(caller, spaceId, 'read');
  if (!spacePermissions(role, space.edit_mode).triggerGitSync) throw new DomainError('forbidden', 'You need the edit role (and an unlocked space) to trigger a git sync');
}
