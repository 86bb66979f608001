import { createServer, Server, ServerResponse } from 'http';
import { AddressInfo } from 'net';
import { fetchPublicFile } from './fetch-public-file';

/** A local server stands in for the public one: the test lifts the address guard for it. */
const local = { isReserved: () => false };

describe('fetchPublicFile', () => {
  let server: Server;
  let base: string;
  const open = new Set<ServerResponse>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      open.add(res);
      res.on('close', () => open.delete(res));
      if (req.url === '/ok') {
        res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(Buffer.from('PNGDATA'));
      } else if (req.url === '/drip') {
        // One byte every 50 ms, for a minute: never idle long enough for an idle timeout.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        let sent = 0;
        const timer = setInterval(() => (++sent > 1200 ? (clearInterval(timer), res.end()) : res.write('x')), 50);
        res.on('close', () => clearInterval(timer));
      } else if (req.url === '/declared-large') {
        res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
        res.write('x');
      } else if (req.url === '/streamed-large') {
        res.writeHead(200);
        res.end(Buffer.alloc(64 * 1024, 1));
      } else if (req.url === '/redirect') {
        res.writeHead(302, { location: '/ok' }).end();
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a file, following redirects', async () => {
    const file = await fetchPublicFile(`${base}/redirect`, { maxBytes: 1024, timeoutMs: 5000, ...local });
    expect(Buffer.from(file.bytes).toString()).toBe('PNGDATA');
    expect(file.contentType).toBe('image/png');
  });

  it('gives up on a server that drips bytes once the overall deadline has passed', async () => {
    const started = Date.now();
    await expect(fetchPublicFile(`${base}/drip`, { maxBytes: 1024 * 1024, timeoutMs: 1000, ...local })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/did not finish within 1 s/),
    });
    // The deadline, not the minute the server would take.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a file larger than the limit, by its Content-Length or as it arrives', async () => {
    await expect(fetchPublicFile(`${base}/declared-large`, { maxBytes: 1024, timeoutMs: 5000, ...local })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/larger than 1024 bytes/),
    });
    await expect(fetchPublicFile(`${base}/streamed-large`, { maxBytes: 1024, timeoutMs: 5000, ...local })).rejects.toMatchObject({
      message: expect.stringMatching(/larger than 1024 bytes/),
    });
  });

  it('refuses private and reserved addresses unless told otherwise', async () => {
    await expect(fetchPublicFile(`${base}/ok`, { maxBytes: 1024, timeoutMs: 5000 })).rejects.toMatchObject({ message: expect.stringMatching(/private or reserved/) });
  });
});
