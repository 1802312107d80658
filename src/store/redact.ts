/** The URL with its password masked, for messages and logs. */
export function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable URL)';
  }
}
