/**
 * The V8 flags of the processes that rebuild read models and run jobs on their own: the worker
 * (package.json's `start:worker`, docker-compose.yml's worker) and the CLI (`npm run cli`, whose
 * `replay` rebuilds read models). `node-flags.spec.ts` checks that those commands carry them; the
 * test and bench harness's WorkerProcess and the replay bench start their processes with them.
 *
 * Why: a rebuild (and an import's projection) turns every event into short-lived objects (its rows
 * as parsed, the statements held and folded, their literals), a few hundred MB of garbage for
 * 20,000 events. On V8's default young generation (semi-spaces of at most 16 MB) the scavenges
 * took 14% of a rebuild's CPU profile. With semi-spaces of up to 64 MB a replay bench run
 * (bench/event-store.ts, BENCH_ONLY=replay, 5 rebuilds) took 42 scavenges instead of 83-84, their
 * pauses 0.6-0.8 s instead of 0.8-1.2 s, and the rebuild's CPU per event in node was 19.7 us
 * against 22.2 (medians of 8 and 7 runs alternating at load 0.1-7; single runs 17.8-21.5 against
 * 18.3-24.9, so the host's noise is as large as the gain). 128 MB gave no more. It costs up to
 * 96 MB more of young generation while a rebuild or an import runs (the worker's peak RSS in
 * bench/git-import: 309-348 MB against 261-289). The API keeps its own, smaller flags
 * (apps/api/src/node-flags.ts): it serves requests, where 64 MB cost org search CPU.
 */
export const WORKER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
