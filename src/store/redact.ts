/** The URL with its password (if any) replaced by ***, safe for logs and messages. */
export function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    // a value that is no URL is named as given (quoted, cut short), unless it could hold a password
    // (user:password@ before a host): then only what comes after the last @
    const at = url.lastIndexOf('@');
    const shown = at === -1 ? url : `***@${url.slice(at + 1)}`;
    return JSON.stringify(shown.slice(0, 200));
  }
}
