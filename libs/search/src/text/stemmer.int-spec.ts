import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Db, Queryable } from '@quire/platform/db/db';
import { openDb } from '@quire/platform/db/open-db';
import { Stemmer } from './stemmer';

describe('Stemmer (PostgreSQL dictionaries, on PGlite)', () => {
  let dir: string;
  let db: Db;
  /** The statements the stemmer sent, counted around the real database. */
  let statements: number;
  let counted: Queryable;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-stemmer-'));
    db = await openDb({ dataDir: dir });
    counted = { query: (sql, params, opts) => (statements++, db.query(sql, params, opts)) } as Queryable;
  });
  beforeEach(() => (statements = 0));
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stems each word once, by the configuration asked for', async () => {
    const stemmer = new Stemmer();
    await stemmer.load(counted, 'english', ['running', 'jobs', 'the', 'running']);
    await stemmer.load(counted, 'english', ['jobs']);
    expect(statements).toBe(1);
    expect(stemmer.lexemes('english', 'running')).toEqual(['run']);
    expect(stemmer.lexemes('english', 'the')).toEqual([]);
    expect(stemmer.lexemes('english', 'unloaded')).toEqual(['unloaded']);
  });

  it("keeps the words one caller loaded when the next load starts over (a query's English noise words, then its own configuration)", async () => {
    const stemmer = new Stemmer(3);
    await stemmer.load(counted, 'english', ['running', 'jobs']);
    await stemmer.load(counted, 'french', ['maisons', 'chevaux']); // 2 + 2 > 3: starts over
    expect(stemmer.lexemes('english', 'running')).toEqual(['run']);
    expect(stemmer.lexemes('english', 'jobs')).toEqual(['job']);
    expect(stemmer.lexemes('french', 'maisons')).toEqual(['maison']);
  });

  it('a lookup bound after a load keeps finding its words through later start-overs; the oldest words are asked again', async () => {
    const stemmer = new Stemmer(2);
    await stemmer.load(counted, 'english', ['running', 'jobs']);
    const english = stemmer.lexemesFor('english');
    await stemmer.load(counted, 'english', ['flies', 'cities']); // starts over
    await stemmer.load(counted, 'english', ['walked', 'buses']); // starts over again: running and jobs leave the stemmer
    expect(english('running')).toEqual(['run']);
    expect(english('jobs')).toEqual(['job']);
    statements = 0;
    await stemmer.load(counted, 'english', ['running', 'walked']);
    expect(statements).toBe(1);
    expect(stemmer.lexemes('english', 'running')).toEqual(['run']);
  });
});
