import 'reflect-metadata';
import { loadConfig } from '@quire/platform/config/config';
import { Runtime } from '@quire/infrastructure/runtime';
import { replay } from './replay/replay.command';
import { jobsCommand } from './jobs/jobs.command';
import { backfillRefs } from './refs/refs.command';
import { check } from './check/check.command';
import { backup } from './backup/backup.command';
import { restore } from './restore/restore.command';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  replay [projection...]   Rebuild read models (all, or the named ones) from the events
  projections              Show each projection's version, checkpoint and health
  refs                     Write the git refs (live branch, revision tips) of space repositories
                           created before Quire kept them; safe to run again (and beside a server on PostgreSQL)
  check                    Verify the installation: projections caught up, every commit and file that an
                           event names in the repositories, every read model equal to a replay (exit 1 on
                           any finding; beside a server on PostgreSQL, the server stopped on the embedded database)
  backup FILE              Write one archive of the installation (events, space repositories, a manifest),
                           consistent while the server runs on PostgreSQL
  restore FILE             Restore such an archive into an empty DATA_DIR and database, rebuilding the read models
  jobs                     List every queue's counts, recent and failed jobs
  jobs retry <id>          Run a job again from the event that requested it (a job id, a git import id,
                           or a change request id: its pending merge/update gets its job back)
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  if (command === 'restore' || command === 'backup') {
    if (args.length !== 1) {
      process.stderr.write(`Usage: npm run cli -- ${command} FILE\n`);
      return 2;
    }
  }
  // Restore fills an empty database before anything else may write to it (the installation id included).
  if (command === 'restore') {
    await restore(config, args[0]);
    return 0;
  }
  const runtime = await Runtime.start(config, { runProjections: false, redis: command === 'jobs' });
  try {
    switch (command) {
      case 'replay':
        await replay(runtime, args);
        return 0;
      case 'jobs':
        await jobsCommand(runtime, args);
        return 0;
      case 'refs': {
        const result = await backfillRefs(runtime);
        return result.missing.length ? 1 : 0;
      }
      case 'check': {
        const report = await check(runtime, (line) => process.stderr.write(`check: ${line}\n`));
        for (const finding of report.findings) process.stdout.write(`FINDING ${finding}\n`);
        process.stdout.write(`${report.summary}\n`);
        return report.findings.length ? 1 : 0;
      }
      case 'backup':
        await backup(runtime, args[0]);
        return 0;
      case 'projections':
        for (const s of await runtime.projector.status()) {
          process.stdout.write(`${s.name.padEnd(16)} v${s.version}  ${s.status.padEnd(9)} at ${s.position}${s.error ? `  error: ${s.error}` : ''}\n`);
        }
        return 0;
      default:
        process.stderr.write(`Unknown command: ${command}\n\n${USAGE}`);
        return 2;
    }
  } finally {
    await runtime.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`quire cli: ${err?.message ?? err}\n`);
    process.exit(1);
  },
);
