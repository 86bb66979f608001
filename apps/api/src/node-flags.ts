/**
 * The V8 flags every API process is started with (package.json's `start` scripts, the Dockerfile,
 * docker-compose.yml, and the test and bench harness's ApiProcess; `node-flags.spec.ts` checks that
 * they all carry them): a young generation of a fixed 16 MB semi-space, V8's own largest.
 *
 * Why: V8 starts the young generation at 1 MB, grows it only as objects survive, and shrinks it
 * again when the process has been idle. An API replica idles between bursts, so a burst of searches
 * (1-2 MB of short-lived rows, strings and JSON each) ran on a 1-4 MB young generation for its first
 * seconds: a scavenge every request or two, each copying the live objects of the request in flight,
 * and promoting them early. In the growth benchmark, after the read loads, that was 2.2 ms of GC
 * pauses per search on average (120 scavenges for 352 searches, up to 70 ms each on the loaded
 * host); with a fixed 16 MB semi-space, 0.35-0.42 ms against 0.80-0.85 (3 rounds, both checkouts).
 * Not larger: 64 MB cut the pauses as much but cost org search 7-40% more CPU per request (its
 * cause not profiled) and 100 MB of RSS; 16 MB costs neither (364 MB peak at 100 spaces).
 * `--min-semi-space-size` has to be on the command line (NODE_OPTIONS does not take it).
 */
export const API_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16', '--max-semi-space-size=16'];
