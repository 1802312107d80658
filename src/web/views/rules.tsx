import type { Channel } from '../../model/index.js';
import { RULE_ACTIONS, type StoredRule } from '../../store/index.js';
import { withQuery } from './hrefs.js';
import { ItemTable } from './item-table.js';
import { PostForm } from './layout.js';

/** What the add form was given, shown again when it was refused. */
export interface RuleForm {
  query?: string | undefined;
  action?: string | undefined;
  channel?: string | undefined;
}

export interface RulesProps {
  rules: StoredRule[];
  channels: Channel[];
  /** Feed URLs of the rules' feeds, by id. */
  feeds: Map<number, string>;
  csrf: string;
  error?: string | undefined;
  form?: RuleForm | undefined;
}

const ACTION_WORDS: Record<string, string> = {
  read: 'mark read',
  save: 'save',
  hide: 'hide (never shown)',
  notify: 'notify me',
};

/** The saved-search view of a rule: the search page for its query, in its channel when it has one. */
export function ruleSearchHref(rule: StoredRule, channels: readonly Channel[]): string {
  const channel = channels.find((ch) => ch.id === rule.channelId);
  return withQuery('/search', { q: rule.query, channel: channel?.uid });
}

/** A user's rules (issue 25): what `tidings rule` does, on a page. */
export function RulesView(props: RulesProps) {
  const form = props.form ?? {};
  return (
    <section class="panel wide">
      <h1>Rules</h1>
      <p class="hint">
        A rule is a saved search that acts on each new entry it finds when the entry is first stored: it marks
        it read, saves it, hides it, or notifies you (your <a href="/alerts">alert destinations</a> and the
        Notifications channel). It never changes entries stored before it. The query is the search's: words,
        "a phrase", -word to leave out.
      </p>
      <RuleTable {...props} />
      <h2>New rule</h2>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <PostForm action="/rules" csrf={props.csrf} class="stack">
        <label>
          Query <input type="text" name="query" required maxlength={500} value={form.query ?? ''} />
        </label>
        <label>
          Action{' '}
          <select name="action">
            {RULE_ACTIONS.map((action) => (
              <option value={action} selected={form.action === action}>
                {ACTION_WORDS[action] ?? action}
              </option>
            ))}
          </select>
        </label>
        <label>
          Channel{' '}
          <select name="channel">
            <option value="">every channel</option>
            {props.channels.map((ch) => (
              <option value={ch.uid} selected={form.channel === ch.uid}>
                {ch.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          Add rule
        </button>
      </PostForm>
    </section>
  );
}

function RuleTable(props: RulesProps) {
  return (
    <ItemTable columns={['Query', 'Action', 'Where', '']} count={props.rules.length} empty="No rules yet.">
      {props.rules.map((rule) => (
        <tr data-rule={String(rule.id)}>
          <td>
            <a href={ruleSearchHref(rule, props.channels)}>{rule.query}</a>
          </td>
          <td>{ACTION_WORDS[rule.action] ?? rule.action}</td>
          <td class="wrap-anywhere">
            {[
              rule.channelId === undefined
                ? 'every channel'
                : (props.channels.find((ch) => ch.id === rule.channelId)?.name ?? ''),
              rule.feedId === undefined ? '' : (props.feeds.get(rule.feedId) ?? ''),
            ]
              .filter(Boolean)
              .join(', ')}
          </td>
          <td>
            <PostForm action={`/rules/${rule.id}/remove`} csrf={props.csrf} class="inline">
              <button type="submit" class="danger">
                Remove
              </button>
            </PostForm>
          </td>
        </tr>
      ))}
    </ItemTable>
  );
}
