#!/usr/bin/env node
// The PARSE_CMD that scripts/conformance-ratchet.mjs gives the conformance harness: hands its arguments
// (`parse --jsonl [--base-url U --content-type T] FILE...`) to the ratchet's warm tidings process over
// the socket in TIDINGS_PARSE_SOCKET, and prints what `tidings` printed, exiting with its exit code.
// Most of the corpus's documents come one per call (each has its own base URL): a process of only
// node:net starts in a twentieth of the time the whole CLI takes to load.
import { connect } from 'node:net';

const socket = connect(process.env.TIDINGS_PARSE_SOCKET ?? '');
const chunks = [];
socket.on('data', (chunk) => chunks.push(chunk));
socket.on('end', () => {
  const { code, stdout, stderr } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
});
socket.on('error', (error) => {
  process.stderr.write(`conformance-client: ${error.message}\n`);
  process.exitCode = 2;
});
socket.end(JSON.stringify(process.argv.slice(2)));
