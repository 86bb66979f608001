import { decideInstallation, INSTALLATION_STREAM, installationAggregate } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';

/**
 * This installation's id: read from its stream, or created there at the very first start.
 * Processes starting together over one empty store race on the stream's expected version; the
 * loser decides again and reads the winner's id.
 */
export async function ensureInstallation(executor: CommandExecutor): Promise<string> {
  const { state } = await executor.execute({
    stream: INSTALLATION_STREAM,
    aggregate: installationAggregate,
    decide: (current) => decideInstallation({ type: 'EnsureInstallation', installationId: newId() }, current),
  });
  return state.installationId!;
}
