import { readFileSync } from 'fs';
import { join } from 'path';
import { WORKER_NODE_FLAGS } from './node-flags';

const ROOT = join(__dirname, '../../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('WORKER_NODE_FLAGS', () => {
  it('are on every command that starts the worker or the CLI', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const composeWorker = /^ {2}worker:\n(?: {4}.*\n)*? {4}command: (.*)$/m.exec(read('docker-compose.yml'))![1];
    const readmeWorker = /^.* node (.*)dist\/apps\/worker\/src\/main\.js$/m.exec(read('README.md'))![1];
    const starts = { 'npm run start:worker': scripts['start:worker'], 'npm run cli': scripts.cli, 'docker-compose worker': composeWorker, 'README.md worker': readmeWorker };
    for (const [name, command] of Object.entries(starts)) {
      for (const flag of WORKER_NODE_FLAGS) expect({ name, holds: command.includes(flag) }).toEqual({ name, holds: true });
    }
  });
});
