/** Counts fetches in flight per host, so that no host gets more than `perHost` at a time. */
export class HostLimit {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perHost: number) {}

  /** The host a URL's fetch counts against (lower case; the URL itself when it cannot be parsed). */
  static hostOf(url: string): string {
    try {
      return new URL(url).host.toLowerCase();
    } catch {
      return url;
    }
  }

  hasRoom(host: string): boolean {
    return (this.inFlight.get(host) ?? 0) < this.perHost;
  }

  acquire(host: string): void {
    this.inFlight.set(host, (this.inFlight.get(host) ?? 0) + 1);
  }

  release(host: string): void {
    const n = (this.inFlight.get(host) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(host);
    else this.inFlight.set(host, n);
  }
}
