// The command line's front door: runCommand, which src/cli.ts (the bin) calls.
export { runCommand } from './program.js';
