import type { Command } from 'commander';
import type { DoctorOptions } from './doctor.js';

/** `tidings doctor [--repair] [--retention]`: checks the kept unread counts and runs retention now. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      'check the kept unread counts against a recount; --repair rebuilds them, --retention removes old read entries now',
    )
    .option('--repair', 'rebuild the kept rows and counts when they differ from the recount')
    .option(
      '--retention',
      'remove old read entries now (TIDINGS_RETENTION_DAYS, TIDINGS_RETENTION_KEEP_PER_FEED)',
    )
    .option('--json', 'print JSON: {"readingState": {...}, "retention": {...}}')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: DoctorOptions) => (await import('./doctor.js')).runDoctorCommand(opts));
}
