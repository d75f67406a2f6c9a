/**
 * `pulumi import service:index:Webhook <name> <webhook_uuid>`: the engine asks the provider plugin to read
 * a webhook it knows only by id. The service answers everything but the secret key, which it never returns,
 * so the state it leaves has no secret hash: the secret the program gives next is taken as the webhook's own
 * (see WebhookState.secretKeyHash), and the inputs it answers lack `secretKey`, which the program must add.
 */

import { clientFor } from "../lifecycle/clients";
import { claim } from "./claims";
import { importNotFoundError } from "./messages";
import { inputsOf, observed } from "./state";
import { activeWebhooks } from "./wire";

/** Whether `props` is the empty state of an import rather than a Webhook's stored state. */
export function isImport(props: Record<string, unknown>): boolean {
  return props.endpoint === undefined && props.webhookUuid === undefined && props.pendingSince === undefined;
}

/** The state and inputs of the active webhook `uuid`, read with the provider's own credentials. */
export async function importWebhook(uuid: string) {
  const client = clientFor({});
  const hook = (await activeWebhooks(client, { fresh: true })).find((w) => w.webhookUuid === uuid);
  if (!hook) throw importNotFoundError(uuid);
  claim(uuid);
  const outs = observed(hook, client.apiVersion, client);
  // The API version is the provider's default, which a program that sets none also gets: left out of
  // the inputs, so that the code `pulumi import` prints carries only what the webhook is.
  const { apiVersion: _version, ...inputs } = inputsOf(outs);
  return { id: uuid, props: outs, inputs };
}
