/**
 * Secrets as the engine and the provider plugin exchange them. The plugin's server tells the engine it
 * accepts secrets, so a secret arrives wrapped (`{[specialSigKey]: specialSecretSig, value}`) and goes back
 * secret only if it is wrapped again: the engine marks nothing on the plugin's behalf, as it does for a
 * dynamic provider. The lifecycles work with plain values; this module is the one place that unwraps and
 * wraps them.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { ResourceProps } from "../lifecycle/methods";

function isWrapped(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[specialSigKey] === specialSecretSig
  );
}

/** `value` with every secret at any depth unwrapped, and whether it held one. */
function reveal(value: unknown): { plain: unknown; secret: boolean } {
  if (isWrapped(value)) return { plain: reveal(value.value).plain, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(reveal);
    return { plain: items.map((i) => i.plain), secret: items.some((i) => i.secret) };
  }
  if (typeof value === "object" && value !== null) {
    const members = Object.entries(value).map(([k, v]) => [k, reveal(v)] as const);
    return {
      plain: Object.fromEntries(members.map(([k, m]) => [k, m.plain])),
      secret: members.some(([, m]) => m.secret),
    };
  }
  return { plain: value, secret: false };
}

/** A property bag from the engine with its secrets unwrapped, and the top-level keys that held one. */
export interface Revealed {
  /** The properties as plain values, as the lifecycles take them. */
  readonly props: ResourceProps;
  /** Keys whose value was, or contained, a secret. */
  readonly secretKeys: ReadonlySet<string>;
}

/** Unwraps every secret in `props`, remembering which top-level keys held one. */
export function revealSecrets(props: ResourceProps | undefined): Revealed {
  const plain: ResourceProps = {};
  const secretKeys = new Set<string>();
  for (const [key, value] of Object.entries(props ?? {})) {
    const revealed = reveal(value);
    plain[key] = revealed.plain;
    if (revealed.secret) secretKeys.add(key);
  }
  return { props: plain, secretKeys };
}

/** `value` without the object members that are `undefined`, at any depth: a protobuf Struct cannot hold them. */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(defined);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, defined(v)]),
  );
}

/** `props` for the engine: the value of each of `keys` wrapped as a secret, `undefined` members left out. */
export function markSecrets(props: ResourceProps, keys: Iterable<string>): ResourceProps {
  const secret = new Set(keys);
  const out = defined(props) as ResourceProps;
  for (const [key, value] of Object.entries(out)) {
    if (secret.has(key) && !isWrapped(value)) out[key] = { [specialSigKey]: specialSecretSig, value };
  }
  return out;
}
