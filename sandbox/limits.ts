// The sandbox's request limits, in a module of their own: the public entry re-exports them, and a module
// that imports Hono would pull Hono's declarations into every consumer's type check.

/**
 * The largest request body the sandbox reads, on every route (admin routes included): 1 MiB. The API's
 * bodies are small JSON documents; a larger one is refused with 413 before it is read whole.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The deepest nesting of arrays and objects a JSON body may have: 64 levels. The deepest body the API
 * takes (a search with filters) has 4; the limit keeps every walk over a body (the control-character
 * check, the schemas) far from the stack's end.
 */
export const MAX_JSON_NESTING = 64;
