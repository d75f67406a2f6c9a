/**
 * A Webhook create, planned once: its checked inputs parsed, and everything the create's steps need that
 * those inputs decide (the client, the identity, the create body, the key of its lock and of its attempt
 * notes) derived here, then handed down, so that no step derives any of it again from the raw properties.
 */

import { isApiVersion } from "../../contract/versions";
import type { WebhookCreateBody } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import { clientFor, credentialKey } from "../lifecycle/clients";
import type { ResourceProps } from "../lifecycle/methods";
import { identityOf, type WebhookIdentity, type WebhookInputs, webhookInputsSchema } from "./schema";
import { createBody } from "./wire";

/** A Webhook's checked inputs, parsed with the rules of their API version. */
export function parseInputs(props: ResourceProps): WebhookInputs {
  return webhookInputsSchema(isApiVersion(props.apiVersion) ? props.apiVersion : "2.0").parse(props);
}

/**
 * What tells creates apart that the service could not: the same credentials and the same identity. Creates
 * with equal keys run one at a time (create.ts) and share an attempt note (attempts.ts).
 */
export interface CreateKey {
  /** The service and credentials (`credentialKey`). */
  readonly credentials: string;
  /** The identity, as JSON. */
  readonly identity: string;
}

/** The key of creates of `identity` through `client`. */
export function createKey(client: ServiceClient, identity: WebhookIdentity): CreateKey {
  return { credentials: credentialKey(client), identity: JSON.stringify(identity) };
}

/** Everything a create of one Webhook acts on, derived once from its inputs. */
export interface CreatePlan {
  /** The checked inputs, parsed. */
  readonly inputs: WebhookInputs;
  /** The client of the inputs' connection, or of the stack's settings. */
  readonly client: ServiceClient;
  /** Endpoint, channel and filters: what the service tells webhooks apart by, and what messages name. */
  readonly identity: WebhookIdentity;
  /** The body of the create request. */
  readonly body: WebhookCreateBody;
  /** The key of the create's lock and of its attempt note. */
  readonly key: CreateKey;
  /** The engine's `__provider`, which a pending webhook's state keeps. */
  readonly provider: unknown;
}

/** The plan of a create of `inputs`; `provider` is the `__provider` the engine passed with them. */
export function planCreate(inputs: WebhookInputs, provider: unknown): CreatePlan {
  const client = clientFor(inputs);
  const identity = identityOf(inputs);
  return { inputs, client, identity, body: createBody(inputs), key: createKey(client, identity), provider };
}
