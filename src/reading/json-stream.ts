// An answer written as it is made: a JSON object whose last field is an array of items, each item's JSON
// made only when the client has taken the ones before (a pull stream), so that an answer of any number of
// entries is never one string in memory (issue 22: stream/items/contents must return every id asked).

/**
 * A JSON object of `fields` and, last, `key` holding the items `items` yields (each the JSON text of one
 * item), as a stream of UTF-8 bytes.
 */
export function streamJsonObject(
  fields: Record<string, unknown>,
  key: string,
  items: AsyncIterable<string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const head = JSON.stringify(fields).slice(0, -1);
  const iterator = items[Symbol.asyncIterator]();
  let count = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${head}${head === '{' ? '' : ','}${JSON.stringify(key)}:[`));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode(']}'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(count === 0 ? next.value : `,${next.value}`));
      count += 1;
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
