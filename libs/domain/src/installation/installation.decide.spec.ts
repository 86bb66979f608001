import { decideInstallation } from './installation.decide';
import { installationAggregate } from './installation.state';

describe('installation', () => {
  it('is created once: a new installation takes the id it is given', () => {
    const events = decideInstallation({ type: 'EnsureInstallation', installationId: 'inst-a' }, installationAggregate.initialState());
    expect(events).toEqual([{ type: 'InstallationCreated', data: { installationId: 'inst-a' } }]);
  });

  it('keeps its id: ensuring it again decides nothing', () => {
    const state = installationAggregate.evolve(installationAggregate.initialState(), { type: 'InstallationCreated', data: { installationId: 'inst-a' } });
    expect(decideInstallation({ type: 'EnsureInstallation', installationId: 'inst-b' }, state)).toEqual([]);
    expect(state.installationId).toBe('inst-a');
  });

  it('folds to the first id even if a second creation were recorded', () => {
    let state = installationAggregate.initialState();
    state = installationAggregate.evolve(state, { type: 'InstallationCreated', data: { installationId: 'inst-a' } });
    state = installationAggregate.evolve(state, { type: 'InstallationCreated', data: { installationId: 'inst-b' } });
    expect(state.installationId).toBe('inst-a');
  });
});
