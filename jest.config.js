/** One jest run covers every tier: unit (*.spec.ts), integration (*.int-spec.ts, real
 * PostgreSQL/Redis/git) and end-to-end (test/e2e/*.e2e-spec.ts, the whole system over HTTP). */
const fs = require('fs');
const swcrc = JSON.parse(fs.readFileSync(__dirname + '/.swcrc', 'utf8'));
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  const from = '^' + alias.replace('/*', '/(.*)') + '$';
  moduleNameMapper[from] = '<rootDir>/' + target.replace('/*', '/$1');
}
// ES-module-only dependencies of Bull Board, which Jest cannot require (test/support/esm-only).
moduleNameMapper['^content-disposition$'] = '<rootDir>/test/support/esm-only/content-disposition.js';
moduleNameMapper['^@nestjs/bull-shared$'] = '<rootDir>/test/support/esm-only/nestjs-bull-shared.js';

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test', '<rootDir>/bench'],
  testRegex: '\\.(spec|int-spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
