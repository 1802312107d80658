#!/usr/bin/env node
import { runCommand } from './cli/index.js';

// A command that failed exits at once (whatever it left open); one that ended leaves its exit code and
// lets the process end by itself (a server keeps it running).
const end = await runCommand(process.argv);
if (end.failed) process.exit(end.exitCode);
process.exitCode = end.exitCode;
