/** What a Pulumi URN says: `urn:pulumi:<stack>::<project>::<parent types$type>::<name>`. */

/** A resource's stack, project, type and name, read from its URN. */
export interface UrnParts {
  readonly stack: string;
  readonly project: string;
  /** The resource's own type token (the last of the type chain). */
  readonly type: string;
  /** The parent's type, when the resource has a parent other than the stack. */
  readonly parentType: string | undefined;
  readonly name: string;
}

/** The parts of `urn`, or undefined when it is not a Pulumi URN. */
export function parseUrn(urn: string): UrnParts | undefined {
  const [head, project, chain, ...name] = urn.split("::");
  const stack = /^urn:pulumi:(.+)$/.exec(head ?? "")?.[1];
  if (stack === undefined || !project || !chain || name.length === 0) return undefined;
  const types = chain.split("$");
  return {
    stack,
    project,
    type: types.at(-1)!,
    parentType: types.length > 1 ? types.at(-2) : undefined,
    name: name.join("::"),
  };
}

/** How a report names a stack: `project/stack`. */
export const stackLabel = (parts: Pick<UrnParts, "project" | "stack">) => `${parts.project}/${parts.stack}`;
