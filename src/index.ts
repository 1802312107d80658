export type * from './model/index.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './model/index.js';
export { type ParseOptions, parseFeed } from './parse/index.js';
