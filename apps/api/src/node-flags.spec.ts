import { readFileSync } from 'fs';
import { join } from 'path';
import { API_NODE_FLAGS } from './node-flags';

const ROOT = join(__dirname, '../../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('API_NODE_FLAGS', () => {
  it('are on every command that starts the API', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const dockerCmd = /^CMD (.*)$/m.exec(read('Dockerfile'))![1];
    const composeApi = /^ {2}api:\n(?: {4}.*\n)*? {4}command: (.*)$/m.exec(read('docker-compose.yml'))![1];
    const starts = { 'npm start': scripts.start, 'npm run start:api': scripts['start:api'], Dockerfile: dockerCmd, 'docker-compose api': composeApi };
    for (const [name, command] of Object.entries(starts)) {
      for (const flag of API_NODE_FLAGS) expect({ name, holds: command.includes(flag) }).toEqual({ name, holds: true });
    }
  });
});
