/* @nestjs/bull-shared 12 is an ES module only: loaded natively, as content-disposition.js explains. */
module.exports = process.getBuiltinModule('module').createRequire(__filename)('@nestjs/bull-shared');
