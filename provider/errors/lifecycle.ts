import { type LifecycleCode, ServiceError } from "./base";

/**
 * What a Webhook's or a Domain's lifecycle found wrong: the quota, a mismatch, an expired link, a change
 * of credentials that would orphan an object. The message names the object, the cause and the next step;
 * `code` is stable, so tests and callers match on it rather than on the text.
 */
export class LifecycleError extends ServiceError {
  static override readonly kind: string = "LifecycleError";
  /** What the lifecycle found, as a stable code. */
  declare readonly code: LifecycleCode;
  constructor(code: LifecycleCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * A create whose outcome is still unknown after re-listing. The dynamic-provider host sends an error that
 * carries `id` and `properties` as ErrorResourceInitFailed, so the engine keeps the resource in state,
 * marked pending; the next `pulumi up` calls update on it, which adopts what appeared or creates it.
 */
export class PendingCreateError extends LifecycleError {
  static override readonly kind: string = "PendingCreateError";
  /** The placeholder id the engine records. */
  readonly id: string;
  /**
   * The state to record: the inputs, the time of the attempt, and `__provider`. Not enumerable, so that
   * printing the error never prints the credentials it may hold; the host reads it by name.
   */
  declare readonly properties: Record<string, unknown>;
  /** Shown by the engine as the resource's initialization errors. */
  readonly reasons: string[];
  constructor(
    message: string,
    id: string,
    properties: Record<string, unknown>,
    options: { cause?: unknown; code?: "outcome_unknown" | "reconcile_conflict" } = {},
  ) {
    super(options.code ?? "outcome_unknown", message, options);
    this.id = id;
    Object.defineProperty(this, "properties", { value: properties, enumerable: false });
    this.reasons = [this.message];
  }
}
