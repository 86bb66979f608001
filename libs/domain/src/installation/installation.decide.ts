import { InstallationEvent } from './installation.events';
import { InstallationState } from './installation.state';

/** Give the installation an identity, unless it has one: processes starting together agree on the first. */
export interface EnsureInstallation {
  type: 'EnsureInstallation';
  /** A fresh id, used only when the installation has none yet. */
  installationId: string;
}

export function decideInstallation(command: EnsureInstallation, state: InstallationState): InstallationEvent[] {
  if (state.installationId) return [];
  return [{ type: 'InstallationCreated', data: { installationId: command.installationId } }];
}
