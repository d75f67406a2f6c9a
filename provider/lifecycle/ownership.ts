import type { ServiceClient } from "../client/client";
import { spellProperty } from "../context/program-language";
import { LifecycleError } from "../errors/lifecycle";
import { sameCredentials } from "./credentials-hash";
import { activeWebhooks, registeredDomains } from "./listings";

/**
 * Which organization an object belongs to, and whether the credentials in use now are those it was made
 * with. The service answers "does not exist" and "belongs to someone else" alike (403), so a refresh or a
 * delete that runs with another organization's token would otherwise report a live webhook as gone and
 * leave it active, receiving deliveries and holding quota, with nothing managing it.
 */

/** What state records about the owner of an object. */
export interface Ownership {
  /** The organization that owns the object, as the service named it. */
  readonly organization?: string | undefined;
  /** A salted hash of the base URL and token it was created or last verified with (a secret output). */
  readonly credentialsHash?: string | undefined;
}

/** The organization the client's credentials belong to, as its listings show; undefined when they list nothing. */
async function organizationOf(client: ServiceClient): Promise<string | undefined> {
  const hook = (await activeWebhooks(client))[0];
  if (hook) return hook.webhook_owner?.organization.name ?? "";
  const domain = (await registeredDomains(client))[0];
  return domain && (domain.domain_owner?.organization.name ?? "");
}

/**
 * Resolves when an object that the listing no longer shows is really gone: the credentials are those it
 * was made with, or belong to its organization. Otherwise it throws, naming both organizations and the
 * way out, so that a refresh or a destroy never forgets an object that other credentials merely cannot see.
 */
export async function confirmGone(
  client: ServiceClient,
  owner: Ownership,
  subject: string,
  command: "pulumi refresh" | "pulumi destroy" | "pulumi up",
): Promise<void> {
  if (sameCredentials(client.options, owner.credentialsHash) === true || owner.organization === undefined)
    return;
  const current = await organizationOf(client);
  if (current === owner.organization) return;
  // Refresh and destroy configure the provider from the configuration the last update saved, not from
  // the stack's current one: a token fixed in config since then reaches them only with --run-program.
  const rerun = command === "pulumi up" ? command : `${command} --run-program`;
  const useOwner = `Give this resource a token of ${owner.organization} (its ${spellProperty("connection")} input, or service:token) and run \`${rerun}\``;
  if (current !== undefined) {
    throw new LifecycleError(
      "foreign_credentials",
      `Cannot tell that ${subject} is gone: it belongs to organization ${owner.organization}, but the credentials in use now belong to ${current}, which cannot see it. It may still be active in ${owner.organization}. ${useOwner}.`,
    );
  }
  throw new LifecycleError(
    "credentials_unverified",
    `Cannot tell that ${subject} is gone: the credentials in use now are not those it was created with, and they list no webhook or domain, so they may belong to another organization than ${owner.organization}. ${useOwner}. If you know it is gone, remove it from the stack with \`pulumi state delete <urn>\`.`,
  );
}
