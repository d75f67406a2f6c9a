import { type Clock, systemClock } from "./clock";
import { SecretRegistry } from "./secrets";

/**
 * Names one piece of per-process state. Each module that keeps such state declares a key with
 * `contextKey` next to the code that uses it; the context creates the value on first use.
 */
export interface ContextKey<T> {
  /** What the state is, for debugging. */
  readonly description: string;
  /** Makes the state's first value in `context`. */
  create(context: ProcessContext): T;
}

/** The descriptions declared by this copy of the module: each names one piece of state. */
const declared = new Set<string>();

/**
 * Declares a piece of per-process state, which `create` makes the first time a context is asked for it.
 * The description identifies the state, so it must be unique.
 */
export function contextKey<T>(description: string, create: (context: ProcessContext) => T): ContextKey<T> {
  if (declared.has(description)) throw new Error(`Two pieces of process state are named "${description}".`);
  declared.add(description);
  return { description, create };
}

/** What a new ProcessContext is made with. */
export interface ProcessContextOptions {
  /** The clock every retry, limiter, cache and verification poll reads; the system clock by default. */
  readonly clock?: Clock;
}

/**
 * Per-process state lives here, and only here. The dynamic-provider host runs one process per deployment
 * and calls many resources in it, so a few things are shared on purpose: the stack configuration read by
 * `configure`, API clients and their rate limiters, listing caches, the secrets seen so far, and the
 * webhooks already claimed by a resource. Tests start a "new process" by installing a new context with
 * `setProcessContext`, not by clearing caches one by one.
 */
export class ProcessContext {
  /** The clock every retry, limiter, listing cache and verification poll reads. */
  readonly clock: Clock;
  /** The secrets seen in this process, hidden from every message and error. */
  readonly secrets = new SecretRegistry();
  /**
   * By description rather than by key object: the runtime bundle (dist/runtime) and the rest of the
   * package each declare their own keys, and a process that loads both must still hold one of each state.
   */
  private readonly state = new Map<string, unknown>();

  constructor(options: ProcessContextOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  /** The state declared by `key`, created the first time it is asked for. */
  get<T>(key: ContextKey<T>): T {
    if (!this.state.has(key.description)) this.state.set(key.description, key.create(this));
    return this.state.get(key.description) as T;
  }
}

/**
 * Kept on globalThis under a registered symbol: a serialized provider and the program can load two copies
 * of this package in one process, and both must see the same secrets and the same rate limiters.
 */
const CURRENT = Symbol.for("@service/pulumi:process-context");
type Holder = { [CURRENT]?: ProcessContext };

/** The context of this process. */
export function processContext(): ProcessContext {
  const holder = globalThis as Holder;
  holder[CURRENT] ??= new ProcessContext();
  return holder[CURRENT];
}

/** Installs `context` as this process's context (tests use it to start afresh) and returns it. */
export function setProcessContext(context: ProcessContext): ProcessContext {
  (globalThis as Holder)[CURRENT] = context;
  return context;
}

/** Remembers a secret in this process's registry, so that no message can repeat it. */
export function rememberSecret(value: unknown): void {
  processContext().secrets.remember(value);
}

/** `text` with every secret this process has seen hidden. */
export function redact(text: string): string {
  return processContext().secrets.redact(text);
}

/** A value about to be kept on an error, with every secret this process has seen hidden at any depth. */
export function redactValue(value: unknown): unknown {
  return processContext().secrets.redactValue(value);
}
