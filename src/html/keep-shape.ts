// V8 compiles hot code for the object shapes (hidden classes) it has seen, and throws that code away
// when a full garbage collection finds no object of such a shape left alive. The parser's objects that
// live for one document (the XML parser, the tree builder, the sanitizer's scanner) all die with their
// document, so after each full collection between two documents, which a long-running poller sees all
// the time (and bench:parse forces between passes), the next documents ran slow code while V8 warmed up
// again. One instance of each kept alive keeps the shapes: bench:parse went from 15 to 25 MB/s.

const kept: object[] = [];

/** Keeps `sample` alive for the life of the process, so that objects of its shape keep their fast code. */
export function keepShape<T extends object>(sample: T): T {
  kept.push(sample);
  return sample;
}
