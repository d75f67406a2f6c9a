import { controlCharacterProblem } from "./control-characters";

/**
 * Fills a route template such as `/v2/webhooks/{webhook_uuid}/deactivate`. Every parameter is
 * percent-encoded, and values that would silently address another resource (empty, `.`, `..`, null or
 * undefined) are refused before anything is sent, as are control characters, which the service refuses.
 * A refused value throws what `refuse` makes of the sentence that says why: the rule is the wire's, and
 * the caller says what breaking it is (to the client, a ConfigurationError).
 */
export function fillPath(
  template: string,
  params: Readonly<Record<string, string | undefined | null>>,
  refuse: (problem: string) => Error,
): string {
  return template.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === "" || value === "." || value === "..") {
      throw refuse(
        `Path parameter ${name} must be a non-empty identifier, not ${JSON.stringify(value)}: an empty, "." or ".." value would address another object. Pass the id the service returned.`,
      );
    }
    const control = controlCharacterProblem(value);
    if (control) {
      throw refuse(
        `Path parameter ${name} ${control}, which the service refuses: pass the id the service returned.`,
      );
    }
    return encodeURIComponent(value);
  });
}

/** Converts a route template to the `:param` form HTTP routers use. */
export function toRouterPath(template: string): string {
  return template.replace(/\{([a-z_]+)\}/g, ":$1");
}

/** `filters[1].values` from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => {
    if (typeof part === "number") return `${acc}[${part}]`;
    return acc ? `${acc}.${String(part)}` : String(part);
  }, "");
}
