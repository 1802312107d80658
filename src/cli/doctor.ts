import type { ReadingStateReport, Store } from '../store/index.js';
import { withApp } from './app.js';
import { plural } from './plural.js';
import { retentionPolicy } from './retention.js';

export interface DoctorOptions {
  repair?: boolean;
  retention?: boolean;
  json?: boolean;
  database?: string;
}

/** `tidings doctor` (doctor-command.ts defines it). */
export async function runDoctorCommand(opts: DoctorOptions): Promise<void> {
  process.exitCode = await withApp({ database: opts.database }, (app) => runDoctor(app.store, opts));
}

/** The check's findings in words, one line each. */
export function describeReport(report: ReadingStateReport): string[] {
  const lines: string[] = [];
  if (report.missingRows > 0)
    lines.push(
      `${plural(report.missingRows, 'entry', 'entries')} of followed feeds missing from their channel`,
    );
  if (report.strayRows > 0)
    lines.push(
      `${plural(report.strayRows, 'entry', 'entries')} left in channels that no longer follow their feed`,
    );
  if (report.wrongRows > 0)
    lines.push(`${plural(report.wrongRows, 'entry', 'entries')} with a stale read, removed or hidden state`);
  for (const drift of report.countDrift)
    lines.push(
      `channel ${drift.channelId}, feed ${drift.feedId}: ${drift.kept} unread kept, ${drift.actual} counted`,
    );
  return lines;
}

/** Runs the check (and retention); returns the exit code: 1 when drift was found and not repaired. */
export async function runDoctor(store: Store, opts: DoctorOptions, now = new Date()): Promise<number> {
  const report = await store.reading.checkState({ repair: opts.repair === true });
  const problems = describeReport(report);
  let removed: number | undefined;
  if (opts.retention) {
    // a setting that cannot be read ends the command with its one line (a ConfigError)
    const policy = retentionPolicy(process.env, now);
    removed = policy === undefined ? 0 : (await store.entries.applyRetention(policy)).removed;
  }
  if (opts.json) {
    const retention = removed === undefined ? {} : { retention: { removed } };
    process.stdout.write(`${JSON.stringify({ readingState: report, ...retention }, null, 2)}\n`);
  } else {
    if (problems.length === 0) process.stdout.write('unread counts: ok (they equal a recount)\n');
    else {
      for (const line of problems) process.stdout.write(`${line}\n`);
      process.stdout.write(
        report.repaired
          ? 'repaired: rebuilt from the records\n'
          : 'run tidings doctor --repair to rebuild them\n',
      );
    }
    if (removed !== undefined)
      process.stdout.write(`retention: removed ${plural(removed, 'old read entry', 'old read entries')}\n`);
  }
  return problems.length > 0 && !report.repaired ? 1 : 0;
}
