import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../log.js';

/**
 * The last answer to an error no front end answered: Hono's own refusals (csrf(), body limits) carry their
 * response and get it; anything else is logged and a JSON 500 that says nothing of the cause.
 */
export function answerUnhandledError(log: Logger): ErrorHandler {
  return (err, c) => {
    if (err instanceof HTTPException) return err.getResponse();
    log.error({ err, path: c.req.path }, 'server: request failed');
    return c.json(
      { error: 'internal_error', error_description: 'server: something went wrong on our side' },
      500,
    );
  };
}
