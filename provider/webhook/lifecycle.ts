/**
 * What `pulumi up`, `refresh`, `destroy` and `import` run for a Webhook: create (or adopt), update, read
 * and remove. Sending a create and settling a pending one live in create.ts; check and diff, which a
 * preview runs without the API client, in resource.ts.
 */

import { canonicalFilters, toWireFilters } from "../../contract/webhooks/requests";
import type { ServiceClient } from "../client/client";
import { InvalidRequestError, NotFoundError } from "../errors/api";
import { LifecycleError } from "../errors/lifecycle";
import { AmbiguousRequestError } from "../errors/transport";
import { clientFor } from "../lifecycle/clients";
import { withConnection } from "../lifecycle/connection";
import { recordedCredentials, sameCredentials } from "../lifecycle/credentials-hash";
import { forgetWebhooks } from "../lifecycle/listings";
import type { ResourceProps } from "../lifecycle/methods";
import { confirmGone } from "../lifecycle/ownership";
import { type Refreshed, refreshAnswer } from "../lifecycle/refresh";
import { hashSecret } from "../lifecycle/secret-hash";
import type { Settings } from "../settings/value";
import {
  activeWebhooks,
  candidates,
  createWebhook,
  observed,
  parseInputs,
  recordedInputs,
  removePending,
  settle,
  type WebhookRecord,
} from "./create";
import {
  credentialsChangedError,
  describeExisting,
  importNotFoundError,
  overQuotaCreateMessage,
} from "./messages";
import { checkedOverQuota } from "./quota";
import {
  claim,
  clearPending,
  identityOf,
  isPending,
  notePending,
  type WebhookInputs,
  type WebhookOutputs,
  WebhookState,
} from "./resource";

/**
 * Creates the webhook, or adopts the one named by adoptWebhookUuid, from its parsed inputs, unless the
 * organization's Webhooks are over the quota. `settings` are the provider's, as for every method here.
 */
export async function create(
  settings: Settings,
  props: ResourceProps,
): Promise<{ id: string; outs: WebhookOutputs }> {
  const inputs = parseInputs(props);
  // Only `pulumi up --skip-preview` gets here with too many: otherwise the preview's check stopped it.
  const over = checkedOverQuota(inputs.connection, settings);
  if (over) throw new LifecycleError("quota_reached", overQuotaCreateMessage(over.names.length));
  return createWebhook(settings, inputs, props.__provider);
}

/**
 * Nothing about the webhook itself changes in place. A pending webhook is settled. When the credentials
 * changed, one call checks that the new ones still see the webhook, so that the switch cannot orphan it.
 */
export async function update(
  settings: Settings,
  id: string,
  olds: ResourceProps,
  news: ResourceProps,
): Promise<{ outs: WebhookOutputs }> {
  const old = WebhookState.parse(olds);
  if (isPending(old)) return settle(settings, id, old, news);
  const current = old as WebhookOutputs;
  const client = clientFor({ ...current, ...pickCommon(news) }, settings);
  if (sameCredentials(client.options, current.credentialsHash) !== true) {
    try {
      await client.webhooks.retrieve(current.webhookUuid);
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw credentialsChangedError(current.webhookUuid, identityOf(current), current.owner.organization);
      }
      throw error;
    }
  }
  return {
    outs: {
      ...withConnection(current, news),
      // An imported webhook's secret is recorded by its first update.
      secretKeyHash:
        current.secretKeyHash ??
        (typeof news.secretKey === "string" ? hashSecret(news.secretKey) : undefined),
      credentialsHash: recordedCredentials(client.options, current.credentialsHash),
    },
  };
}

const pickCommon = (news: ResourceProps) => ({
  connection: news.connection as WebhookInputs["connection"],
  acceptLanguage: news.acceptLanguage as WebhookInputs["acceptLanguage"],
});

/**
 * Refresh. The webhook is there while it is in the active listing (one listing serves every webhook of
 * the credentials). One that is missing is reported gone only when the credentials in use could see it.
 * A pending webhook is settled if exactly one candidate appeared; otherwise it stays pending. With no
 * state at all, this is `pulumi import` of the webhook whose uuid is `id` (see importWebhook).
 */
