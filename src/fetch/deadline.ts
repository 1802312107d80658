/** The overall timer of one fetch, merged with the caller's AbortSignal. */
export interface Deadline {
  /** Aborts when the time is up or the caller aborts; passed to every hop. */
  signal: AbortSignal;
  timedOut(): boolean;
  /** Clears the timer and the listener; call it when the fetch ends. */
  dispose(): void;
}

/** Returns a Deadline that fires after `timeoutMs` (covering every redirect hop, headers and body). */
export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`fetch deadline of ${timeoutMs} ms passed`));
  }, timeoutMs);
  const onAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted === true) onAbort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
