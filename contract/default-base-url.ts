// In a module of its own, without zod: the client's public entry re-exports it, and a module that imports
// zod would make every consumer's type check load zod's declarations.
/**
 * The local sandbox (`npx service-sandbox`) is the client's default target, so nothing reaches a real
 * account by accident; the sandbox listens there by default.
 */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";
