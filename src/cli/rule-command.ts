import type { Command } from 'commander';
import type { AddOptions, CommonOptions } from './rule.js';
import { USER_FLAGS, USER_HELP } from './user-option.js';

const DATABASE_HELP = 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)';
// The store's RULE_ACTIONS, written out so that the help loads no store; test/cli-start.test.ts checks
// that they are the same.
export const RULE_ACTIONS_HELP = ['read', 'save', 'hide', 'notify'];

/**
 * `tidings rule add|list|remove`: saved searches that act on new entries (issue 25). A rule acts on an
 * entry when it is first stored: read, save, hide, or notify (entry.matched to the destinations and the
 * Microsub notifications channel).
 */
export function registerRule(program: Command): void {
  const rule = program
    .command('rule')
    .description('rules: saved searches that mark new entries read, save, hide or notify you of them');
  rule
    .command('add')
    .description('add a rule; it acts on entries stored from now on, never on those stored before')
    .requiredOption('--query <query>', 'the search syntax: words, "a phrase", -word (excluded)')
    .requiredOption('--action <action>', RULE_ACTIONS_HELP.join('|'))
    .option('--channel <name>', 'only entries of the feeds this channel follows')
    .option('--feed <url|id>', 'only this feed (one you follow)')
    .option(USER_FLAGS, 'whose rule (may be left out while there is one user)')
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: AddOptions) => (await import('./rule.js')).runRuleAdd(opts));
  rule
    .command('list')
    .description('list the rules')
    .option('--json', 'print JSON: {"rules": [...]}')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: CommonOptions & { json?: boolean }) =>
      (await import('./rule.js')).runRuleList(opts),
    );
  rule
    .command('remove')
    .description('remove a rule; what it did to entries already stored stays')
    .argument('<id>', 'rule id (from rule list)')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (id: string, opts: CommonOptions) => (await import('./rule.js')).runRuleRemove(id, opts));
}
