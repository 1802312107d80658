#!/usr/bin/env node
// The hello-world bench:serve compares tidings with: Hono on @hono/node-server, the framework tidings
// serves with, answering 12 bytes. With HELLO_PROCESSES=N it runs as N processes on one port through
// node:cluster, as `tidings serve --processes N` does, so that both are measured alike. Prints
// `hello on PORT` once every process listens.
import cluster from 'node:cluster';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const processes = Math.max(1, Number(process.env.HELLO_PROCESSES ?? '1'));
if (processes > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < processes; i++)
    cluster.fork().on('message', (port) => {
      if (++listening === processes) console.log(`hello on ${port}`);
    });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const app = new Hono();
  app.get('/', (c) => c.text('Hello, world'));
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
    cluster.isWorker ? process.send(info.port) : console.log(`hello on ${info.port}`),
  );
}
