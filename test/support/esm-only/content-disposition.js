/*
 * content-disposition 3 is an ES module only. Node requires it natively (require(esm), Node
 * 20.19+), as production does; Jest's module registry refuses to under
 * --experimental-vm-modules, so tests load it through Node's own require (see jest.config.js).
 */
module.exports = process.getBuiltinModule('module').createRequire(__filename)('content-disposition');
