/** One server-sent event as a client reads it. */
export interface SseEvent {
  event?: string;
  data: string;
  comment?: string;
}

/** Reads server-sent events from a response body, one `next()` at a time. */
export function sseReader(body: ReadableStream<Uint8Array>): () => Promise<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return async function next(): Promise<SseEvent> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event.comment = line.slice(1).trim();
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) event.data += line.slice(6);
        }
        return event;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error('sse: the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

/** The next event called `name`, skipping comments and other events. */
export async function nextNamed(next: () => Promise<SseEvent>, name: string): Promise<SseEvent> {
  for (;;) {
    const event = await next();
    if (event.event === name) return event;
  }
}
