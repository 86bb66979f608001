/**
 * The V8 flags every API process is started with (package.json's `start` scripts, the Dockerfile,
 * docker-compose.yml, and the test and bench harness's ApiProcess; `node-flags.spec.ts` checks that
 * they all carry them): a young generation of a fixed 64 MB semi-space.
 *
 * Why: V8 starts the young generation at 1 MB, grows it only as objects survive, and shrinks it
 * again when the process has been idle. An API replica idles between bursts, so a burst of searches
 * (1-2 MB of short-lived rows, strings and JSON each) ran on a 1-4 MB young generation for its first
 * seconds: a scavenge every request or two, each copying the live objects of the request in flight,
 * and promoting them early. In the growth benchmark, after the read loads, that was 2.2 ms of GC
 * pauses per search on average (120 scavenges for 352 searches, up to 70 ms each on the loaded
 * host); with the fixed 64 MB semi-space, 0.3-0.5 ms (10-18 scavenges). It costs up to 128 MB of
 * RSS (both semi-spaces, committed while in use): 433 MB against 327 MB at 100 spaces.
 * `--min-semi-space-size` has to be on the command line (NODE_OPTIONS does not take it).
 */
export const API_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=64', '--max-semi-space-size=64'];
