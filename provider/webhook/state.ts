/** How a Webhook's inputs, the service's answers and the stored state map onto each other. */

import type { ApiVersion } from "../../contract/versions";
import { canonicalFilters, toWireFilters } from "../../contract/webhooks/requests";
import type { ServiceClient } from "../client/client";
import { withCommonMembers } from "../lifecycle/common-members";
import { credentialsHash, recordedCredentials } from "../lifecycle/credentials-hash";
import type { ResourceProps } from "../lifecycle/methods";
import { hashSecret } from "../lifecycle/secret-hash";
import type { CreatePlan } from "./create-plan";
import type { WebhookInputs, WebhookOutputs, WebhookState } from "./schema";
import type { WebhookRecord } from "./wire";

/** What state records of a webhook the service showed through `client`, spoken to in `apiVersion`. */
export function observed(hook: WebhookRecord, apiVersion: ApiVersion, client: ServiceClient): WebhookOutputs {
  return {
    webhookUuid: hook.webhookUuid,
    endpoint: hook.endpoint,
    channel: hook.channel,
    filters: toWireFilters(canonicalFilters(hook.filters)),
    owner: hook.owner,
    createTime: hook.createTime?.display,
    apiVersion,
    credentialsHash: credentialsHash(client.options),
  };
}

export function outputsFor(
  hook: WebhookRecord,
  inputs: WebhookInputs,
  client: ServiceClient,
): WebhookOutputs {
  return withCommonMembers<WebhookOutputs>(
    {
      ...observed(hook, inputs.apiVersion, client),
      secretKeyHash: hashSecret(inputs.secretKey),
      ...(inputs.adoptWebhookUuid ? { adoptWebhookUuid: inputs.adoptWebhookUuid } : {}),
    },
    inputs,
  );
}

/** The state of a pending webhook: its configuration, when the create was sent, and `__provider`. */
export function pendingState(
  { inputs, client, provider }: CreatePlan,
  pendingSince: string,
  claimedElsewhere: readonly string[],
): ResourceProps {
  return {
    ...withCommonMembers(
      {
        endpoint: inputs.endpoint,
        channel: inputs.channel,
        filters: inputs.filters,
        apiVersion: inputs.apiVersion,
        secretKeyHash: hashSecret(inputs.secretKey),
        credentialsHash: credentialsHash(client.options),
        pendingSince,
        claimedElsewhere: [...new Set(claimedElsewhere)],
        ...(inputs.adoptWebhookUuid ? { adoptWebhookUuid: inputs.adoptWebhookUuid } : {}),
      },
      inputs,
    ),
    // The engine keeps these properties as the resource's state; later calls need the provider in it.
    __provider: provider,
  };
}

/** The inputs a refreshed state implies (everything but what the service assigns and the hashes). */
export function inputsOf(state: WebhookState): ResourceProps {
  const {
    webhookUuid: _id,
    owner: _owner,
    createTime: _time,
    secretKeyHash: _hash,
    credentialsHash: _credentials,
    pendingSince: _since,
    claimedElsewhere: _claimed,
    ...inputs
  } = state;
  return inputs;
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
