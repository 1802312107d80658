// The helper lives in model/ now, where the poller and the web UI reach it too.
export { plural } from '../model/index.js';