export async function read(
  settings: Settings,
  id: string,
  props: ResourceProps,
): Promise<Refreshed | Record<string, never>> {
  if (isImport(props)) return importWebhook(settings, id);
  const old = WebhookState.parse(props);
  const client = clientFor(old, settings);
  if (isPending(old)) {
    const search = {
      client,
      identity: identityOf(old),
      since: Date.parse(old.pendingSince!),
      exclude: old.claimedElsewhere ?? [],
    };
    const found = await candidates(search);
    if (found.length !== 1) {
      notePending(search.identity);
      return refreshAnswer(id, props, old, () => recordedInputs(old));
    }
    claim(found[0]!.webhookUuid);
    clearPending(search.identity);
    const outs = refreshed(old, found[0]!, client);
    return { id: outs.webhookUuid, props: outs, inputs: recordedInputs(outs) };
  }
  const uuid = old.webhookUuid ?? id;
  const hook = (await activeWebhooks(client)).find((w) => w.webhookUuid === uuid);
  if (!hook) {
    await confirmGone(client, ownership(old), describeExisting(uuid, identityOf(old)), "pulumi refresh");
    return {};
  }
  claim(uuid);
  const outs = refreshed(old, hook, client);
  return refreshAnswer(uuid, props, outs, () => recordedInputs(outs));
}

/**
 * Deactivates. A pending webhook deactivates the one its create left behind, if any. A webhook the
 * service does not show counts as deleted only when the credentials in use could see it.
 */
export async function remove(settings: Settings, id: string, props: ResourceProps): Promise<void> {
  const old = WebhookState.parse(props);
  const client = clientFor(old, settings);
  try {
    if (isPending(old)) return await removePending(old, client);
    const uuid = old.webhookUuid ?? id;
    const subject = describeExisting(uuid, identityOf(old));
    try {
      await client.webhooks.deactivate(uuid);
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
        if ((await activeWebhooks(client, { fresh: true })).some((w) => w.webhookUuid === uuid)) throw error;
        await confirmGone(client, ownership(old), subject, "pulumi destroy");
        return;
      }
      if (!(error instanceof AmbiguousRequestError)) throw error;
      if ((await activeWebhooks(client, { fresh: true })).some((w) => w.webhookUuid === uuid)) {
        await client.webhooks.deactivate(uuid);
      }
    }
  } finally {
    forgetWebhooks(client);
  }
}

export function refreshed(old: WebhookState, hook: WebhookRecord, client: ServiceClient): WebhookOutputs {
  const { pendingSince: _since, claimedElsewhere: _claimed, ...rest } = old;
  return {
    ...rest,
    webhookUuid: hook.webhookUuid,
    endpoint: hook.endpoint,
    channel: hook.channel,
    filters: toWireFilters(canonicalFilters(hook.filters)),
    owner: hook.owner,
    createTime: hook.createTime?.display ?? old.createTime,
    // These credentials see the webhook.
    credentialsHash: recordedCredentials(client.options, old.credentialsHash),
  };
}

export const ownership = (state: WebhookState) => ({
  organization: state.owner?.organization,
  credentialsHash: state.credentialsHash,
});

/*

 * `pulumi import service:index:Webhook <name> <webhook_uuid>`: the engine asks the provider plugin to read
 * a webhook it knows only by id. The service answers everything but the secret key, which it never returns,
 * so the state it leaves has no secret hash: the secret the program gives next is taken as the webhook's own
 * (see WebhookState.secretKeyHash), and the inputs it answers lack `secretKey`, which the program must add.
 */

/** Whether `props` is the empty state of an import rather than a Webhook's stored state. */
export function isImport(props: Record<string, unknown>): boolean {
  return props.endpoint === undefined && props.webhookUuid === undefined && props.pendingSince === undefined;
}

/** The state and inputs of the active webhook `uuid`, read with the provider's own credentials (`settings`). */
export async function importWebhook(settings: Settings, uuid: string) {
  const client = clientFor({}, settings);
  const hook = (await activeWebhooks(client, { fresh: true })).find((w) => w.webhookUuid === uuid);
  if (!hook) throw importNotFoundError(uuid);
  claim(uuid);
  const outs = observed(hook, client.apiVersion, client);
  // The API version is the provider's default, which a program that sets none also gets: left out of
  // the inputs, so that the code `pulumi import` prints carries only what the webhook is.
  const { apiVersion: _version, ...inputs } = recordedInputs(outs);
  return { id: uuid, props: outs, inputs };
}
