import type { Command } from 'commander';
import type { ParseCommandOptions } from './parse.js';

/**
 * `tidings parse FILE|URL [--json]` and `tidings parse --jsonl FILE...` (contracts/parse-json.md). Exits 1
 * when any document could not be read or is not a feed (version ''); stdout is the same either way.
 */
export function registerParse(program: Command): void {
  program
    .command('parse')
    .description('parse feed documents and print what was read and every problem found')
    .argument('<documents...>', 'files or URLs')
    .option('--json', 'print the parse result of one document as one JSON object')
    .option('--jsonl', 'print one JSON object per document and line, each with "file"')
    .option('--base-url <url>', 'base URL for relative links (the document URL)')
    .option('--content-type <type>', 'the Content-Type header the document came with')
    .option('--content-language <lang>', 'the Content-Language header (default language)')
    .action(async (documents: string[], opts: ParseCommandOptions) =>
      (await import('./parse.js')).runParseCommand(documents, opts),
    );
}
