import { SingleBar, Presets } from 'cli-progress';
import { Runtime } from '@quire/infrastructure/runtime';
import { rebuildProjections } from '@quire/projections/rebuild';

/**
 * `npm run cli -- replay [projection...]`: rebuilds read models into fresh tables from every
 * event, showing progress, and swaps them in when caught up; the API keeps serving the old
 * tables meanwhile.
 */
export async function replay(runtime: Runtime, names: string[], out: NodeJS.WriteStream = process.stderr): Promise<void> {
  const all = runtime.projector.projections;
  const unknown = names.filter((n) => !all.some((p) => p.name === n));
  if (unknown.length) {
    throw new Error(`Unknown projection(s): ${unknown.join(', ')}. Known: ${all.map((p) => p.name).join(', ')}`);
  }
  const chosen = names.length ? all.filter((p) => names.includes(p.name)) : all;
  // One pass over the events for all of them: reading the store is a good part of a replay.
  const label = chosen.length === 1 ? chosen[0].name : `${chosen.length} read models`;
  const bar = new SingleBar(
    { format: `${label.padEnd(16)} {bar} {percentage}% | {value}/{total} events | {speed} events/s | ETA {eta_formatted}`, stream: out, noTTYOutput: true, notTTYSchedule: 2000 },
    Presets.shades_classic,
  );
  bar.start(1, 0, { speed: 0 });
  const result = await rebuildProjections({
    db: runtime.db,
    store: runtime.store,
    projections: chosen,
    onProgress: (p) => {
      bar.setTotal(p.total);
      bar.update(p.events, { speed: Math.round(p.eventsPerSecond) });
    },
  });
  bar.update(result.events, { speed: Math.round(result.events / Math.max(result.seconds, 0.001)) });
  bar.stop();
  for (const projection of chosen) out.write(`${projection.name}: rebuilt from ${result.events} events in ${result.seconds.toFixed(2)} s\n`);
}
